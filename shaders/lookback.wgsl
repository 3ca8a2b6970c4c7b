// Single-pass order-preserving compaction: a chained scan with decoupled look-back
// (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back",
// 2016) over tiles of 4096 flags, the scatter in the same pass.
//
// Each workgroup takes a tile, loads it (vec4 loads, all in flight at once), sums
// its count in the workgroup and publishes it (its "aggregate") at once, scans the
// tile, then looks back over its predecessors' published states until it has the
// number of visible flags before the tile, publishes its inclusive prefix and
// writes its indices two rows at a time, compacted in shared memory first and
// written as one consecutive run. No second dispatch, and the flags are read once.
// On large arrays `lookback_paired` runs instead: each workgroup takes two tiles
// and publishes both counts before its first look-back.
//
// Forward progress: a GPU need not keep running a workgroup that another one waits
// for (Apple and ARM GPUs do not promise it). So a workgroup that has waited
// SPIN_LIMIT rounds for a predecessor counts that predecessor's flags itself and
// goes on past it (the fallback of Smith, Levien & Owens, "Decoupled Fallback",
// 2025): every wait is bounded and the pass always finishes.
//
// Entry points, all with bindings 0-2:
// - `lookback`: u32 flags (any nonzero value is visible), also bindings 3-5;
// - `lookback_paired`: the same, two tiles a workgroup;
// - `lookback_bits`: one bit per flag, 32 to a word, least significant first, also 3-5;
// - `tile_atomic`: the same tiles, but each takes its output range with one global
//   atomicAdd instead of looking back: order kept inside a tile, not between tiles
//   (also 3 and 4);
// - `tile_scatter_bits`: the last pass of `packed-scan`, a bits tile written from
//   the first slot `scan_tiles` gave it (also 6): the tiles without a look-back.
//
// This file is the kernels. gpu/lookback.rs composes it with the workgroup scan
// and look-back of shaders/lookback_portable.wgsl (shared memory, every device) or
// shaders/lookback_subgroups.wgsl (devices with SUBGROUP), and with
// shaders/lookback_stats.wgsl (the counters of `bench --stats`, off by default).

// 128 invocations of 32 flags each rather than 256 of 16: registers bound how many
// invocations an SM runs at once, so this keeps twice the flags in flight for the
// same registers (BENCHMARKS.md v13).
const WORKGROUP_SIZE : u32 = 128u;
// A u32 tile is ROWS rows of 4·WORKGROUP_SIZE flags; invocation li loads flags
// 4·li .. 4·li+3 of each row as one vec4 (coalesced), all eight at once. The
// rows are written out one by one below: indexing a vector or array by a loop
// counter made NVIDIA's compiler keep them in local memory, at 2.4 times the run
// time.
const ROWS : u32 = 8u;
// Flags per tile, for every entry point, and as bit words.
const TILE : u32 = ROWS * 4u * WORKGROUP_SIZE;
const TILE_WORDS : u32 = TILE / 32u;

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
// `tile_scatter_bits` only: each tile's first output slot (`scan_tiles`).
@group(0) @binding(6) var<storage, read>       tile_bases  : array<u32>;
// The live length: flags past live.x are invisible, so that one compaction
// prepared for a capacity serves any count up to it (set per encode, or copied
// from a buffer a culling pass wrote). Binding 7 in every kernel that reads flags.
@group(0) @binding(7) var<uniform> live : vec4<u32>;

// Flags per row of a u32 tile (one vec4 per invocation).
const ROW : u32 = 4u * WORKGROUP_SIZE;
// The visible indices of STAGE_ROWS rows, compacted in shared memory first so that
// the global writes are whole consecutive runs (scattered 4-byte stores straight
// to global memory were slower). Not the whole tile: shared memory limits the
// workgroups an SM runs at once (BENCHMARKS.md v11). Set per pipeline (the host's
// `STAGE_ROWS`, src/gpu/lookback.rs): two rows a pair of barriers, or one row in
// less memory where that lets more workgroups run (BENCHMARKS.md v23).
override STAGE_ROWS : u32;
// An override of its own rather than the expression in the array type: naga 30
// panics specialising an array sized by an override expression.
override STAGED : u32 = STAGE_ROWS * ROW;
var<workgroup> staged         : array<u32, STAGED>;
var<workgroup> shared_ticket  : u32;
// Look-back progress: predecessors not yet counted, the count so far, the outcome.
var<workgroup> look_remaining : u32;
var<workgroup> look_exclusive : u32;
var<workgroup> look_outcome   : u32;
var<workgroup> tile_base      : u32;

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

