// Kernel 1 of the article ("compactar"): every visible invocation reserves its slot
// with one global atomicAdd. Fast, but the order of `indices` depends on scheduling.
//
// A flag is visible when it is nonzero (the article tests `== 0u` here but `== 1u`
// elsewhere; this crate uses one meaning everywhere).

@group(0) @binding(0) var<storage, read>       visible : array<u32>;
@group(0) @binding(1) var<storage, read_write> indices : array<u32>;
@group(0) @binding(2) var<storage, read_write> counter : atomic<u32>;
// (With shaders/live.wgsl: the live uniform at binding 7, linear_workgroup.)

@compute @workgroup_size(64)
fn atomic_counter(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let i = linear_workgroup(wid, groups) * 64u + li;
  if (i >= min(live.x, arrayLength(&visible))) {
    return;
  }
  if (visible[i] == 0u) {
    return;
  }
  // atomicAdd returns the value BEFORE the increment: that is this invocation's slot.
  let slot = atomicAdd(&counter, 1u);
  indices[slot] = object_index(i);
}
