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
  'scan.exclusive.flags': 'visible flags',
  'scan.exclusive.blocks': 'visibles in the blocks',
  'scan.exclusive':
    '`tmp[li]` counts the element itself (an inclusive prefix), but a slot must count only what comes before: each invocation writes `prefix[i] = tmp[li] − v`, subtracting its own value, which turns the inclusive prefix into the exclusive one: `prefix[i]` is the number of {what} before it inside this block.',
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
    'The last prefix plus the last flag is the total, {count} visible of {n}{more}; it goes into the indirect-args buffer as instanceCount = {instanceCount}, and one drawIndirect runs that many instances, each vertex shader finding its object with `visibles[instance_index]`.',

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
};
