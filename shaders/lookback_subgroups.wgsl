// The workgroup scan of shaders/lookback.wgsl with subgroup operations, for devices
// with the SUBGROUP feature: gpu/lookback.rs puts this file in place of the
// portable scan at the end of lookback.wgsl. One scan per subgroup in registers,
// one shared slot per subgroup, one barrier; the portable scan needs sixteen.
//
// It assumes what every driver does for a one-dimensional workgroup (and naga's own
// HLSL output assumes too): subgroups are consecutive runs of
// local_invocation_index, in lane order.
//
// No `enable subgroups;`: naga 30 rejects the directive as not yet implemented and
// takes subgroup operations when the device has SUBGROUP; wgpu's WebGPU backend
// does not offer SUBGROUP, so browsers always get the portable scan.

// Must equal WORKGROUP_SIZE in lookback.wgsl (a test checks).
const SCAN_WORKGROUP_SIZE : u32 = 256u;
// Subgroups are at least 4 invocations wide.
const MAX_SUBGROUPS : u32 = 64u;

struct Scan {
  exclusive : vec4<u32>,
  total : vec4<u32>,
}

var<workgroup> subgroup_totals : array<vec4<u32>, MAX_SUBGROUPS>;

// Exclusive prefix of `x` over the workgroup (in local_invocation_index order) and
// the workgroup's total. Call it from uniform control flow.
fn workgroup_scan(li : u32, x : vec4<u32>) -> Scan {
  // No builtin is needed: the portable variant's entry points cannot declare
  // subgroup builtins, and this is as cheap.
  let size = subgroupAdd(1u);
  let inclusive = subgroupInclusiveAdd(x);
  if (li % size == size - 1u) {
    subgroup_totals[li / size] = inclusive;
  }
  workgroupBarrier();
  let subgroup = li / size;
  var before = vec4<u32>(0u);
  var total = vec4<u32>(0u);
  for (var s = 0u; s < SCAN_WORKGROUP_SIZE / size; s = s + 1u) {
    let t = subgroup_totals[s];
    before = before + select(vec4<u32>(0u), t, s < subgroup);
    total = total + t;
  }
  // The next call overwrites subgroup_totals.
  workgroupBarrier();
  return Scan(before + inclusive - x, total);
}
