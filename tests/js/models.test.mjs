// The panels' models, pure functions of real traces from the CPU mirror: the
// scan's steps, the tile view's steps, the order panel's numbers, the
// benchmark's sizes and rows.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { cpu } from './kernels.mjs';
import { translator } from '../../www/i18n/i18n.js';
import { MESSAGES } from '../../www/i18n/all.js';
const { en } = MESSAGES;
import { planSteps, stepView, blockCount, SCAN_CODE } from '../../www/panels/scan/steps.js';
import { planTileSteps, tileStepView, windowAt, tileCount, WINDOW } from '../../www/panels/tiles/tile-steps.js';
import { stateChanges, fewestStateChanges, inversions, pairs, history } from '../../www/panels/order/order.js';
import { benchSizes, repsFor, TARGET_NS, MAX_REPS } from '../../www/panels/bench/bench.js';
import { locate } from '../../www/panels/shared/wgsl.js';

const t = translator('en', en);
const ARTICLE = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1];

test('the scan: 13 steps for the article, each with a sentence, cells and the WGSL it runs', async () => {
  const trace = await cpu(ARTICLE).scanTrace();
  const steps = planSteps(trace);
  assert.equal(steps.length, 13);
  assert.deepEqual([steps[0].kind, steps[1].kind, steps.at(-1).kind], ['load', 'hs', 'result']);
  assert.equal(blockCount(trace), 1);
  const sources = cpu(ARTICLE).kernelSources();
  for (const step of steps) {
    const view = stepView(trace, step, 0, t);
    assert.ok(view.title && view.text, step.kind);
    const ref = SCAN_CODE[step.kind];
    const module = sources.find((s) => s.method === 'scan').modules.find((m) => m.label === ref.module);
    assert.ok(locate(module.wgsl, ref.fn, ref.focus ?? []), `${step.kind}: fn ${ref.fn} in ${ref.module}`);
  }
  const result = stepView(trace, steps.at(-1), 0, t);
  assert.ok(result.rows.some((row) => row.cells.map((c) => c.value).join(',') === '0,3,4,6,9'));
});

test('the tile view: windows of tiles, and every tile of the look-back published inclusive by the end', async () => {
  const flags = Array.from({ length: 5 * 4096 }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const trace = await cpu(flags).tileTrace('lookback', 4);
  assert.equal(tileCount(trace), 5);
  const win = windowAt(trace, 0);
  assert.deepEqual([win.start, win.end], [0, Math.min(5, WINDOW)]);
  const steps = planTileSteps(trace, win);
  assert.ok(steps.some((s) => s.kind === 'lookback'));
  const last = tileStepView(trace, steps, steps.length - 1, win, t);
  assert.ok(last.tiles.every((tile) => tile.status === 'inclusive'));
  const atomic = await cpu(flags).tileTrace('tile-atomic', 4);
  assert.deepEqual(
    planTileSteps(atomic, windowAt(atomic, 0)).map((s) => s.kind),
    ['tiles', 'count', 'claim', 'scatter', 'result'],
  );
});

test('the order panel: state changes, inversions and a history that a scrambled order breaks', () => {
  const n = 16;
  const sorted = Uint32Array.from({ length: n }, (_, i) => i);
  const scrambled = Uint32Array.from([3, 0, 9, 1, 15, 2, 4, 8, 5, 14, 6, 7, 10, 13, 11, 12]);
  assert.equal(stateChanges(sorted, n, 4), 3);
  assert.equal(fewestStateChanges(scrambled, n, 4), 3);
  assert.ok(stateChanges(scrambled, n, 4) > 3);
  assert.equal(inversions(sorted), 0);
  assert.ok(inversions(scrambled) > 0 && inversions(scrambled) <= pairs(n));
  assert.equal(history([sorted, sorted, sorted], n).changed, 0);
  assert.ok(history([sorted, scrambled, sorted], n).changed > 0);
});

test('the benchmark: sizes 2^10 up to the maximum, and enough compactions between two timestamps', () => {
  assert.deepEqual(benchSizes(5000), [1024, 2048, 4096]);
  assert.equal(benchSizes(1 << 24).at(-1), 1 << 24);
  assert.equal(repsFor(TARGET_NS), 1);
  assert.equal(repsFor(1), MAX_REPS);
  assert.ok(repsFor(1e5, 1e5) >= 200);
});
