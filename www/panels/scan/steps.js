// The scan stepper's model: turns a real trace (Playground.scanTrace(), read back
// from the GPU buffers or the CPU mirror) into a list of steps, and each step into
// rows of cells, the arrows between them, what every invocation reads and writes,
// and one sentence saying what happens and why. Pure: no DOM here.

import { layout } from '../../core/layout.js';

/** Where each kind of step is in the WGSL: the module, the function, and the lines of it the step is about. */
export const SCAN_CODE = {
  load: { module: 'scan_block', fn: 'load' },
  hs: { module: 'scan_block', fn: 'step' },
  exclusive: { module: 'scan_block', fn: 'publish', focus: ['prefix[i] = tmp[li] - v'] },
  blocksum: { module: 'scan_block', fn: 'publish', focus: ['block_sums[block] = tmp[li]'] },
  offsets: { module: 'add_offsets', fn: 'add_offsets' },
  scatter: { module: 'scatter', fn: 'scatter', focus: ['indices[prefix[i]] = object_index(i)'] },
  result: { module: 'indirect_args', fn: 'indirect_args' },
};

/** The steps for a trace: per level load, 8 Hillis-Steele steps, inclusive →
 * exclusive, block sum; then the offsets back down; then scatter and result. */
export function planSteps(trace) {
  const levels = trace.levels.length;
  if (levels === 0) return [{ kind: 'empty', level: 0 }];
  const steps = [];
  for (let level = 0; level < levels; level++) {
    steps.push({ kind: 'load', level });
    trace.levels[level].stepOffsets.forEach((offset, k) => {
      steps.push({ kind: 'hs', level, s: k + 1, offset });
    });
    steps.push({ kind: 'exclusive', level });
    steps.push({ kind: 'blocksum', level });
  }
  for (let level = levels - 2; level >= 0; level--) steps.push({ kind: 'offsets', level });
  steps.push({ kind: 'scatter', level: 0 });
  steps.push({ kind: 'result', level: 0 });
  return steps;
}

/** Number of blocks at level 0 (what the block chooser offers). */
export function blockCount(trace) {
  return trace.levels.length ? Math.ceil(trace.levels[0].input.length / layout.block) : 0;
}

/** The block shown at `level` when block `block0` of level 0 is chosen. */
export function windowAt(trace, level, block0) {
  const len = trace.levels[level].input.length;
  const block = Math.min(Math.floor(block0 / layout.block ** level), Math.ceil(len / layout.block) - 1);
  const start = block * layout.block;
  return { block, start, live: Math.min(layout.block, len - start), len };
}

/** A window of at most one block of entries of a per-block array containing `block`. */
function perBlockWindow(count, block) {
  const start = Math.floor(block / layout.block) * layout.block;
  return { start, end: Math.min(count, start + layout.block) };
}

/** @typedef {{ col: number, i: number, inv: number, value: number | string, tail?: boolean, mark?: string, expected?: number | string }} Cell */

/** A cell no invocation has written (yet): an invisible flag's slot. */
export const BLANK = '·';
/** A snapshot a learner's kernel never recorded (its loop ended before that step). */
export const NOT_RECORDED = '∅';

/** `n` cells, column `c` from `fill(c)` (the other steppers' models build their rows with it). */
export function cells(n, fill) {
  return Array.from({ length: n }, (_, c) => ({ col: c, ...fill(c) }));
}

/**
 * A step's view to fill (the shape `stepView` returns), with `code` its WGSL
 * reference, and `op(inv)`: what invocation `inv` reads and writes. The empty
 * step's view comes already worded.
 */
export function blankView(step, code, t) {
  const view = { title: '', text: '', code, rows: [], arrows: [], ops: new Map(), step };
  if (step.kind === 'empty') {
    view.title = t('scan.empty.title');
    view.text = t('scan.empty');
  }
  /** @param {number} inv */
  const op = (inv) => {
    if (!view.ops.has(inv)) view.ops.set(inv, { reads: [], writes: [] });
    return view.ops.get(inv);
  };
  return { view, op };
}

/** The output row of the atomic and packed models: the first block of `indices[k]`, and how many it shows. */
export function indicesRow(trace) {
  const shown = Math.min(trace.count, layout.block);
  return { shown, row: { key: 'indices', label: 'indices[k]', cells: cells(shown, (k) => ({ i: k, inv: -1, value: trace.indices[k] })) } };
}

