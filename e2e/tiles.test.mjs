// The tile view of the single-pass methods, in headless Chromium: with WebGPU
// on SwiftShader (tile states read back from the GPU) and without WebGPU (the
// CPU reference). Every number is checked against an independent JavaScript
// computation (e2e/oracle.mjs), never against the page's own code.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { compact, fnv1a, randomFlags } from './oracle.mjs';
import { TEST_TIMEOUT, openPlayground, idle, results, pageErrors, applyPreset, tunedPreset } from './helpers.mjs';
import { useBrowser } from './fixture.mjs';

const TILE = 4096;
const N = 100_000;

const ctx = useBrowser({ server: true, cpuBrowser: true });

/** Per tile: count, visible flags before it and up to its end, and its indices. */
function tilesOf(flags) {
  const tiles = [];
  let before = 0;
  for (let first = 0; first < flags.length; first += TILE) {
    const own = compact(flags.slice(first, first + TILE)).map((i) => i + first);
    tiles.push({ aggregate: own.length, exclusive: before, inclusive: before + own.length, own });
    before += own.length;
  }
  return tiles;
}

/** What the tile boxes show: their numbers and where each says it came from. */
async function shownTiles(page) {
  return page.$$eval('.tile[data-tile]', (els) =>
    els.map((e) => {
      const field = (name) => e.querySelector(`[data-field="${name}"]`);
      const value = e.querySelector('.badge-value');
      return {
        t: Number(e.dataset.tile),
        stub: e.dataset.testid === 'tile-before',
        status: e.dataset.status,
        aggregate: field('aggregate').dataset.value,
        aggregateSource: field('aggregate').dataset.source,
        exclusive: field('exclusive').dataset.value,
        exclusiveSource: field('exclusive').dataset.source,
        value: value?.dataset.value ?? '',
        valueSource: value?.dataset.source ?? '',
        run: e.querySelector('[data-testid="tile-run"]')?.dataset ? { ...e.querySelector('[data-testid="tile-run"]').dataset } : null,
        reads: [...e.querySelectorAll('[data-testid="tile-read"]')].map((r) => ({ ...r.dataset })),
      };
    }),
  );
}

async function tileLabel(page) {
  return page.$eval('[data-testid="tiles-step-label"]', (e) => ({ step: Number(e.dataset.step), steps: Number(e.dataset.steps), kind: e.dataset.kind }));
}

/** Goes to step 1 (the button is disabled when already there). */
async function toFirst(page) {
  if (await page.isEnabled('[data-testid="tiles-step-first"]')) await page.click('[data-testid="tiles-step-first"]');
  assert.equal((await tileLabel(page)).step, 1);
}

/** Clicks "step forward" until the step is of `kind`; returns the label. */
async function forwardTo(page, kind) {
  for (let k = 0; k < 40; k++) {
    const label = await tileLabel(page);
    if (label.kind === kind) return label;
    await page.click('[data-testid="tiles-step-forward"]');
  }
  throw new Error(`no ${kind} step`);
}

/** Makes 100 000 random flags (density 0.3, seed 7) and chooses `method`. */
async function randomTiles(page, method) {
  await tunedPreset(page, 'random', N, 0.3, 7);
  await page.check(`[data-testid="method-${method}"]`);
  await idle(page);
  return randomFlags(N, 0.3, 7);
}

/**
 * Steps through every window of tiles: the look-back chains add up, the final
 * states equal the independent computation, the scatter shows each tile's run.
 */
