// `tile-atomic`: the tiles of shaders/tiles.wgsl, each taking its output range with
// one global atomicAdd instead of looking back: order kept inside a tile, not
// between tiles. Bindings 0-4 (and 7).

@compute @workgroup_size(WORKGROUP_SIZE)
fn tile_atomic(
  @builtin(local_invocation_index) li : u32,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, arrayLength(&indices));
  let tiles = (n + TILE - 1u) / TILE;
  let ticket = take_ticket(li, groups, 1u);
  let nibbles = tile_nibbles(ticket.tile, li, n);
  if (ticket.tile >= tiles) {
    return;
  }
  stats_enter(li);
  let scan = scan_rows(li, nibbles);
  let total = rows_total(scan);
  if (li == 0u) {
    // One global atomic per tile: contention 64 times lower than the article's
    // kernel 2.
    tile_base = atomicAdd(&count[0], total);
    record_stats();
  }
  let base = workgroupUniformLoad(&tile_base);
  write_rows(ticket.tile, li, nibbles, scan, base);
  stats_leave(li);
}
