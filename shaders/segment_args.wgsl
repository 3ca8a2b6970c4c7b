// Per-segment draw arguments after an order-keeping compaction, for
// `multi_draw_indexed_indirect` (or `multi_draw_indirect`) with one draw per mesh.
// The objects are grouped in contiguous segments, one per mesh: segment s holds the
// objects from its first object up to the next segment's. The compaction kept the
// order, so the visible objects of a segment are one dense run of `indices`: it
// starts where the first visible object at or past the segment's start is, which a
// binary search over the sorted indices finds. One invocation per segment, no
// atomics but the draw count's, the same records every run.
// (With shaders/live.wgsl: the live uniform at binding 7.)

// The compacted indices, each with the index base (live.w) added.
@group(0) @binding(0) var<storage, read>       indices  : array<u32>;
// The renderer's segments, four words each: the first object (counted from the
// flags' offset), the index (or vertex) count, the first index (or vertex), the
// base vertex (indexed draws only).
@group(0) @binding(1) var<storage, read>       segments : array<vec4<u32>>;
// The compaction's own arguments, 4 or 5 words (non-indexed or indexed), as its
// pass left them: their instance_count is the number of visible objects, and
// their first instance is added to every segment's.
@group(0) @binding(2) var<storage, read>       own_args : array<u32>;
// One record per segment, as many words as `own_args`, then the draw count: one
// past the last segment with a visible object (zeroed before the pass).
@group(0) @binding(3) var<storage, read_write> args     : array<atomic<u32>>;

// The visible objects before object `object`: the first slot whose object is at or
// past it, among the `visible` sorted ones. At most 32 steps.
fn first_slot_at(object : u32, visible : u32) -> u32 {
  var lo = 0u;
  var hi = visible;
  while (lo < hi) {
    let mid = lo + (hi - lo) / 2u;
    if (indices[mid] - live.w < object) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

@compute @workgroup_size(64)
fn segment_args(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let s = linear_workgroup(wid, groups) * 64u + li;
  let segments_len = arrayLength(&segments);
  if (s >= segments_len) {
    return;
  }
  // Segment s: its objects before the live length, never before its own start.
  let n = min(live.x, live.y);
  let segment = segments[s];
  let start = min(segment.x, n);
  var end = n;
  if (s + 1u < segments_len) {
    end = clamp(segments[s + 1u].x, start, n);
  }
  let visible = own_args[1];
  let first = first_slot_at(start, visible);
  let instances = first_slot_at(end, visible) - first;
  let words = arrayLength(&own_args);
  let at = s * words;
  atomicStore(&args[at], segment.y);
  atomicStore(&args[at + 1u], instances);
  atomicStore(&args[at + 2u], segment.z);
  if (words == 5u) {
    atomicStore(&args[at + 3u], segment.w);
    atomicStore(&args[at + 4u], own_args[4] + first);
  } else {
    atomicStore(&args[at + 3u], own_args[3] + first);
  }
  if (instances > 0u) {
    atomicMax(&args[segments_len * words], s + 1u);
  }
}
