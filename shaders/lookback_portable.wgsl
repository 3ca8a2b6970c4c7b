// The workgroup scan of the tiles (shaders/tiles.wgsl) and the look-back of
// shaders/lookback.wgsl for every device: in shared memory, with workgroup
// barriers. It is composed into the `tiles` module (src/gpu/catalogue.rs) and uses
// the declarations of its other files; devices with SUBGROUP get
// shaders/lookback_subgroups.wgsl instead.

struct Scan {
  exclusive : vec4<u32>,
  total : vec4<u32>,
}

var<workgroup> scan_scratch : array<vec4<u32>, WORKGROUP_SIZE>;

// Exclusive prefix of `x` over the workgroup (in local_invocation_index order) and
// the workgroup's total: Hillis-Steele in shared memory. Read into a register,
// barrier, write, barrier: without the middle barrier a neighbour could read a
// half-updated value. Call it from uniform control flow.
fn workgroup_scan(li : u32, x : vec4<u32>) -> Scan {
  scan_scratch[li] = x;
  workgroupBarrier();
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset = offset << 1u) {
    var sum = scan_scratch[li];
    if (li >= offset) {
      sum = sum + scan_scratch[li - offset];
    }
    workgroupBarrier();
    scan_scratch[li] = sum;
    workgroupBarrier();
  }
  let inclusive = scan_scratch[li];
  let total = scan_scratch[WORKGROUP_SIZE - 1u];
  // The next call overwrites scan_scratch.
  workgroupBarrier();
  return Scan(inclusive - x, total);
}

// Predecessors read at once by one round of the look-back: one per invocation.
const WINDOW : u32 = WORKGROUP_SIZE;

// Looks back from look_remaining (the predecessors not yet counted) until the count
// before the tile is in look_exclusive (returns false), or until the nearest
// uncounted predecessor has kept it waiting SPIN_LIMIT polls (returns true: the
// caller counts that tile's flags, then calls again). Wide rounds after every
// advance, single polls while blocked. The same in every invocation; call it from
// uniform control flow.
fn look_back(li : u32, parity : u32) -> bool {
  // Ordered before the first round's atomics by that round's workgroupUniformLoad.
  reset_window(li);
  var outcome = look_back_round(li, parity);
  var spins = 0u;
  loop {
    if (outcome == DONE) {
      break;
    }
    if (outcome == BLOCKED) {
      if (fallback_due(&spins)) {
        outcome = FALLBACK;
        break;
      }
      outcome = poll_nearest(li, parity);
    } else {
      spins = 0u;
      outcome = look_back_round(li, parity);
    }
  }
  return outcome == FALLBACK;
}

// One round of the look-back: every invocation reads the state of one predecessor
// (invocation li: the li-th nearest not yet counted); shared atomics find the nearest
// that is not an aggregate and sum the aggregates before it. An inclusive prefix
// there ends the look-back; a predecessor that has not published stops the round
// (BLOCKED if it is the nearest). A wide window matters: a new tile may be a
// thousand tiles ahead of the last inclusive prefix, and a round costs an L2 trip.
// Returns DONE, ADVANCED or BLOCKED, the same in every invocation.
fn look_back_round(li : u32, parity : u32) -> u32 {
  let remaining = workgroupUniformLoad(&look_remaining);
  if (remaining == 0u) {
    return DONE;
  }
  count_wide_round();
  return walk_window(li, remaining, read_window(li, remaining, parity));
}

// (status, value) of tile remaining-1-li, whose state word sits at index
// remaining - li. Past tile 0 there is nothing before: an inclusive prefix of 0.
fn read_window(li : u32, remaining : u32, parity : u32) -> vec2<u32> {
  if (li < remaining) {
    let word = atomicLoad(&tile_states[remaining - li]);
    return vec2<u32>(select(state_status(word, parity), INVALID, STRESS_FALLBACK), word >> 2u);
  }
  return vec2<u32>(INCLUSIVE, 0u);
}

// The nearest non-aggregate of a round (WINDOW if none) and the sum of the
// aggregates before it. Two shared atomics and two barriers rather than
// workgroup_scan's sixteen: every round is on the tile's critical path
// (BENCHMARKS.md v17). Reset to (WINDOW, 0) before each look-back and after each
// round.
var<workgroup> window_stop : atomic<u32>;
var<workgroup> window_sum : atomic<u32>;

fn reset_window(li : u32) {
  if (li == 0u) {
    atomicStore(&window_stop, WINDOW);
    atomicStore(&window_sum, 0u);
  }
}

fn walk_window(li : u32, remaining : u32, entry : vec2<u32>) -> u32 {
  let status = entry.x;
  let value = entry.y;
  if (status != AGGREGATE) {
    atomicMin(&window_stop, li);
  }
  workgroupBarrier();
  let stop = atomicLoad(&window_stop);
  if (li < stop) {
    atomicAdd(&window_sum, value);
  }
  workgroupBarrier();
  let before = atomicLoad(&window_sum);
  if (li == stop) {
    if (status == INCLUSIVE) {
      look_exclusive = look_exclusive + before + value;
      look_remaining = 0u;
      look_outcome = DONE;
    } else {
      look_exclusive = look_exclusive + before;
      look_remaining = remaining - li;
      look_outcome = select(BLOCKED, ADVANCED, li > 0u);
    }
  }
  if (li == 0u && stop == WINDOW) {
    // The whole window was aggregates (and tile 0 lies beyond it).
    look_exclusive = look_exclusive + before;
    look_remaining = remaining - WINDOW;
    look_outcome = ADVANCED;
  }
  // Its barrier orders every read of the window above before the reset.
  let outcome = workgroupUniformLoad(&look_outcome);
  reset_window(li);
  return outcome;
}

// While blocked: only the nearest uncounted predecessor's state, read by one
// invocation. Hundreds of waiting workgroups re-reading whole windows of states
// crowd the few L2 lines that hold them.
fn poll_nearest(li : u32, parity : u32) -> u32 {
  let remaining = workgroupUniformLoad(&look_remaining);
  if (li == 0u) {
    let word = atomicLoad(&tile_states[remaining]);
    let status = select(state_status(word, parity), INVALID, STRESS_FALLBACK);
    var outcome = BLOCKED;
    if (status == INCLUSIVE) {
      look_exclusive = look_exclusive + (word >> 2u);
      look_remaining = 0u;
      outcome = DONE;
    } else if (status == AGGREGATE) {
      look_exclusive = look_exclusive + (word >> 2u);
      look_remaining = remaining - 1u;
      outcome = select(ADVANCED, DONE, remaining == 1u);
    }
    look_outcome = outcome;
  }
  return workgroupUniformLoad(&look_outcome);
}

