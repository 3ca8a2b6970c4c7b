// Helpers for the browser tests (this file is not a test itself: the test
// runner only picks up *.test.mjs files).
//
// Playwright's own browser download does not work on these machines, so the
// tests drive Debian's Chromium (/usr/bin/chromium, package `chromium`) through
// playwright-core. WebGPU comes from Chromium's software Vulkan (SwiftShader),
// so no GPU or display is needed.

import { chromium } from 'playwright-core';

export { startServer, REPO_ROOT } from '../scripts/serve.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Quiet, self-contained browser: no network chatter, no first-run UI.
const COMMON_ARGS = [
  '--no-sandbox', // CI runs as root, where Chromium's sandbox refuses to start
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

// WebGPU in headless Chromium on a machine without a GPU: Dawn on Vulkan
// through SwiftShader (Chromium's bundled CPU Vulkan), verified with Debian
// Chromium 156 headless: requestAdapter() gives vendor "google", architecture
// "swiftshader", and a compute shader runs correctly.
//   --enable-unsafe-webgpu        the one flag that matters: Linux is not on
//                                 Chromium's WebGPU allow-list, so without it
//                                 requestAdapter() resolves to null;
//   --use-webgpu-adapter=swiftshader, --enable-unsafe-swiftshader
//                                 pick SwiftShader explicitly and allow it even
//                                 on a machine that has a real GPU.
// (`--disable-gpu` alone does not stop WebGPU, but do not add it here anyway.)
export const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader'];

// No WebGPU at all: with no GPU process and no software fallback there is no
// adapter, even if someone adds --enable-unsafe-webgpu. Verified with Debian
// Chromium 156: `navigator.gpu` is still an object (Chromium exposes the API
// unconditionally in secure contexts; --disable-features=WebGPU and
// --disable-blink-features=WebGPU do not remove it) but
// `await navigator.gpu.requestAdapter()` resolves to null.
// To simulate a browser without the API itself, use
// newLoggedPage(browser, { removeNavigatorGpu: true }).
export const NO_WEBGPU_ARGS = ['--disable-gpu', '--disable-software-rasterizer'];

/** What a page sees in a browser from launchBrowser({ webgpu: false }). */
export const NO_WEBGPU_BEHAVIOUR = 'navigator.gpu is an object, navigator.gpu.requestAdapter() resolves to null';

/**
 * Launch headless Debian Chromium.
 * Playwright gives every launch() a fresh temporary profile (user-data-dir) and
 * deletes it on close(), so tests never share state.
 * @param {{webgpu?: boolean, headless?: boolean, args?: string[]}} [options]
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchBrowser({ webgpu = true, headless = true, args = [] } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless,
    args: [...COMMON_ARGS, ...(webgpu ? WEBGPU_ARGS : NO_WEBGPU_ARGS), ...args],
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
}

/**
 * Open a page and collect its console messages and uncaught errors, which
 * makes failing browser tests much easier to read.
 * With removeNavigatorGpu, the page sees `navigator.gpu === undefined` and
 * `'gpu' in navigator === false` (a browser without the WebGPU API).
 * @param {import('playwright-core').Browser} browser
 * `initScript` runs in the page before any of its scripts: what it patches, the
 * wasm's boundary captures as the page's own (it captures built-ins when it loads).
 * @param {import('playwright-core').Browser} browser
 * @param {{removeNavigatorGpu?: boolean, initScript?: () => void}} [options]
 * @returns {Promise<{page: import('playwright-core').Page, log: string[]}>}
 */
export async function newLoggedPage(browser, { removeNavigatorGpu = false, initScript = null } = {}) {
  const page = await browser.newPage();
  if (initScript) await page.addInitScript(initScript);
  if (removeNavigatorGpu) {
    await page.addInitScript(() => {
      delete Navigator.prototype.gpu;
    });
  }
  const log = [];
  page.on('console', (msg) => log.push(`[console.${msg.type()}] ${msg.text()}`));
  page.on('pageerror', (err) => log.push(`[pageerror] ${err.message}`));
  return { page, log };
}
