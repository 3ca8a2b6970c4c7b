// Kernel 2 of the article ("compactarAgregado"): one global atomicAdd per workgroup.
// Invocations first take a slot from a workgroup-shared counter, then invocation 0
// reserves the whole workgroup's range in the global counter. Blocks land in
// arbitrary order; within a block the visible elements stay contiguous.

@group(0) @binding(0) var<storage, read>       visible : array<u32>;
@group(0) @binding(1) var<storage, read_write> indices : array<u32>;
@group(0) @binding(2) var<storage, read_write> counter : atomic<u32>;
// (With shaders/live.wgsl: the live uniform at binding 7, linear_workgroup.)

var<workgroup> local_count : atomic<u32>;
var<workgroup> global_base : u32;

@compute @workgroup_size(64)
fn atomic_aggregated(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  if (li == 0u) {
    atomicStore(&local_count, 0u);
  }
  // No early return anywhere above a barrier: workgroupBarrier needs uniform control flow.
  workgroupBarrier();

  let i = linear_workgroup(wid, groups) * 64u + li;
  let passes = i < min(live.x, arrayLength(&visible)) && visible[i] != 0u;

  var local_slot = 0u;
  if (passes) {
    // Shared-memory atomic: two orders of magnitude cheaper than a global one.
    local_slot = atomicAdd(&local_count, 1u);
  }
  workgroupBarrier();

  if (li == 0u) {
    global_base = atomicAdd(&counter, atomicLoad(&local_count));
  }
  workgroupBarrier();

  if (passes) {
    indices[global_base + local_slot] = object_index(i);
  }
}
