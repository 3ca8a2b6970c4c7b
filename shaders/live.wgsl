// The live uniform, binding 7 of every kernel that reads flags or works in slices
// (src/gpu/catalogue.rs composes this file into their modules):
// - x: the live length: flags past it are invisible, so that one compaction
//   prepared for a capacity serves any count up to it (set per encode, or copied
//   from a buffer a culling pass wrote);
// - y: the capacity in flags;
// - z: the first workgroup of this dispatch where it is recorded in slices
//   (`Compactor::encode_slice`), else 0;
// - w: the index base, added to every index written (`CompactionDesc::index_base`).
@group(0) @binding(7) var<uniform> live : vec4<u32>;

// Workgroups beyond 65 535 are laid out on a 2-D grid: this is the linear id,
// counted from the slice's first workgroup.
fn linear_workgroup(wid : vec3<u32>, groups : vec3<u32>) -> u32 {
  return live.z + wid.x + wid.y * groups.x;
}

// The index written for flag `i` (counted from the flags' offset).
fn object_index(i : u32) -> u32 {
  return live.w + i;
}
