// Adds to every element the number of visible elements in all earlier blocks
// ("sumarDesplazamiento"): `offsets` is the exclusive scan of the block sums.

const BLOCK : u32 = 256u;

@group(0) @binding(0) var<storage, read_write> prefix  : array<u32>;
@group(0) @binding(1) var<storage, read>       offsets : array<u32>;
// (With shaders/live.wgsl: linear_workgroup reads the slice base, live.z.)

@compute @workgroup_size(256)
fn add_offsets(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  // One workgroup per block, so the linear workgroup id is the block index.
  let block = linear_workgroup(wid, groups);
  let i = block * BLOCK + li;
  if (i >= arrayLength(&prefix)) {
    return;
  }
  prefix[i] = prefix[i] + offsets[block];
}
