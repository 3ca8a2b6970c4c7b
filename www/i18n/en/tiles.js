// The English messages of the tiles panel (www/panels/tiles/), fetched with it; the
// Spanish twins in ../es/tiles.js.

export const messages = {
  // tile-steps.js (the tile view's narration)
  'tiles.rowLabel': 'The tiles of the window at this step',
  'tiles.one': 'tile {t}',
  'tiles.range': 'tiles {a}–{b}',
  'tiles.many': ' ({which} of {tiles} shown)',
  'tiles.tickets.gpu.one': 'read back: {n} ticket taken',
  'tiles.tickets.gpu.other': 'read back: {n} tickets taken',
  'tiles.tickets.cpu.one': 'CPU reference: {n} ticket taken',
  'tiles.tickets.cpu.other': 'CPU reference: {n} tickets taken',
  'tiles.tiles.before': ' The tiles before this window have finished (tile {last} is INCLUSIVE); the window’s tiles have not started, so their state words read INVALID.',
  'tiles.tiles.nothing': ' Nothing is published yet: every state word reads INVALID.',
  'tiles.tiles.title.one': '{n} tile of {size} flags',
  'tiles.tiles.title.other': '{n} tiles of {size} flags',
  'tiles.tiles':
    'The {n} flags are cut into tiles of {size}, one workgroup each{many}. A workgroup takes its tile number from an atomic ticket counter ({tickets}), so tiles are numbered in the order workgroups really start, and a tile only ever waits for tiles that have already started.{done}',
  'tiles.tiles.single': ' With a single tile there are no predecessors and nothing to look back on: the one workgroup scans, publishes and scatters.',
  'tiles.count.title': 'Each tile counts its visible flags',
  'tiles.count.gpu':
    'Each workgroup loads its tile once (vec4 loads), counts the visible flags with one workgroup scan and stages their indices in shared memory, in order. Tile-atomic publishes no state: every state word read back after the run is still 0 (INVALID); only the ticket counter moved.',
  'tiles.count.cpu':
    'Each workgroup loads its tile once (vec4 loads), counts the visible flags with one workgroup scan and stages their indices in shared memory, in order. Tile-atomic publishes no state: every state word after the run is still 0 (INVALID); only the ticket counter moved.',
  'tiles.claim.title': 'One atomicAdd per tile claims its output range',
  'tiles.claim.swapped': ' — here not the tiles’ order',
  'tiles.claim.readBack': ' The starts are read back from the GPU’s output (where each tile’s run begins).',
  'tiles.claim':
    'Instead of looking back, each tile’s invocation 0 does `atomicAdd(&count, aggregate)` and gets the start of its range: one atomic per tile of {tile} flags where the plain counter takes one per visible flag. The ranges follow the order the atomics happened{swapped}: inside a tile the indices stay in order, between tiles they do not.{readBack}',
  'tiles.publish.zero': ' Tile 0 has nothing before it, so it publishes INCLUSIVE straight away.',
  'tiles.publish.late': ' Tile {t}’s workgroup took its ticket but is not running (a GPU without forward-progress guarantees may leave it waiting): its state stays INVALID.',
  'tiles.publish.title': 'Wave {wave}: tiles {a}–{b} scan and publish AGGREGATE',
  'tiles.publish':
    'In this simulation {inFlight} workgroups run at once. Each counts its tile with one workgroup scan and at once publishes that count as AGGREGATE: “my own total; my prefix is not known yet”. Publishing before knowing the prefix is what decouples the tiles: a successor can use the count right away.{zero}{late}',
  'tiles.link.aggregate': 'tile {t}: AGGREGATE {value}, add it and read further back',
  'tiles.link.inclusive': 'tile {t}: INCLUSIVE {value}, which already counts everything up to its end, so add it and stop',
  'tiles.link.counted': 'tile {t}: nothing published; after {polls} polls it loads tile {t}’s flags and counts them itself ({value}), then goes on past it',
  'tiles.look.end': ' It reached tile 0, so nothing comes before.',
  'tiles.look.fallback':
    ' It waited for a predecessor that never published, then counted that tile’s flags itself: because a waiting tile can always do that, no tile depends on another making progress, and the pass cannot hang.',
  'tiles.look.noWait': ' No second pass was needed: every predecessor it read had published its total while still running.',
  'tiles.late.title': 'Tile {t} runs late: publish, look back, publish',
  'tiles.look.title': 'Tile {t} looks back',
  'tiles.late.intro': 'Tile {t}’s workgroup finally runs: it publishes AGGREGATE {aggregate} and looks back — ',
  'tiles.look.intro': 'Tile {t} needs the number of visible flags before it. It reads ',
  'tiles.look': '{intro}{parts}. Exclusive prefix = {sum}.{end}{after}',
  'tiles.inclusive.title': 'Wave {wave} publishes INCLUSIVE',
  'tiles.inclusive.readBack': ' The final INCLUSIVE values are the ones read back from the GPU’s state buffer.',
  'tiles.inclusive':
    'Each tile of the wave now knows its prefix and publishes INCLUSIVE = exclusive + own count, overwriting its AGGREGATE. A later tile’s look-back stops at the first INCLUSIVE it meets, so chains stay short: at most the tiles running at the same time.{readBack}',
  'tiles.scatter.title': 'Scatter: each tile writes one consecutive run',
  'tiles.scatter.atomic': 'Each tile copies its staged indices to `indices[start …]`, the range its atomicAdd returned: whole runs, but in the order the atomics happened.',
  'tiles.scatter':
    'In the same pass, each tile copies its staged indices to `indices[exclusive …]`: one consecutive run per tile, in tile order. The flags were read once and every slot was decided in this single dispatch; a scan needs a second pass only because its blocks cannot see each other’s totals while they run — here they publish them.',
  'tiles.result.atomic': 'The counter holds {count} visible of {n}; a one-invocation kernel copies it into instanceCount = {instanceCount} (read back).',
  'tiles.result':
    'The last tile’s inclusive prefix is the total, {count} visible of {n}: that tile itself wrote count and instanceCount = {instanceCount} into the indirect buffer (read back), so drawIndirect needs no extra dispatch.',

  // tiles-view.js
  'tiles.window': 'Tiles',
  'tiles.controls': 'Tile stepper',
  'tiles.inFlight': 'Workgroups in flight',
  'tiles.stalled': 'Stalled workgroup',
  'tiles.stalled.none': 'none',
  'tiles.why.atomic':
    'Tile-atomic is one pass too, but for another reason: no tile needs to know what comes before it, because the global counter hands out output ranges in whatever order the tiles get there. That is why the order between tiles is lost; the look-back keeps it at the price of reading a few predecessors’ states.',
  'tiles.why':
    'Why one pass is enough: a tile needs only the totals of the tiles before it, and each tile publishes its own total (AGGREGATE) as soon as it has counted, long before it finishes; so a tile sums its predecessors’ totals back to the nearest finished prefix (INCLUSIVE) instead of waiting for a second pass over all the blocks. And if a predecessor’s workgroup never runs, the waiting tile counts that tile’s flags itself, so no tile depends on another making progress.',
  'tiles.flags': 'flags {first}–{last}',
  'tiles.suggest.one': 'This array fits in a single tile of {size} flags, so there is no look-back to see.',
  'tiles.suggest.none': 'This array fits in no tile of {size} flags, so there is no look-back to see.',
  'tiles.suggest': 'Try {n} random flags ({tiles} tiles)',
  'tiles.src.gpu': 'GPU',
  'tiles.src.cpu': 'CPU',
  'tiles.src.simulation': 'simulation',
  'tiles.sources.gpuAtomic':
    'read back from the GPU after the run: the tile state words (all still INVALID: tile-atomic publishes none), the ticket count, where each tile’s run starts in the output, the indices, count and instanceCount.',
  'tiles.sources.gpu':
    'read back from the GPU after the run: the final tile states (status and inclusive value), each tile’s exclusive prefix (the inclusive value before it), the ticket count, the indices, count and instanceCount.',
  'tiles.sources.cpuOnly': 'the CPU reference (no WebGPU): every number from the Rust mirror of the kernel.',
  'tiles.sources.cpu': 'counted on the CPU from the flags: each tile’s aggregate (the kernel keeps it in a register and overwrites the state that held it).',
  'tiles.sources.simulation': 'the CPU’s simulation of one schedule ({inFlight} workgroups at once): which state each tile saw, and when. No GPU buffer records that.',
  'tiles.saw': 'saw {state}',
  'tiles.saw.counted': 'saw nothing: counted itself',
  'tiles.returned': 'returned {value}',
  'tiles.slots': 'slots {a}–{b}',
  'tiles.wave': 'wave {wave}',
  'tiles.wave.stalled': 'wave {wave}, stalled',
  'tiles.dt.aggregate': 'aggregate',
  'tiles.dt.start': 'start',
  'tiles.dt.exclusive': 'exclusive',
  'tiles.output': 'output: indices[{a} … {b}]',
};
