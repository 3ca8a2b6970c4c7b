// The English messages of the atomic panel (www/panels/atomic/), fetched with it; the
// Spanish twins in ../es/atomic.js.

export const messages = {
  // atomic-view.js
  'atomic.run': 'Run ×{runs}',
  'atomic.slotsLabel': 'The slots each visible flag got',
  'atomic.tableLabel': 'The repeated runs',
  'atomic.slotsFrom': 'Slots from',
  'atomic.repeat': 'Repeat each method',
  'atomic.times': 'times',
  'atomic.slotTitle': 'invocation {i} got slot {slot}',
  'atomic.noSlot': 'flag {i} is invisible: no slot',
  'atomic.more': ' The first {shown} of {n} flags are shown.',
  'atomic.how.atomic': 'Each visible invocation did `atomicAdd(&counter, 1)` and got back the value before its increment: that number is its slot (bottom of each cell).',
  'atomic.how.aggregated':
    'Each workgroup of 64 counts its visibles with a workgroup-local atomic, then invocation 0 reserves the whole run with one global atomicAdd; within a workgroup (shaded alternately) slots follow the local atomic order.',
  'atomic.caption': '{how} Output order: {order}.{more}',
  'atomic.th.run': 'run',
  'atomic.th.hash': 'hash',
  'atomic.th.order': 'order',
  'atomic.verdict.scan': 'scan: the same buffer, hash {hash}, in all {runs} runs — by construction, since every slot is decided by the prefix sum.',
  'atomic.verdict.scanBroken': 'scan: {distinct} different hashes in {runs} runs — that should never happen; please report it.',
  'atomic.verdict.moved.invocations': '{method}: {distinct} different orders in {runs} runs — the same indices, placed in the order the hardware happened to schedule the invocations.',
  'atomic.verdict.moved.workgroups': '{method}: {distinct} different orders in {runs} runs — the same indices, placed in the order the hardware happened to schedule the workgroups.',
  'atomic.verdict.same': '{method}: the same order in all {runs} runs here.',
  'atomic.verdict.why':
    'That is luck, not a guarantee: {why} Nothing in the kernel fixes the order; on a busy GPU with many workgroups in flight it moves. “Find where the order changes” grows the flags until it does here.',
  'atomic.search': 'Find where the order changes',
  'atomic.search.start': 'Looking for a size where the order changes…',
  'atomic.search.progress': '{n} flags: {method}, run {k} of {runs}',
  'atomic.search.found':
    'At {n} random flags (half visible), this GPU gave more than one order for {methods} in {runs} runs each: the runs below, side by side, and the scan’s one buffer beside them.',
  'atomic.search.use': 'Show these {n} flags on the page',
  'atomic.search.software':
    'No size up to {max} flags changed the order in {runs} runs of each method: this adapter ({adapter}) is WebGPU on the CPU, which runs the workgroups one after another. A hardware GPU runs many at once, and there the order changes.',
  'atomic.search.gpu': 'No size up to {max} flags changed the order in {runs} runs of each method on this GPU. Nothing in the kernels fixes it: a busier GPU, or another run, may change it.',
  'atomic.search.cpu': 'Without WebGPU the CPU reference runs the invocations one after another, in index order: its order never changes.',
  'atomic.empty': '(empty)',
};
