// The scan stepper's model: turns a real trace (Playground.scanTrace(), read back
// from the GPU buffers or the CPU mirror) into a list of steps, and each step into
// rows of cells, the arrows between them, what every invocation reads and writes,
// and one sentence saying what happens and why. Pure: no DOM here.

import { grouped } from './dom.js';
import { layout } from './layout.js';

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

function cellsOf(values, start, live, extra = {}) {
  const cells = [];
  for (let col = 0; col < live; col++) {
    cells.push({ col, i: start + col, inv: col, value: values[start + col], ...extra });
  }
  return cells;
}

const CODE = {
  load: `var v = 0u;
if (i < arrayLength(&input)) {
  v = input[i];
  if (FLAGS_INPUT) { v = select(0u, 1u, v != 0u); }
}
tmp[li] = v;
workgroupBarrier();`,
  hs: `var sum = tmp[li];
if (li >= offset) {
  sum = sum + tmp[li - offset];
}
workgroupBarrier();   // everyone has read before anyone writes
tmp[li] = sum;
workgroupBarrier();   // everyone has written before the next read`,
  exclusive: `if (i < arrayLength(&input)) {
  prefix[i] = tmp[li] - v;   // inclusive -> exclusive
}`,
  blocksum: `if (li == BLOCK - 1u && block < arrayLength(&block_sums)) {
  block_sums[block] = tmp[li];
}`,
  offsets: `let i = block * BLOCK + li;
if (i >= arrayLength(&prefix)) { return; }
prefix[i] = prefix[i] + offsets[block];`,
  scatter: `if (i >= arrayLength(&visible)) { return; }
if (visible[i] != 0u) {
  indices[prefix[i]] = i;   // the slot was decided by the scan
}`,
  result: `args[1] = count[0];   // instanceCount, on the GPU

// draw_instances.wgsl, one drawIndirect:
let object = visibles[instance_index];`,
  empty: '',
};

const levelName = (level) => (level === 0 ? 'level 0 (flags)' : `level ${level} (block sums of level ${level - 1})`);

/**
 * Everything the stepper draws for `step` with level-0 block `block0` chosen:
 * `{ title, text, code, rows: [{ key, label, cells: [{ col, i, inv, value, tail?, mark? }] }],
 *    arrows: [{ from: [rowKey, col], to: [rowKey, col], inv, kind }],
 *    ops: Map(inv -> { reads: [[rowKey, col]], writes: [[rowKey, col]] }) }`.
 */
