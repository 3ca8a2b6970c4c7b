// Per-segment draw arguments after an order-keeping compaction, for
// `multi_draw_indexed_indirect` (or `multi_draw_indirect`) with one draw per mesh.
// The objects are grouped in contiguous segments, one per mesh: segment s holds the
// objects from its first object up to the next segment's. The compaction kept the
// order, so the visible objects of a segment are one dense run of `indices`: it
// starts at the slot of its first object (the visible objects before it) and ends
// at the next segment's.
//
// Two entry points find those slots. `segment_args_grouped`, after `lookback` or
// `lookback_bits`, reads them: the tiles wrote the slot of every 32nd flag
// (shaders/group_slots.wgsl), so one invocation a segment adds the visible flags
// between that flag and the object, at most 31, with loads all in flight at once.
// A search was a workgroup a segment, and 16 384 segments cost 16 384 workgroups
// of rounds (BENCHMARKS.md v31). `segment_args`, after the other order-keeping methods,
// searches the indices: one workgroup per segment finds both slots, 32 invocations
// each: a round probes 32 evenly spaced slots of the range left at once and keeps
// the gap between the last probe before the object and the first at or past it, 33
// times narrower. A search of 2^23 slots takes 5 rounds of loads in parallel,
// where one invocation halving the range waits on 23 loads in a row (BENCHMARKS.md
// v27). No atomics: the same records every run, the draw count written by one
// invocation (see `write_record`).
// (With shaders/input.wgsl, bindings 0 and 1, and shaders/live.wgsl, binding 7.)

// The compacted indices, each with the index base (live.w) added.
@group(0) @binding(2) var<storage, read>       indices  : array<u32>;
// The renderer's segments, four words each: the first object (counted from the
// flags' offset), the index (or vertex) count, the first index (or vertex), the
// base vertex (indexed draws only).
@group(0) @binding(3) var<storage, read>       segments : array<vec4<u32>>;
// The compaction's own arguments, 4 or 5 words (non-indexed or indexed), as its
// pass left them: their instance_count is the number of visible objects, and
// their first instance is added to every segment's.
@group(0) @binding(4) var<storage, read>       own_args : array<u32>;
// One record per segment, as many words as `own_args`, then the draw count: one
// past the last segment with a visible object.
@group(0) @binding(5) var<storage, read_write> args     : array<u32>;
// `segment_args_grouped`: the slot of flag 32·g in word g, as the tiles wrote it.
@group(0) @binding(6) var<storage, read>       group_slots : array<u32>;
// Flags per group slot (the tiles' GROUP, shaders/lookback.wgsl).
const GROUP : u32 = 32u;
// `segment_args_grouped`: whether the flags (bindings 0 and 1) are bits, 32 to a
// word, rather than u32 (set per pipeline).
override BITS : bool = false;

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

// Segment s's objects before the live length `n`: its first, and the next
// segment's (or n), never before its own.
fn segment_range(s : u32, n : u32, segments_len : u32) -> vec2<u32> {
  let start = min(segments[s].x, n);
  var end = n;
  if (s + 1u < segments_len) {
    end = clamp(segments[s + 1u].x, start, n);
  }
  return vec2<u32>(start, end);
}

// Segment s's record from the slots of its first object and of the next segment's.
// The draw count is written by the last segment with a visible object, the one
// that holds the last visible object (its first slot is before the count, its end
// at it), or by segment 0 when no segment has one: one writer where the segments
// are in order, so nothing needs clearing before the pass (a clear cost about a
// microsecond; BENCHMARKS.md v31).
fn write_record(s : u32, segments_len : u32, found : vec2<u32>) {
  // Slots past what was written (a renderer's `max_visible`) are not drawn.
  let slots = min(found, vec2<u32>(own_args[1]));
  let segment = segments[s];
  let words = arrayLength(&own_args);
  let at = s * words;
  args[at] = segment.y;
  args[at + 1u] = slots.y - slots.x;
  args[at + 2u] = segment.z;
  if (words == 5u) {
    args[at + 3u] = segment.w;
    args[at + 4u] = own_args[4] + slots.x;
  } else {
    args[at + 3u] = own_args[3] + slots.x;
  }
  let count = own_args[1];
  if (slots.x < count && slots.y == count) {
    args[segments_len * words] = s + 1u;
  } else if (s == 0u && slots.x == count) {
    args[segments_len * words] = 0u;
  }
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
  let range = segment_range(s, min(live.x, live.y), segments_len);
  let slots = first_slots_at(li, range, own_args[1]);
  if (li == 0u) {
    write_record(s, segments_len, slots);
  }
}

// The slot of object `object` (the visible flags before it), from its group's slot
// and the group's flags before it; past the live length `n`, the count.
fn grouped_slot(object : u32, n : u32) -> u32 {
  if (object >= n) {
    return own_args[1];
  }
  let g = object / GROUP;
  let before = object % GROUP;
  let slot = group_slots[g];
  // Meshes often start at a group's first flag: no flags to load.
  if (before == 0u) {
    return slot;
  }
  if (BITS) {
    return slot + countOneBits(bit_word(g, n) & ((1u << before) - 1u));
  }
  return slot + countOneBits(group_flags(g, n) & ((1u << before) - 1u));
}

// The visible flags of u32 group g, flag GROUP·g + i at bit i: eight vec4 loads
// issued together (a loop of checked loads waited on one after another, and
// cost 3–4 µs a pass on the H200; BENCHMARKS.md v31).
fn group_flags(g : u32, n : u32) -> u32 {
  let v = (GROUP / 4u) * g;
  if (v + GROUP / 4u <= n / 4u) {
    return nibble(input4[v]) | (nibble(input4[v + 1u]) << 4u) | (nibble(input4[v + 2u]) << 8u) |
           (nibble(input4[v + 3u]) << 12u) | (nibble(input4[v + 4u]) << 16u) |
           (nibble(input4[v + 5u]) << 20u) | (nibble(input4[v + 6u]) << 24u) |
           (nibble(input4[v + 7u]) << 28u);
  }
  var bits = 0u;
  for (var k = 0u; k < GROUP / 4u; k = k + 1u) {
    bits = bits | (nibble(load4_checked(v + k, n)) << (4u * k));
  }
  return bits;
}

@compute @workgroup_size(64)
fn segment_args_grouped(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let s = linear_workgroup(wid, groups) * 64u + li;
  let segments_len = arrayLength(&segments);
  if (s >= segments_len) {
    return;
  }
  let n = min(live.x, live.y);
  let range = segment_range(s, n, segments_len);
  write_record(s, segments_len, vec2<u32>(grouped_slot(range.x, n), grouped_slot(range.y, n)));
}
