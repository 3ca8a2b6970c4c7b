// Benchmark reference: the cheapest kernel that reads N words and writes N words.
// Compaction at least reads N flags, so this is the floor a method is measured against.

@group(0) @binding(0) var<storage, read>       src : array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst : array<vec4<u32>>;

fn linear_workgroup(wid : vec3<u32>, groups : vec3<u32>) -> u32 {
  return wid.x + wid.y * groups.x;
}

@compute @workgroup_size(256)
fn copy_vec4(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let i = linear_workgroup(wid, groups) * 256u + li;
  if (i < arrayLength(&src)) {
    dst[i] = src[i];
  }
}
