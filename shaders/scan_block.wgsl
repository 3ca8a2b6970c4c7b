// Hillis-Steele exclusive scan of one 256-element block per workgroup ("scanBloque").
// Writes the exclusive prefix inside the block and the block's total to `block_sums`.
// The same pipeline scans the block sums of every recursion level.
//
// `record` keeps `tmp` after the load and after each step for the playground's
// stepper: the traced build appends shaders/scan_record.wgsl, which stores it,
// every other build shaders/scan_record_none.wgsl, which does nothing (so the
// normal path carries no trace code and binds no trace buffer). One body for
// both: what is stepped is what runs.

const BLOCK : u32 = 256u;
const STEPS : u32 = 8u; // log2(BLOCK)

// Level 0 scans visibility flags, where any nonzero value counts as one; the upper
// levels scan block sums, which must be added as they are.
override FLAGS_INPUT : bool = true;

@group(0) @binding(0) var<storage, read>       input      : array<u32>;
@group(0) @binding(1) var<storage, read_write> prefix     : array<u32>;
@group(0) @binding(2) var<storage, read_write> block_sums : array<u32>;
// (With shaders/live.wgsl: the live uniform at binding 7, linear_workgroup.)

var<workgroup> tmp : array<u32, BLOCK>;

// Level 0 stops at the live length (its blocks past it scan zeros); the upper
// levels scan every block sum.
fn loaded(i : u32) -> bool {
  if (FLAGS_INPUT) {
    return i < min(live.x, arrayLength(&input));
  }
  return i < arrayLength(&input);
}

fn load(i : u32, li : u32) -> u32 {
  var v = 0u;
  if (loaded(i)) {
    v = input[i];
    if (FLAGS_INPUT) {
      v = select(0u, 1u, v != 0u);
    }
  }
  tmp[li] = v;
  workgroupBarrier();
  return v;
}

// One step: read into a register, barrier, write, barrier. Reading and writing
// without the barrier between them would let a neighbour read a half-updated
// value. The barriers sit outside the `if` because workgroupBarrier requires
// uniform control flow.
fn step(li : u32, offset : u32) {
  var sum = tmp[li];
  if (li >= offset) {
    sum = sum + tmp[li - offset];
  }
  workgroupBarrier();
  tmp[li] = sum;
  workgroupBarrier();
}

fn publish(i : u32, li : u32, block : u32, v : u32) {
  // Inclusive to exclusive: subtract the element's own value.
  if (i < arrayLength(&input)) {
    prefix[i] = tmp[li] - v;
  }
  // The last invocation holds the inclusive sum of the whole block.
  if (li == BLOCK - 1u && block < arrayLength(&block_sums)) {
    block_sums[block] = tmp[li];
  }
}

@compute @workgroup_size(256)
fn scan_block(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let block = linear_workgroup(wid, groups);
  let i = block * BLOCK + li;
  let v = load(i, li);
  record(0u, i, li);
  var snapshot = 1u;
  for (var offset = 1u; offset < BLOCK; offset = offset << 1u) {
    step(li, offset);
    record(snapshot, i, li);
    snapshot = snapshot + 1u;
  }
  publish(i, li, block, v);
}
