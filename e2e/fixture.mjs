// One set-up for every browser test file: `useBrowser()` registers the file's
// before/after hooks and returns the handles they fill: a headless Chromium
// (WebGPU on SwiftShader, or none), and where asked a server of the
// repository (`server`), a docs site of dist/ (`site`, e2e/site.mjs) or a
// second browser without WebGPU (`cpuBrowser`), then the file's own `setUp`
// (in the same hook: Node 20 does not wait for one root hook before the
// next). Each file has its own, so that files run side by side. (Not a test
// file.)

import { before, after } from 'node:test';

import { launchBrowser, startServer } from './browser.mjs';
import { startSite } from './site.mjs';

/**
 * @typedef {{
 *   browser: import('playwright-core').Browser,
 *   cpuBrowser: import('playwright-core').Browser | null,
 *   server: Awaited<ReturnType<typeof startServer>> | null,
 *   site: Awaited<ReturnType<typeof startSite>> | null,
 * }} Fixture
 */

/**
 * @param {{ webgpu?: boolean, server?: { allow?: string[], root?: string } | boolean, site?: boolean, cpuBrowser?: boolean,
 *   setUp?: (fixture: Fixture) => Promise<void> }} [options]
 * @returns {Fixture}
 */
export function useBrowser({ webgpu = true, server = false, site = false, cpuBrowser = false, setUp } = {}) {
  /** @type {Fixture} */
  const f = { browser: /** @type {any} */ (null), cpuBrowser: null, server: null, site: null };
  before(async () => {
    if (server) f.server = await startServer({ port: 0, ...(server === true ? {} : server) });
    if (site) f.site = await startSite();
    f.browser = await launchBrowser({ webgpu });
    if (cpuBrowser) f.cpuBrowser = await launchBrowser({ webgpu: false });
    await setUp?.(f);
  });
  after(async () => {
    await f.browser?.close();
    await f.cpuBrowser?.close();
    await f.site?.close();
    if (f.server) {
      f.server.server.closeAllConnections();
      await new Promise((resolve) => f.server?.server.close(resolve));
    }
  });
  return f;
}
