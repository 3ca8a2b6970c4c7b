// The workgroup scan of the tiles (shaders/tiles.wgsl) and the look-back of
// shaders/lookback.wgsl with subgroup operations, for devices with the SUBGROUP
// feature: composed into the `tiles` module in place of
// shaders/lookback_portable.wgsl (it uses the declarations of the module's other
// files). The scan: one scan per subgroup in registers, one shared
// slot per subgroup, one barrier; the portable scan needs sixteen. The look-back:
// one subgroup, no workgroup barrier per round.
//
// It assumes what every driver does for a one-dimensional workgroup (and naga's own
// HLSL output assumes too): subgroups are consecutive runs of
// local_invocation_index, in lane order.
//
// No `enable subgroups;`: naga 30 rejects the directive as not yet implemented and
// takes subgroup operations when the device has SUBGROUP; wgpu's WebGPU backend
// does not offer SUBGROUP, so browsers always get the portable scan.

// Subgroups are at least 4 invocations wide.
const MAX_SUBGROUPS : u32 = WORKGROUP_SIZE / 4u;

struct Scan {
  exclusive : vec4<u32>,
  total : vec4<u32>,
}

var<workgroup> subgroup_totals : array<vec4<u32>, MAX_SUBGROUPS>;

// Exclusive prefix of `x` over the workgroup (in local_invocation_index order) and
// the workgroup's total. Call it from uniform control flow.
fn workgroup_scan(li : u32, x : vec4<u32>) -> Scan {
  // No builtin is needed: the portable variant's entry points cannot declare
  // subgroup builtins, and this is as cheap.
  let size = subgroupAdd(1u);
  let inclusive = subgroupInclusiveAdd(x);
  if (li % size == size - 1u) {
    subgroup_totals[li / size] = inclusive;
  }
  workgroupBarrier();
  let subgroup = li / size;
  var before = vec4<u32>(0u);
  var total = vec4<u32>(0u);
  for (var s = 0u; s < WORKGROUP_SIZE / size; s = s + 1u) {
    let t = subgroup_totals[s];
    before = before + select(vec4<u32>(0u), t, s < subgroup);
    total = total + t;
  }
  // The next call overwrites subgroup_totals.
  workgroupBarrier();
  return Scan(before + inclusive - x, total);
}

// The look-back of shaders/lookback.wgsl (same contract: false when look_exclusive
// holds the count before the tile, true when the fallback is due), run by the
// first subgroup alone, so that a round costs an L2 trip and a few subgroup
// operations instead of workgroup barriers. A wide round reads one predecessor per
// lane (one cache line for 32 lanes; four per lane were slower);
// while the nearest one has not published, single polls. Call it from uniform
// control flow.
fn look_back(li : u32, parity : u32) -> bool {
  let size = subgroupAdd(1u);
  let remaining = workgroupUniformLoad(&look_remaining);
  let exclusive = workgroupUniformLoad(&look_exclusive);
  if (li < size) {
    subgroup_look_back(li, size, parity, remaining, exclusive);
  }
  return workgroupUniformLoad(&look_outcome) == FALLBACK;
}

// (status, value) of the predecessor at distance `p` (tile remaining-1-p): read
// when p < count, INVALID (a stop) when not read, an inclusive 0 before tile 0.
fn state_at(p : u32, count : u32, remaining : u32, parity : u32) -> vec2<u32> {
  if (p >= remaining) {
    return vec2<u32>(INCLUSIVE, 0u);
  }
  if (p >= count) {
    return vec2<u32>(INVALID, 0u);
  }
  let word = atomicLoad(&tile_states[remaining - p]);
  return vec2<u32>(select(state_status(word, parity), INVALID, STRESS_FALLBACK), word >> 2u);
}

// The lowest set bit of a ballot, or 128 when none is.
fn first_in_ballot(b : vec4<u32>) -> u32 {
  if (b.x != 0u) {
    return firstTrailingBit(b.x);
  }
  if (b.y != 0u) {
    return 32u + firstTrailingBit(b.y);
  }
  if (b.z != 0u) {
    return 64u + firstTrailingBit(b.z);
  }
  if (b.w != 0u) {
    return 96u + firstTrailingBit(b.w);
  }
  return 128u;
}

// In the first subgroup (lane = li): lane l reads the predecessor at distance l.
// The nearest non-aggregate (the "stop") ends the round: the aggregates nearer are
// summed; an inclusive stop ends the look-back, and a stop at distance 0 means
// blocked. Lane 0 writes the result back.
fn subgroup_look_back(lane : u32, size : u32, parity : u32, start : u32, exclusive_in : u32) {
  var remaining = start;
  var exclusive = exclusive_in;
  var wide = true;
  var spins = 0u;
  var outcome = DONE;
  loop {
    if (remaining == 0u) {
      outcome = DONE;
      break;
    }
    let count = select(1u, size, wide);
    if (wide) {
      count_wide_round();
    }
    let entry = state_at(lane, count, remaining, parity);
    let stop_lane = first_in_ballot(subgroupBallot(entry.x != AGGREGATE));
    exclusive = exclusive + subgroupAdd(select(0u, entry.y, lane < stop_lane));
    if (stop_lane >= size) {
      // All aggregates (and tile 0 lies beyond them).
      remaining = remaining - count;
      spins = 0u;
      continue;
    }
    let stop = subgroupShuffle(entry, stop_lane);
    if (stop.x == INCLUSIVE) {
      exclusive = exclusive + stop.y;
      outcome = DONE;
      break;
    }
    remaining = remaining - stop_lane;
    if (stop_lane == 0u) {
      if (fallback_due(&spins)) {
        outcome = FALLBACK;
        break;
      }
    } else {
      spins = 0u;
    }
    // A stop that was read has not published: poll it alone. One that was not read
    // (past a single poll) may be anything: a wide round.
    wide = stop_lane >= count;
  }
  if (lane == 0u) {
    look_exclusive = exclusive;
    look_remaining = select(remaining, 0u, outcome == DONE);
    look_outcome = outcome;
  }
}