/** @returns {Cell[]} */
function cellsOf(values, start, live, extra = {}) {
  /** @type {Cell[]} */
  const cells = [];
  for (let col = 0; col < live; col++) {
    // A learner's loop that stopped short left its later snapshots unwritten: shown as not recorded, not as a number.
    const value = values[start + col] === layout.unwritten ? NOT_RECORDED : values[start + col];
    cells.push({ col, i: start + col, inv: col, value, ...extra });
  }
  return cells;
}

const levelName = (t, level) => (level === 0 ? t('scan.level0') : t('scan.levelN', { level: String(level), below: String(level - 1) }));

/**
 * Everything the stepper draws for `step` with level-0 block `block0` chosen,
 * in the language of `t` (www/i18n.js):
 * `{ title, text, code: { module, fn, focus? } (www/code-map.js), rows: [{ key, label, cells: [{ col, i, inv, value, tail?, mark? }] }],
 *    arrows: [{ from: [rowKey, col], to: [rowKey, col], inv, kind }],
 *    ops: Map(inv -> { reads: [[rowKey, col]], writes: [[rowKey, col]] }) }`.
 */
export function stepView(trace, step, block0, t) {
  const { view, op } = blankView(step, SCAN_CODE[step.kind] ?? null, t);
  const link = (inv, from, to, kind) => {
    view.arrows.push({ from, to, inv, kind });
  };
  const n = trace.flags.length;

  if (step.kind === 'empty') return view;

  const lv = trace.levels[step.level];
  const w = windowAt(trace, step.level, block0);
  const where = trace.levels.length > 1 || w.len > layout.block ? t('scan.where', { block: String(w.block) }) : '';
  const heading = (what) => t('scan.heading', { level: cap(levelName(t, step.level)), where, what });
  const padding = layout.block - w.live;
  const isTop = step.level === trace.levels.length - 1;

  switch (step.kind) {
    case 'load': {
      view.title = heading(t('scan.load.what'));
      view.rows.push({
        key: 'input',
        label: step.level === 0 ? 'flag[i]' : t('scan.load.sumsRow', { below: String(step.level - 1) }),
        cells: cellsOf(lv.input, w.start, w.live),
      });
      view.rows.push({ key: 'tmp', label: 'tmp[li]', cells: cellsOf(lv.steps[0], w.start, w.live) });
      for (let c = 0; c < w.live; c++) {
        link(c, ['input', c], ['tmp', c], 'copy');
        op(c).reads.push(['input', c]);
        op(c).writes.push(['tmp', c]);
      }
      const past = padding > 0 ? t('scan.load.past', { padding }) : '';
      view.text = step.level === 0 ? t('scan.load.flags', { block: String(w.block), past }) : t('scan.load.sums', { len: w.len, below: String(step.level - 1), past });
      break;
    }
    case 'hs': {
      const p = step.offset;
      const before = lv.steps[step.s - 1];
      const after = lv.steps[step.s];
      view.title = heading(t('scan.hs.what', { s: String(step.s), offset: String(p) }));
      const changed = (c) => before[w.start + c] !== after[w.start + c];
      view.rows.push({ key: 'before', label: t('scan.hs.before'), cells: cellsOf(before, w.start, w.live) });
      view.rows.push({
        key: 'after',
        label: t('scan.hs.after'),
        cells: cellsOf(after, w.start, w.live).map((cell) => ({ ...cell, mark: changed(cell.col) ? 'changed' : null })),
      });
      for (let c = 0; c < w.live; c++) {
        link(c, ['before', c], ['after', c], 'copy');
        op(c).reads.push(['before', c]);
        if (c >= p) {
          link(c, ['before', c - p], ['after', c], 'add');
          op(c).reads.push(['before', c - p]);
        }
        op(c).writes.push(['after', c]);
      }
      const covers = Math.min(2 * p, layout.block);
      const why = step.s === 1 ? t('scan.hs.first') : t('scan.hs.later', { offset: String(p) });
      const now = covers === layout.block ? t('scan.hs.nowAll', { covers: String(covers) }) : t('scan.hs.now', { covers: String(covers) });
      const idle = w.live <= p ? t('scan.hs.idle', { live: w.live, offset: String(p) }) : '';
      view.text = t('scan.hs', { offset: String(p), why, now, idle });
      break;
    }
    case 'exclusive': {
      view.title = heading(t('scan.exclusive.what'));
      view.rows.push({ key: 'own', label: t('scan.row.own'), cells: cellsOf(lv.steps[0], w.start, w.live) });
      view.rows.push({ key: 'tmp', label: t('scan.row.inclusive'), cells: cellsOf(lv.steps[lv.steps.length - 1], w.start, w.live) });
      view.rows.push({ key: 'prefix', label: 'prefix[i]', cells: cellsOf(lv.blockPrefix, w.start, w.live) });
      for (let c = 0; c < w.live; c++) {
        link(c, ['tmp', c], ['prefix', c], 'copy');
        op(c).reads.push(['own', c], ['tmp', c]);
        op(c).writes.push(['prefix', c]);
      }
      // Above level 0 the values are block sums: the prefix counts the visible
      // flags of the blocks before, which is what the offsets step adds back.
      view.text = step.level === 0 ? t('scan.exclusive') : t('scan.exclusive.upper', { below: String(step.level - 1) });
      break;
    }
    case 'blocksum': {
      view.title = heading(t('scan.blocksum.what'));
      const sumsWindow = perBlockWindow(lv.blockSums.length, w.block);
      // Only the block's end matters here: its last few values and invocation 255.
      const tmpCells = cellsOf(lv.steps[lv.steps.length - 1], w.start, w.live).slice(-8);
      let lastCol = w.live - 1;
      if (w.live < layout.block) {
        // tmp[255] is not in the trace (it is past the end) but it is what was
        // published: block_sums[block] read back from the GPU.
        tmpCells.push({ col: layout.block - 1, i: w.start + layout.block - 1, inv: layout.block - 1, value: lv.blockSums[w.block], tail: true });
        lastCol = layout.block - 1;
      }
      view.rows.push({ key: 'tmp', label: t('scan.row.inclusive'), cells: tmpCells });
      const sumCells = [];
      for (let b = sumsWindow.start; b < sumsWindow.end; b++) {
        sumCells.push({ col: b - sumsWindow.start, i: b, inv: b === w.block ? lastCol : -1, value: lv.blockSums[b], mark: b === w.block ? 'target' : null });
      }
      view.rows.push({ key: 'sums', label: isTop ? 'count' : 'block_sums[b]', cells: sumCells });
      link(lastCol, ['tmp', lastCol], ['sums', w.block - sumsWindow.start], 'add');
      op(lastCol).reads.push(['tmp', lastCol]);
      op(lastCol).writes.push(['sums', w.block - sumsWindow.start]);
      const sum = lv.blockSums[w.block];
      const pad = w.live < layout.block ? t('scan.blocksum.pad', { padding: layout.block - w.live }) : '';
      const then = isTop ? t('scan.blocksum.top', { sum }) : t('scan.blocksum.next', { level: String(step.level + 1), sums: lv.blockSums.length });
      view.text = t('scan.blocksum', { block: String(w.block), sum, pad, then });
      break;
    }
    case 'offsets': {
      view.title = heading(t('scan.offsets.what'));
      const offWindow = perBlockWindow(lv.offsets.length, w.block);
      const offCells = [];
      for (let b = offWindow.start; b < offWindow.end; b++) {
        offCells.push({ col: b - offWindow.start, i: b, inv: -1, value: lv.offsets[b], mark: b === w.block ? 'target' : null });
      }
      const offCol = w.block - offWindow.start;
      view.rows.push({ key: 'offsets', label: t('scan.row.offsets', { level: String(step.level + 1) }), cells: offCells });
      view.rows.push({ key: 'blockprefix', label: t('scan.row.blockPrefix'), cells: cellsOf(lv.blockPrefix, w.start, w.live) });
      view.rows.push({ key: 'prefix', label: 'prefix[i]', cells: cellsOf(lv.prefix, w.start, w.live) });
      for (let c = 0; c < w.live; c++) {
        link(c, ['blockprefix', c], ['prefix', c], 'copy');
        op(c).reads.push(['blockprefix', c], ['offsets', offCol]);
        op(c).writes.push(['prefix', c]);
      }
      const off = lv.offsets[w.block];
      const before = w.block === 1 ? t('scan.offsets.block0') : t('scan.offsets.blocks', { last: String(w.block - 1) });
      const earlier = w.block === 0 ? t('scan.offsets.first') : t('scan.offsets.earlier', { block: String(w.block), off, before });
      view.text = t('scan.offsets', { block: String(w.block), earlier });
      break;
    }
    case 'scatter': {
      view.title = t('scan.scatter.title', { where });
      const flags = trace.flags;
      const prefix = lv.prefix;
      const base = prefix[w.start];
      const count = lv.blockSums[w.block];
      view.rows.push({ key: 'flag', label: 'flag[i]', cells: cellsOf(flags, w.start, w.live) });
      view.rows.push({ key: 'prefix', label: 'prefix[i]', cells: cellsOf(prefix, w.start, w.live) });
      const outCells = [];
      for (let slot = base; slot < base + count; slot++) {
        outCells.push({ col: slot - base, i: slot, inv: trace.indices[slot] - w.start, value: trace.indices[slot] });
      }
      view.rows.push({ key: 'indices', label: base ? `indices[${t.num(base)} + k]` : 'indices[k]', cells: outCells });
      for (let c = 0; c < w.live; c++) {
        op(c).reads.push(['flag', c]);
        if (flags[w.start + c] !== 0) {
          const col = prefix[w.start + c] - base;
          op(c).reads.push(['prefix', c]);
          op(c).writes.push(['indices', col]);
          link(c, ['prefix', c], ['indices', col], 'scatter');
        }
      }
      view.text = t('scan.scatter');
      break;
    }
    case 'result': {
      view.title = t('steps.result.title');
      const shown = Math.min(trace.indices.length, layout.block);
      const out = [];
      for (let k = 0; k < shown; k++) out.push({ col: k, i: k, inv: k, value: trace.indices[k] });
      view.rows.push({ key: 'indices', label: 'visibles[k]', cells: out });
      const more = trace.indices.length > shown ? t('scan.result.more', { shown }) : '';
      view.text = t('scan.result', { count: trace.count, n, more, instanceCount: trace.instanceCount });
      break;
    }
    default:
      throw new Error(`unknown step kind ${step.kind}`);
  }
  return view;
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * Marks the cells of `view` (a learner's kernel's trace) whose values differ
 * from `reference`'s (the CPU mirror's view of the same step): `mark: 'wrong'`
 * and the `expected` value. Returns how many differ.
 * @param {{ rows: { key: string, cells: Cell[] }[] }} view  @param {{ rows: { key: string, cells: Cell[] }[] }} reference
 */
