// Single-pass order-preserving compaction: a chained scan with decoupled look-back
// (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016) over tiles of 4096 flags, the scatter in the same pass.
//
// Each workgroup takes a tile, turns its flags into bit words in shared memory,
// scans the words' popcounts, publishes the tile's count (its "aggregate") at once,
// then looks back over its predecessors' published states until it has the number
// of visible flags before the tile, publishes its inclusive prefix and writes its
// indices. No second dispatch, and the flags are read once.
//
// Forward progress: a GPU need not keep running a workgroup that another one waits
// for (Apple and ARM GPUs do not promise it). So a workgroup that has waited
// SPIN_LIMIT rounds for a predecessor counts that predecessor's flags itself and
// goes on past it (the fallback of Smith, Levien & Owens, "Decoupled Fallback",
// 2025): every wait is bounded and the pass always finishes.
//
// Entry points, all with the same bindings 0-4:
// - `lookback`: u32 flags (any nonzero value is visible);
// - `lookback_bits`: one bit per flag, 32 to a word, least significant first;
// - `tile_atomic`: the same tiles, but each takes its output range with one global
//   atomicAdd instead of looking back: order kept inside a tile, not between tiles.
//
// The portable workgroup scan sits at the end, after the marker line; gpu/lookback.rs
// replaces it with shaders/lookback_subgroups.wgsl when the device has SUBGROUP.

const WORKGROUP_SIZE : u32 = 256u;
// A flags tile: 4096 flags = 128 bit words; each invocation loads four vec4.
const FLAGS_TILE_WORDS : u32 = 128u;
const FLAGS_VEC4_PER_INVOCATION : u32 = 4u;
// A bits tile: 8192 flags = 256 words = 64 vec4, one vec4 for each of 64 invocations.
const BITS_TILE_WORDS : u32 = 256u;
const MAX_TILE_WORDS : u32 = 256u;
// Predecessors read at once by one round of the look-back.
const WINDOW : u32 = 32u;

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

// The input words twice: as vec4 for the bulk (the first n/4 vec4 of flags, or of
// bit words), as u32 for the tail and for short arrays.
@group(0) @binding(0) var<storage, read>       input4      : array<vec4<u32>>;
@group(0) @binding(1) var<storage, read>       input       : array<u32>;
// Exactly N words: its length is the number of flags.
@group(0) @binding(2) var<storage, read_write> indices     : array<u32>;
// [0]: the ticket counter; [1 + t]: the state of tile t.
@group(0) @binding(3) var<storage, read_write> tile_states : array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> count       : array<atomic<u32>>;
// DrawIndirectArgs; the last tile writes instance_count.
@group(0) @binding(5) var<storage, read_write> indirect    : array<u32, 4>;

var<workgroup> tile_words     : array<atomic<u32>, MAX_TILE_WORDS>;
// Exclusive prefix of the words' popcounts inside the tile.
var<workgroup> word_prefix    : array<u32, MAX_TILE_WORDS>;
var<workgroup> window_states  : array<u32, WINDOW>;
var<workgroup> shared_ticket  : u32;
// Look-back progress: predecessors not yet counted, the count so far, the outcome.
var<workgroup> look_remaining : u32;
var<workgroup> look_exclusive : u32;
var<workgroup> look_outcome   : u32;
var<workgroup> tile_base      : u32;

const DONE : u32 = 0u;
const ADVANCED : u32 = 1u;
const BLOCKED : u32 = 2u;

fn encode_state(status : u32, value : u32, parity : u32) -> u32 {
  return (value << 2u) | ((status + 2u * parity) & 3u);
}

fn state_status(word : u32, parity : u32) -> u32 {
  return (word - 2u * parity) & 3u;
}

struct Ticket {
  tile : u32,
  parity : u32,
}

