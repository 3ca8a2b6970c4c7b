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

@group(0) @binding(0) var<storage, read>       bits4       : array<vec4<u32>>;
@group(0) @binding(1) var<storage, read>       bits        : array<u32>;
// One count per tile of the capacity.
@group(0) @binding(2) var<storage, read_write> counts : array<u32>;
// x: the live length (flags past it are invisible), y: the capacity in flags.
// Binding 7 in every kernel that reads flags.
@group(0) @binding(7) var<uniform> live : vec4<u32>;

var<workgroup> sums : array<atomic<u32>, TILES_PER_GROUP>;

fn word(i : u32, words : u32) -> u32 {
  if (i < words) {
    return bits[i];
  }
  return 0u;
}

// Bit word `i` with the bits at or past flag n cleared (they are not flags).
fn mask_word(i : u32, n : u32, w : u32) -> u32 {
  let first = i * 32u;
  if (first >= n) {
    return 0u;
  }
  if (n - first >= 32u) {
    return w;
  }
  return w & ((1u << (n - first)) - 1u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn tile_counts(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, live.y);
  let words = (n + 31u) / 32u;
  let group = wid.x + wid.y * groups.x;
  if (li < TILES_PER_GROUP) {
    atomicStore(&sums[li], 0u);
  }
  workgroupBarrier();
  let v = group * WORKGROUP_SIZE + li;
  var w : vec4<u32>;
  if (v < words / 4u) {
    w = bits4[v];
  } else {
    w = vec4<u32>(word(4u * v, words), word(4u * v + 1u, words), word(4u * v + 2u, words),
                  word(4u * v + 3u, words));
  }
  let i = 4u * v;
  w = vec4<u32>(mask_word(i, n, w.x), mask_word(i + 1u, n, w.y), mask_word(i + 2u, n, w.z),
                mask_word(i + 3u, n, w.w));
  let c = countOneBits(w);
  atomicAdd(&sums[li / (TILE_WORDS / 4u)], c.x + c.y + c.z + c.w);
  workgroupBarrier();
  let tile = group * TILES_PER_GROUP + li;
  if (li < TILES_PER_GROUP && tile < arrayLength(&counts)) {
    counts[tile] = atomicLoad(&sums[li]);
  }
}
