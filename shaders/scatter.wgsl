// The final scatter ("dispersar"): every visible element writes its own index to
// the slot the scan decided. No atomics, no contention, same buffer every run.
// `scatter_payload` also copies the element's payload (PAYLOAD_WORDS u32) to the
// slot's place in a dense buffer: payload_in[i·PAYLOAD_WORDS ..] to
// payload_out[slot·PAYLOAD_WORDS ..].
// (With shaders/live.wgsl: the live uniform at binding 7, linear_workgroup.)

@group(0) @binding(0) var<storage, read>       visible     : array<u32>;
@group(0) @binding(1) var<storage, read>       prefix      : array<u32>;
@group(0) @binding(2) var<storage, read_write> indices     : array<u32>;
@group(0) @binding(8) var<storage, read>       payload_in  : array<u32>;
@group(0) @binding(9) var<storage, read_write> payload_out : array<u32>;

// u32 words per object, 1 to 16 (set per pipeline).
override PAYLOAD_WORDS : u32 = 1u;

// Whether element i is visible and before the live length (WGSL's && skips the
// load past it).
fn kept(i : u32) -> bool {
  return i < min(live.x, arrayLength(&visible)) && visible[i] != 0u;
}

@compute @workgroup_size(64)
fn scatter(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let i = linear_workgroup(wid, groups) * 64u + li;
  if (kept(i)) {
    indices[prefix[i]] = object_index(i);
  }
}

@compute @workgroup_size(64)
fn scatter_payload(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let i = linear_workgroup(wid, groups) * 64u + li;
  if (kept(i)) {
    let slot = prefix[i];
    indices[slot] = object_index(i);
    for (var k = 0u; k < PAYLOAD_WORDS; k = k + 1u) {
      payload_out[slot * PAYLOAD_WORDS + k] = payload_in[i * PAYLOAD_WORDS + k];
    }
  }
}