struct Ticket {
  tile : u32,
  parity : u32,
}

// Tiles are numbered in the order workgroups take them (not by workgroup_id), so
// a tile only ever waits for tiles that have already started. Each workgroup takes
// `per_group` tickets. The counter runs over two runs (0 .. 2·launched) and the
// last ticket of every second run winds it back: all tickets of that run are taken
// by then, and the next run is a later dispatch. The run's parity rotates the
// state codes.
fn take_ticket(li : u32, groups : vec3<u32>, per_group : u32) -> Ticket {
  let launched = groups.x * groups.y * per_group;
  if (li == 0u) {
    let ticket = atomicAdd(&tile_states[0], 1u);
    if (ticket == 2u * launched - 1u) {
      atomicSub(&tile_states[0], 2u * launched);
    }
    shared_ticket = ticket;
  }
  let ticket = workgroupUniformLoad(&shared_ticket);
  let parity = select(0u, 1u, ticket >= launched);
  return Ticket(ticket - parity * launched, parity);
}

fn tail_word(i : u32, len : u32) -> u32 {
  if (i < len) {
    return input[i];
  }
  return 0u;
}

// Flags 4·v .. 4·v+3, zero past flag n.
fn load4_checked(v : u32, n : u32) -> vec4<u32> {
  if (v < n / 4u) {
    return input4[v];
  }
  let e = 4u * v;
  return vec4<u32>(tail_word(e, n), tail_word(e + 1u, n), tail_word(e + 2u, n), tail_word(e + 3u, n));
}

// The visible flags of a vec4 as four bits.
fn nibble(f : vec4<u32>) -> u32 {
  let b = select(vec4<u32>(0u), vec4<u32>(1u, 2u, 4u, 8u), f != vec4<u32>(0u));
  return b.x | b.y | b.z | b.w;
}

// Bit word `i` with the bits at or past flag n cleared (they are not flags).
fn mask_word(i : u32, n : u32, word : u32) -> u32 {
  let first = i * 32u;
  if (first >= n) {
    return 0u;
  }
  if (n - first >= 32u) {
    return word;
  }
  return word & ((1u << (n - first)) - 1u);
}

// Bit word i, zero past the last word and with the bits at or past flag n cleared.
fn bit_word(i : u32, n : u32) -> u32 {
  return mask_word(i, n, tail_word(i, (n + 31u) / 32u));
}

// Bit words 4·v .. 4·v+3: one vec4 load where all four are words, else `bit_word`.
fn bit_words4(v : u32, n : u32) -> vec4<u32> {
  let i = 4u * v;
  if (v < (n + 31u) / 32u / 4u) {
    let w = input4[v];
    return vec4<u32>(mask_word(i, n, w.x), mask_word(i + 1u, n, w.y), mask_word(i + 2u, n, w.z),
                     mask_word(i + 3u, n, w.w));
  }
  return vec4<u32>(bit_word(i, n), bit_word(i + 1u, n), bit_word(i + 2u, n), bit_word(i + 3u, n));
}

// Writes the indices of the visible flags among e .. e+3 (bits of `m`) to
// staged[pos ..], pos being counted from the start of the stage.
fn stage4(m : u32, pos : u32, e : u32) {
  var p = pos;
  if ((m & 1u) != 0u) {
    staged[p] = e;
  }
  p = p + (m & 1u);
  if ((m & 2u) != 0u) {
    staged[p] = e + 1u;
  }
  p = p + ((m >> 1u) & 1u);
  if ((m & 4u) != 0u) {
    staged[p] = e + 2u;
  }
  p = p + ((m >> 2u) & 1u);
  if ((m & 8u) != 0u) {
    staged[p] = e + 3u;
  }
}

// Four of invocation li's vec4 of a u32 tile.
struct Rows {
  f0 : vec4<u32>,
  f1 : vec4<u32>,
  f2 : vec4<u32>,
  f3 : vec4<u32>,
}

