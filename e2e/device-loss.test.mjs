// Device recovery without races: SwiftShader passed off as
// a hardware adapter makes the page draw to a WebGPU canvas, and headless
// Chromium loses the device on the first present. Every load must end on the
// GPU again, drawing offscreen ("image" mode), never stuck on the CPU with
// "Starting WebGPU…"; 20 loads.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { READY_MS, TEST_TIMEOUT } from './helpers.mjs';
import { compact } from './oracle.mjs';

const LOADS = 20;

const ctx = useBrowser({ site: true });

test(`a device lost on the first present ends on the GPU again, drawing offscreen: ${LOADS} loads`, { timeout: TEST_TIMEOUT * 4 }, async () => {
  const outcomes = [];
  for (let load = 0; load < LOADS; load++) {
    const page = await ctx.browser.newPage({ viewport: { width: 1100, height: 800 } });
    page.setDefaultTimeout(READY_MS);
    try {
      await page.addInitScript(() => {
        // What a hardware adapter reports: not the fallback adapter, no software name.
        Object.defineProperty(GPUAdapterInfo.prototype, 'isFallbackAdapter', { get: () => false, configurable: true });
        Object.defineProperty(GPUAdapterInfo.prototype, 'description', { get: () => 'A hardware GPU (test)', configurable: true });
      });
      await page.goto(`${ctx.site.assetsUrl}index.html#flags=1001101001&method=scan`);
      await page.waitForFunction(
        () => {
          const el = document.querySelector('compaction-playground');
          const canvas = el?.shadowRoot?.querySelector('[data-testid="draw-canvas"]');
          return el?.isReady && !el.busy && el.backend === 'gpu' && canvas?.dataset.mode === 'image';
        },
        null,
        { timeout: 90_000 },
      );
      const got = await page.evaluate(() => {
        const root = document.querySelector('compaction-playground').shadowRoot;
        return {
          indices: [...root.querySelectorAll('[data-testid="result-item"]')].map((e) => Number(e.textContent)),
          caption: root.querySelector('[data-testid="draw-caption"]')?.textContent ?? '',
          status: root.querySelector('[data-testid="backend"]')?.textContent ?? '',
        };
      });
      assert.deepEqual(got.indices, compact([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]), `load ${load}`);
      assert.match(got.caption, /instanceCount = 5/, `load ${load}`);
      outcomes.push('gpu');
    } catch (e) {
      const status = await page.evaluate(() => document.querySelector('compaction-playground')?.shadowRoot?.querySelector('[data-testid="backend"]')?.textContent).catch(() => '?');
      outcomes.push(`load ${load}: ${status}: ${e.message.split('\n')[0]}`);
    } finally {
      await page.close();
    }
  }
  assert.deepEqual(
    outcomes.filter((o) => o !== 'gpu'),
    [],
  );
});