// Tiles are numbered in the order workgroups start (not by workgroup_id), so a
// tile only ever waits for tiles that have already started. The counter runs over
// two runs (0 .. 2·launched) and the last workgroup of every second run winds it
// back: all tickets of that run are taken by then, and the next run is a later
// dispatch. The run's parity rotates the state codes.
fn take_ticket(li : u32, groups : vec3<u32>) -> Ticket {
  if (li == 0u) {
    let launched = groups.x * groups.y;
    let ticket = atomicAdd(&tile_states[0], 1u);
    if (ticket == 2u * launched - 1u) {
      atomicSub(&tile_states[0], 2u * launched);
    }
    shared_ticket = ticket;
  }
  let ticket = workgroupUniformLoad(&shared_ticket);
  let launched = groups.x * groups.y;
  let parity = select(0u, 1u, ticket >= launched);
  return Ticket(ticket - parity * launched, parity);
}

// Four flags starting at element 4·v, as four bits.
fn flag_nibble(v : u32, n : u32) -> u32 {
  var f = vec4<u32>(0u);
  if (v < n / 4u) {
    f = input4[v];
  } else {
    for (var j = 0u; j < 4u; j = j + 1u) {
      if (4u * v + j < n) {
        f[j] = input[4u * v + j];
      }
    }
  }
  let b = select(vec4<u32>(0u), vec4<u32>(1u, 2u, 4u, 8u), f != vec4<u32>(0u));
  return b.x | b.y | b.z | b.w;
}

// The flags of `tile` as 128 bit words in `tile_words`. Invocation li holds
// elements 4·li .. 4·li+3 of each 1024-flag row: coalesced vec4 loads, all issued
// before any is used.
fn load_flag_words(tile : u32, li : u32, n : u32) {
  if (li < FLAGS_TILE_WORDS) {
    atomicStore(&tile_words[li], 0u);
  }
  var nibbles : array<u32, FLAGS_VEC4_PER_INVOCATION>;
  for (var k = 0u; k < FLAGS_VEC4_PER_INVOCATION; k = k + 1u) {
    nibbles[k] = flag_nibble(tile * (FLAGS_TILE_WORDS * 8u) + k * WORKGROUP_SIZE + li, n);
  }
  workgroupBarrier();
  for (var k = 0u; k < FLAGS_VEC4_PER_INVOCATION; k = k + 1u) {
    if (nibbles[k] != 0u) {
      atomicOr(&tile_words[k * (WORKGROUP_SIZE / 8u) + li / 8u], nibbles[k] << (4u * (li % 8u)));
    }
  }
  workgroupBarrier();
}

// This invocation's share of the visible flags of `tile` (for the fallback).
fn count_flags(tile : u32, li : u32, n : u32) -> u32 {
  var c = 0u;
  for (var k = 0u; k < FLAGS_VEC4_PER_INVOCATION; k = k + 1u) {
    c = c + countOneBits(flag_nibble(tile * (FLAGS_TILE_WORDS * 8u) + k * WORKGROUP_SIZE + li, n));
  }
  return c;
}

// Bit words 4·v .. 4·v+3, without the bits at or past flag n.
fn bit_words(v : u32, n : u32) -> vec4<u32> {
  let words = (n + 31u) / 32u;
  var w = vec4<u32>(0u);
  if (v < words / 4u) {
    w = input4[v];
  } else {
    for (var j = 0u; j < 4u; j = j + 1u) {
      if (4u * v + j < words) {
        w[j] = input[4u * v + j];
      }
    }
  }
  // Flags past n in the last word may hold anything; they are not flags.
  for (var j = 0u; j < 4u; j = j + 1u) {
    let first = (4u * v + j) * 32u;
    if (first >= n) {
      w[j] = 0u;
    } else if (n - first < 32u) {
      w[j] = w[j] & ((1u << (n - first)) - 1u);
    }
  }
  return w;
}

fn load_bit_words(tile : u32, li : u32, n : u32) {
  if (li < BITS_TILE_WORDS / 4u) {
    let w = bit_words(tile * (BITS_TILE_WORDS / 4u) + li, n);
    for (var j = 0u; j < 4u; j = j + 1u) {
      atomicStore(&tile_words[4u * li + j], w[j]);
    }
  }
  workgroupBarrier();
}

