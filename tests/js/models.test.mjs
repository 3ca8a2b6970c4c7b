// The panels' models, pure functions of real traces from the CPU mirror: the
// scan's, the atomic methods' and packed-scan's steps, the tile view's steps,
// the order panel's numbers, the benchmark's sizes and rows.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { cpu } from './kernels.mjs';
import { translator } from '../../www/i18n/i18n.js';
import { MESSAGES } from '../../www/i18n/all.js';
const { en } = MESSAGES;
import { planSteps, stepView, blockCount, SCAN_CODE, scanModel } from '../../www/panels/scan/steps.js';
import { atomicModel, reservations } from '../../www/panels/scan/atomic-steps.js';
import { packedModel } from '../../www/panels/scan/packed-steps.js';
import { layout } from '../../www/core/layout.js';
import { planTileSteps, tileStepView, windowAt, tileCount, WINDOW } from '../../www/panels/tiles/tile-steps.js';
import { stateChanges, fewestStateChanges, inversions, pairs, history } from '../../www/panels/order/order.js';
import { benchSizes, repsFor, TARGET_NS, MAX_REPS } from '../../www/panels/bench/bench.js';
import { locate } from '../../www/panels/shared/wgsl.js';
import { stepMs, MS_PER_WORD } from '../../www/panels/shared/pace.js';

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

/** Every step's WGSL reference is a function of a module the method compiles. */
function assertCodeOf(method, model, trace) {
  const sources = cpu([1]).kernelSources();
  const modules = sources.find((s) => s.method === method).modules;
  for (const step of model.planSteps(trace)) {
    const view = model.stepView(trace, step, 0, t);
    assert.ok(view.title && view.text && !view.text.includes('{'), `${method} ${step.kind}: ${view.text}`);
    const ref = view.code;
    const module = modules.find((m) => m.label === ref.module);
    assert.ok(module && locate(module.wgsl, ref.fn, ref.focus ?? []), `${method} ${step.kind}: fn ${ref.fn} in ${ref.module}`);
    for (const focus of ref.focus ?? []) assert.ok(module.wgsl.includes(focus), `${method} ${step.kind}: ${focus}`);
  }
}

/** An atomic trace as a GPU could leave it: `order` is the indices buffer. */
function atomicTraceOf(flags, order) {
  const slots = new Uint32Array(flags.length).fill(layout.noSlot);
  order.forEach((i, slot) => {
    slots[i] = slot;
  });
  return { flags: Uint32Array.from(flags), slots, indices: Uint32Array.from(order), count: order.length, instanceCount: order.length };
}

test('the atomic methods step their own kernels, and every slot is handed out once, in the buffer’s order', async () => {
  const mirror = await cpu(ARTICLE).atomicTrace('atomic');
  assertCodeOf('atomic', atomicModel('atomic'), { ...mirror, flags: Uint32Array.from(ARTICLE) });
  assertCodeOf('aggregated', atomicModel('aggregated'), { ...(await cpu(ARTICLE).atomicTrace('aggregated')), flags: Uint32Array.from(ARTICLE) });
  // 200 flags, every third visible, handed out in a scrambled order (as a GPU may).
  const flags = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const visible = flags.flatMap((f, i) => (f ? [i] : []));
  const order = visible.map((_, k) => visible[(k * 29) % visible.length]);
  const trace = atomicTraceOf(flags, order);
  const model = atomicModel('atomic');
  const steps = model.planSteps(trace);
  const takes = steps.filter((s) => s.kind === 'take');
  assert.ok(takes.length > 1 && takes.length <= 8, `${takes.length} take steps`);
  assert.deepEqual(
    takes.flatMap((s) => Array.from({ length: s.to - s.from }, (_, k) => s.from + k)),
    visible.map((_, k) => k),
    'the take steps hand out slots 0, 1, 2, … once each',
  );
  assert.equal(model.blockCount(trace), Math.ceil(200 / layout.atomicWorkgroup));
  // In each workgroup's window, the slots shown by the last take step are the buffer's.
  for (let block = 0; block < model.blockCount(trace); block++) {
    const view = model.stepView(trace, takes.at(-1), block, t);
    const slotRow = view.rows.find((r) => r.key === 'slot');
    for (const cell of slotRow.cells) assert.equal(cell.value, trace.slots[cell.i] === layout.noSlot ? '·' : trace.slots[cell.i], `slot of ${cell.i}`);
  }
});

