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

// The fixed cost of a tile kernel (`bench --fixed`): the grid of the look-back
// kernels (a workgroup of 128 per 4096 flags) doing nothing (`empty_tiles`), or
// only taking a ticket as they do and sharing it (`ticket_tiles`). What a tile
// kernel takes beyond these is its own work.
@group(0) @binding(2) var<storage, read_write> tickets : array<atomic<u32>>;
var<workgroup> ticket : u32;

@compute @workgroup_size(128)
fn empty_tiles(@builtin(local_invocation_index) li : u32) {
  // Never taken: the binding stays in the layout, so both rows bind alike.
  if (li >= 128u) {
    atomicAdd(&tickets[1], 1u);
  }
}

@compute @workgroup_size(128)
fn ticket_tiles(@builtin(local_invocation_index) li : u32) {
  if (li == 0u) {
    ticket = atomicAdd(&tickets[0], 1u);
  }
  // Used, as a kernel uses its ticket, so that the load is not dropped.
  if (workgroupUniformLoad(&ticket) == 0xFFFFFFFFu) {
    atomicAdd(&tickets[1], 1u);
  }
}
