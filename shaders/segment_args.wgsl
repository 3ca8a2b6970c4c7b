// Per-segment draw arguments after an order-keeping compaction, for
// `multi_draw_indexed_indirect` (or `multi_draw_indirect`) with one draw per mesh.
// The objects are grouped in contiguous segments, one per mesh: segment s holds the
// objects from its first object up to the next segment's. The compaction kept the
// order, so the visible objects of a segment are one dense run of `indices`: it
// starts at the first slot whose object is at or past the segment's start, and
// ends at the first at or past the next segment's.
//
// One workgroup per segment finds both slots, 32 invocations each: a round probes
// 32 evenly spaced slots of the range left at once and keeps the gap between the
// last probe before the object and the first at or past it, 33 times narrower. A
// search of 2^23 slots takes 5 rounds of loads in parallel, where one invocation
// halving the range waits on 23 loads in a row (1024 meshes cost 4.6 µs at 2^24
// flags this way, 14.4 that way; BENCHMARKS.md v27). No atomics but the draw
// count's, the same records every run.
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

// Invocations searching one slot; the workgroup searches two.
const LANES : u32 = 32u;

// Each search's range [lo, hi]: the slot sought is in it (hi when every slot
// before hi holds an earlier object).
var<workgroup> lo : array<u32, 2>;
var<workgroup> hi : array<u32, 2>;
// The first probe of a round at or past the object (LANES when none is).
var<workgroup> stop : array<atomic<u32>, 2>;
// Whether either range is still open.
var<workgroup> open : u32;

// The first slots whose objects are at or past `objects.x` and `objects.y`, among
// the `visible` sorted indices. Call it from uniform control flow.
fn first_slots_at(li : u32, objects : vec2<u32>, visible : u32) -> vec2<u32> {
  let search = li / LANES;
  let lane = li % LANES;
  let object = objects[search];
  if (lane == 0u) {
    lo[search] = 0u;
    hi[search] = visible;
    atomicStore(&stop[search], LANES);
  }
  if (li == 0u) {
    open = select(0u, 1u, visible > 0u);
  }
  while (workgroupUniformLoad(&open) == 1u) {
    let l = lo[search];
    let width = hi[search] - l;
    // A narrow range is probed slot by slot; a wide one at LANES + 1 even steps.
    let step = select(width / (LANES + 1u), 1u, width <= LANES);
    let probes = min(width, LANES);
    let probe = l + step * select(lane + 1u, lane, width <= LANES);
    if (lane < probes && indices[probe] - live.w >= object) {
      atomicMin(&stop[search], lane);
    }
    workgroupBarrier();
    if (lane == 0u) {
      let j = atomicLoad(&stop[search]);
      if (width <= LANES) {
        lo[search] = l + min(j, probes);
        hi[search] = lo[search];
      } else {
        // Between the probe before j (or the range's start) and probe j (or its end).
        lo[search] = select(l + step * j + 1u, l, j == 0u);
        hi[search] = select(l + step * (j + 1u), hi[search], j == LANES);
      }
      atomicStore(&stop[search], LANES);
    }
    workgroupBarrier();
    if (li == 0u) {
      open = select(0u, 1u, lo[0] < hi[0] || lo[1] < hi[1]);
    }
  }
  return vec2<u32>(lo[0], lo[1]);
}

@compute @workgroup_size(64)
fn segment_args(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let s = linear_workgroup(wid, groups);
  let segments_len = arrayLength(&segments);
  // The grid covers the segments exactly; whole workgroups leave together.
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
  let slots = first_slots_at(li, vec2<u32>(start, end), own_args[1]);
  if (li != 0u) {
    return;
  }
  let instances = slots.y - slots.x;
  let words = arrayLength(&own_args);
  let at = s * words;
  atomicStore(&args[at], segment.y);
  atomicStore(&args[at + 1u], instances);
  atomicStore(&args[at + 2u], segment.z);
  if (words == 5u) {
    atomicStore(&args[at + 3u], segment.w);
    atomicStore(&args[at + 4u], own_args[4] + slots.x);
  } else {
    atomicStore(&args[at + 3u], own_args[3] + slots.x);
  }
  if (instances > 0u) {
    atomicMax(&args[segments_len * words], s + 1u);
  }
}
