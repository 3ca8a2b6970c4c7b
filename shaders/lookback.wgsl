// Single-pass order-preserving compaction: a chained scan with decoupled look-back
// (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016) over the tiles of shaders/tiles.wgsl, the scatter in the same pass.
//
// Each workgroup takes a tile, loads it, sums its count in the workgroup and
// publishes it (its "aggregate") at once, scans the tile, then looks back over its
// predecessors' published states until it has the number of visible flags before
// the tile, publishes its inclusive prefix and writes its indices. No second
// dispatch, and the flags are read once. On large arrays `lookback_paired` runs
// instead: each workgroup takes two tiles and publishes both counts before its
// first look-back.
//
// Forward progress: a GPU need not keep running a workgroup that another one waits
// for (Apple and ARM GPUs do not promise it). So a workgroup that has waited
// SPIN_LIMIT rounds for a predecessor counts that predecessor's flags itself and
// goes on past it (the fallback of Smith, Levien & Owens, "Decoupled Fallback",
// 2025): every wait is bounded and the pass always finishes.
//
// Entry points, with bindings 0-5 (and 7, the live uniform):
// - `lookback`: u32 flags (any nonzero value is visible);
// - `lookback_paired`: the same, two tiles a workgroup;
// - `lookback_bits`: one bit per flag, 32 to a word, least significant first.
// The workgroup scan and the look-back rounds are in shaders/lookback_portable.wgsl
// and shaders/lookback_subgroups.wgsl.

// A tile's state is one atomic word: the value in the high 30 bits, the status in
// the low 2, so that one atomic load sees both. The status codes rotate by 2 every
// other run (see `take_ticket`), so the states left by the previous run read as
// INVALID and the buffer never needs clearing.
const INVALID : u32 = 0u;
const AGGREGATE : u32 = 1u;   // the tile's own count
const INCLUSIVE : u32 = 2u;   // the count of this tile and all before it

// Look-back rounds a workgroup waits for a predecessor before counting its flags.
override SPIN_LIMIT : u32 = 64u;
// Tests only: ignore every published state, so each tile counts all its
// predecessors itself, the path a GPU without forward progress may take.
override STRESS_FALLBACK : bool = false;
// Tiles of TILE flags a state (set per pipeline): `lookback_bits` takes two on large
// arrays (the host's `WIDE_BITS_FROM_TILES`), so that the chain of states, which
// holds bits tiles more than their loads do, is half as long (BENCHMARKS.md v28).
// Every other entry point, and every tile index below but the loads', counts states.
override SUBTILES : u32 = 1u;

// DrawIndirectArgs; the last tile writes instance_count.
@group(0) @binding(5) var<storage, read_write> indirect    : array<u32, 4>;
// Look-back progress: predecessors not yet counted, the count so far, the outcome.
var<workgroup> look_remaining : u32;
var<workgroup> look_exclusive : u32;
var<workgroup> look_outcome   : u32;

// Outcomes of the look-back and of its rounds.
const DONE : u32 = 0u;
const ADVANCED : u32 = 1u;
const BLOCKED : u32 = 2u;
const FALLBACK : u32 = 3u;

fn encode_state(status : u32, value : u32, parity : u32) -> u32 {
  return (value << 2u) | ((status + 2u * parity) & 3u);
}

fn state_status(word : u32, parity : u32) -> u32 {
  return (word - 2u * parity) & 3u;
}

var<workgroup> sum_slot : atomic<u32>;

// The workgroup's total of `x`: one shared atomic and three barriers, in both
// builds. A tile's count is wanted before its scan (it is published first), and
// the scan's barriers cost more than this (sixteen in the portable build;
// BENCHMARKS.md v20). Call it from uniform control flow.
fn workgroup_sum(li : u32, x : u32) -> u32 {
  if (li == 0u) {
    atomicStore(&sum_slot, 0u);
  }
  workgroupBarrier();
  atomicAdd(&sum_slot, x);
  workgroupBarrier();
  let total = atomicLoad(&sum_slot);
  // The next call resets the slot.
  workgroupBarrier();
  return total;
}

// Publishes the tile's own count so that successors can look past it at once.
fn publish_aggregate(li : u32, ticket : Ticket, total : u32) {
  if (li == 0u) {
    let status = select(AGGREGATE, INCLUSIVE, ticket.tile == 0u);
    atomicStore(&tile_states[1u + ticket.tile], encode_state(status, total, ticket.parity));
  }
}