// One nibble per row: bits 4k .. 4k+3 for row k of the four.
fn rows_mask(r : Rows) -> u32 {
  return nibble(r.f0) | (nibble(r.f1) << 4u) | (nibble(r.f2) << 8u) | (nibble(r.f3) << 12u);
}

// Invocation li's 32 flags of a u32 tile: bits 4k .. 4k+3 for row k. A whole tile
// takes eight unconditional loads, all in flight together (two batches of four
// were slower, and the compiler gave them fewer workgroups).
fn tile_nibbles(tile : u32, li : u32, n : u32) -> u32 {
  let v = tile * (TILE / 4u) + li;
  let w = WORKGROUP_SIZE;
  if ((tile + 1u) * (TILE / 4u) <= n / 4u) {
    let lo = Rows(input4[v], input4[v + w], input4[v + 2u * w], input4[v + 3u * w]);
    let hi = Rows(input4[v + 4u * w], input4[v + 5u * w], input4[v + 6u * w], input4[v + 7u * w]);
    return rows_mask(lo) | (rows_mask(hi) << 16u);
  }
  let lo = Rows(load4_checked(v, n), load4_checked(v + w, n), load4_checked(v + 2u * w, n),
                load4_checked(v + 3u * w, n));
  let hi = Rows(load4_checked(v + 4u * w, n), load4_checked(v + 5u * w, n),
                load4_checked(v + 6u * w, n), load4_checked(v + 7u * w, n));
  return rows_mask(lo) | (rows_mask(hi) << 16u);
}

// A u32 tile takes its ticket, then loads that tile (`take_ticket`, then
// `tile_nibbles`). (Loading the workgroup-id tile while the ticket travels, and
// again when the ticket differed, was no faster: the ticket often differs.) The
// two stay separate calls: a struct holding
// both would make the ticket non-uniform for Tint's uniformity analysis (its value
// would share a return with the per-invocation flags), and Chrome would reject
// every workgroupUniformLoad after `if (ticket.tile >= tiles) { return; }`.

// Eight scans in one: each row's count (at most 4 per invocation, 512 per row) in
// a 16-bit half of a component. Returns the scan; `rows_total` sums it.
fn scan_rows(li : u32, m : u32) -> Scan {
  let lo = countOneBits((vec4<u32>(m) >> vec4<u32>(0u, 4u, 8u, 12u)) & vec4<u32>(0xFu));
  let hi = countOneBits((vec4<u32>(m) >> vec4<u32>(16u, 20u, 24u, 28u)) & vec4<u32>(0xFu));
  return workgroup_scan(li, vec4<u32>(lo.x | (lo.y << 16u), lo.z | (lo.w << 16u),
                                      hi.x | (hi.y << 16u), hi.z | (hi.w << 16u)));
}

fn rows_total(scan : Scan) -> u32 {
  let t = (scan.total & vec4<u32>(0xFFFFu)) + (scan.total >> vec4<u32>(16u));
  return t.x + t.y + t.z + t.w;
}

// Writes the tile's visible indices to indices[base ..] in order, STAGE_ROWS rows
// at a time through `staged`: row k starts after all of rows < k.
fn write_rows(tile : u32, li : u32, m : u32, scan : Scan, base : u32) {
  let t0 = scan.total.x & 0xFFFFu;
  let t1 = scan.total.x >> 16u;
  let t2 = scan.total.y & 0xFFFFu;
  let t3 = scan.total.y >> 16u;
  let t4 = scan.total.z & 0xFFFFu;
  let t5 = scan.total.z >> 16u;
  let t6 = scan.total.w & 0xFFFFu;
  let t7 = scan.total.w >> 16u;
  let e = tile * TILE + 4u * li;
  let b2 = base + t0 + t1;
  let b4 = b2 + t2 + t3;
  let b6 = b4 + t4 + t5;
  let x = scan.exclusive;
  if (STAGE_ROWS == 1u) {
    write_one_row(li, m, x.x & 0xFFFFu, e, base, t0);
    write_one_row(li, m >> 4u, x.x >> 16u, e + ROW, base + t0, t1);
    write_one_row(li, m >> 8u, x.y & 0xFFFFu, e + 2u * ROW, b2, t2);
    write_one_row(li, m >> 12u, x.y >> 16u, e + 3u * ROW, b2 + t2, t3);
    write_one_row(li, m >> 16u, x.z & 0xFFFFu, e + 4u * ROW, b4, t4);
    write_one_row(li, m >> 20u, x.z >> 16u, e + 5u * ROW, b4 + t4, t5);
    write_one_row(li, m >> 24u, x.w & 0xFFFFu, e + 6u * ROW, b6, t6);
    write_one_row(li, m >> 28u, x.w >> 16u, e + 7u * ROW, b6 + t6, t7);
    return;
  }
  write_two_rows(li, m, x.x & 0xFFFFu, t0 + (x.x >> 16u), e, base, t0 + t1);
  write_two_rows(li, m >> 8u, x.y & 0xFFFFu, t2 + (x.y >> 16u), e + 2u * ROW, b2, t2 + t3);
  write_two_rows(li, m >> 16u, x.z & 0xFFFFu, t4 + (x.z >> 16u), e + 4u * ROW, b4, t4 + t5);
  write_two_rows(li, m >> 24u, x.w & 0xFFFFu, t6 + (x.w >> 16u), e + 6u * ROW, b6, t6 + t7);
}

