// Reflow and paper. At 320 CSS px wide (WCAG 1.4.10) the host page never
// scrolls sideways, at any array size (the stepper's block chooser appears
// past 256 flags; past MAX_CELLS the strip replaces the cells). Printed, the
// full page fits in three A4 pages, black on white in either theme: the flags
// (a visible one bold in a heavy frame), the result and the step shown, no
// controls. Firefox's reflow is in e2e/firefox.test.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { READY_MS, TEST_TIMEOUT, ready } from './helpers.mjs';
import { REFLOW_PAGES, sideways } from './a11y.mjs';

const ctx = useBrowser({ site: true });

test('320 px wide: the host page never scrolls sideways, at any array size', { timeout: TEST_TIMEOUT * 2 }, async () => {
  for (const url of REFLOW_PAGES) {
    const page = await ctx.browser.newPage({ viewport: { width: 320, height: 640 } });
    page.setDefaultTimeout(READY_MS);
    try {
      await page.goto(ctx.site.assetsUrl + url);
      await ready(page);
      const forward = await page.$('[data-testid="step-forward"]');
      if (forward && (await forward.isVisible())) await forward.click();
      assert.deepEqual(await page.evaluate(sideways), { by: 0, boxes: [] }, url);
    } finally {
      await page.close();
    }
  }
});

for (const colorScheme of ['light', 'dark']) {
  test(`printed (${colorScheme} theme): at most 3 A4 pages, flags black on white, the result and the step, no controls`, { timeout: TEST_TIMEOUT }, async () => {
    const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme });
    page.setDefaultTimeout(READY_MS);
    try {
      await page.goto(`${ctx.site.assetsUrl}index.html#flags=1001101001&method=scan`);
      await ready(page);
      await page.click('[data-testid="step-forward"]');
      await page.emulateMedia({ media: 'print', colorScheme });
      const pdf = await page.pdf({ format: 'A4' });
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      assert.ok(pages >= 1 && pages <= 3, `${pages} A4 pages`);
      const paper = await page.evaluate(() => {
        const root = document.querySelector('compaction-playground').shadowRoot;
        const shown = (sel) => [...root.querySelectorAll(sel)].filter((e) => e.checkVisibility()).length;
        const flags = [...root.querySelectorAll('[data-testid="flag-cell"]')].map((e) => {
          const cs = getComputedStyle(e);
          return { value: e.dataset.value, color: cs.color, weight: Number(cs.fontWeight), border: parseFloat(cs.borderTopWidth) };
        });
        return {
          flags,
          results: shown('[data-testid="result-item"]'),
          step: root.querySelector('[data-testid="step-title"]')?.checkVisibility() ? root.querySelector('[data-testid="step-title"]').textContent : null,
          diagram: shown('[data-testid="diagram"] [data-testid="cell"]'),
          controls: shown('button:not(.flag), input, select, textarea'),
        };
      });
      assert.equal(paper.flags.length, 10);
      for (const f of paper.flags) {
        assert.equal(f.color, 'rgb(0, 0, 0)', `flag ${f.value} printed in black`);
        if (f.value === '1') assert.ok(f.weight >= 700 && f.border >= 2, `a visible flag stands out: ${JSON.stringify(f)}`);
        else assert.ok(f.border < 2, 'an unset flag has a light frame');
      }
      assert.equal(paper.results, 5, 'the dense list, printed');
      assert.match(paper.step ?? '', /1 of/, 'the step shown, printed');
      assert.ok(paper.diagram > 0);
      assert.equal(paper.controls, 0, 'no controls on paper');
    } finally {
      await page.close();
    }
  });
}
