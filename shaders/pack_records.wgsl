// Per-mesh records packed to the meshes with a visible object
// (`SegmentsDesc::packed`): after shaders/segment_args.wgsl has written one record
// per mesh into a scratch buffer, the records with instances go first, in mesh
// order, each mesh's number alongside; the rest draw nothing, and the draw count
// is how many were kept. A `multi_draw_*_indirect_count` then issues no empty draw.
//
// Two dispatches: `pack_slots`, one workgroup composed with shaders/scan_tiles.wgsl
// for its workgroup scan (`workgroup_exclusive`, WORKGROUP_SIZE), gives each kept
// record its place; `pack_records`, an invocation a mesh, moves it there. (One
// workgroup doing both took 146 µs for 16 384 meshes on the H200: its invocations
// copied record after record; BENCHMARKS.md v31.)

// One record per mesh (as many words as `own_args`), as segment_args wrote them.
@group(0) @binding(3) var<storage, read>       records  : array<u32>;
// The compaction's own arguments: their length is the words of a record.
@group(0) @binding(4) var<storage, read>       own_args : array<u32>;
// The packed records, then the draw count.
@group(0) @binding(5) var<storage, read_write> args     : array<u32>;
// The mesh of each packed record; NO_MESH past the draw count.
@group(0) @binding(6) var<storage, read_write> meshes   : array<u32>;
// Each mesh's place among the kept records (its record moves there if kept).
@group(0) @binding(8) var<storage, read_write> places   : array<u32>;

// Meshes an invocation of `pack_slots` takes a round: sixteen loads written out one
// by one, so that all are in flight at once (a loop of 64 waited on each in turn:
// 23 µs for 1 024 meshes on the H200; BENCHMARKS.md v31).
const PACK_PER_INVOCATION : u32 = 16u;
const NO_MESH : u32 = 0xFFFFFFFFu;

// 1 when mesh s (of `segments`) has instances: its record's instance_count.
fn kept_at(s : u32, words : u32, segments : u32) -> u32 {
  let instances = records[min(s, segments - 1u) * words + 1u];
  return select(0u, 1u, s < segments && instances > 0u);
}

// Mesh s's place is `at`; returns the next place (one on if it is kept).
fn place_at(s : u32, segments : u32, at : u32, kept : u32) -> u32 {
  if (s < segments) {
    places[s] = at;
  }
  return at + kept;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn pack_slots(@builtin(local_invocation_index) li : u32) {
  let words = arrayLength(&own_args);
  let segments = arrayLength(&places);
  var carry = 0u;
  for (var first = 0u; first < segments; first = first + WORKGROUP_SIZE * PACK_PER_INVOCATION) {
    let mine = first + li * PACK_PER_INVOCATION;
    let k0 = kept_at(mine + 0u, words, segments);
    let k1 = kept_at(mine + 1u, words, segments);
    let k2 = kept_at(mine + 2u, words, segments);
    let k3 = kept_at(mine + 3u, words, segments);
    let k4 = kept_at(mine + 4u, words, segments);
    let k5 = kept_at(mine + 5u, words, segments);
    let k6 = kept_at(mine + 6u, words, segments);
    let k7 = kept_at(mine + 7u, words, segments);
    let k8 = kept_at(mine + 8u, words, segments);
    let k9 = kept_at(mine + 9u, words, segments);
    let k10 = kept_at(mine + 10u, words, segments);
    let k11 = kept_at(mine + 11u, words, segments);
    let k12 = kept_at(mine + 12u, words, segments);
    let k13 = kept_at(mine + 13u, words, segments);
    let k14 = kept_at(mine + 14u, words, segments);
    let k15 = kept_at(mine + 15u, words, segments);
    let sum = k0 + k1 + k2 + k3 + k4 + k5 + k6 + k7
              + k8 + k9 + k10 + k11 + k12 + k13 + k14 + k15;
    let scanned = workgroup_exclusive(li, sum);
    var at = carry + scanned.x;
    at = place_at(mine + 0u, segments, at, k0);
    at = place_at(mine + 1u, segments, at, k1);
    at = place_at(mine + 2u, segments, at, k2);
    at = place_at(mine + 3u, segments, at, k3);
    at = place_at(mine + 4u, segments, at, k4);
    at = place_at(mine + 5u, segments, at, k5);
    at = place_at(mine + 6u, segments, at, k6);
    at = place_at(mine + 7u, segments, at, k7);
    at = place_at(mine + 8u, segments, at, k8);
    at = place_at(mine + 9u, segments, at, k9);
    at = place_at(mine + 10u, segments, at, k10);
    at = place_at(mine + 11u, segments, at, k11);
    at = place_at(mine + 12u, segments, at, k12);
    at = place_at(mine + 13u, segments, at, k13);
    at = place_at(mine + 14u, segments, at, k14);
    at = place_at(mine + 15u, segments, at, k15);
    carry = carry + scanned.y;
  }
  if (li == 0u) {
    args[segments * words] = carry;
  }
}

@compute @workgroup_size(64)
fn pack_records(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let s = linear_workgroup(wid, groups) * 64u + li;
  let segments = arrayLength(&places);
  if (s >= segments) {
    return;
  }
  let words = arrayLength(&own_args);
  let kept = args[segments * words];
  let place = places[s];
  if (records[s * words + 1u] > 0u) {
    for (var w = 0u; w < words; w = w + 1u) {
      args[place * words + w] = records[s * words + w];
    }
    meshes[place] = s;
  }
  // Places from the draw count on draw nothing: each mesh clears its own index there.
  if (s >= kept) {
    for (var w = 0u; w < words; w = w + 1u) {
      args[s * words + w] = 0u;
    }
    meshes[s] = NO_MESH;
  }
}
