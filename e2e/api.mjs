// The JS API alone on a page (e2e/fixtures/api.html: the wasm-bindgen module as a
// documentation site's script loads it), for the tests that call it directly.
// (Not a test file.)

import { newLoggedPage } from './browser.mjs';
import { READY_MS } from './helpers.mjs';

/** A page with the JS API loaded (window.api: the wasm module, or `fixture`'s); every device it opens is kept in window.devices. */
export async function openApi(browser, server, fixture = 'e2e/fixtures/api.html') {
  const { page, log } = await newLoggedPage(browser);
  page.setDefaultTimeout(READY_MS);
  await page.addInitScript(() => {
    window.devices = [];
    const request = GPUAdapter.prototype.requestDevice;
    GPUAdapter.prototype.requestDevice = async function (...args) {
      const device = await request.apply(this, args);
      window.devices.push(device);
      return device;
    };
  });
  await page.goto(server.url + fixture);
  await page.waitForFunction(() => window.apiReady === true);
  return { page, log };
}

/** The log lines that say the wasm trapped or panicked, or that something went uncaught. */
export const traps = (log) => log.filter((l) => /RuntimeError|unreachable|panicked|pageerror/.test(l));
