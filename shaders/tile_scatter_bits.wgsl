// `packed-scan`'s last pass: each bits tile of shaders/tiles.wgsl scanned and
// written from the first slot `scan_tiles` gave it. No ticket and no look-back: no
// tile waits for another, so tiles are numbered by workgroup, one each (four a
// workgroup, from one load, were slower: each workgroup then writes them in
// turn). Bindings 0-2 and 6 (and 7).

// Each tile's first output slot (`scan_tiles`).
@group(0) @binding(6) var<storage, read> tile_bases : array<u32>;

// The slot is read before the bits, so that its load is not one more wait after
// the scan.
@compute @workgroup_size(WORKGROUP_SIZE)
fn tile_scatter_bits(
  @builtin(local_invocation_index) li : u32,
  @builtin(workgroup_id) wid : vec3<u32>,
  @builtin(num_workgroups) groups : vec3<u32>,
) {
  let n = min(live.x, arrayLength(&indices));
  let tiles = (n + TILE - 1u) / TILE;
  let tile = linear_workgroup(wid, groups);
  if (tile >= tiles) {
    return;
  }
  let base = tile_bases[tile];
  let nibbles = bits_nibbles(tile, li, n);
  write_rows(tile, li, nibbles, scan_rows(li, nibbles), base);
}
