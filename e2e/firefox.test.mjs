// A second browser engine: Debian's Firefox ESR driven by puppeteer-core over
// WebDriver BiDi, on the full page, embed.html and a host with two elements.
// With its defaults Firefox has no `navigator.gpu`: the page says so and the
// CPU reference gives the right result. With dom.webgpu.enabled and
// gfx.webgpu.ignore-blocklist it gets a software adapter: the kernels run on
// the GPU, right, and the drawIndirect figure is drawn. No console error from
// the product either way, and no sideways scroll at 320 px.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';

import { READY_MS, TEST_TIMEOUT } from './helpers.mjs';
import { startSite } from './site.mjs';
import { compact } from './oracle.mjs';
import { REFLOW_PAGES, sideways, twoElementHost } from './a11y.mjs';
import { reserveSheetPage, measureElements, assertReserved } from './reserve-sheet.mjs';

export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
const WEBGPU_PREFS = { 'dom.webgpu.enabled': true, 'gfx.webgpu.ignore-blocklist': true };

let site;
let twoUrl;

before(async () => {
  site = await startSite();
  twoUrl = await twoElementHost(site);
});

after(async () => {
  await site?.close();
});

/** Firefox, headless, with a fresh profile; WebGPU only when asked. */
function launchFirefox({ webgpu }) {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    protocol: 'webDriverBiDi',
    extraPrefsFirefox: webgpu ? WEBGPU_PREFS : {},
  });
}

/** Opens `url` and waits until every playground has started and gone idle; collects console errors and uncaught ones. */
async function open(browser, url, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.setViewport(viewport);
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const all = [...document.querySelectorAll('compaction-playground')];
      return all.length > 0 && all.every((e) => e.isReady && e.busy === false);
    },
    { timeout: READY_MS },
  );
  return { page, errors };
}

/** What every playground of the page shows: backend, the dense list, the fallback notice, the draw figure. */
function shown(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('compaction-playground')].map((host) => {
      const root = host.shadowRoot;
      const q = (id) => root.querySelector(`[data-testid="${id}"]`);
      const fallback = root.querySelector('.fallback');
      const canvas = q('draw-canvas');
      return {
        flags: [...root.querySelectorAll('[data-testid="flag-cell"]')].map((e) => Number(e.dataset.value)),
        backend: q('backend')?.dataset.backend ?? null,
        indices: [...root.querySelectorAll('[data-testid="result-item"]')].map((e) => Number(e.textContent)),
        notice: fallback?.checkVisibility() ? fallback.textContent : '',
        draw: canvas?.checkVisibility() ? { mode: canvas.dataset.mode, caption: q('draw-caption')?.textContent ?? '' } : null,
      };
    }),
  );
}

const PAGES = {
  'the full page': () => `${site.assetsUrl}index.html#flags=1001101001&method=scan`,
  'embed.html': () => `${site.assetsUrl}embed.html#flags=1001101001&method=scan&panels=editor,result,draw,scan`,
  'a host with two elements': () => twoUrl,
};

for (const webgpu of [false, true]) {
  test(`Firefox ${webgpu ? 'with the WebGPU prefs: on the GPU, the drawIndirect figure' : 'with its defaults: no WebGPU, the notice and the CPU reference'}`, {
    timeout: TEST_TIMEOUT * 2,
  }, async () => {
    const browser = await launchFirefox({ webgpu });
    try {
      for (const [name, url] of Object.entries(PAGES)) {
        const { page, errors } = await open(browser, url());
        try {
          const all = await shown(page);
          assert.ok(all.length >= 1, name);
          for (const [k, p] of all.entries()) {
            const where = `${name}, playground ${k + 1}`;
            assert.ok(p.flags.length > 0, `${where}: flags shown`);
            assert.deepEqual(p.indices, compact(p.flags), `${where}: the dense list`);
            if (webgpu) {
              assert.equal(p.backend, 'gpu', `${where}: ran on the GPU`);
              assert.equal(p.notice, '', `${where}: no notice`);
            } else {
              assert.equal(p.backend, 'cpu', `${where}: the CPU reference`);
            }
          }
          // Without WebGPU the page says why once, however many playgrounds it has.
          if (!webgpu) {
            const notices = all.filter((p) => p.notice);
            assert.equal(notices.length, 1, `${name}: one notice`);
            assert.match(notices[0].notice, /WebGPU/, `${name}: the page says why`);
          }
          const drawn = all.filter((p) => p.draw);
          if (webgpu && name !== 'a host with two elements') {
            assert.equal(drawn.length, 1, `${name}: the drawIndirect figure`);
            assert.match(drawn[0].draw.caption, /instanceCount = 5/);
          }
          if (!webgpu) assert.deepEqual(drawn, [], `${name}: nothing drawn without a GPU`);
          assert.deepEqual(errors, [], `${name}: console errors`);
        } finally {
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  });
}

test('Firefox at 320 px wide: the host page never scrolls sideways, at any array size', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const browser = await launchFirefox({ webgpu: true });
  try {
    for (const url of REFLOW_PAGES) {
      const { page } = await open(browser, site.assetsUrl + url, { width: 320, height: 640 });
      try {
        const forward = await page.$('pierce/[data-testid="step-forward"]');
        if (forward && (await forward.isVisible())) await forward.click();
        assert.deepEqual(await page.evaluate(sideways), { by: 0, boxes: [] }, url);
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
});

test("Firefox: compaction-playground-reserve.css alone gives what reserve() gives for each element's own width", { timeout: TEST_TIMEOUT }, async () => {
  const url = await reserveSheetPage(site);
  const browser = await launchFirefox({ webgpu: false });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1600, height: 800 });
    await page.goto(url);
    assertReserved(await page.evaluate(measureElements), 'Firefox');
  } finally {
    await browser.close();
  }
});