fn count_bits(tile : u32, li : u32, n : u32) -> u32 {
  var c = 0u;
  if (li < BITS_TILE_WORDS / 4u) {
    let w = countOneBits(bit_words(tile * (BITS_TILE_WORDS / 4u) + li, n));
    c = w.x + w.y + w.z + w.w;
  }
  return c;
}

// Scans the popcounts of the tile's words into `word_prefix`; returns the tile's count.
fn scan_words(li : u32, tile_word_count : u32) -> u32 {
  var c = 0u;
  if (li < tile_word_count) {
    c = countOneBits(atomicLoad(&tile_words[li]));
  }
  let scan = workgroup_scan(li, c);
  if (li < tile_word_count) {
    word_prefix[li] = scan.x;
  }
  return scan.y;
}

// Publishes the tile's own count so that successors can look past it at once.
fn publish_aggregate(li : u32, ticket : Ticket, total : u32) {
  if (li == 0u) {
    let status = select(AGGREGATE, INCLUSIVE, ticket.tile == 0u);
    atomicStore(&tile_states[1u + ticket.tile], encode_state(status, total, ticket.parity));
    look_remaining = ticket.tile;
    look_exclusive = 0u;
  }
}

// One round of the look-back: reads the states of up to WINDOW predecessors at once
// (nearest first), then adds aggregates until an inclusive prefix ends the walk or
// a predecessor that has not published stops it. Returns DONE, ADVANCED or BLOCKED,
// the same in every invocation.
fn look_back_round(li : u32, parity : u32) -> u32 {
  let remaining = workgroupUniformLoad(&look_remaining);
  if (remaining == 0u) {
    return DONE;
  }
  if (li < WINDOW && li < remaining) {
    // Tile remaining-1-li; its state word sits at index 1 + tile.
    var word = atomicLoad(&tile_states[remaining - li]);
    if (STRESS_FALLBACK) {
      word = encode_state(INVALID, 0u, parity);
    }
    window_states[li] = word;
  }
  workgroupBarrier();
  if (li == 0u) {
    var left = remaining;
    var exclusive = look_exclusive;
    for (var j = 0u; j < min(WINDOW, remaining); j = j + 1u) {
      let word = window_states[j];
      let status = state_status(word, parity);
      if (status == INCLUSIVE) {
        exclusive = exclusive + (word >> 2u);
        left = 0u;
        break;
      }
      if (status != AGGREGATE) {
        break;
      }
      exclusive = exclusive + (word >> 2u);
      left = left - 1u;
    }
    look_exclusive = exclusive;
    look_remaining = left;
    look_outcome = select(select(BLOCKED, ADVANCED, left < remaining), DONE, left == 0u);
  }
  return workgroupUniformLoad(&look_outcome);
}

// The fallback: adds the count of the nearest uncounted predecessor, found by the
// whole workgroup from its flags (`part` is this invocation's share).
fn count_past_blocked(li : u32, part : u32) {
  let total = workgroup_scan(li, part).y;
  if (li == 0u) {
    look_exclusive = look_exclusive + total;
    look_remaining = look_remaining - 1u;
  }
}

// The tile whose flags the fallback counts next.
fn blocked_tile() -> u32 {
  return workgroupUniformLoad(&look_remaining) - 1u;
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
      atomicStore(&count[0], exclusive + total);
      indirect[1] = exclusive + total;
    }
    tile_base = exclusive;
  }
  return workgroupUniformLoad(&tile_base);
}

// Writes the tile's visible indices in order. Pass m covers flags m·256 .. m·256+255
// of the tile, one per invocation, so consecutive invocations write consecutive
// slots: coalesced stores.
fn scatter_tile(li : u32, tile_first : u32, base : u32, tile_word_count : u32) {
  let bit = li % 32u;
  let below = (1u << bit) - 1u;
  for (var m = 0u; m < tile_word_count / 8u; m = m + 1u) {
    let w = m * (WORKGROUP_SIZE / 32u) + li / 32u;
    let word = atomicLoad(&tile_words[w]);
    if (((word >> bit) & 1u) != 0u) {
      indices[base + word_prefix[w] + countOneBits(word & below)] = tile_first + 32u * w + bit;
    }
  }
}

fn tile_count(n : u32, tile_flags : u32) -> u32 {
  return (n + tile_flags - 1u) / tile_flags;
}

