// The stepper's model of the two atomic methods (`atomic`: shaders/atomic_counter.wgsl,
// `aggregated`: shaders/atomic_aggregated.wgsl), from one real run
// (Playground.atomicTrace(): the slot each invocation got, read from the output
// buffer the GPU wrote). The order the counter handed the slots out in is that
// buffer's list: nothing here invents a schedule. Pure: no DOM here.

import { layout } from '../../core/layout.js';
import { cells, blankView, indicesRow, BLANK as blank } from './steps.js';

/** Where each kind of step is in the WGSL. */
const CODE = {
  atomic_counter: {
    read: { module: 'atomic_counter', fn: 'atomic_counter', focus: ['visible[i] == 0u'] },
    take: { module: 'atomic_counter', fn: 'atomic_counter', focus: ['atomicAdd(&counter, 1u)'] },
    write: { module: 'atomic_counter', fn: 'atomic_counter', focus: ['indices[slot] = object_index(i)'] },
  },
  atomic_aggregated: {
    read: { module: 'atomic_aggregated', fn: 'atomic_aggregated', focus: ['let passes'] },
    local: { module: 'atomic_aggregated', fn: 'atomic_aggregated', focus: ['atomicAdd(&local_count, 1u)'] },
    reserve: { module: 'atomic_aggregated', fn: 'atomic_aggregated', focus: ['global_base = atomicAdd'] },
    write: { module: 'atomic_aggregated', fn: 'atomic_aggregated', focus: ['indices[global_base + local_slot]'] },
  },
  indirect_args: { module: 'indirect_args', fn: 'indirect_args' },
};

/** The most slots one "take" step hands out: the steps stay few on a long array. */
const TAKES = 8;

/** @param {{ flags: Uint32Array, slots: Uint32Array, indices: Uint32Array, count: number }} trace */
const windows = (trace) => Math.max(1, Math.ceil(trace.flags.length / layout.atomicWorkgroup));

/** The flags of workgroup `w`: `{ start, live }`. */
function windowOf(trace, w) {
  const size = layout.atomicWorkgroup;
  const start = Math.min(w, windows(trace) - 1) * size;
  return { start, live: Math.max(0, Math.min(size, trace.flags.length - start)) };
}

/** Each workgroup's run in the output, in the order the workgroups reserved: `{ group, base, count }`. */
export function reservations(trace) {
  const size = layout.atomicWorkgroup;
  const runs = new Map();
  trace.indices.forEach((index, slot) => {
    const group = Math.floor(index / size);
    const run = runs.get(group);
    if (run) {
      run.base = Math.min(run.base, slot);
      run.count++;
    } else runs.set(group, { group, base: slot, count: 1 });
  });
  return [...runs.values()].sort((a, b) => a.base - b.base);
}

/** The slots `[from, to)` in batches of at most TAKES: the atomic method's "take" steps. */
function takeBatches(count) {
  const per = Math.max(1, Math.ceil(count / TAKES));
  const batches = [];
  for (let from = 0; from < count; from += per) batches.push({ from, to: Math.min(count, from + per) });
  return batches;
}

/**
 * The model the stepper draws (www/panels/scan/view.js) for an atomic method.
 * @param {'atomic' | 'aggregated'} method
 */
export function atomicModel(method) {
  return {
    method,
    kernels: method === 'atomic' ? 'atomic_counter' : 'atomic_aggregated',
    windowSize: () => layout.atomicWorkgroup,
    blockLabel: 'scan.atomic.group',
    blockCount: windows,
    planSteps(trace) {
      if (trace.flags.length === 0) return [{ kind: 'empty', level: 0 }];
      const steps = [{ kind: 'read', level: 0 }];
      if (method === 'atomic') for (const batch of takeBatches(trace.count)) steps.push({ kind: 'take', level: 0, ...batch });
      else steps.push({ kind: 'local', level: 0 }, { kind: 'reserve', level: 0 });
      steps.push({ kind: 'write', level: 0 }, { kind: 'result', level: 0 });
      return steps;
    },
    /** The first workgroup with a visible flag: where a step shows something happen. */
    firstBlock(trace) {
      const i = trace.slots.findIndex((s) => s !== layout.noSlot);
      return i < 0 ? 0 : Math.floor(i / layout.atomicWorkgroup);
    },
    stepView: (trace, step, block, t) => atomicView(method, trace, step, block, t),
  };
}

