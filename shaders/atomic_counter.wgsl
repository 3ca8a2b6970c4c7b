// Kernel 1 of the article ("compactar"): every visible invocation reserves its slot
// with one global atomicAdd. Fast, but the order of `indices` depends on scheduling.
//
// A flag is visible when it is nonzero (the article tests `== 0u` here but `== 1u`
// elsewhere; this crate uses one meaning everywhere).

@group(0) @binding(0) var<storage, read>       visible : array<u32>;
@group(0) @binding(1) var<storage, read_write> indices : array<u32>;
@group(0) @binding(2) var<storage, read_write> counter : atomic<u32>;
// The live length: flags past live.x are invisible, so that one compaction
// prepared for a capacity serves any count up to it (set per encode, or copied
// from a buffer a culling pass wrote). Binding 7 in every kernel that reads flags.
@group(0) @binding(7) var<uniform> live : vec4<u32>;

// Workgroups beyond 65 535 are laid out on a 2-D grid: this is the linear id.
// live.z: the first workgroup of this dispatch where it is recorded in slices
// (`Compactor::encode_slice`), else 0.
fn linear_workgroup(wid : vec3<u32>, groups : vec3<u32>) -> u32 {
  return live.z + wid.x + wid.y * groups.x;
}

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
  indices[slot] = i;
}
