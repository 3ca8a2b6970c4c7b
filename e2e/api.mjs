// The JS API alone on a page (e2e/fixtures/api.html: the wasm-bindgen module as a
// documentation site's script loads it), for the tests that call it directly.
// (Not a test file.)

import { newLoggedPage } from './browser.mjs';
import { READY_MS } from './helpers.mjs';

/** A page with the JS API loaded (window.api: the wasm module, or `fixture`'s); every device it opens is kept in window.devices, its live GPU buffers counted in window.gpuBuffers. */
export async function openApi(browser, server, fixture = 'e2e/fixtures/api.html') {
  const { page, log } = await newLoggedPage(browser);
  page.setDefaultTimeout(READY_MS);
  await page.addInitScript(() => {
    // Every GPU buffer made and neither destroyed nor collected (a soak's figure): wgpu's
    // WebGPU backend never calls destroy() on drop, so a dropped buffer lives until the JS GC.
    window.gpuBuffers = { live: 0, bytes: 0, destroyed: 0, collected: 0 };
    const gone = (size, how) => {
      window.gpuBuffers.live--;
      window.gpuBuffers.bytes -= size;
      window.gpuBuffers[how]++;
    };
    const collected = new FinalizationRegistry((cell) => {
      if (cell.live) gone(cell.size, 'collected');
    });
    const createBuffer = GPUDevice.prototype.createBuffer;
    GPUDevice.prototype.createBuffer = function (descriptor) {
      const buffer = createBuffer.call(this, descriptor);
      const cell = { size: Number(descriptor.size), live: true };
      window.gpuBuffers.live++;
      window.gpuBuffers.bytes += cell.size;
      collected.register(buffer, cell);
      const destroy = buffer.destroy;
      buffer.destroy = function () {
        if (cell.live) {
          cell.live = false;
          gone(cell.size, 'destroyed');
        }
        return destroy.call(this);
      };
      return buffer;
    };
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
