// Page helpers shared by the playground's browser tests: open the page and wait
// until it is idle, read what it shows (result list, counts, stepper cells),
// and drive the stepper. (Not a test file.) The playground lives in the open
// shadow root of <compaction-playground>: Playwright's CSS selectors pierce it,
// page.evaluate() code goes through `shadowRoot`.

import { newLoggedPage } from './browser.mjs';

/** SwiftShader compiles every pipeline on the CPU, on 2 shared cores: be patient. */
export const READY_MS = 120_000;
export const TEST_TIMEOUT = 300_000;

/** Opens the page (with `hash`) and waits until it has compacted and gone idle. */
export async function openPlayground(browser, url, hash = '', options = {}) {
  const { page, log } = await newLoggedPage(browser, options);
  page.setDefaultTimeout(READY_MS);
  await page.setViewportSize(options.viewport ?? { width: 1280, height: 900 });
  await page.goto(url + hash);
  await ready(page);
  return { page, log };
}

/** Waits until every playground of the page has started (on the GPU or the CPU) and gone idle. */
export async function ready(page) {
  await page.waitForFunction(() => {
    const all = [...document.querySelectorAll('compaction-playground')];
    return all.length > 0 && all.every((e) => e.isReady && e.busy === false);
  });
}

/** Waits until no work is queued or running in any playground of the page. */
export async function idle(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('compaction-playground')].every((e) => e.busy === false));
}

/**
 * `location.hash` once it matches `pattern`: the element writes the hash a task
 * after the change that caused it, so a read right after `idle` can see the
 * one before. On a timeout it returns the hash as it is, for the caller's assert.
 */
export async function hashMatching(page, pattern, timeout = 10_000) {
  await page.waitForFunction((source) => new RegExp(source).test(location.hash), pattern.source, { timeout }).catch(() => null);
  return page.evaluate(() => location.hash);
}

export async function resultIndices(page) {
  return page.$$eval('[data-testid="result-item"]', (els) => els.map((e) => Number(e.textContent)));
}

/** What the result panel of the playground `which` (a selector; default the first) shows. */
export async function results(page, which = 'compaction-playground') {
  return page.evaluate((which) => {
    const root = document.querySelector(which).shadowRoot;
    const q = (id) => root.querySelector(`[data-testid="${id}"]`);
    const list = q('result-list');
    return {
      indices: [...root.querySelectorAll('[data-testid="result-item"]')].map((e) => Number(e.textContent)),
      method: list.dataset.method,
      backend: list.dataset.backend,
      listed: Number(list.dataset.count),
      count: Number(q('count').dataset.value),
      instanceCount: Number(q('instance-count').dataset.value),
      hash: Number(q('hash').dataset.value),
    };
  }, which);
}

/** Types `text` into the flags box and applies it. */
export async function typeFlags(page, text) {
  await page.fill('[data-testid="flag-text"]', text);
  await page.click('[data-testid="flag-text-apply"]');
  await idle(page);
}

export async function flagCells(page) {
  return page.$$eval('[data-testid="flag-cell"]', (els) => els.map((e) => ({ index: Number(e.dataset.index), value: Number(e.dataset.value), pressed: e.getAttribute('aria-pressed') })));
}

export async function stepLabel(page) {
  return page.$eval('[data-testid="step-label"]', (e) => ({
    text: e.textContent,
    step: Number(e.dataset.step),
    steps: Number(e.dataset.steps),
    kind: e.dataset.kind,
    level: Number(e.dataset.level),
    offset: e.dataset.offset ? Number(e.dataset.offset) : null,
  }));
}

/** Moves the scrubber to step k (1-based), as a visitor dragging it would. */
export async function scrubTo(page, k) {
  await page.$eval(
    '[data-testid="scrubber"]',
    (el, value) => {
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    k,
  );
  const label = await stepLabel(page);
  if (label.step !== k) throw new Error(`scrubbed to ${k} but the label says ${label.text}`);
  return label;
}

/** The values shown in a stepper row: `{ [i]: value }` keyed by the cell's index. */
export async function rowValues(page, row) {
  return page.$$eval(`[data-testid="diagram"] [data-testid="cell"][data-row="${row}"]`, (els) => Object.fromEntries(els.map((e) => [Number(e.dataset.i), Number(e.dataset.value)])));
}

/** The page's uncaught errors (console.error from a 404 favicon etc. are not). */
export function pageErrors(log) {
  return log.filter((line) => line.startsWith('[pageerror]'));
}

/** Runs `fn(root, arg)` in the page on the first playground's shadow root. */
export const inShadow = (page, fn, arg) =>
  page.evaluate(([source, a]) => new Function('root', 'arg', `return (${source})(root, arg)`)(document.querySelector('compaction-playground').shadowRoot, a), [fn.toString(), arg]);

/** Makes the flags from preset `name` of `n` in the editor, and waits until they are compacted. */
export async function applyPreset(page, name, n) {
  await page.fill('[data-testid="size"]', String(n));
  await page.click(`[data-testid="preset-${name}"]`);
  await idle(page);
}

/** `n` flags of preset `name` (random or clustered) at `density` and `seed`: those two are enabled once such a preset shows. */
export async function tunedPreset(page, name, n, density, seed) {
  await applyPreset(page, name, n);
  await page.fill('[data-testid="density"]', String(density));
  await page.fill('[data-testid="seed"]', String(seed));
  await page.click(`[data-testid="preset-${name}"]`);
  await idle(page);
}
