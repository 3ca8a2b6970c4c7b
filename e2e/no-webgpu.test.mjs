// Without WebGPU the page says which case it is and still lets the visitor edit
// and step, on the CPU reference. Also: the embeddable <compaction-playground>.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { compact, scanLevels, fnv1a } from './oracle.mjs';
import { TEST_TIMEOUT, openPlayground, idle, results, flagCells, stepLabel, scrubTo, rowValues, pageErrors, inShadow } from './helpers.mjs';

const ARTICLE = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1];

const ctx = useBrowser({ server: { allow: ['e2e/fixtures/'] }, webgpu: false });

async function assertCpuReference(page, reason, pattern) {
  const fallback = await page.$eval('[data-testid="fallback-reason"]', (e) => ({ hidden: e.hidden, reason: e.dataset.reason, text: e.textContent }));
  assert.equal(fallback.hidden, false);
  assert.equal(fallback.reason, reason);
  assert.match(fallback.text, pattern);
  const backend = await page.$eval('[data-testid="backend"]', (e) => ({ kind: e.dataset.backend, text: e.textContent }));
  assert.equal(backend.kind, 'cpu');
  assert.match(backend.text, /CPU reference/);
  assert.match(await page.$eval('.stepper-card h2', (e) => getComputedStyle(e, '::after').content), /CPU reference/);
  assert.equal(await page.isVisible('[data-testid="draw-canvas"]'), false, 'nothing is drawn without a GPU');
}

test('no adapter: the page says so, compacts on the CPU reference and still steps and edits', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await assertCpuReference(page, 'no-adapter', /no adapter/);
    const r = await results(page);
    assert.equal(r.backend, 'cpu');
    assert.deepEqual(r.indices, [0, 3, 4, 6, 9]);
    assert.equal(r.instanceCount, 5);
    assert.equal(r.hash, fnv1a([0, 3, 4, 6, 9]));

    // Stepping works from the CPU mirror's trace.
    const levels = scanLevels(ARTICLE);
    const label = await scrubTo(page, 5);
    assert.equal(label.offset, 8);
    assert.deepEqual(await rowValues(page, 'after'), Object.fromEntries(levels[0].steps[4].map((v, i) => [i, v])));
    await page.focus('[data-testid="step-play"]'); // keys work while focus is inside the element
    await page.keyboard.press('ArrowRight');
    assert.equal((await stepLabel(page)).step, 6);

    // Editing works: flag 2 on.
    await page.click('[data-testid="flag-cell"][data-index="2"]');
    await idle(page);
    const flags = ARTICLE.slice();
    flags[2] = 1;
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      flags,
    );
    assert.deepEqual((await results(page)).indices, compact(flags));
    assert.equal((await stepLabel(page)).step, 6, 'the step survives an edit');
    assert.deepEqual(await rowValues(page, 'after'), Object.fromEntries(scanLevels(flags)[0].steps[5].map((v, i) => [i, v])));
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('no navigator.gpu: the page says so and runs the CPU reference', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url, '#flags=b4.CQ&method=atomic&step=3', { removeNavigatorGpu: true });
  try {
    await assertCpuReference(page, 'no-webgpu', /navigator\.gpu is missing/);
    // The link's state still applies: flags 1001, atomic, step 3.
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      [1, 0, 0, 1],
    );
    const r = await results(page);
    assert.equal(r.method, 'atomic');
    assert.deepEqual(
      [...r.indices].sort((a, b) => a - b),
      [0, 3],
    );
    assert.equal((await stepLabel(page)).step, 3);
    await page.fill('[data-testid="repeat-count"]', '2');
    await page.click('[data-testid="repeat-run"]');
    await idle(page);
    assert.match(await page.$eval('[data-testid="verdict-why"]', (e) => e.textContent), /CPU reference runs the invocations one after another/);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('<compaction-playground> embeds in another page with its own flags and method, leaving the URL alone', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, `${ctx.server.url}e2e/fixtures/embed.html`);
  try {
    const r = await results(page);
    assert.equal(r.method, 'atomic');
    assert.deepEqual(
      [...r.indices].sort((a, b) => a - b),
      [0, 2, 4],
    );
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      [1, 0, 2, 0, 1],
    );
    assert.equal(await page.evaluate(() => location.hash), '');
    // Its styles live in its shadow root, as constructable sheets: nothing was added to the host's <head>, no <link> anywhere.
    assert.equal(await page.evaluate(() => document.head.querySelectorAll('link, style').length), 0);
    const shadow = await page.evaluate(() => {
      const root = document.querySelector('compaction-playground').shadowRoot;
      return { adopted: root.adoptedStyleSheets.length, links: root.querySelectorAll('link, style').length, page: document.adoptedStyleSheets.length };
    });
    assert.ok(shadow.adopted >= 3, `adopted sheets: ${shadow.adopted}`);
    assert.deepEqual([shadow.links, shadow.page], [0, 0]);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('no adapter: the sentence is the page’s; what the browser said is kept apart, folded', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const fallback = await inShadow(page, (root) => ({
      text: root.querySelector('[data-testid="fallback-text"]').textContent,
      detail: root.querySelector('[data-testid="fallback-detail"]').textContent,
      open: root.querySelector('.fallback-details').open,
      hidden: root.querySelector('.fallback-details').hidden,
    }));
    assert.match(fallback.text, /found no adapter/);
    assert.doesNotMatch(fallback.text, /noop|not requested|RequestAdapter|wgpu/i);
    if (fallback.detail) {
      assert.equal(fallback.open, false);
      assert.equal(fallback.hidden, false);
      assert.ok(!fallback.text.includes(fallback.detail));
    }
  } finally {
    await page.close();
  }
});