async function checkTileView(page, flags, states) {
  const expected = tilesOf(flags);
  assert.equal(await page.isVisible('[data-testid="tiles-card"]'), true, 'the tile view is shown');
  assert.equal(await page.isHidden('.stepper-card'), true, 'instead of the scan stepper');
  const view = await page.$eval('[data-testid="tiles-view"]', (e) => ({ ...e.dataset }));
  assert.equal(Number(view.tiles), Math.ceil(N / TILE), 'tile count');
  assert.equal(view.states, states);
  const windows = await page.$$eval('[data-testid="tile-window"] option', (os) => os.map((o) => o.value));
  assert.equal(windows.length, Math.ceil(expected.length / 8));
  for (const window of windows) {
    await page.selectOption('[data-testid="tile-window"]', window);
    await toFirst(page);
    // Every look-back: the values added, the running sum and where the chain ends.
    for (;;) {
      const label = await tileLabel(page);
      if (label.kind === 'scatter') break;
      if (label.kind === 'lookback' || label.kind === 'late') {
        const shown = await shownTiles(page);
        const focus = Number(await page.$eval('.tile.role-focus', (e) => e.dataset.tile));
        const reads = shown.flatMap((x) => x.reads.map((r) => ({ t: x.t, ...r }))).sort((a, b) => b.t - a.t);
        assert.ok(reads.length > 0, `tile ${focus} reads a predecessor`);
        let running = 0;
        reads.forEach((r, k) => {
          assert.equal(r.t, focus - 1 - k, 'predecessors are read nearest first');
          const added = r.seen === 'inclusive' ? expected[r.t].inclusive : expected[r.t].aggregate;
          assert.equal(Number(r.added), added, `tile ${focus} adds tile ${r.t}'s ${r.seen}`);
          running += added;
          assert.equal(Number(r.running), running);
          assert.equal(r.source, 'simulation');
        });
        const last = reads[reads.length - 1];
        assert.ok(last.seen === 'inclusive' || last.t === 0, 'the chain ends at an INCLUSIVE tile or at tile 0');
        assert.equal(running, expected[focus].exclusive, `tile ${focus}'s exclusive prefix`);
      }
      await page.click('[data-testid="tiles-step-forward"]');
    }
    // The scatter: final states and each tile's run in the output.
    const shown = (await shownTiles(page)).filter((x) => !x.stub);
    assert.ok(shown.length >= 1);
    for (const x of shown) {
      const e = expected[x.t];
      assert.equal(x.status, 'inclusive', `tile ${x.t}`);
      assert.equal(Number(x.aggregate), e.aggregate, `tile ${x.t} aggregate`);
      assert.equal(Number(x.exclusive), e.exclusive, `tile ${x.t} exclusive`);
      assert.equal(Number(x.value), e.inclusive, `tile ${x.t} inclusive`);
      assert.equal(x.aggregateSource, 'cpu', 'aggregates are counted on the CPU');
      assert.equal(x.valueSource, states === 'gpu' ? 'gpu' : 'cpu');
      assert.equal(x.exclusiveSource, states === 'gpu' ? 'gpu' : 'cpu');
      assert.deepEqual([x.run.exclusive, x.run.inclusive, x.run.first, x.run.last].map(Number), [e.exclusive, e.inclusive, e.own[0], e.own[e.own.length - 1]], `tile ${x.t}'s run in the output`);
    }
  }
  await forwardTo(page, 'result');
  assert.match(await page.$eval('[data-testid="tiles-step-text"]', (e) => e.textContent), new RegExp(`instanceCount = ${compact(flags).length.toLocaleString('en')}`));
}