/** @returns {any} the stepper's view of `step` (see steps.js `stepView` for its shape) */
function atomicView(method, trace, step, block, t) {
  const kernel = method === 'atomic' ? 'atomic_counter' : 'atomic_aggregated';
  const { view, op } = blankView(step, CODE[kernel][step.kind] ?? (step.kind === 'result' ? CODE.indirect_args : null), t);
  if (step.kind === 'empty') return view;
  const { start, live } = windowOf(trace, block);
  const group = Math.floor(start / layout.atomicWorkgroup);
  const where = windows(trace) > 1 ? t('scan.atomic.where', { group: String(group) }) : '';
  const visibleHere = [];
  for (let c = 0; c < live; c++) if (trace.slots[start + c] !== layout.noSlot) visibleHere.push(c);
  const flagRow = { key: 'flag', label: 'visible[i]', cells: cells(live, (c) => ({ i: start + c, inv: c, value: trace.flags[start + c] })) };
  const runs = method === 'aggregated' ? reservations(trace) : [];
  const run = runs.find((r) => r.group === group) ?? { group, base: layout.noSlot, count: 0 };
  const localOf = (c) => trace.slots[start + c] - run.base;

  switch (step.kind) {
    case 'read': {
      view.title = t('scan.atomic.read.title', { where });
      view.rows.push(flagRow);
      for (let c = 0; c < live; c++) op(c).reads.push(['flag', c]);
      view.text = t(method === 'atomic' ? 'scan.atomic.read' : 'scan.aggregated.read', { visible: visibleHere.length, live, group: String(group) });
      break;
    }
    case 'take': {
      // Slots handed out up to this step, in this workgroup's window.
      const slots = step.to - step.from === 1 ? t('scan.atomic.slot', { slot: step.from }) : t('scan.atomic.slots', { from: step.from, last: step.to - 1 });
      view.title = t('scan.atomic.take.title', { slots, where });
      view.rows.push(flagRow);
      view.rows.push({
        key: 'slot',
        label: t('scan.atomic.slotRow'),
        cells: cells(live, (c) => {
          const slot = trace.slots[start + c];
          const taken = slot !== layout.noSlot && slot < step.to;
          return { i: start + c, inv: c, value: taken ? slot : blank, mark: taken && slot >= step.from ? 'fresh' : undefined };
        }),
      });
      const here = [];
      for (let slot = step.from; slot < step.to; slot++) {
        const i = trace.indices[slot];
        if (i >= start && i < start + live) {
          const c = i - start;
          here.push(`${slot} → ${i}`);
          view.arrows.push({ from: ['flag', c], to: ['slot', c], inv: c, kind: 'copy' });
          op(c).reads.push(['flag', c]);
          op(c).writes.push(['slot', c]);
        }
      }
      const elsewhere = step.to - step.from - here.length;
      view.text = t('scan.atomic.take', {
        slots,
        here: here.length ? here.join(', ') : t('scan.atomic.none'),
        elsewhere: elsewhere > 0 ? t('scan.atomic.elsewhere', { n: elsewhere }) : '',
      });
      break;
    }
    case 'local': {
      view.title = t('scan.aggregated.local.title', { where });
      view.rows.push(flagRow);
      view.rows.push({
        key: 'local',
        label: 'local_slot',
        cells: cells(live, (c) => ({ i: start + c, inv: c, value: trace.slots[start + c] === layout.noSlot ? blank : localOf(c) })),
      });
      for (const c of visibleHere) {
        view.arrows.push({ from: ['flag', c], to: ['local', c], inv: c, kind: 'copy' });
        op(c).reads.push(['flag', c]);
        op(c).writes.push(['local', c]);
      }
      const order = visibleHere
        .slice()
        .sort((a, b) => localOf(a) - localOf(b))
        .map((c) => String(start + c));
      view.text = t('scan.aggregated.local', { count: visibleHere.length, list: order.join(', ') || t('scan.atomic.none') });
      break;
    }
    case 'reserve': {
      view.title = t('scan.aggregated.reserve.title');
      // One cell per workgroup that reserved, in the order it did.
      const shown = runs.slice(0, layout.block);
      view.rows.push({ key: 'group', label: t('scan.aggregated.groupRow'), cells: shown.map((r, k) => ({ col: k, i: k, inv: k, value: r.group, mark: r.group === group ? 'fresh' : undefined })) });
      view.rows.push({ key: 'count', label: 'local_count', cells: shown.map((r, k) => ({ col: k, i: k, inv: k, value: r.count })) });
      view.rows.push({ key: 'base', label: 'global_base', cells: shown.map((r, k) => ({ col: k, i: k, inv: k, value: r.base })) });
      shown.forEach((_, k) => {
        view.arrows.push({ from: ['count', k], to: ['base', k], inv: k, kind: 'copy' });
        op(k).reads.push(['count', k]);
        op(k).writes.push(['base', k]);
      });
      view.header = 'k';
      const launch = runs.every((r, k) => k === 0 || runs[k - 1].group < r.group);
      view.text = t('scan.aggregated.reserve', {
        list: runs.map((r) => r.group).join(', ') || t('scan.atomic.none'),
        launch: runs.length > 1 ? t(launch ? 'scan.aggregated.inLaunch' : 'scan.aggregated.outOfLaunch') : '',
      });
      break;
    }
    case 'write': {
      view.title = t('scan.atomic.write.title', { where });
      view.rows.push(flagRow);
      const slotKey = method === 'atomic' ? 'slot' : 'local';
      view.rows.push({
        key: slotKey,
        label: method === 'atomic' ? t('scan.atomic.slotRow') : 'global_base + local_slot',
        cells: cells(live, (c) => ({ i: start + c, inv: c, value: trace.slots[start + c] === layout.noSlot ? blank : trace.slots[start + c] })),
      });
      const { shown, row } = indicesRow(trace);
      view.rows.push(row);
      for (const c of visibleHere) {
        const slot = trace.slots[start + c];
        if (slot < shown) view.arrows.push({ from: [slotKey, c], to: ['indices', slot], inv: c, kind: 'scatter' });
        op(c).reads.push([slotKey, c]);
        if (slot < shown) op(c).writes.push(['indices', slot]);
      }
      view.text = t(method === 'atomic' ? 'scan.atomic.write' : 'scan.aggregated.write', { count: trace.count, list: Array.from(trace.indices.subarray(0, 16)).join(', ') });
      break;
    }
    case 'result': {
      view.title = t('steps.result.title');
      view.rows.push(indicesRow(trace).row);
      view.header = 'k';
      view.text = t('scan.atomic.result', { count: trace.count, n: trace.flags.length, instanceCount: trace.instanceCount });
      break;
    }
  }
  return view;
}
