// The playground in headless Chromium with WebGPU on SwiftShader: every value
// the page shows is checked against an independent JavaScript computation
// (e2e/oracle.mjs), never against the page's own code.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { newLoggedPage } from './browser.mjs';
import { compact, exclusiveScan, fnv1a, scanLevels, testFlags, randomFlags, BLOCK } from './oracle.mjs';
import { TEST_TIMEOUT, openPlayground, idle, ready, results, typeFlags, flagCells, stepLabel, scrubTo, rowValues, pageErrors, inShadow, tunedPreset, hashMatching } from './helpers.mjs';

const ARTICLE = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1];

const ctx = useBrowser({ server: true });

/** Asserts the page shows `flags` compacted on the GPU by `method`. */
async function assertCompacted(page, flags, method, log = []) {
  const r = await results(page);
  const expected = compact(flags);
  assert.equal(r.backend, 'gpu', `not run on the GPU\n${log.join('\n')}`);
  assert.equal(r.method, method);
  assert.equal(r.count, expected.length, 'count');
  assert.equal(r.instanceCount, expected.length, 'instanceCount read back from the indirect buffer');
  assert.equal(r.listed, expected.length);
  const shown = expected.slice(0, r.indices.length);
  if (['scan', 'lookback', 'lookback-bits', 'packed-scan'].includes(method)) {
    assert.deepEqual(r.indices, shown, `${method} keeps the input order`);
    assert.equal(r.hash, fnv1a(expected), 'hash of the index buffer');
  } else {
    assert.deepEqual(
      [...r.indices].sort((a, b) => a - b),
      shown,
      `${method} finds exactly the visible indices`,
    );
  }
  return r;
}