@compute @workgroup_size(256)
fn lookback(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = arrayLength(&indices);
  let tile_flags = FLAGS_TILE_WORDS * 32u;
  let tiles = tile_count(n, tile_flags);
  let ticket = take_ticket(li, groups);
  // Workgroups past the last tile (the 2-D grid rounds up) only took a ticket.
  if (ticket.tile >= tiles) {
    return;
  }
  load_flag_words(ticket.tile, li, n);
  let total = scan_words(li, FLAGS_TILE_WORDS);
  publish_aggregate(li, ticket, total);
  var spins = 0u;
  loop {
    let outcome = look_back_round(li, ticket.parity);
    if (outcome == DONE) {
      break;
    }
    spins = select(spins + 1u, 0u, outcome == ADVANCED);
    if (spins > SPIN_LIMIT || STRESS_FALLBACK) {
      count_past_blocked(li, count_flags(blocked_tile(), li, n));
      spins = 0u;
    }
  }
  let base = finish_look_back(li, ticket, total, tiles);
  scatter_tile(li, ticket.tile * tile_flags, base, FLAGS_TILE_WORDS);
}

@compute @workgroup_size(256)
fn lookback_bits(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = arrayLength(&indices);
  let tile_flags = BITS_TILE_WORDS * 32u;
  let tiles = tile_count(n, tile_flags);
  let ticket = take_ticket(li, groups);
  if (ticket.tile >= tiles) {
    return;
  }
  load_bit_words(ticket.tile, li, n);
  let total = scan_words(li, BITS_TILE_WORDS);
  publish_aggregate(li, ticket, total);
  var spins = 0u;
  loop {
    let outcome = look_back_round(li, ticket.parity);
    if (outcome == DONE) {
      break;
    }
    spins = select(spins + 1u, 0u, outcome == ADVANCED);
    if (spins > SPIN_LIMIT || STRESS_FALLBACK) {
      count_past_blocked(li, count_bits(blocked_tile(), li, n));
      spins = 0u;
    }
  }
  let base = finish_look_back(li, ticket, total, tiles);
  scatter_tile(li, ticket.tile * tile_flags, base, BITS_TILE_WORDS);
}

@compute @workgroup_size(256)
fn tile_atomic(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = arrayLength(&indices);
  let tile_flags = FLAGS_TILE_WORDS * 32u;
  let tiles = tile_count(n, tile_flags);
  let ticket = take_ticket(li, groups);
  if (ticket.tile >= tiles) {
    return;
  }
  load_flag_words(ticket.tile, li, n);
  let total = scan_words(li, FLAGS_TILE_WORDS);
  if (li == 0u) {
    // One global atomic per 4096 flags: contention 64 times lower than the
    // article's kernel 2.
    tile_base = atomicAdd(&count[0], total);
  }
  let base = workgroupUniformLoad(&tile_base);
  scatter_tile(li, ticket.tile * tile_flags, base, FLAGS_TILE_WORDS);
}

// ---- portable workgroup_scan (replaced by shaders/lookback_subgroups.wgsl) ----

var<workgroup> scan_scratch : array<u32, WORKGROUP_SIZE>;

// Exclusive prefix of `x` over the workgroup (in local_invocation_index order) and
// the workgroup's total: Hillis-Steele in shared memory. Read into a register,
// barrier, write, barrier: without the middle barrier a neighbour could read a
// half-updated value. Call it from uniform control flow.
fn workgroup_scan(li : u32, x : u32) -> vec2<u32> {
  scan_scratch[li] = x;
  workgroupBarrier();
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset = offset << 1u) {
    var sum = scan_scratch[li];
    if (li >= offset) {
      sum = sum + scan_scratch[li - offset];
    }
    workgroupBarrier();
    scan_scratch[li] = sum;
    workgroupBarrier();
  }
  let inclusive = scan_scratch[li];
  let total = scan_scratch[WORKGROUP_SIZE - 1u];
  // The next call overwrites scan_scratch.
  workgroupBarrier();
  return vec2<u32>(inclusive - x, total);
}