export function markWrong(view, reference) {
  let wrong = 0;
  for (const row of view.rows) {
    const ours = reference.rows.find((r) => r.key === row.key);
    if (!ours) continue;
    for (const cell of row.cells) {
      const expected = ours.cells.find((c) => c.col === cell.col && c.i === cell.i);
      if (expected && expected.value !== cell.value) {
        cell.mark = 'wrong';
        cell.expected = expected.value;
        wrong++;
      }
    }
  }
  return wrong;
}

/**
 * The first step (1-based) and block where a learner's trace differs from the
 * reference's, in the stepper's order; null when every step agrees.
 * @param {any} trace  @param {any} reference  @param {any} t  @param {StepModel} [model]
 */
export function firstWrong(trace, reference, t, model = scanModel) {
  const steps = model.planSteps(trace);
  const blocks = model.blockCount(trace);
  for (const [k, step] of steps.entries()) {
    for (let block = 0; block < blocks; block++) {
      if (markWrong(model.stepView(trace, step, block, t), model.stepView(reference, step, block, t)) > 0) return { step: k + 1, block };
      // Steps past the block scans show every block at once.
      if (step.level > 0 || !['load', 'hs', 'exclusive', 'blocksum'].includes(step.kind)) break;
    }
  }
  return null;
}