test('lookback on 100 000 flags: the tile view shows the GPU tile states, the look-back chains and the scatter', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const flags = await randomTiles(page, 'lookback');
    const expected = compact(flags);
    const r = await results(page);
    assert.equal(r.backend, 'gpu');
    assert.equal(r.method, 'lookback');
    assert.equal(r.count, expected.length);
    assert.equal(r.instanceCount, expected.length);
    assert.deepEqual(r.indices, expected.slice(0, r.indices.length), 'the GPU result keeps the input order');
    assert.equal(r.hash, fnv1a(expected), 'hash of the whole GPU index buffer');
    assert.match(await page.$eval('[data-testid="tile-sources"]', (e) => e.textContent), /read back from the GPU/);
    await checkTileView(page, flags, 'gpu');

    // The keyboard drives the tile stepper; the URL keeps the step and the window.
    const before = await tileLabel(page);
    await page.focus('[data-testid="tiles-step-play"]'); // keys work while focus is inside the element
    await page.keyboard.press('ArrowLeft');
    assert.equal((await tileLabel(page)).step, before.step - 1);
    assert.match(page.url(), /method=lookback&step=\d+&tile=24/);

    // A stalled workgroup: its successor counts its flags itself.
    await page.selectOption('[data-testid="tile-window"]', '0');
    await page.selectOption('[data-testid="tile-stall"]', '1');
    await idle(page);
    await toFirst(page);
    for (;;) {
      const label = await tileLabel(page);
      if (label.kind === 'lookback' && (await page.$eval('.tile.role-focus', (e) => e.dataset.tile)) === '2') break;
      await page.click('[data-testid="tiles-step-forward"]');
    }
    const reads = (await shownTiles(page)).flatMap((x) => x.reads.map((r) => ({ t: x.t, ...r })));
    const tiles = tilesOf(flags);
    assert.deepEqual(
      reads.map((r) => [r.t, r.seen, Number(r.added)]).sort((a, b) => b[0] - a[0]),
      [
        [1, 'counted itself', tiles[1].aggregate],
        [0, 'inclusive', tiles[0].inclusive],
      ],
    );
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('lookback-bits and tile-atomic: the same tiles; tile-atomic publishes no state and claims ranges', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const flags = await randomTiles(page, 'lookback-bits');
    const expected = tilesOf(flags);
    await forwardTo(page, 'scatter');
    for (const x of await shownTiles(page)) assert.equal(Number(x.value), expected[x.t].inclusive, `lookback-bits tile ${x.t}`);
    assert.equal((await results(page)).hash, fnv1a(compact(flags)));

    await page.check('[data-testid="method-tile-atomic"]');
    await idle(page);
    const r = await results(page);
    assert.equal(r.method, 'tile-atomic');
    assert.equal(r.count, compact(flags).length);
    await toFirst(page);
    await forwardTo(page, 'claim');
    const shown = await shownTiles(page);
    for (const x of shown) {
      assert.equal(x.status, 'invalid', 'tile-atomic publishes no state');
      assert.equal(Number(x.aggregate), expected[x.t].aggregate);
    }
    await forwardTo(page, 'scatter');
    // Each run holds exactly its tile's visible indices, in order, wherever the atomic put it.
    for (const x of (await shownTiles(page)).filter((t) => !t.stub)) {
      const own = expected[x.t].own;
      assert.equal(Number(x.run.inclusive) - Number(x.run.exclusive), own.length);
      assert.deepEqual([Number(x.run.first), Number(x.run.last)], [own[0], own[own.length - 1]]);
    }
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('one tile: the view says there is no look-back and offers an array with 25 tiles', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    assert.equal(await page.isVisible('[data-testid="tile-suggest"]'), true);
    assert.deepEqual(await page.$$eval('[data-testid="tile"]', (els) => els.map((e) => e.dataset.tile)), ['0']);
    await page.click('[data-testid="tile-suggest-button"]');
    await idle(page);
    assert.equal(await page.$eval('[data-testid="tiles-view"]', (e) => e.dataset.tiles), '25');
    assert.equal(await page.isHidden('[data-testid="tile-suggest"]'), true);
    assert.equal((await results(page)).count, compact(randomFlags(N, 0.5, 1)).length);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('without WebGPU the CPU reference shows the same tile view', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.cpuBrowser, ctx.server.url);
  try {
    const flags = await randomTiles(page, 'lookback');
    assert.equal((await results(page)).backend, 'cpu');
    assert.match(await page.$eval('[data-testid="tile-sources"]', (e) => e.textContent), /CPU reference/);
    await checkTileView(page, flags, 'cpu reference');
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('a stalled tile: the tiles that counted it themselves are not told that nobody waited', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await applyPreset(page, 'random', 100_000);
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    await page.selectOption('[data-testid="tile-stall"]', '2');
    await idle(page);
    const narrations = [];
    while (await page.isEnabled('[data-testid="tiles-step-forward"]')) {
      await page.click('[data-testid="tiles-step-forward"]');
      const counted = await page.locator('[data-testid="tile-read"][data-seen="counted itself"]').count();
      narrations.push({ counted, text: await page.textContent('[data-testid="tiles-step-text"]') });
    }
    const fallback = narrations.filter((n) => n.counted > 0);
    assert.ok(fallback.length > 0, 'some tile counted the stalled one itself');
    for (const n of fallback) {
      assert.doesNotMatch(n.text, /Nobody waited|No second pass was needed/);
      assert.match(n.text, /counted that tile’s flags itself/);
    }
  } finally {
    await page.close();
  }
});