test('loads with the article example already compacted on the GPU', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await assertCompacted(page, ARTICLE, 'scan', log);
    assert.deepEqual(await page.$$eval('[data-testid="result-item"]', (els) => els.map((e) => e.textContent)), ['0', '3', '4', '6', '9']);
    const backend = await page.$eval('[data-testid="backend"]', (e) => ({ kind: e.dataset.backend, text: e.textContent }));
    assert.equal(backend.kind, 'gpu');
    assert.match(backend.text, /GPU/);
    assert.equal(await page.$eval('[data-testid="fallback-reason"]', (e) => e.hidden), true);
    const cells = await flagCells(page);
    assert.deepEqual(
      cells.map((c) => c.value),
      ARTICLE,
    );
    assert.deepEqual(
      cells.map((c) => c.pressed),
      ARTICLE.map((f) => String(f === 1)),
    );
    assert.equal((await stepLabel(page)).text, 'step 1 of 13');
    // The page runs under the CSP the issue asks for, with no inline styles.
    const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.equal(await page.$$eval('[style]', (els) => els.length), 0, 'no inline style attributes');
    // The drawIndirect canvas is sized in device pixels.
    const canvas = await page.$eval('[data-testid="draw-canvas"]', (c) => ({
      width: c.width,
      height: c.height,
      cssWidth: c.getBoundingClientRect().width,
      dpr: devicePixelRatio,
      mode: c.dataset.mode,
    }));
    assert.equal(canvas.width, Math.round(canvas.cssWidth * canvas.dpr));
    assert.ok(canvas.mode === 'image' || canvas.mode === 'canvas');
    assert.match(await page.$eval('[data-testid="draw-caption"]', (e) => e.textContent), /instanceCount = 5/);
    assert.match(await hashMatching(page, /&step=1$/), /^#flags=b10\.[A-Za-z0-9_-]+&method=scan&step=1$/);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('clicking, dragging and the keyboard edit the flags; every edit is compacted again', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const flags = ARTICLE.slice();
    const cell = (i) => page.locator(`[data-testid="flag-cell"][data-index="${i}"]`);

    // Click: flag 1 becomes visible.
    await cell(1).click();
    flags[1] = 1;
    await idle(page);
    assert.equal(await cell(1).getAttribute('aria-pressed'), 'true');
    await assertCompacted(page, flags, 'scan', log);

    // Keyboard: arrows move the focus, Space toggles.
    await cell(1).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.querySelector('compaction-playground').shadowRoot.activeElement.dataset.index), '3');
    await page.keyboard.press('Space');
    flags[3] = 0;
    await page.keyboard.press('End');
    assert.equal(await page.evaluate(() => document.querySelector('compaction-playground').shadowRoot.activeElement.dataset.index), '9');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    flags[8] = 1;
    await page.keyboard.press('Home');
    assert.equal(await page.evaluate(() => document.querySelector('compaction-playground').shadowRoot.activeElement.dataset.index), '0');
    await idle(page);
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      flags,
    );
    await assertCompacted(page, flags, 'scan', log);

    // Drag: pressing on flag 5 (invisible) paints 5, 6, 7 visible.
    const box = async (i) => await cell(i).boundingBox();
    const from = await box(5);
    const to = await box(7);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    flags[5] = 1;
    flags[6] = 1;
    flags[7] = 1;
    await idle(page);
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      flags,
    );
    await assertCompacted(page, flags, 'scan', log);
    assert.match(await page.$eval('[data-testid="flag-summary"]', (e) => e.textContent), new RegExp(`${flags.filter((f) => f).length} visible`));
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('each method compacts typed flags; indices and instanceCount match an independent computation', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const flags = testFlags(700, 0.4, 11);
    flags[3] = 7; // any nonzero value is visible
    await typeFlags(page, flags.join(','));
    assert.equal(await page.$eval('[data-testid="flag-summary"]', (e) => e.dataset.n), '700');
    const methods = await page.$$eval('[data-testid^="method-"]', (els) => els.map((e) => e.value));
    for (const m of ['atomic', 'aggregated', 'scan']) assert.ok(methods.includes(m), `method ${m} offered`);
    for (const method of methods) {
      await page.check(`[data-testid="method-${method}"]`);
      await idle(page);
      // The description under the names is the chosen method's.
      assert.equal(await page.$eval('[data-testid="chosen-method-info"]', (e) => e.dataset.method), method);
      const r = await assertCompacted(page, flags, method, log);
      if (method === 'aggregated') {
        // One atomicAdd per workgroup of 64: each workgroup's visibles stay contiguous and in order.
        const expected = compact(flags);
        let k = 0;
        while (k < r.indices.length) {
          const group = Math.floor(r.indices[k] / 64);
          const run = expected.filter((i) => Math.floor(i / 64) === group);
          assert.deepEqual(r.indices.slice(k, k + run.length), run, `workgroup ${group} is contiguous and ordered`);
          k += run.length;
        }
      }
    }
    // The URL follows the method last chosen.
    const urlMethod = new RegExp(`method=${methods.at(-1)}(&|$)`);
    assert.match(await hashMatching(page, urlMethod), urlMethod);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('the stepper shows the real scan: Hillis-Steele states, block sums, levels, offsets and scatter', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const flags = testFlags(300, 0.5, 5); // two blocks (256 + 44), so two levels
    await typeFlags(page, flags.join(''));
    const levels = scanLevels(flags);
    assert.equal(levels.length, 2);
    const label = await stepLabel(page);
    // Per level: load, 8 steps, inclusive -> exclusive, block sum; then offsets, scatter, result.
    assert.equal(label.steps, 2 * 11 + 3);
    const block = (values, b) => Object.fromEntries(values.slice(b * BLOCK, (b + 1) * BLOCK).map((v, k) => [b * BLOCK + k, v]));
    const all = (values) => Object.fromEntries(values.map((v, k) => [k, v]));

    for (const b of [0, 1]) {
      await page.selectOption('[data-testid="block-select"]', String(b));
      await idle(page);
      // Step 1: the load.
      await scrubTo(page, 1);
      assert.equal((await stepLabel(page)).kind, 'load');
      assert.deepEqual(await rowValues(page, 'input'), block(flags, b));
      assert.deepEqual(await rowValues(page, 'tmp'), block(levels[0].steps[0], b));
      // Steps 2..9: Hillis-Steele with offsets 1..128.
      for (const s of [1, 3, 8]) {
        const l = await scrubTo(page, 1 + s);
        assert.equal(l.kind, 'hs');
        assert.equal(l.offset, 2 ** (s - 1));
        assert.deepEqual(await rowValues(page, 'before'), block(levels[0].steps[s - 1], b), `block ${b} before step ${s}`);
        assert.deepEqual(await rowValues(page, 'after'), block(levels[0].steps[s], b), `block ${b} after step ${s}`);
        assert.match(await page.$eval('[data-testid="step-text"]', (e) => e.textContent), /barrier/);
      }
      // Step 10: inclusive -> exclusive.
      await scrubTo(page, 10);
      assert.deepEqual(await rowValues(page, 'prefix'), block(levels[0].blockPrefix, b));
      assert.match(await page.$eval('[data-testid="step-text"]', (e) => e.textContent), /exclusive/);
      // Step 11: the last invocation publishes the block sum (tmp[255] even when the block is partial).
      await scrubTo(page, 11);
      assert.deepEqual(await rowValues(page, 'sums'), all(levels[0].blockSums));
      const tmp = await rowValues(page, 'tmp');
      assert.equal(tmp[b * BLOCK + 255], levels[0].blockSums[b]);
      assert.match(await page.$eval('[data-testid="step-text"]', (e) => e.textContent), /last invocation/);
      // Step 23: offsets added back: the global exclusive prefix.
      const offsets = await scrubTo(page, 23);
      assert.equal(offsets.kind, 'offsets');
      assert.deepEqual(await rowValues(page, 'prefix'), block(exclusiveScan(flags), b));
      // Step 24: the scatter writes this block's slots.
      await scrubTo(page, 24);
      const expected = compact(flags);
      const first = exclusiveScan(flags)[b * BLOCK];
      const mine = expected.filter((i) => Math.floor(i / BLOCK) === b);
      assert.deepEqual(await rowValues(page, 'indices'), Object.fromEntries(mine.map((v, k) => [first + k, v])));
    }

    // Level 1 scans the two block sums with the same pipeline.
    await page.keyboard.press('Home');
    for (let k = 0; k < 11; k++) await page.keyboard.press('ArrowRight');
    const level1 = await stepLabel(page);
    assert.equal(level1.step, 12);
    assert.equal(level1.kind, 'load');
    assert.equal(level1.level, 1);
    assert.deepEqual(await rowValues(page, 'input'), all(levels[0].blockSums));
    await page.click('[data-testid="step-forward"]');
    assert.deepEqual(await rowValues(page, 'after'), all(levels[1].steps[1]));
    await page.click('[data-testid="step-back"]');
    assert.equal((await stepLabel(page)).step, 12);
    await scrubTo(page, 21);
    assert.deepEqual(await rowValues(page, 'prefix'), all(levels[1].blockPrefix));

    // Last step: the result and the indirect arguments.
    await page.keyboard.press('End');
    const last = await stepLabel(page);
    assert.equal(last.text, `step ${label.steps} of ${label.steps}`);
    assert.equal(last.kind, 'result');
    assert.deepEqual(await rowValues(page, 'indices'), all(compact(flags)));
    assert.match(await page.$eval('[data-testid="step-text"]', (e) => e.textContent), new RegExp(`instanceCount = ${compact(flags).length}`));
    assert.equal(await page.isDisabled('[data-testid="step-forward"]'), true);
    await page.click('[data-testid="step-first"]');
    assert.equal((await stepLabel(page)).step, 1);
    assert.equal(await page.isDisabled('[data-testid="step-back"]'), true);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('hovering or focusing a cell highlights what its invocation reads and writes; play steps on its own', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    // Step 4 of the article example: Hillis-Steele with offset 4.
    await scrubTo(page, 4);
    const label = await stepLabel(page);
    assert.equal(label.offset, 4);
    await page.hover('[data-testid="cell"][data-row="after"][data-i="6"]');
    const marks = await page.$$eval('[data-testid="diagram"] .reads, [data-testid="diagram"] .writes', (els) =>
      els.map((e) => `${e.classList.contains('reads') ? 'reads' : 'writes'} ${e.dataset.row}[${e.dataset.i}]`).sort(),
    );
    assert.deepEqual(marks, ['reads before[2]', 'reads before[6]', 'writes after[6]']);
    assert.match(await page.$eval('[data-testid="inspector"]', (e) => e.textContent), /li = 6: reads/);

    // Focus (keyboard users): an invocation below the offset only reads itself.
    await page.focus('[data-testid="cell"][data-row="before"][data-i="1"]');
    const focused = await page.$$eval('[data-testid="diagram"] .reads, [data-testid="diagram"] .writes', (els) =>
      els.map((e) => `${e.classList.contains('reads') ? 'reads' : 'writes'} ${e.dataset.row}[${e.dataset.i}]`).sort(),
    );
    assert.deepEqual(focused, ['reads before[1]', 'writes after[1]']);

    // Play at 4x runs to the last step (13) and stops there (each step up for as
    // long as its text takes to read: a few seconds at 4x).
    await page.selectOption('[data-testid="step-speed"]', '4');
    await scrubTo(page, 11);
    await page.click('[data-testid="step-play"]');
    assert.equal(await page.getAttribute('[data-testid="step-play"]', 'aria-pressed'), 'true');
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="step-play"]').getAttribute('aria-pressed') === 'false', null, {
      timeout: 20_000,
    });
    assert.equal((await stepLabel(page)).step, 13);
    // The keyboard shortcut toggles play too.
    await page.focus('[data-testid="step-play"]'); // keys work while focus is inside the element
    await page.keyboard.press('Home');
    await page.keyboard.press('p');
    assert.equal(await page.getAttribute('[data-testid="step-play"]', 'aria-pressed'), 'true');
    await page.keyboard.press('p');
    assert.equal(await page.getAttribute('[data-testid="step-play"]', 'aria-pressed'), 'false');
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('the URL keeps flags, method, step and block: a reload restores the same view', { timeout: TEST_TIMEOUT }, async () => {
  const first = await openPlayground(ctx.browser, ctx.server.url);
  const flags = testFlags(300, 0.3, 9);
  let url;
  try {
    const { page } = first;
    await typeFlags(page, flags.join(''));
    await page.check('[data-testid="method-aggregated"]');
    await idle(page);
    // The stepper steps aggregated's own kernel: read, local, reserve, write, result.
    await page.selectOption('[data-testid="block-select"]', '1');
    await scrubTo(page, 4);
    url = page.url();
    assert.match(url, /#flags=b300\.[A-Za-z0-9_-]+&method=aggregated&step=4&block=1$/);
  } finally {
    await first.page.close();
  }
  const { page, log } = await openPlayground(ctx.browser, url, '');
  try {
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      flags,
    );
    assert.equal(await page.isChecked('[data-testid="method-aggregated"]'), true);
    await assertCompacted(page, flags, 'aggregated', log);
    const label = await stepLabel(page);
    assert.equal(label.step, 4);
    assert.equal(label.kind, 'write');
    assert.equal(await page.$eval('[data-testid="block-select"]', (s) => s.value), '1');
    // Workgroup 1: flags 64–127, each visible one's slot from this run's indices.
    const flagsShown = await rowValues(page, 'flag');
    assert.deepEqual(
      Object.keys(flagsShown).map(Number),
      Array.from({ length: 64 }, (_, k) => 64 + k),
    );
    assert.equal(page.url(), url);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('a malformed link shows a message and the default example, never a blank page', { timeout: TEST_TIMEOUT }, async () => {
  for (const hash of ['#flags=b10.@@not-base64@@&method=scan', '#method=bogus&step=2']) {
    const { page, log } = await openPlayground(ctx.browser, ctx.server.url, hash);
    try {
      const alert = page.locator('[data-testid="alert-hash"]');
      assert.equal(await alert.isVisible(), true, `no message for ${hash}`);
      assert.match(await alert.textContent(), /malformed/);
      assert.equal(await page.$eval('[data-testid="alerts"]', (e) => e.getAttribute('role')), 'alert');
      await assertCompacted(page, ARTICLE, 'scan', log);
      assert.equal((await stepLabel(page)).step, 1);
      assert.deepEqual(pageErrors(log), []);
      if (hash.startsWith('#method')) {
        // Editing the hash by hand later: still a message, the view stays.
        await page.evaluate(() => {
          location.hash = '#flags=w3.AAAA';
        });
        await page.waitForFunction(() => /length does not match/.test(document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="alert-hash"]')?.textContent ?? ''));
        await assertCompacted(page, ARTICLE, 'scan', log);
      }
    } finally {
      await page.close();
    }
  }
});

test('bad typed input keeps the text and shows the parse error; the flags stay', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.fill('[data-testid="flag-text"]', '1, 0, x, 1');
    await page.click('[data-testid="flag-text-apply"]');
    const error = await page.$eval('[data-testid="flag-text-error"]', (e) => ({ text: e.textContent, role: e.getAttribute('role') }));
    // Counted from 0, as the grid counts: the x is element 2.
    assert.match(error.text, /element 2 \(`x`\) is not a decimal u32/);
    assert.equal(error.role, 'alert');
    assert.equal(await page.inputValue('[data-testid="flag-text"]'), '1, 0, x, 1');
    assert.equal(await page.getAttribute('[data-testid="flag-text"]', 'aria-invalid'), 'true');
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      ARTICLE,
    );
    // Fixing it applies it and clears the error.
    await typeFlags(page, '1, 0, 2, 1');
    assert.equal(await page.$eval('[data-testid="flag-text-error"]', (e) => e.textContent), '');
    await assertCompacted(page, [1, 0, 2, 1], 'scan', log);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('run ×R repeats the atomic methods beside the scan, whose hash never changes', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const flags = testFlags(500, 0.5, 3);
    await typeFlags(page, flags.join(''));
    // Which slot each visible invocation got from atomicAdd: every slot once, each pointing at its flag.
    const slots = await page.$$eval('[data-testid="slot-cell"]', (els) => els.map((e) => ({ i: Number(e.dataset.i), slot: e.dataset.slot })));
    const given = slots
      .filter((s) => s.slot !== '')
      .map((s) => Number(s.slot))
      .sort((a, b) => a - b);
    assert.deepEqual(
      given,
      compact(flags).map((_, k) => k),
    );
    assert.deepEqual(
      slots.filter((s) => s.slot !== '').map((s) => s.i),
      compact(flags),
    );

    await page.fill('[data-testid="repeat-count"]', '3');
    await page.click('[data-testid="repeat-run"]');
    await idle(page);
    assert.equal(await page.locator('[data-testid="repeat-row"]').count(), 3);
    const scanHashes = await page.$$eval('[data-testid="repeat-hash-scan"]', (els) => els.map((e) => parseInt(e.textContent, 16)));
    assert.deepEqual(
      scanHashes,
      [1, 2, 3].map(() => fnv1a(compact(flags))),
    );
    for (const method of ['atomic', 'aggregated']) {
      assert.equal(await page.locator(`[data-testid="repeat-hash-${method}"]`).count(), 3);
      const verdict = await page.$eval(`[data-testid="verdict-${method}"]`, (e) => ({ text: e.textContent, distinct: Number(e.dataset.distinct) }));
      // Honest either way: several orders, or "the same order … luck, not a guarantee".
      // (Why it stayed is said once, under the lines, for every method that kept its order.)
      if (verdict.distinct === 1) {
        assert.match(verdict.text, /same order in all 3 runs/);
        assert.match(await page.$eval('[data-testid="verdict-why"]', (e) => e.textContent), /not a guarantee/);
      } else assert.match(verdict.text, new RegExp(`${verdict.distinct} different orders in 3 runs`));
    }
    assert.match(await page.$eval('[data-testid="verdict-scan"]', (e) => e.textContent), /same buffer/);
    // Afterwards the results show the chosen method again.
    await assertCompacted(page, flags, 'scan', log);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('large arrays: a density strip instead of cells, the full run, a readable stepper window', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const n = 100_000;
    // The article's flags: density and seed would change nothing, so they cannot be changed.
    const tunable = () => page.$$eval('[data-testid="density"], [data-testid="seed"]', (els) => els.map((e) => !e.disabled));
    assert.deepEqual(await tunable(), [false, false]);
    await tunedPreset(page, 'random', n, 0.3, 7);
    assert.deepEqual(await tunable(), [true, true]);
    const flags = randomFlags(n, 0.3, 7);
    const expected = compact(flags);
    assert.equal(await page.isVisible('[data-testid="density-strip"]'), true);
    assert.equal(await page.locator('[data-testid="flag-cell"]').count(), 0);
    assert.equal(await page.$eval('[data-testid="flag-summary"]', (e) => e.dataset.visible), String(expected.length));
    const r = await results(page);
    assert.equal(r.backend, 'gpu');
    assert.equal(r.count, expected.length);
    assert.equal(r.instanceCount, expected.length);
    assert.deepEqual(r.indices, expected.slice(0, r.indices.length));
    assert.equal(r.hash, fnv1a(expected));
    assert.match(await page.$eval('[data-testid="result-more"]', (e) => e.textContent), /more/);
    // The stepper traces a window: the first 8192 flags, one chosen block at a time.
    assert.match(await page.$eval('[data-testid="stepper-note"]', (e) => e.textContent), /first 8,192/);
    await page.selectOption('[data-testid="block-select"]', '5');
    await scrubTo(page, 5);
    const levels = scanLevels(flags.slice(0, 8192));
    assert.deepEqual(await rowValues(page, 'after'), Object.fromEntries(levels[0].steps[4].slice(5 * 256, 6 * 256).map((v, k) => [5 * 256 + k, v])));
    assert.equal(await page.locator('[data-testid="diagram"] [data-row="after"][data-testid="cell"]').count(), 256);
    // Big arrays travel in the URL as their preset, not as packed flags.
    assert.match(page.url(), /#preset=random&n=100000&density=0\.3&seed=7&method=scan/);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('long work shows progress: a million flags from a preset, run on the GPU', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const n = 1 << 20;
    await page.evaluate(() => {
      const progress = document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="progress"]');
      window.progressSeen = [];
      new MutationObserver(() => {
        if (!progress.hidden) window.progressSeen.push(progress.dataset.label);
      }).observe(progress, { attributes: true, subtree: true, childList: true, characterData: true });
    });
    await page.fill('[data-testid="size"]', String(n));
    await page.click('[data-testid="preset-clustered"]');
    await idle(page);
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(
      seen.some((label) => /Running scan on 1,048,576 flags on the GPU/.test(label)),
      `progress labels: ${JSON.stringify(seen)}`,
    );
    assert.equal(await page.isHidden('[data-testid="progress"]'), true, 'progress hides when done');
    const r = await results(page);
    assert.equal(r.backend, 'gpu');
    assert.equal(r.instanceCount, r.count);
    assert.equal(Number(await page.$eval('[data-testid="flag-summary"]', (e) => e.dataset.visible)), r.count);
    // The first listed indices are increasing (scan keeps the input order).
    assert.ok(r.indices.every((v, k) => k === 0 || v > r.indices[k - 1]));
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('a lost device is reported, the page carries on with the CPU reference and gets back onto the GPU by itself or on request', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await newLoggedPage(ctx.browser);
  // Keep every device the page opens, so that the test can destroy it.
  await page.addInitScript(() => {
    window.devices = [];
    const request = GPUAdapter.prototype.requestDevice;
    GPUAdapter.prototype.requestDevice = async function (...args) {
      const device = await request.apply(this, args);
      window.devices.push(device);
      return device;
    };
  });
  page.setDefaultTimeout(120_000);
  await page.goto(ctx.server.url);
  await ready(page);
  const backend = () => page.$eval('compaction-playground', (e) => e.shadowRoot.querySelector('[data-testid="backend"]').dataset.backend);
  const onGpu = () => page.waitForFunction(() => document.querySelector('compaction-playground').backend === 'gpu' && !document.querySelector('compaction-playground').busy);
  try {
    assert.equal(await backend(), 'gpu');
    // The visitor's own flags, which a loss must not take away.
    await page.click('[data-testid="flag-cell"][data-index="1"]');
    await idle(page);
    const devices = await page.evaluate(() => window.devices.length);
    // Held back, so that the CPU reference can be seen at work meanwhile.
    await page.evaluate(() => {
      window.holdDevices = new Promise((resolve) => {
        window.releaseDevices = resolve;
      });
      const request = GPUAdapter.prototype.requestDevice;
      GPUAdapter.prototype.requestDevice = async function (...args) {
        await window.holdDevices;
        return request.apply(this, args);
      };
    });
    await page.evaluate(() => {
      for (const d of window.devices) d.destroy();
    });
    await page.waitForSelector('[data-testid="alert-device-lost"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').backend === 'cpu');
    const fallback = await page.$eval('[data-testid="fallback-reason"]', (e) => ({ hidden: e.hidden, reason: e.dataset.reason, text: e.textContent }));
    assert.equal(fallback.hidden, false);
    assert.equal(fallback.reason, 'device-lost');
    assert.match(fallback.text, /device was lost/);
    assert.match(await page.textContent('[data-testid="alert-device-lost"]'), /flags are kept.*next try/);
    assert.equal(await page.isVisible('[data-testid="retry-gpu"]'), true, await page.$eval('[data-testid="alerts"]', (e) => e.innerHTML));
    // Still compacting and stepping, on the CPU reference, with the visitor's flags.
    await page.click('[data-testid="flag-cell"][data-index="2"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').result?.count === 7);
    let r = await results(page);
    assert.equal(r.backend, 'cpu');
    assert.deepEqual(r.indices, [0, 1, 2, 3, 4, 6, 9]);
    await scrubTo(page, 13);
    assert.equal((await stepLabel(page)).kind, 'result');
    // The device comes back by itself (the page tries again, backing off).
    await page.evaluate(() => window.releaseDevices());
    await onGpu();
    assert.ok((await page.evaluate(() => window.devices.length)) > devices, 'a new device');
    assert.equal(await page.isVisible('[data-testid="alert-device-lost"]'), false);
    r = await results(page);
    assert.equal(r.backend, 'gpu');
    assert.deepEqual(r.indices, [0, 1, 2, 3, 4, 6, 9], 'the same flags, back on the GPU');
    // Lost again: "Retry on the GPU" gets it back at once.
    await page.evaluate(() => {
      for (const d of window.devices) d.destroy();
    });
    await page.waitForSelector('[data-testid="retry-gpu"]');
    await page.click('[data-testid="retry-gpu"]');
    await onGpu();
    assert.equal((await results(page)).backend, 'gpu');
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('on first load at 1280×800 the result is in view', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(ctx.browser, ctx.server.url, '', { viewport: { width: 1280, height: 800 } });
  try {
    for (const id of ['count', 'instance-count', 'hash']) {
      const box = await page.locator(`[data-testid="${id}"]`).boundingBox();
      assert.ok(box && box.y + box.height <= 800, `${id} ends at ${box?.y + box?.height}px`);
    }
  } finally {
    await page.close();
  }
});

test('a parse error goes when a preset replaces the flags', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.fill('[data-testid="flag-text"]', '1 0 x');
    await page.click('[data-testid="flag-text-apply"]');
    assert.match(await page.textContent('[data-testid="flag-text-error"]'), /Could not read/);
    await page.click('[data-testid="preset-all"]');
    await idle(page);
    assert.equal(await page.textContent('[data-testid="flag-text-error"]'), '');
    assert.equal(await page.getAttribute('[data-testid="flag-text"]', 'aria-invalid'), null);
  } finally {
    await page.close();
  }
});

test('at the last step the focus stays in the stepper; code in the narration is code, not backticks', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const focused = () => inShadow(page, (root) => root.activeElement?.dataset.testid ?? root.activeElement?.tagName ?? null);
    await page.click('[data-testid="step-last"]');
    assert.equal(await focused(), 'scrubber');
    await scrubTo(page, 2);
    const text = await inShadow(page, (root) => {
      const el = root.querySelector('[data-testid="step-text"]');
      return { text: el.textContent, code: [...el.querySelectorAll('code')].map((c) => c.textContent) };
    });
    assert.ok(!text.text.includes('`'), text.text);
    assert.ok(text.code.includes('if (li >= offset)'), JSON.stringify(text.code));
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    await page.click('[data-testid="tiles-step-last"]');
    assert.equal(await focused(), 'tiles-scrubber');
  } finally {
    await page.close();
  }
});