export function stepView(trace, step, block0 = 0) {
  const view = { title: '', text: '', code: CODE[step.kind], rows: [], arrows: [], ops: new Map(), step };
  const op = (inv) => {
    if (!view.ops.has(inv)) view.ops.set(inv, { reads: [], writes: [] });
    return view.ops.get(inv);
  };
  const link = (inv, from, to, kind) => {
    view.arrows.push({ from, to, inv, kind });
  };
  const n = trace.flags.length;

  if (step.kind === 'empty') {
    view.title = 'No flags';
    view.text = 'There are no flags to scan: add at least one.';
    return view;
  }

  const lv = trace.levels[step.level];
  const w = windowAt(trace, step.level, block0);
  const where = trace.levels.length > 1 || w.len > layout.block ? ` · block ${w.block}` : '';
  const padding = layout.block - w.live;
  const isTop = step.level === trace.levels.length - 1;

  switch (step.kind) {
    case 'load': {
      view.title = `${cap(levelName(step.level))}${where} · load into shared memory`;
      view.rows.push({
        key: 'input',
        label: step.level === 0 ? 'flag[i]' : `block_sums of level ${step.level - 1}`,
        cells: cellsOf(lv.input, w.start, w.live),
      });
      view.rows.push({ key: 'tmp', label: 'tmp[li]', cells: cellsOf(lv.steps[0], w.start, w.live) });
      for (let c = 0; c < w.live; c++) {
        link(c, ['input', c], ['tmp', c], 'copy');
        op(c).reads.push(['input', c]);
        op(c).writes.push(['tmp', c]);
      }
      const past = padding > 0 ? ` The other ${padding} invocations of the workgroup are past the end and load 0.` : '';
      view.text =
        step.level === 0
          ? `Workgroup ${w.block} has 256 invocations; each copies its flag into the shared array tmp[li], counting any nonzero flag as 1, and then all of them wait at a barrier so that nobody reads tmp before everyone has written it.${past}`
          : `The ${grouped(w.len)} block sums of level ${step.level - 1} are scanned by the very same pipeline one level up; this time each invocation loads its value as it is, not clamped to 1, because these are counts, not flags.${past}`;
      break;
    }
    case 'hs': {
      const p = step.offset;
      const before = lv.steps[step.s - 1];
      const after = lv.steps[step.s];
      view.title = `${cap(levelName(step.level))}${where} · Hillis–Steele step ${step.s} of 8, offset ${p}`;
      const changed = (c) => before[w.start + c] !== after[w.start + c];
      view.rows.push({ key: 'before', label: `tmp before`, cells: cellsOf(before, w.start, w.live) });
      view.rows.push({
        key: 'after',
        label: `tmp after`,
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
      let why;
      if (step.s === 1) {
        why = `every invocation with li ≥ 1 adds its left neighbour, tmp[li − 1], to its own value; it reads both into a register, waits at a barrier, then writes and waits again, and both barriers sit outside the \`if (li >= offset)\` because workgroupBarrier must be reached by every invocation of the workgroup (uniform control flow).`;
      } else {
        why = `every invocation with li ≥ ${p} adds tmp[li − ${p}], read before the first barrier so that no neighbour sees a half-updated array; invocations with li < ${p} skip the addition but still reach both barriers, which is why the barriers are outside the \`if\`.`;
      }
      const now = `Now tmp[li] is the sum of the ${covers} values ending at li${covers === layout.block ? ': the inclusive prefix of the block' : ''}.`;
      const idle = w.live <= p ? ` None of the ${w.live} real elements has a partner ${p} to its left, so nothing shown changes, yet all 256 invocations still run this step.` : '';
      view.text = `Offset ${p}: ${why} ${now}${idle}`;
      break;
    }
    case 'exclusive': {
      view.title = `${cap(levelName(step.level))}${where} · inclusive → exclusive`;
      view.rows.push({ key: 'own', label: 'v (own value)', cells: cellsOf(lv.steps[0], w.start, w.live) });
      view.rows.push({ key: 'tmp', label: 'tmp (inclusive)', cells: cellsOf(lv.steps[lv.steps.length - 1], w.start, w.live) });
      view.rows.push({ key: 'prefix', label: 'prefix[i]', cells: cellsOf(lv.blockPrefix, w.start, w.live) });
      for (let c = 0; c < w.live; c++) {
        link(c, ['tmp', c], ['prefix', c], 'copy');
        op(c).reads.push(['own', c], ['tmp', c]);
        op(c).writes.push(['prefix', c]);
      }
      view.text = `tmp[li] counts the element itself (an inclusive prefix), but a slot must count only what comes before: each invocation writes prefix[i] = tmp[li] − v, subtracting its own value, which turns the inclusive prefix into the exclusive one: prefix[i] is the number of ${step.level === 0 ? 'visible flags' : 'visibles in the blocks'} before it inside this block.`;
      break;
    }
    case 'blocksum': {
      view.title = `${cap(levelName(step.level))}${where} · the block sum`;
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
      view.rows.push({ key: 'tmp', label: 'tmp (inclusive)', cells: tmpCells });
      const sumCells = [];
      for (let b = sumsWindow.start; b < sumsWindow.end; b++) {
        sumCells.push({ col: b - sumsWindow.start, i: b, inv: b === w.block ? lastCol : -1, value: lv.blockSums[b], mark: b === w.block ? 'target' : null });
      }
      view.rows.push({ key: 'sums', label: isTop ? 'count' : 'block_sums[b]', cells: sumCells });
      link(lastCol, ['tmp', lastCol], ['sums', w.block - sumsWindow.start], 'add');
      op(lastCol).reads.push(['tmp', lastCol]);
      op(lastCol).writes.push(['sums', w.block - sumsWindow.start]);
      const sum = lv.blockSums[w.block];
      const pad = w.live < layout.block ? `, the ${layout.block - w.live} padding zeros included` : '';
      const then = isTop
        ? ` This is the top level, a single block, so its sum ${grouped(sum)} is the number of visible flags: the count the indirect arguments need.`
        : ` Level ${step.level + 1} now scans these ${grouped(lv.blockSums.length)} block sums.`;
      view.text = `Only the last invocation, li = 255, writes block_sums[${w.block}] = ${grouped(sum)}: after the eighth step its tmp holds the inclusive sum of the whole block${pad}, so it is the one invocation that knows the block's total.${then}`;
      break;
    }
    case 'offsets': {
      view.title = `${cap(levelName(step.level))}${where} · add the block offsets`;
      const offWindow = perBlockWindow(lv.offsets.length, w.block);
      const offCells = [];
      for (let b = offWindow.start; b < offWindow.end; b++) {
        offCells.push({ col: b - offWindow.start, i: b, inv: -1, value: lv.offsets[b], mark: b === w.block ? 'target' : null });
      }
      const offCol = w.block - offWindow.start;
      view.rows.push({ key: 'offsets', label: `offsets[b] (level ${step.level + 1} prefix)`, cells: offCells });
      view.rows.push({ key: 'blockprefix', label: 'prefix in block', cells: cellsOf(lv.blockPrefix, w.start, w.live) });
      view.rows.push({ key: 'prefix', label: 'prefix[i]', cells: cellsOf(lv.prefix, w.start, w.live) });
      for (let c = 0; c < w.live; c++) {
        link(c, ['blockprefix', c], ['prefix', c], 'copy');
        op(c).reads.push(['blockprefix', c], ['offsets', offCol]);
        op(c).writes.push(['prefix', c]);
      }
      const off = lv.offsets[w.block];
      const before = w.block === 1 ? 'block 0' : `blocks 0…${w.block - 1}`;
      const earlier = w.block === 0 ? 'block 0 adds 0, since no block comes before it' : `offsets[${w.block}] = ${grouped(off)} is how many visibles lie in ${before}`;
      view.text = `add_offsets: every invocation of block ${w.block} adds its block's offset — the exclusive scan of the block sums, done one level up — to its prefix within the block, which turns it into the global exclusive prefix; here ${earlier}.`;
      break;
    }
    case 'scatter': {
      view.title = `Scatter${where}`;
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
      view.rows.push({ key: 'indices', label: base ? `indices[${grouped(base)} + k]` : 'indices[k]', cells: outCells });
      for (let c = 0; c < w.live; c++) {
        op(c).reads.push(['flag', c]);
        if (flags[w.start + c] !== 0) {
          const col = prefix[w.start + c] - base;
          op(c).reads.push(['prefix', c]);
          op(c).writes.push(['indices', col]);
          link(c, ['prefix', c], ['indices', col], 'scatter');
        }
      }
      view.text = `Every invocation whose flag is visible writes its own index i to indices[prefix[i]]; the scan has already given each one a different slot, so no atomics are needed and the list keeps the input order, the same buffer bit for bit on every run. Invisible invocations just return.`;
      break;
    }
    case 'result': {
      view.title = 'Result: the dense list and the indirect arguments';
      const shown = Math.min(trace.indices.length, layout.block);
      const out = [];
      for (let k = 0; k < shown; k++) out.push({ col: k, i: k, inv: k, value: trace.indices[k] });
      view.rows.push({ key: 'indices', label: 'visibles[k]', cells: out });
      const more = trace.indices.length > shown ? ` (the first ${shown} are shown)` : '';
      view.text = `The last prefix plus the last flag is the total, ${grouped(trace.count)} visible of ${grouped(n)}${more}; it goes into the indirect-args buffer as instanceCount = ${grouped(trace.instanceCount)}, and one drawIndirect runs that many instances, each vertex shader finding its object with visibles[instance_index].`;
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
