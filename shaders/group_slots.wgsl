// Segmented compactions of `lookback` and `lookback_bits` (the host's
// `Variant::group_slots`; shaders/group_slots_none.wgsl takes its place in every
// other build): each tile also writes the output slot of every 32nd flag, after the
// tile states, so that shaders/segment_args.wgsl finds the slot of a segment's
// first object with one load and a count of at most 31 flags instead of a search
// over the indices (BENCHMARKS.md v31).

// Flags per group slot, and group slots per row of a u32 tile (8 invocations each).
const GROUP : u32 = 32u;
const ROW_GROUPS : u32 = 4u * WORKGROUP_SIZE / GROUP;

// The first group slot's word in `tile_states`: past the ticket and one state a
// tile of the capacity, at a multiple of 64 words so that the host binds the slots
// at a 256-byte offset (the host's `group_slots_start`, src/layout.rs).
fn group_slots_start() -> u32 {
  let tiles = (live.y + TILE - 1u) / TILE;
  return (tiles + 1u + 63u) / 64u * 64u;
}

// Tile `tile`'s group slots: flag GROUP·g's slot (the visible flags before it) in
// word g of the slots, g counted from flag 0. Invocations 8j hold the scan at each
// row's flags 32j.., one slot a row.
fn write_group_slots(tile : u32, li : u32, scan : Scan, base : u32) {
  if (li % (GROUP / 4u) != 0u) {
    return;
  }
  let at = group_slots_start() + tile * (TILE / GROUP) + li / (GROUP / 4u);
  let t = scan.total;
  let x = scan.exclusive;
  let b1 = base + (t.x & 0xFFFFu);
  let b2 = b1 + (t.x >> 16u);
  let b3 = b2 + (t.y & 0xFFFFu);
  let b4 = b3 + (t.y >> 16u);
  let b5 = b4 + (t.z & 0xFFFFu);
  let b6 = b5 + (t.z >> 16u);
  let b7 = b6 + (t.w & 0xFFFFu);
  atomicStore(&tile_states[at], base + (x.x & 0xFFFFu));
  atomicStore(&tile_states[at + ROW_GROUPS], b1 + (x.x >> 16u));
  atomicStore(&tile_states[at + 2u * ROW_GROUPS], b2 + (x.y & 0xFFFFu));
  atomicStore(&tile_states[at + 3u * ROW_GROUPS], b3 + (x.y >> 16u));
  atomicStore(&tile_states[at + 4u * ROW_GROUPS], b4 + (x.z & 0xFFFFu));
  atomicStore(&tile_states[at + 5u * ROW_GROUPS], b5 + (x.z >> 16u));
  atomicStore(&tile_states[at + 6u * ROW_GROUPS], b6 + (x.w & 0xFFFFu));
  atomicStore(&tile_states[at + 7u * ROW_GROUPS], b7 + (x.w >> 16u));
}

// A culled compaction (shaders/tile_input_culled.wgsl) has no flags for
// segment_args.wgsl to count a group's from: its tiles also write their
// visibility, one bit word a group, after the group slots (the host's
// `group_bits_start`).
override GROUP_BITS : bool = false;

fn group_bits_start() -> u32 {
  return group_slots_start() + (live.y + TILE - 1u) / TILE * (TILE / GROUP);
}

// Tile `tile`'s bit words from the invocations' nibbles (`tile_nibbles`): word li
// (row li/16, objects 32·(li%16) ..) gathers the nibble of that row of invocations
// 8·(li%16) .. +7, through `staged`. Call it from uniform control flow, before the
// write-out (which overwrites `staged`).
fn write_group_bits(tile : u32, li : u32, nibbles : u32) {
  if (!GROUP_BITS) {
    return;
  }
  staged[li] = nibbles;
  workgroupBarrier();
  let shift = 4u * (li / (ROW / GROUP));
  let first = (GROUP / 4u) * (li % (ROW / GROUP));
  var word = 0u;
  for (var t = 0u; t < GROUP / 4u; t = t + 1u) {
    word = word | (((staged[first + t] >> shift) & 0xFu) << (4u * t));
  }
  atomicStore(&tile_states[group_bits_start() + tile * TILE_WORDS + li], word);
  workgroupBarrier();
}