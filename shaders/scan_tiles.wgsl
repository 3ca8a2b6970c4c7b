// The second pass of `packed-scan`: the tile counts of `tile_counts` become, in
// place, each tile's first output slot (their exclusive prefix); the total is the
// count and the draw's instance_count.
//
// One workgroup: the counts are N/4096 words, already in L2. Each round invocation
// li takes PER_INVOCATION consecutive counts (as vec4 loads, all in flight), sums
// them, and one workgroup scan of the sums gives every invocation its start.

const WORKGROUP_SIZE : u32 = 256u;
// Counts per invocation a round (a multiple of 4, at most MAX_PER_INVOCATION): one
// round up to 16384 tiles (2^26 flags). Tests lower it to run many rounds.
override PER_INVOCATION : u32 = 64u;
const MAX_PER_INVOCATION : u32 = 64u;
const TILE : u32 = 4096u;

// The counts, padded to whole vec4; entries at or past the live tiles read as 0.
@group(0) @binding(0) var<storage, read_write> counts      : array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> count       : array<u32>;
// DrawIndirectArgs: instance_count is [1].
@group(0) @binding(2) var<storage, read_write> indirect    : array<u32, 4>;
// x: the live length, y: the capacity in flags. Binding 7 in every kernel that reads flags.
@group(0) @binding(7) var<uniform> live : vec4<u32>;

var<workgroup> sums : array<u32, WORKGROUP_SIZE>;

// Exclusive prefix of `x` over the workgroup, and the total: Hillis-Steele in
// shared memory (once per round of one workgroup: not worth subgroups). Call it
// from uniform control flow.
fn workgroup_exclusive(li : u32, x : u32) -> vec2<u32> {
  sums[li] = x;
  workgroupBarrier();
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset = offset << 1u) {
    var sum = sums[li];
    if (li >= offset) {
      sum = sum + sums[li - offset];
    }
    workgroupBarrier();
    sums[li] = sum;
    workgroupBarrier();
  }
  let result = vec2<u32>(sums[li] - x, sums[WORKGROUP_SIZE - 1u]);
  workgroupBarrier();
  return result;
}

// Counts of tiles at or past `tiles` read as 0 (the padding, and tiles past the live length).
fn counts4(v : u32, tiles : u32) -> vec4<u32> {
  let c = counts[v];
  let t = vec4<u32>(4u * v) + vec4<u32>(0u, 1u, 2u, 3u);
  return select(vec4<u32>(0u), c, t < vec4<u32>(tiles));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scan_tiles(@builtin(local_invocation_index) li : u32) {
  let n = min(live.x, live.y);
  let tiles = (n + TILE - 1u) / TILE;
  let vecs = arrayLength(&counts);
  let round = WORKGROUP_SIZE * PER_INVOCATION;
  var carry = 0u;
  for (var first = 0u; first < tiles; first = first + round) {
    // Invocation li's counts are vec4 v0 .. v0 + PER_INVOCATION/4 - 1.
    let v0 = (first + li * PER_INVOCATION) / 4u;
    var c : array<vec4<u32>, MAX_PER_INVOCATION / 4u>;
    var sum = 0u;
    for (var k = 0u; k < PER_INVOCATION / 4u; k = k + 1u) {
      if (v0 + k < vecs) {
        c[k] = counts4(v0 + k, tiles);
      } else {
        c[k] = vec4<u32>(0u);
      }
      sum = sum + c[k].x + c[k].y + c[k].z + c[k].w;
    }
    let scanned = workgroup_exclusive(li, sum);
    var start = carry + scanned.x;
    for (var k = 0u; k < PER_INVOCATION / 4u; k = k + 1u) {
      let x = c[k];
      let out = vec4<u32>(start, start + x.x, start + x.x + x.y, start + x.x + x.y + x.z);
      start = start + x.x + x.y + x.z + x.w;
      if (v0 + k < vecs && 4u * (v0 + k) < tiles) {
        counts[v0 + k] = out;
      }
    }
    carry = carry + scanned.y;
  }
  if (li == 0u) {
    count[0] = carry;
    indirect[1] = carry;
  }
}
