// The write-out of the tile kernels (shaders/tiles.wgsl) when only the indices are
// written. shaders/tile_write_payload.wgsl takes its place when each visible
// object's payload is copied too.

// The staged indices to their slots (consecutive invocations, consecutive slots),
// each plus the index base; none past the indices' room.
fn write_out(li : u32, base : u32, total : u32) {
  let kept = room_for(base, total);
  for (var s = li; s < kept; s = s + WORKGROUP_SIZE) {
    indices[base + s] = object_index(staged[s]);
  }
}
