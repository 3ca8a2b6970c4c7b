// The stepper's model of `packed-scan` (shaders/pack_bits.wgsl `pack_bits_counted`,
// shaders/scan_tiles.wgsl, shaders/tile_scatter_bits.wgsl), from one real run
// (Playground.packedTrace(): the bits, each tile's count read between the
// packing and the scan, the tiles' slots, the indices). Its window is a block
// of 256 flags: eight words of bits. Pure: no DOM here.

import { layout } from '../../core/layout.js';
import { cells, blankView, indicesRow, BLANK as blank } from './steps.js';

const CODE = {
  pack: { module: 'pack_bits', fn: 'pack_bits_counted', focus: ['countOneBits(pack(li, chunk))'] },
  count: { module: 'pack_bits', fn: 'pack_bits_counted', focus: ['tile_counts[tile] = atomicLoad'] },
  scan: { module: 'scan_tiles', fn: 'scan_tiles' },
  scatter: { module: 'tiles', fn: 'tile_scatter_bits' },
  result: { module: 'indirect_args', fn: 'indirect_args' },
};

const windows = (trace) => Math.max(1, Math.ceil(trace.flags.length / layout.block));
const hex = (w) => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

/** The model the stepper draws (www/panels/scan/view.js) for `packed-scan`. */
export function packedModel() {
  return {
    method: 'packed-scan',
    kernels: 'pack_bits_counted → scan_tiles → tile_scatter_bits',
    windowSize: () => layout.block,
    blockLabel: 'scan.block',
    blockCount: windows,
    planSteps(trace) {
      if (trace.flags.length === 0) return [{ kind: 'empty', level: 0 }];
      return ['pack', 'count', 'scan', 'scatter', 'result'].map((kind) => ({ kind, level: 0 }));
    },
    firstBlock(trace) {
      const i = trace.flags.findIndex((f) => f !== 0);
      return i < 0 ? 0 : Math.floor(i / layout.block);
    },
    stepView: packedView,
  };
}

/** @returns {any} the stepper's view of `step` (see steps.js `stepView` for its shape) */
function packedView(trace, step, block, t) {
  const { view, op } = blankView(step, CODE[step.kind] ?? null, t);
  if (step.kind === 'empty') return view;
  const n = trace.flags.length;
  const b = Math.min(block, windows(trace) - 1);
  const start = b * layout.block;
  const live = Math.min(layout.block, n - start);
  const tile = Math.floor(start / layout.tile);
  const tiles = trace.tileCounts.length;
  const where = windows(trace) > 1 ? t('scan.where', { block: String(b) }) : '';
  const flagRow = { key: 'flag', label: 'flag[i]', cells: cells(live, (c) => ({ i: start + c, inv: c, value: trace.flags[start + c] })) };
  const firstWord = start / 32;
  const words = Math.ceil(live / 32);
  const wordRow = { key: 'bits', label: 'bits[w]', cells: cells(words, (w) => ({ i: firstWord + w, inv: 256 + w, value: hex(trace.bits[firstWord + w]) })) };
  const tileRow = (key, label, values) => ({ key, label, cells: cells(tiles, (k) => ({ i: k, inv: 512 + k, value: values[k], mark: k === tile ? 'fresh' : undefined })) });
  /** Where each flag of the window went: its slot in `indices`. */
  const slotOf = new Map();
  trace.indices.forEach((index, slot) => {
    if (index >= start && index < start + live) slotOf.set(index - start, slot);
  });

  switch (step.kind) {
    case 'pack': {
      view.title = t('scan.packed.pack.title', { where });
      view.rows.push(flagRow, wordRow);
      for (let c = 0; c < live; c++) {
        const w = Math.floor(c / 32);
        if (trace.flags[start + c] !== 0) view.arrows.push({ from: ['flag', c], to: ['bits', w], inv: 256 + w, kind: 'copy' });
        op(256 + w).reads.push(['flag', c]);
      }
      for (let w = 0; w < words; w++) op(256 + w).writes.push(['bits', w]);
      const word = trace.bits[firstWord] ?? 0;
      view.text = t('scan.packed.pack', { first: firstWord, word: hex(word), binary: (word >>> 0).toString(2).padStart(32, '0') });
      break;
    }
    case 'count': {
      view.title = t('scan.packed.count.title');
      view.rows.push(wordRow, tileRow('counts', 'tile_counts[t]', trace.tileCounts));
      for (let w = 0; w < words; w++) view.arrows.push({ from: ['bits', w], to: ['counts', tile], inv: 512 + tile, kind: 'copy' });
      op(512 + tile).writes.push(['counts', tile]);
      for (let w = 0; w < words; w++) op(512 + tile).reads.push(['bits', w]);
      view.header = 't';
      view.text = t('scan.packed.count', { tile: String(tile), count: trace.tileCounts[tile] ?? 0, size: layout.tile, words: layout.tile / 32 });
      break;
    }
    case 'scan': {
      view.title = t('scan.packed.scan.title');
      view.rows.push(tileRow('counts', 'tile_counts[t]', trace.tileCounts), tileRow('slots', 'tile_slots[t]', trace.tileSlots));
      for (let k = 0; k < tiles; k++) {
        for (let j = 0; j < k; j++) view.arrows.push({ from: ['counts', j], to: ['slots', k], inv: 512 + k, kind: 'add' });
        for (let j = 0; j < k; j++) op(512 + k).reads.push(['counts', j]);
        op(512 + k).writes.push(['slots', k]);
      }
      view.header = 't';
      view.text = t('scan.packed.scan', { slots: Array.from(trace.tileSlots).join(', '), count: trace.count });
      break;
    }
    case 'scatter': {
      view.title = t('scan.packed.scatter.title', { where });
      view.rows.push(flagRow);
      view.rows.push({ key: 'slot', label: t('scan.packed.slotRow'), cells: cells(live, (c) => ({ i: start + c, inv: c, value: slotOf.has(c) ? slotOf.get(c) : blank })) });
      const { shown, row } = indicesRow(trace);
      view.rows.push(row);
      for (const [c, slot] of slotOf) {
        view.arrows.push({ from: ['flag', c], to: ['slot', c], inv: c, kind: 'copy' });
        if (slot < shown) view.arrows.push({ from: ['slot', c], to: ['indices', slot], inv: c, kind: 'scatter' });
        op(c).reads.push(['flag', c]);
        op(c).writes.push(['slot', c]);
        if (slot < shown) op(c).writes.push(['indices', slot]);
      }
      view.text = t('scan.packed.scatter', { tile: String(tile), base: trace.tileSlots[tile] ?? 0 });
      break;
    }
    case 'result': {
      view.title = t('steps.result.title');
      view.rows.push(indicesRow(trace).row);
      view.header = 'k';
      view.text = t('scan.packed.result', { count: trace.count, n, instanceCount: trace.instanceCount });
      break;
    }
  }
  return view;
}