// One row: this invocation's four flags (bits 0-3 of `m`, indices e .. e+3) staged
// at `pos`, then the row's `count` indices written to indices[out ..]. Call it
// from uniform control flow.
fn write_one_row(li : u32, m : u32, pos : u32, e : u32, out : u32, count : u32) {
  stage4(m, pos, e);
  workgroupBarrier();
  write_out(li, out, count);
  // The next row overwrites `staged`.
  workgroupBarrier();
}

// Two rows: this invocation's four flags of each (bits 0-3 and 4-7 of `m`, indices
// e .. e+3 and e+ROW ..) staged at `pos0` and `pos1`, then their `count` indices
// written to indices[out ..]. Call it from uniform control flow.
fn write_two_rows(li : u32, m : u32, pos0 : u32, pos1 : u32, e : u32, out : u32, count : u32) {
  stage4(m, pos0, e);
  stage4(m >> 4u, pos1, e + ROW);
  workgroupBarrier();
  write_out(li, out, count);
  // The next two rows overwrite `staged`.
  workgroupBarrier();
}

// This invocation's share of the visible flags of a u32 tile (for the fallback),
// one row at a time. The fallback is rare, but registers are allocated for the
// busiest point of the kernel: eight loads at once here, while the tile's own scan
// is live, cost `lookback` an eighth of its workgroups per SM (BENCHMARKS.md v20).
fn count_flags(tile : u32, li : u32, n : u32) -> u32 {
  let v = tile * (TILE / 4u) + li;
  var c = 0u;
  for (var r = 0u; r < ROWS; r = r + 1u) {
    c = c + countOneBits(nibble(load4_checked(v + r * WORKGROUP_SIZE, n)));
  }
  return c;
}

// A bits tile as the same 32 bits per invocation that `tile_nibbles` gives for u32
// flags (row k's flags 4·li .. 4·li+3 at bits 4k .. 4k+3), so that both entry points
// scan and write the same way (staging straight from the words, word by word, was
// much slower; BENCHMARKS.md v15). Each invocation loads the word of each row that
// holds its nibble (eight invocations share a word, so a subgroup touches a few
// cache lines): loading the tile into shared memory first cost a barrier and the
// memory, and `lookback_bits` ran 1320 workgroups at once instead of 1584
// (BENCHMARKS.md v23).
fn bits_nibbles(tile : u32, li : u32, n : u32) -> u32 {
  let q = tile * TILE_WORDS + li / 8u;
  let r = ROW / 32u;
  if ((tile + 1u) * TILE <= n) {
    // Row k's word as a component of a vec4 (binding 0, which every kernel binds).
    let v = q / 4u;
    let c = q % 4u;
    let r4 = r / 4u;
    return nibbles_of(li, array<u32, ROWS>(input4[v][c], input4[v + r4][c],
                                           input4[v + 2u * r4][c], input4[v + 3u * r4][c],
                                           input4[v + 4u * r4][c], input4[v + 5u * r4][c],
                                           input4[v + 6u * r4][c], input4[v + 7u * r4][c]));
  }
  return nibbles_of(li, array<u32, ROWS>(bit_word(q, n), bit_word(r + q, n),
                                         bit_word(2u * r + q, n), bit_word(3u * r + q, n),
                                         bit_word(4u * r + q, n), bit_word(5u * r + q, n),
                                         bit_word(6u * r + q, n), bit_word(7u * r + q, n)));
}

