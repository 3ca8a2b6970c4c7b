// Adds to every element the number of visible elements in all earlier blocks
// ("sumarDesplazamiento"): `offsets` is the exclusive scan of the block sums.

const BLOCK : u32 = 256u;

@group(0) @binding(0) var<storage, read_write> prefix  : array<u32>;
@group(0) @binding(1) var<storage, read>       offsets : array<u32>;
// Read for live.z only (see linear_workgroup); binding 7 as in the flag kernels.
@group(0) @binding(7) var<uniform> live : vec4<u32>;

// live.z: the first workgroup of this dispatch where it is recorded in slices
// (`Compactor::encode_slice`), else 0.
fn linear_workgroup(wid : vec3<u32>, groups : vec3<u32>) -> u32 {
  return live.z + wid.x + wid.y * groups.x;
}

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
