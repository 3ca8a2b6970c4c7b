// What reserve() promises against what each panel takes, at every width a
// reader's page gives it: one element per panel in the host theme of
// e2e/fixtures/host (Georgia, a wide serif, 25 % larger root), its width swept
// from a phone's 18 em to 82 em in half-em steps, each card's own height
// (without the reservation's min-height) at most what reserve() gives it.
// With RESERVE_TABLE=1 it prints each panel's heights at SAMPLE_WIDTHS as
// www/core/panels.js takes them: the least heights whose straight lines
// (what reserve() draws between samples) stay above what was measured.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { newLoggedPage } from './browser.mjs';
import { READY_MS, TEST_TIMEOUT, ready, idle } from './helpers.mjs';
import { useBrowser } from './fixture.mjs';
import { reserve, SAMPLE_WIDTHS } from '../www/loader/reserve.js';
import { PANELS, COURSE, COURSE_KERNEL } from '../www/core/panels.js';

const ctx = useBrowser({ site: true });

const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'">`;
const LOADER = '<script type="module" src="../assets/playground/compaction-playground.js"></script>';
const FROM = 18;
const TO = 82;

/** The element for `panel` alone (the course comes with its kernel panel, by its attribute). */
function element(panel) {
  const method = panel === 'tiles' ? 'lookback' : 'scan';
  const attrs = panel === COURSE ? `panels="${COURSE_KERNEL}" course="reserve-content"` : `panels="${panel}"`;
  return `<compaction-playground id="r" flags="1001101001" method="${method}" ${attrs}></compaction-playground>`;
}

/** Each card's own height (em) at each width (em) from FROM to TO, the element `panel` shows once it has settled. */
async function sweep(panel) {
  await ctx.site.write(
    `docs/guide/content-${panel}.html`,
    `<!doctype html><html lang="en" data-theme="light"><head><meta charset="utf-8">${CSP}<title>${panel}</title><link rel="stylesheet" href="../theme.css">${LOADER}</head><body><main class="content" style="max-width: none">${element(panel)}</main></body></html>`,
  );
  const { page } = await newLoggedPage(ctx.browser);
  page.setDefaultTimeout(READY_MS);
  await page.setViewportSize({ width: 1800, height: 1000 });
  try {
    await page.goto(ctx.site.url(`guide/content-${panel}.html`));
    await ready(page);
    if (panel === 'order') await page.waitForSelector('#r >> [data-testid="order-row"]');
    await idle(page);
    return await page.$eval(
      '#r',
      (e, [panel, from, to]) => {
        const em = parseFloat(getComputedStyle(e).fontSize);
        const card = /** @type {HTMLElement} */ (e.shadowRoot.querySelector(`[data-panel="${panel}"]`));
        card.style.minHeight = '0';
        const out = [];
        for (let w = from; w <= to; w += 0.5) {
          e.style.width = `${w}em`;
          out.push([w, card.getBoundingClientRect().height / em]);
        }
        return out;
      },
      [panel, FROM, TO],
    );
  } finally {
    await page.close();
  }
}

/** The card's height at `w` em: each measured half em's holds to the next. */
function natural(rows, w) {
  let h = rows[0][1];
  for (const [at, height] of rows) if (at <= w) h = height;
  return h;
}

/**
 * Heights at SAMPLE_WIDTHS whose straight lines (reserve()'s heightAt) stay
 * above the measured steps: each sample its own height, then both ends of an
 * interval lifted by the most the line there falls short of a step (checked at
 * each step's wide end, where a falling line is lowest).
 */
function envelope(rows) {
  const w = SAMPLE_WIDTHS;
  const v = w.map((x) => natural(rows, x));
  const lift = w.map(() => 0);
  // Wider than the first sample reserve() holds its height: it must cover what is wider too.
  lift[0] = Math.max(0, ...rows.filter(([x]) => x >= w[0]).map(([, h]) => h - v[0]));
  for (let k = 0; k + 1 < w.length; k++) {
    const [b, a] = [w[k], w[k + 1]];
    const line = (x) => v[k + 1] + ((v[k] - v[k + 1]) * (x - a)) / (b - a);
    let short = 0;
    for (const [x, h] of rows) if (x >= a && x < b) short = Math.max(short, h - line(Math.min(b, x + 0.5)));
    lift[k] = Math.max(lift[k], short);
    lift[k + 1] = Math.max(lift[k + 1], short);
  }
  return v.map((h, k) => h + lift[k]);
}

const table = {};
for (const panel of PANELS) {
  test(`${panel}: reserve() covers the card at every width from ${FROM} to ${TO} em, in a serif host theme`, { timeout: TEST_TIMEOUT }, async () => {
    const rows = await sweep(panel);
    const method = panel === 'tiles' ? 'lookback' : 'scan';
    const short = [];
    for (const [w, h] of rows) {
      const card = reserve(new Set([panel]), { widthEm: w, method, status: false }).cards.find((c) => c.panel === panel);
      assert.ok(Number.isFinite(card.em), `${panel} at ${w} em: reserve() gives ${card.em}`);
      if (h > card.em + 0.05) short.push(`${w} em: ${h.toFixed(2)} em of content, ${card.em} reserved`);
    }
    table[panel] = envelope(rows).map((h) => Math.ceil(h * 10 - 1e-9) / 10);
    if (process.env.RESERVE_TABLE && panel !== 'editor') console.log(`${panel}: heights: [${table[panel].join(', ')}]`);
    assert.deepEqual(short, [], `${panel}: the reservation falls short`);
  });
}

test('kernel: the verdict of a failing Check, its smallest case and the costs of a passing one fit the room held for them', { timeout: TEST_TIMEOUT }, async () => {
  await ctx.site.write(
    'docs/guide/content-verdict.html',
    `<!doctype html><html lang="en" data-theme="light"><head><meta charset="utf-8">${CSP}<title>verdict</title><link rel="stylesheet" href="../theme.css">${LOADER}</head><body><main class="content">${element('kernel')}<p>What follows the element on the host's page.</p></main></body></html>`,
  );
  const { page } = await newLoggedPage(ctx.browser);
  page.setDefaultTimeout(READY_MS);
  await page.setViewportSize({ width: 1100, height: 900 });
  try {
    await page.goto(ctx.site.url('guide/content-verdict.html'));
    await ready(page);
    await idle(page);
    const height = () => page.$eval('#r', (e) => e.getBoundingClientRect().height);
    const before = await height();
    const passed = await page.$eval('#r', (e) => e.check().then((r) => r.verdict));
    const afterPass = await height();
    // The atomic counter with its atomicAdd made a load: every invocation writes slot 0.
    await page.$eval('#r', (e) => {
      e.kernelSource = e.kernelSource.replace(/atomicAdd\(([^,]+), 1u\)/, 'atomicLoad($1)');
    });
    const failed = await page.$eval('#r', (e) => e.check().then((r) => r.verdict));
    const afterFail = await height();
    assert.deepEqual([passed, failed], ['passed', 'failed']);
    assert.deepEqual([afterPass, afterFail], [before, before], `the element was ${before} px tall, then ${afterPass} and ${afterFail}`);
  } finally {
    await page.close();
  }
});
