// The second pass of `packed-scan`: the tile counts of `tile_counts` become, in
// place, each tile's first output slot (their exclusive prefix); the total is the
// count and the draw's instance_count.
//
// One workgroup: the counts are N/4096 words, already in L2. Each round invocation
// li takes PER_INVOCATION consecutive counts (as vec4 loads, all in flight), sums
// them, and one workgroup scan of the sums gives every invocation its start.

const WORKGROUP_SIZE : u32 = 256u;
// Counts per invocation a round (a multiple of 4, at most 64, what `scan_tiles`
// loads): one round up to 16384 tiles (2^26 flags). Tests lower it to run many rounds.
override PER_INVOCATION : u32 = 64u;
const TILE : u32 = 4096u;

// The counts, padded to whole vec4; entries at or past the live tiles read as 0.
@group(0) @binding(0) var<storage, read_write> counts      : array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> count       : array<u32>;
// DrawIndirectArgs: instance_count is [1].
@group(0) @binding(2) var<storage, read_write> indirect    : array<u32, 4>;
// (With shaders/live.wgsl: the live uniform at binding 7.)

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

fn sum4(c : vec4<u32>) -> u32 {
  return c.x + c.y + c.z + c.w;
}

// Vec4 `k` of an invocation's counts from vec4 v0: 0 past PER_INVOCATION, and for
// tiles at or past `tiles` (the padding, and tiles past the live length).
fn load_counts(v0 : u32, k : u32, tiles : u32) -> vec4<u32> {
  let v = v0 + k;
  if (4u * k >= PER_INVOCATION || 4u * v >= tiles) {
    return vec4<u32>(0u);
  }
  let t = vec4<u32>(4u * v) + vec4<u32>(0u, 1u, 2u, 3u);
  return select(vec4<u32>(0u), counts[v], t < vec4<u32>(tiles));
}

// Writes the slots of vec4 `k` (counts `c`, the first slot `start`) and returns
// the slot after them.
fn store_slots(v0 : u32, k : u32, tiles : u32, start : u32, c : vec4<u32>) -> u32 {
  let v = v0 + k;
  if (4u * k < PER_INVOCATION && 4u * v < tiles) {
    counts[v] = vec4<u32>(start, start + c.x, start + c.x + c.y, start + c.x + c.y + c.z);
  }
  return start + sum4(c);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn scan_tiles(@builtin(local_invocation_index) li : u32) {
  let n = min(live.x, live.y);
  let tiles = (n + TILE - 1u) / TILE;
  let round = WORKGROUP_SIZE * PER_INVOCATION;
  var carry = 0u;
  for (var first = 0u; first < tiles; first = first + round) {
    // Invocation li's counts are vec4 v0 .. v0 + PER_INVOCATION/4 - 1, loaded by
    // hand one by one so that all are in flight at once (in a loop over an array
    // the compiler may keep them in local memory and wait for each in turn).
    let v0 = (first + li * PER_INVOCATION) / 4u;
    let c0 = load_counts(v0, 0u, tiles);
    let c1 = load_counts(v0, 1u, tiles);
    let c2 = load_counts(v0, 2u, tiles);
    let c3 = load_counts(v0, 3u, tiles);
    let c4 = load_counts(v0, 4u, tiles);
    let c5 = load_counts(v0, 5u, tiles);
    let c6 = load_counts(v0, 6u, tiles);
    let c7 = load_counts(v0, 7u, tiles);
    let c8 = load_counts(v0, 8u, tiles);
    let c9 = load_counts(v0, 9u, tiles);
    let c10 = load_counts(v0, 10u, tiles);
    let c11 = load_counts(v0, 11u, tiles);
    let c12 = load_counts(v0, 12u, tiles);
    let c13 = load_counts(v0, 13u, tiles);
    let c14 = load_counts(v0, 14u, tiles);
    let c15 = load_counts(v0, 15u, tiles);
    let sum = sum4(c0) + sum4(c1) + sum4(c2) + sum4(c3) + sum4(c4) + sum4(c5) + sum4(c6) + sum4(c7) + sum4(c8) + sum4(c9) + sum4(c10) + sum4(c11) + sum4(c12) + sum4(c13) + sum4(c14) + sum4(c15);
    let scanned = workgroup_exclusive(li, sum);
    var start = carry + scanned.x;
    start = store_slots(v0, 0u, tiles, start, c0);
    start = store_slots(v0, 1u, tiles, start, c1);
    start = store_slots(v0, 2u, tiles, start, c2);
    start = store_slots(v0, 3u, tiles, start, c3);
    start = store_slots(v0, 4u, tiles, start, c4);
    start = store_slots(v0, 5u, tiles, start, c5);
    start = store_slots(v0, 6u, tiles, start, c6);
    start = store_slots(v0, 7u, tiles, start, c7);
    start = store_slots(v0, 8u, tiles, start, c8);
    start = store_slots(v0, 9u, tiles, start, c9);
    start = store_slots(v0, 10u, tiles, start, c10);
    start = store_slots(v0, 11u, tiles, start, c11);
    start = store_slots(v0, 12u, tiles, start, c12);
    start = store_slots(v0, 13u, tiles, start, c13);
    start = store_slots(v0, 14u, tiles, start, c14);
    start = store_slots(v0, 15u, tiles, start, c15);
    carry = carry + scanned.y;
  }
  if (li == 0u) {
    count[0] = carry;
    indirect[1] = carry;
  }
}