/**
 * What the stepper (view.js) steps: a method's steps from its own trace.
 * - `kernels`: the kernels it runs, as the stepper's heading names them;
 * - `windowSize()`: the flags one block of the chooser shows; `blockLabel`: the chooser's message;
 * - `ordered`: a learner's kernel is marked against the CPU mirror's trace (an
 *   atomic method's order is free: nothing to mark);
 * - `firstBlock(trace)`: where a step first does something (null: block 0).
 * @typedef {{ method: string, kernels: string, windowSize: () => number, blockLabel: string, ordered?: boolean,
 *   planSteps: (trace: any) => any[], blockCount: (trace: any) => number, firstBlock?: (trace: any, step: any) => number | null,
 *   stepView: (trace: any, step: any, block: number, t: any) => any }} StepModel
 */

/** @type {StepModel} the scan's */
export const scanModel = {
  method: 'scan',
  kernels: 'scan_block → add_offsets → scatter',
  windowSize: () => layout.block,
  blockLabel: 'scan.block',
  ordered: true,
  planSteps,
  blockCount,
  // Block 0 adds nothing in the offsets step: it opens on the first block that
  // adds something (block 1 of its level: level-0 block 256^level).
  firstBlock: (trace, step) => {
    const first = layout.block ** step.level;
    return step.kind === 'offsets' && first < blockCount(trace) ? first : null;
  },
  stepView,
};