// The fallback: adds the count of the nearest uncounted predecessor, found by the
// whole workgroup from its flags (`part` is this invocation's share).
fn count_past_blocked(li : u32, part : u32) {
  let total = workgroup_sum(li, part);
  if (li == 0u) {
    look_exclusive = look_exclusive + total;
    look_remaining = look_remaining - 1u;
  }
}

// The tile whose flags the fallback counts next.
fn blocked_tile() -> u32 {
  return workgroupUniformLoad(&look_remaining) - 1u;
}

// A look-back round found the nearest uncounted predecessor silent: whether it has
// now been polled SPIN_LIMIT times, so that the fallback is due (else one more poll).
fn fallback_due(spins : ptr<function, u32>) -> bool {
  if (*spins >= SPIN_LIMIT || STRESS_FALLBACK) {
    count_fallback();
    return true;
  }
  *spins = *spins + 1u;
  count_poll();
  return false;
}

// After the look-back: publishes the inclusive prefix, and the last tile writes the
// count and the indirect arguments. Returns the tile's first output slot.
fn finish_look_back(li : u32, ticket : Ticket, total : u32, tiles : u32) -> u32 {
  if (li == 0u) {
    let exclusive = look_exclusive;
    if (ticket.tile > 0u) {
      atomicStore(&tile_states[1u + ticket.tile],
                  encode_state(INCLUSIVE, exclusive + total, ticket.parity));
    }
    if (ticket.tile == tiles - 1u) {
      // Past the indices' room (a renderer's `max_visible`) nothing was written:
      // the draw takes what was, and count[1] says how many did not fit.
      let written = min(exclusive + total, arrayLength(&indices));
      atomicStore(&count[0], written);
      atomicStore(&count[1], exclusive + total - written);
      indirect[1] = written;
    }
    tile_base = exclusive;
    record_stats();
  }
  return workgroupUniformLoad(&tile_base);
}

// A tile past the live length still rewrites its state word with this run's
// parity (as INCLUSIVE: read by the next run, that is INVALID), so that no word
// keeps a state from two runs ago, which would read as fresh once the live
// length grows again. A live length of 0 has no last tile: the first workgroup
// writes the count.
fn skip_tile(li : u32, ticket : Ticket, tiles : u32) {
  if (li == 0u) {
    let capacity_tiles = (live.y + SUBTILES * TILE - 1u) / (SUBTILES * TILE);
    if (ticket.tile < capacity_tiles) {
      atomicStore(&tile_states[1u + ticket.tile], encode_state(INCLUSIVE, 0u, ticket.parity));
    }
    if (tiles == 0u && ticket.tile == 0u) {
      atomicStore(&count[0], 0u);
      atomicStore(&count[1], 0u);
      indirect[1] = 0u;
    }
  }
}

// The rest of a look-back tile once its flags are `nibbles` (as `tile_nibbles`
// gives them): publish the count, scan, look back, write. The scan comes after the
// publish, so successors see the count sooner and the look-back starts a scan
// later, when more predecessors have published (BENCHMARKS.md v20). `bits` says
// how the fallback counts a blocked predecessor: from bit words or from u32 flags.
// Call it from uniform control flow.
fn look_back_tile(li : u32, ticket : Ticket, nibbles : u32, n : u32, bits : bool) {
  stats_enter(li);
  let total = workgroup_sum(li, countOneBits(nibbles));
  publish_aggregate(li, ticket, total);
  let scan = scan_rows(li, nibbles);
  let base = look_back_to_base(li, ticket, total, n, (n + TILE - 1u) / TILE, bits);
  write_group_bits(ticket.tile, li, nibbles);
  write_group_slots(ticket.tile, li, scan, base);
  write_rows(ticket.tile, li, nibbles, scan, base);
  stats_leave(li);
}

// After the tile's count is published: looks back over every predecessor (counting
// a blocked one's flags itself when the look-back says so), publishes the
// inclusive prefix and returns the tile's first output slot. `bits`: as in
// `look_back_tile`. Call it from uniform control flow.
fn look_back_to_base(li : u32, ticket : Ticket, total : u32, n : u32, tiles : u32,
                     bits : bool) -> u32 {
  if (li == 0u) {
    look_remaining = ticket.tile;
    look_exclusive = 0u;
  }
  while (look_back(li, ticket.parity)) {
    let blocked = blocked_tile();
    var part = 0u;
    for (var t = SUBTILES * blocked; t < SUBTILES * (blocked + 1u); t = t + 1u) {
      part = part + count_tile(t, li, n, bits);
    }
    count_past_blocked(li, part);
  }
  return finish_look_back(li, ticket, total, tiles);
}

