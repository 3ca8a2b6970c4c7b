// The English messages of the scan panel (www/panels/scan/), fetched with it; the
// Spanish twins in ../es/scan.js.

export const messages = {
  // steps.js (the scan stepper's narration; text between backticks shows as code)
  'scan.level0': 'level 0 (flags)',
  'scan.levelN': 'level {level} (block sums of level {below})',
  'scan.where': ' · block {block}',
  'scan.heading': '{level}{where} · {what}',
  'scan.empty.title': 'No flags',
  'scan.empty': 'There are no flags to scan: add at least one.',
  'scan.load.what': 'load into shared memory',
  'scan.load.sumsRow': 'block_sums of level {below}',
  'scan.load.past': ' The other {padding} invocations of the workgroup are past the end and load 0.',
  'scan.load.flags':
    'Workgroup {block} has 256 invocations; each copies its flag into the shared array `tmp[li]`, counting any nonzero flag as 1, and then all of them wait at a barrier so that nobody reads `tmp` before everyone has written it.{past}',
  'scan.load.sums':
    'The {len} block sums of level {below} are scanned by the very same pipeline one level up; this time each invocation loads its value as it is, not clamped to 1, because these are counts, not flags.{past}',
  'scan.hs.what': 'Hillis–Steele step {s} of 8, offset {offset}',
  'scan.hs.before': 'tmp before',
  'scan.hs.after': 'tmp after',
  'scan.hs.first':
    'every invocation with li ≥ 1 adds its left neighbour, `tmp[li − 1]`, to its own value; it reads both into a register, waits at a barrier, then writes and waits again, and both barriers sit outside the `if (li >= offset)` because `workgroupBarrier` must be reached by every invocation of the workgroup (uniform control flow).',
  'scan.hs.later':
    'every invocation with li ≥ {offset} adds `tmp[li − {offset}]`, read before the first barrier so that no neighbour sees a half-updated array; invocations with li < {offset} skip the addition but still reach both barriers, which is why the barriers are outside the `if`.',
  'scan.hs.now': 'Now `tmp[li]` is the sum of the {covers} values ending at li.',
  'scan.hs.nowAll': 'Now `tmp[li]` is the sum of the {covers} values ending at li: the inclusive prefix of the block.',
  'scan.hs.idle': ' None of the {live} real elements has a partner {offset} to its left, so nothing shown changes, yet all 256 invocations still run this step.',
  'scan.hs': 'Offset {offset}: {why} {now}{idle}',
  'scan.exclusive.what': 'inclusive → exclusive',
  'scan.row.own': 'v (own value)',
  'scan.row.inclusive': 'tmp (inclusive)',
  'scan.exclusive':
    '`tmp[li]` counts the element itself (an inclusive prefix), but a slot must count only what comes before: each invocation writes `prefix[i] = tmp[li] − v`, subtracting its own value, which turns the inclusive prefix into the exclusive one: `prefix[i]` is the number of visible flags before it inside this block.',
  'scan.exclusive.upper':
    'Here the values are the block sums of level {below}, and `tmp[b]` includes block b’s own sum. Each invocation writes `prefix[b] = tmp[b] − v`, subtracting it: `prefix[b]` is the number of visible flags in the blocks of level {below} that come before block b (within this block of 256 of them), the offset that block b will add to its prefixes on the way down.',
  'scan.blocksum.what': 'the block sum',
  'scan.blocksum.pad': ', the {padding} padding zeros included',
  'scan.blocksum.top': ' This is the top level, a single block, so its sum {sum} is the number of visible flags: the count the indirect arguments need.',
  'scan.blocksum.next': ' Level {level} now scans these {sums} block sums.',
  'scan.blocksum':
    'Only the last invocation, li = 255, writes `block_sums[{block}]` = {sum}: after the eighth step its `tmp` holds the inclusive sum of the whole block{pad}, so it is the one invocation that knows the block’s total.{then}',
  'scan.offsets.what': 'add the block offsets',
  'scan.row.offsets': 'offsets[b] (level {level} prefix)',
  'scan.row.blockPrefix': 'prefix in block',
  'scan.offsets.block0': 'block 0',
  'scan.offsets.blocks': 'blocks 0…{last}',
  'scan.offsets.first': 'block 0 adds 0, since no block comes before it',
  'scan.offsets.earlier': '`offsets[{block}]` = {off} is how many visibles lie in {before}',
  'scan.offsets':
    '`add_offsets`: every invocation of block {block} adds its block’s offset — the exclusive scan of the block sums, done one level up — to its prefix within the block, which turns it into the global exclusive prefix; here {earlier}.',
  'scan.scatter.title': 'Scatter{where}',
  'scan.scatter':
    'Every invocation whose flag is visible writes its own index i to `indices[prefix[i]]`; the scan has already given each one a different slot, so no atomics are needed and the list keeps the input order, the same buffer bit for bit on every run. Invisible invocations write nothing.',
  'scan.result.more': ' (the first {shown} are shown)',
  'scan.result':
    'The list holds {count} visible of {n}{more}. Their count is the top level’s block sum, which `scan_block` wrote straight into the count buffer; it goes into the indirect-args buffer as instanceCount = {instanceCount}, and one drawIndirect runs that many instances, each vertex shader finding its object with `visibles[instance_index]`.',

  // stepper.js
  'scan.block': 'Block',
  'scan.diagram': 'The scan’s buffers at this step: one row per buffer, one cell per element',
  'scan.controls': 'Scan stepper',
  'scan.blockOption': '{b} (flags {first}–{last})',
  'scan.ours': 'ours: {value}',
  'scan.learner':
    'These are your kernel’s buffers, read back from the GPU. A cell framed in red holds another value than ours (ours in its corner). The arrows are what our algorithm reads, not what your kernel read.',
  'scan.inspector': 'Hover or focus a cell to see what its invocation reads and writes.',
  'scan.inspect.none': '{cell}: no invocation writes here in this step.',
  'scan.inspect.writes': '; writes {writes}',
  'scan.inspect.writesNothing': '; writes nothing',
  'scan.inspect': 'Invocation li = {inv}: reads {reads}{writes}.',
  // The other methods' steps (atomic-steps.js, packed-steps.js) and the heading.
  'scan.card': 'Step through {method}',
  'scan.stepping': 'Stepping `{method}` from its own buffers: {kernels}',
  'scan.tileMethodHere': '`{method}` works in tiles and steps in the tile view, which this page does not show: here, the scan’s steps instead.',
  'scan.learnerUnordered':
    'These are your kernel’s buffers, read back from the GPU. An atomic method may hand out the slots in any order, so nothing is marked against ours: the check above says whether the list is right.',
  'scan.atomic.group': 'Workgroup',
  'scan.atomic.where': ' · workgroup {group}',
  'scan.atomic.none': 'none',
  'scan.atomic.slotRow': 'slot (atomicAdd returned)',
  'scan.atomic.read.title': 'Each invocation reads its flag{where}',
  'scan.atomic.read': 'Each of these {live} invocations reads its own flag: {visible} are visible and will each ask the one global counter for a slot; the others return at once.',
  'scan.aggregated.read': 'Each of the {live} invocations of workgroup {group} reads its flag: {visible} are visible. Unlike `atomic`, none of them touches the global counter itself.',
  'scan.atomic.slot': 'slot {slot}',
  'scan.atomic.slots': 'slots {from}–{last}',
  'scan.atomic.take.title': 'atomicAdd hands out {slots}{where}',
  'scan.atomic.take':
    'The global counter handed out {slots}, one `atomicAdd(&counter, 1u)` each, in the order the atomics reached it; the value returned is the slot (framed: new in this step). In this workgroup: {here}{elsewhere}. This order was read from `indices`, where each invocation wrote its index: it is this run’s, not a rule.',
  'scan.atomic.elsewhere': '; {n} went to invocations of other workgroups',
  'scan.aggregated.local.title': 'A local slot from shared memory{where}',
  'scan.aggregated.local':
    'Inside the workgroup, each of the {count} visible invocations takes a local slot from `local_count`, a counter in workgroup memory, far cheaper than the global one. In this run the local slots went to invocations {list}, in that order; that order is not guaranteed either.',
  'scan.aggregated.reserve.title': 'One global atomicAdd per workgroup',
  'scan.aggregated.groupRow': 'workgroup',
  'scan.aggregated.reserve':
    'Invocation 0 of each workgroup adds its `local_count` to the global counter once; the value returned is the workgroup’s `global_base`. The workgroups with visible flags reserved in this order (one cell each, left to right): {list}.{launch}',
  'scan.aggregated.inLaunch': ' This run happens to follow the launch order; nothing makes it do so.',
  'scan.aggregated.outOfLaunch': ' Not the launch order: that is the reordering between workgroups.',
  'scan.atomic.write.title': 'Write the index at the slot{where}',
  'scan.atomic.write':
    'Each visible invocation writes its index to `indices[slot]`. The list is dense and complete, but in the order the slots were handed out: {list}… Run it again and it may change; the scan’s never does.',
  'scan.aggregated.write':
    'Each visible invocation writes its index to `indices[global_base + local_slot]`: a workgroup’s visible flags land in one contiguous run, the runs in the order the workgroups reserved: {list}…',
  'scan.atomic.result':
    'The counter’s final value is the total, {count} visible of {n}; it becomes instanceCount = {instanceCount} in the indirect arguments, and drawIndirect draws the instances in the order above.',
  'scan.packed.pack.title': 'Pack the flags into bits{where}',
  'scan.packed.pack':
    '`pack_bits_counted`: each invocation ORs 32 flags into one word, flag 32·w + k into bit k. Word {first}, the first of this block, is {word} = {binary} (bit 0 on the right). A culling pass that writes bits itself skips this kernel.',
  'scan.packed.count.title': 'Count each tile’s bits',
  'scan.packed.count':
    'The same kernel counts the visible flags of each tile of {size} flags ({words} words) with countOneBits and writes `tile_counts[t]`: tile {tile} has {count}. These counts were read back between this kernel and the next, which overwrites them.',
  'scan.packed.scan.title': 'A scan of the tile counts',
  'scan.packed.scan':
    '`scan_tiles` turns the tiles’ counts into their exclusive prefix sum, in place: tile t’s first slot is the number of visible flags in the tiles before it ({slots}). Their total, {count}, is the count.',
  'scan.packed.slotRow': 'slot',
  'scan.packed.scatter.title': 'Scatter from the bits{where}',
  'scan.packed.scatter':
    '`tile_scatter_bits`: tile {tile}’s workgroup reads its first slot ({base}), scans its bits inside the workgroup, and each visible flag writes its index to `indices[{base} + the visible flags before it in the tile]`. No atomics: the input order, the same buffer on every run.',
  'scan.packed.result': '{count} visible of {n}: `scan_tiles` also wrote instanceCount = {instanceCount} into the indirect arguments.',
};