test('aggregated: each workgroup’s run and the order the workgroups reserved in, from the indices', () => {
  const size = layout.atomicWorkgroup;
  const flags = Array.from({ length: 3 * size }, (_, i) => (i % 2 === 0 ? 1 : 0));
  const group = (g) => flags.flatMap((f, i) => (f && Math.floor(i / size) === g ? [i] : []));
  // Workgroup 2 reserved first, then 0, then 1; inside each, its own order.
  const order = [...group(2).reverse(), ...group(0), ...group(1)];
  const trace = atomicTraceOf(flags, order);
  assert.deepEqual(
    reservations(trace).map((r) => [r.group, r.base, r.count]),
    [
      [2, 0, size / 2],
      [0, size / 2, size / 2],
      [1, size, size / 2],
    ],
  );
  const model = atomicModel('aggregated');
  const steps = model.planSteps(trace);
  assert.deepEqual(
    steps.map((s) => s.kind),
    ['read', 'local', 'reserve', 'write', 'result'],
  );
  const reserve = model.stepView(trace, steps[2], 0, t);
  assert.match(reserve.text, /2, 0, 1/);
  assert.match(reserve.text, /Not the launch order/);
  const local = model.stepView(trace, steps[1], 2, t);
  const locals = local.rows.find((r) => r.key === 'local').cells.filter((c) => c.value !== '·');
  assert.deepEqual(
    locals.map((c) => c.value),
    locals.map((_, k) => size / 2 - 1 - k),
    'workgroup 2 handed its local slots out in reverse',
  );
});

test('packed-scan steps its bits, tile counts, their scan and the scatter from the mirror’s buffers', async () => {
  const flags = Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 || i > 4900 ? 1 : 0));
  const trace = { ...(await cpu(flags).packedTrace()), flags: Uint32Array.from(flags) };
  const model = packedModel();
  assertCodeOf('packed-scan', model, trace);
  assert.deepEqual(
    model.planSteps(trace).map((s) => s.kind),
    ['pack', 'count', 'scan', 'scatter', 'result'],
  );
  const visibleIn = (from, to) => flags.slice(from, to).filter(Boolean).length;
  assert.deepEqual(Array.from(trace.tileCounts), [visibleIn(0, 4096), visibleIn(4096, 5000)]);
  assert.deepEqual(Array.from(trace.tileSlots), [0, visibleIn(0, 4096)]);
  const pack = model.stepView(trace, { kind: 'pack', level: 0 }, 1, t);
  const words = pack.rows.find((r) => r.key === 'bits').cells;
  assert.equal(words.length, 8);
  // Word 8 holds flags 256..287: bit k is flag 256 + k.
  const expected = flags.slice(256, 288).reduce((w, f, k) => (f ? w | (1 << k) : w), 0) >>> 0;
  assert.equal(words[0].value, `0x${expected.toString(16).padStart(8, '0')}`);
  // The scatter of the last block: each visible flag's slot is where the indices hold it.
  const last = model.blockCount(trace) - 1;
  const scatter = model.stepView(trace, { kind: 'scatter', level: 0 }, last, t);
  for (const cell of scatter.rows.find((r) => r.key === 'slot').cells) {
    if (cell.value === '·') assert.equal(flags[cell.i], 0);
    else assert.equal(trace.indices[cell.value], cell.i);
  }
});

test('the scan’s offsets step opens on the first block that adds something', async () => {
  const flags = Array.from({ length: 700 }, (_, i) => i % 2);
  const trace = await cpu(flags).scanTrace();
  const offsets = planSteps(trace).find((s) => s.kind === 'offsets');
  assert.equal(scanModel.firstBlock(trace, offsets), 1);
  assert.equal(scanModel.firstBlock(trace, { kind: 'load', level: 0 }), null);
  const view = stepView(trace, offsets, 1, t);
  assert.doesNotMatch(view.text, /adds 0/);
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

test('play leaves each step up as long as its text takes to read', async () => {
  const trace = await cpu(ARTICLE).scanTrace();
  for (const step of planSteps(trace)) {
    const view = stepView(trace, step, 0, t);
    const words = `${view.title} ${view.text}`.split(/\s+/).length;
    assert.ok(stepMs(`${view.title} ${view.text}`, 1) >= words * MS_PER_WORD, step.kind);
    assert.ok(stepMs(`${view.title} ${view.text}`, 1) >= 1500, step.kind);
  }
  assert.equal(stepMs('one two', 2), 750);
});

test('an atomic trace read from the page’s own run is the trace the wasm gives: the slot each visible flag got', async () => {
  const { atomicTraceOf, pageRunOf } = await import('../../www/panels/shared/slots.js');
  const flags = Uint32Array.from({ length: 700 }, (_, i) => (i % 3 === 0 ? 1 : i % 7 === 0 ? 5 : 0));
  for (const method of ['atomic', 'aggregated']) {
    const pg = cpu(flags);
    const run = await pg.run(method);
    const own = await pg.atomicTrace(method);
    const read = atomicTraceOf(run, flags, layout.noSlot);
    assert.deepEqual(Array.from(read.slots), Array.from(own.slots), method);
    assert.deepEqual([read.count, read.instanceCount, read.hash], [own.count, own.instanceCount, own.hash], method);
    // Only a run of that method on the flags shown counts as the page's.
    const context = (r) => ({ lastRun: () => r, flags: () => flags });
    assert.ok(pageRunOf(context({ ...run, flags }), method));
    assert.equal(pageRunOf(context({ ...run, flags: flags.slice() }), method), null);
    assert.equal(pageRunOf(context({ ...run, flags, method: 'scan' }), method), null);
  }
});