// A tile of a pair: its count by a reduction, published at once (its scan waits
// until `finish_paired`, so that two tiles' scans are not live together).
fn publish_count(li : u32, ticket : Ticket, nibbles : u32, tiles : u32) -> u32 {
  let total = workgroup_sum(li, countOneBits(nibbles));
  if (ticket.tile < tiles) {
    publish_aggregate(li, ticket, total);
  }
  return total;
}

// A tile of a pair once both counts are published: scan, look back, write. The
// scan first, as in `look_back_tile`: the look-back then starts later, when more
// predecessors have published (the portable build 5 % faster at 2^26; BENCHMARKS.md
// v22).
fn finish_paired(li : u32, ticket : Ticket, nibbles : u32, total : u32, n : u32, tiles : u32) {
  if (ticket.tile >= tiles) {
    skip_tile(li, ticket, tiles);
    return;
  }
  stats_enter(li);
  let scan = scan_rows(li, nibbles);
  let base = look_back_to_base(li, ticket, total, n, tiles, false);
  write_group_bits(ticket.tile, li, nibbles);
  write_group_slots(ticket.tile, li, scan, base);
  write_rows(ticket.tile, li, nibbles, scan, base);
  stats_leave(li);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn lookback(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, live.y);
  let tiles = (n + TILE - 1u) / TILE;
  let ticket = take_ticket(li, groups, 1u);
  let nibbles = tile_nibbles(ticket.tile, li, n);
  // Workgroups past the last tile (the 2-D grid rounds up, or the live length
  // is under the capacity) only took a ticket.
  if (ticket.tile >= tiles) {
    skip_tile(li, ticket, tiles);
    return;
  }
  look_back_tile(li, ticket, nibbles, n, false);
}

// `lookback` for large arrays (the host picks it by capacity, from
// `PAIRED_FROM_TILES` in src/layout.rs): each workgroup loads two tiles and
// publishes both counts before it looks back for the first. That look-back then
// starts one tile's load later, by when its predecessors have published, so the
// workgroup loads instead of polling (BENCHMARKS.md v18). Smaller arrays lose more
// by the halved workgroups than they gain. An entry point of its own because
// registers are allocated per entry point: as one, both schedules ran 1188
// workgroups at once on the H200, as two 1320 each (BENCHMARKS.md v22).
@compute @workgroup_size(WORKGROUP_SIZE)
fn lookback_paired(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, live.y);
  let tiles = (n + TILE - 1u) / TILE;
  let first = take_ticket(li, groups, 2u);
  let first_nibbles = tile_nibbles(first.tile, li, n);
  let first_total = publish_count(li, first, first_nibbles, tiles);
  let second = take_ticket(li, groups, 2u);
  let second_nibbles = tile_nibbles(second.tile, li, n);
  let second_total = publish_count(li, second, second_nibbles, tiles);
  finish_paired(li, first, first_nibbles, first_total, n, tiles);
  finish_paired(li, second, second_nibbles, second_total, n, tiles);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn lookback_bits(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, live.y);
  let tiles = (n + SUBTILES * TILE - 1u) / (SUBTILES * TILE);
  let ticket = take_ticket(li, groups, 1u);
  if (ticket.tile >= tiles) {
    skip_tile(li, ticket, tiles);
    return;
  }
  if (SUBTILES == 1u) {
    look_back_tile(li, ticket, bits_nibbles(ticket.tile, li, n), n, true);
    return;
  }
  let first = 2u * ticket.tile;
  look_back_two(li, ticket, bits_nibbles(first, li, n), bits_nibbles(first + 1u, li, n), n,
                tiles);
}

// A state of two bits tiles: one count published for both and one look-back, then
// each tile scanned and written, the second after the first. Call it from uniform
// control flow.
fn look_back_two(li : u32, ticket : Ticket, first : u32, second : u32, n : u32, tiles : u32) {
  stats_enter(li);
  let total = workgroup_sum(li, countOneBits(first) + countOneBits(second));
  publish_aggregate(li, ticket, total);
  let scan = scan_rows(li, first);
  let base = look_back_to_base(li, ticket, total, n, tiles, true);
  write_group_slots(2u * ticket.tile, li, scan, base);
  write_rows(2u * ticket.tile, li, first, scan, base);
  let second_base = base + rows_total(scan);
  let second_scan = scan_rows(li, second);
  write_group_slots(2u * ticket.tile + 1u, li, second_scan, second_base);
  write_rows(2u * ticket.tile + 1u, li, second, second_scan, second_base);
  stats_leave(li);
}
