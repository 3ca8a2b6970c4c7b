// The tiles shared by every single-pass kernel (`lookback`, `lookback_paired`,
// `lookback_bits`, `tile_atomic`, `tile_scatter_bits`): tiles of 4096 flags, one a
// workgroup, each loaded with vec4 loads all in flight at once, scanned in the
// workgroup as eight rows, and written out STAGE_ROWS rows at a time, compacted in
// shared memory first so that the global writes are consecutive runs.
//
// src/gpu/catalogue.rs composes the `tiles` module: shaders/live.wgsl and
// shaders/input.wgsl (bindings 7, 0 and 1), this file, how a tile reads its flags
// (shaders/tile_input.wgsl, or shaders/tile_input_culled.wgsl with a renderer's
// visibility function), the write-out
// (shaders/tile_write.wgsl, or shaders/tile_write_payload.wgsl when a payload is
// copied too), the kernels (shaders/lookback.wgsl, shaders/tile_atomic.wgsl,
// shaders/tile_scatter_bits.wgsl), the workgroup scan and look-back of
// shaders/lookback_portable.wgsl (every device) or shaders/lookback_subgroups.wgsl
// (devices with SUBGROUP), and shaders/lookback_stats.wgsl (`bench --stats`).

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

// Room for the capacity, or for a renderer's `max_visible`: slots past its length
// are not written (the capacity in flags is live.y).
@group(0) @binding(2) var<storage, read_write> indices     : array<u32>;
// [0]: the ticket counter; [1 + t]: the state of tile t (shaders/lookback.wgsl).
@group(0) @binding(3) var<storage, read_write> tile_states : array<atomic<u32>>;
// [0]: the visible flags written; [1]: those past the indices' room (look-back).
@group(0) @binding(4) var<storage, read_write> count       : array<atomic<u32>>;

// Flags per row of a u32 tile (one vec4 per invocation).
const ROW : u32 = 4u * WORKGROUP_SIZE;
// The visible indices of STAGE_ROWS rows, compacted in shared memory first so that
// the global writes are whole consecutive runs (scattered 4-byte stores straight
// to global memory were slower). Not the whole tile: shared memory limits the
// workgroups an SM runs at once (BENCHMARKS.md v11). Set per pipeline (the host's
// `stage_rows`, src/gpu/pipelines.rs): two rows a pair of barriers, or one row in
// less memory where that lets more workgroups run (BENCHMARKS.md v23).
override STAGE_ROWS : u32;
// An override of its own rather than the expression in the array type: naga 30
// panics specialising an array sized by an override expression.
override STAGED : u32 = STAGE_ROWS * ROW;
var<workgroup> staged         : array<u32, STAGED>;
var<workgroup> shared_ticket  : u32;
var<workgroup> tile_base      : u32;

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

// How many of `total` slots from `base` the indices hold (and a payload's copies,
// sized alike): the write-outs stop there.
fn room_for(base : u32, total : u32) -> u32 {
  let len = arrayLength(&indices);
  return min(total, len - min(base, len));
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

// Invocation li's 32 flags of a u32 tile (`tile_nibbles`) are read by
// shaders/tile_input.wgsl, or asked of the renderer's visibility function by
// shaders/tile_input_culled.wgsl.

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