// Invocation li's nibble of each row, from `words` (row k's word that holds it:
// word li/8 of the row's ROW/32).
fn nibbles_of(li : u32, words : array<u32, ROWS>) -> u32 {
  let shift = 4u * (li % 8u);
  return ((words[0] >> shift) & 0xFu) | (((words[1] >> shift) & 0xFu) << 4u) |
         (((words[2] >> shift) & 0xFu) << 8u) | (((words[3] >> shift) & 0xFu) << 12u) |
         (((words[4] >> shift) & 0xFu) << 16u) | (((words[5] >> shift) & 0xFu) << 20u) |
         (((words[6] >> shift) & 0xFu) << 24u) | (((words[7] >> shift) & 0xFu) << 28u);
}

fn count_bits(tile : u32, li : u32, n : u32) -> u32 {
  var c = 0u;
  if (li < TILE_WORDS / 4u) {
    let w = countOneBits(bit_words4(tile * (TILE_WORDS / 4u) + li, n));
    c = w.x + w.y + w.z + w.w;
  }
  return c;
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
      atomicStore(&count[0], exclusive + total);
      indirect[1] = exclusive + total;
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
    let capacity_tiles = (arrayLength(&indices) + TILE - 1u) / TILE;
    if (ticket.tile < capacity_tiles) {
      atomicStore(&tile_states[1u + ticket.tile], encode_state(INCLUSIVE, 0u, ticket.parity));
    }
    if (tiles == 0u && ticket.tile == 0u) {
      atomicStore(&count[0], 0u);
      indirect[1] = 0u;
    }
  }
}

// The staged indices to their slots: consecutive invocations, consecutive slots.
fn write_out(li : u32, base : u32, total : u32) {
  for (var s = li; s < total; s = s + WORKGROUP_SIZE) {
    indices[base + s] = staged[s];
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
    var part : u32;
    if (bits) {
      part = count_bits(blocked, li, n);
    } else {
      part = count_flags(blocked, li, n);
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
  write_rows(ticket.tile, li, nibbles, scan, base);
  stats_leave(li);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn lookback(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, arrayLength(&indices));
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
  let n = min(live.x, arrayLength(&indices));
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
  let n = min(live.x, arrayLength(&indices));
  let tiles = (n + TILE - 1u) / TILE;
  let ticket = take_ticket(li, groups, 1u);
  if (ticket.tile >= tiles) {
    skip_tile(li, ticket, tiles);
    return;
  }
  look_back_tile(li, ticket, bits_nibbles(ticket.tile, li, n), n, true);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn tile_atomic(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, arrayLength(&indices));
  let tiles = (n + TILE - 1u) / TILE;
  let ticket = take_ticket(li, groups, 1u);
  let nibbles = tile_nibbles(ticket.tile, li, n);
  if (ticket.tile >= tiles) {
    return;
  }
  stats_enter(li);
  let scan = scan_rows(li, nibbles);
  let total = rows_total(scan);
  if (li == 0u) {
    // One global atomic per tile: contention 64 times lower than the article's
    // kernel 2.
    tile_base = atomicAdd(&count[0], total);
    record_stats();
  }
  let base = workgroupUniformLoad(&tile_base);
  write_rows(ticket.tile, li, nibbles, scan, base);
  stats_leave(li);
}

// `packed-scan`'s last pass: each tile's bits scanned and written from the slot
// `scan_tiles` gave it. No ticket and no look-back: no tile waits for another, so
// tiles are numbered by workgroup, one each (four a workgroup, from one load, were
// slower: each workgroup then writes them in turn). The slot is read before the
// bits, so that its load is not one more wait after the scan.
@compute @workgroup_size(WORKGROUP_SIZE)
fn tile_scatter_bits(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, arrayLength(&indices));
  let tiles = (n + TILE - 1u) / TILE;
  let tile = wid.x + wid.y * groups.x;
  if (tile >= tiles) {
    return;
  }
  let base = tile_bases[tile];
  let nibbles = bits_nibbles(tile, li, n);
  write_rows(tile, li, nibbles, scan_rows(li, nibbles), base);
}
