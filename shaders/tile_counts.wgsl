// The first pass of `packed-scan`: the visible flags of every tile of 4096 flags
// (128 bit words), from bits. `scan_tiles` turns the counts into each tile's first
// output slot, and `tile_scatter_bits` reads the bits again to write the indices:
// the flags are read once (as u32, by `pack_bits`) and the bits, 1/32 of that,
// twice, and no tile ever waits for another.
//
// Invocation li counts one vec4 of words (128 flags): 32 invocations a tile, eight
// tiles a workgroup, every load coalesced.

const WORKGROUP_SIZE : u32 = 256u;
const TILE_WORDS : u32 = 128u;
const TILES_PER_GROUP : u32 = 4u * WORKGROUP_SIZE / TILE_WORDS;

// With shaders/input.wgsl (the bit words at bindings 0 and 1) and
// shaders/live.wgsl (the live uniform at binding 7).
// One count per tile of the capacity.
@group(0) @binding(2) var<storage, read_write> counts : array<u32>;

var<workgroup> sums : array<atomic<u32>, TILES_PER_GROUP>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn tile_counts(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, live.y);
  let group = linear_workgroup(wid, groups);
  if (li < TILES_PER_GROUP) {
    atomicStore(&sums[li], 0u);
  }
  workgroupBarrier();
  let c = countOneBits(bit_words4(group * WORKGROUP_SIZE + li, n));
  atomicAdd(&sums[li / (TILE_WORDS / 4u)], c.x + c.y + c.z + c.w);
  workgroupBarrier();
  let tile = group * TILES_PER_GROUP + li;
  if (li < TILES_PER_GROUP && tile < arrayLength(&counts)) {
    counts[tile] = atomicLoad(&sums[li]);
  }
}
