// Packs u32 flags (any nonzero value is visible) into bits, 32 to a word, least
// significant first: what `lookback_bits` reads when the caller has u32 flags.
// A culling pass that writes bits directly needs no packing.

const WORKGROUP_SIZE : u32 = 256u;

@group(0) @binding(0) var<storage, read>       flags : array<u32>;
@group(0) @binding(1) var<storage, read_write> bits  : array<u32>;

var<workgroup> words : array<atomic<u32>, 8>;  // WORKGROUP_SIZE / 32

fn linear_workgroup(wid : vec3<u32>, groups : vec3<u32>) -> u32 {
  return wid.x + wid.y * groups.x;
}

@compute @workgroup_size(256)
fn pack_bits(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  if (li < WORKGROUP_SIZE / 32u) {
    atomicStore(&words[li], 0u);
  }
  workgroupBarrier();
  // One flag per invocation: coalesced loads; the shared atomics build the words.
  let i = linear_workgroup(wid, groups) * WORKGROUP_SIZE + li;
  if (i < arrayLength(&flags) && flags[i] != 0u) {
    atomicOr(&words[li / 32u], 1u << (li % 32u));
  }
  workgroupBarrier();
  let w = i / 32u;
  if (li % 32u == 0u && w < arrayLength(&bits)) {
    bits[w] = atomicLoad(&words[li / 32u]);
  }
}
