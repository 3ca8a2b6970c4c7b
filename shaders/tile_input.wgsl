// How the tile kernels read u32 flags (shaders/input.wgsl's bindings 0 and 1): a
// tile's flags for the scan (`tile_nibbles`; bits tiles are `bits_nibbles` of
// shaders/tiles.wgsl) and the look-back's fallback count of a tile of flags or
// bits (`count_tile`). A culled compaction composes shaders/tile_input_culled.wgsl
// in its place (`Build::cull`), which asks the renderer's `visible` instead, so
// that its `lookback` binds no input.

// Four of invocation li's vec4 of a u32 tile.
struct Rows {
  f0 : vec4<u32>,
  f1 : vec4<u32>,
  f2 : vec4<u32>,
  f3 : vec4<u32>,
}

// One nibble per row: bits 4k .. 4k+3 for row k of the four.
fn rows_mask(r : Rows) -> u32 {
  return nibble(r.f0) | (nibble(r.f1) << 4u) | (nibble(r.f2) << 8u) | (nibble(r.f3) << 12u);
}

// Invocation li's 32 flags of a u32 tile: bits 4k .. 4k+3 for row k. A whole tile
// takes eight unconditional loads, all in flight together (two batches of four
// were slower, and the compiler gave them fewer workgroups).
fn tile_nibbles(tile : u32, li : u32, n : u32) -> u32 {
  let v = tile * (TILE / 4u) + li;
  let w = WORKGROUP_SIZE;
  if ((tile + 1u) * (TILE / 4u) <= n / 4u) {
    let lo = Rows(input4[v], input4[v + w], input4[v + 2u * w], input4[v + 3u * w]);
    let hi = Rows(input4[v + 4u * w], input4[v + 5u * w], input4[v + 6u * w], input4[v + 7u * w]);
    return rows_mask(lo) | (rows_mask(hi) << 16u);
  }
  let lo = Rows(load4_checked(v, n), load4_checked(v + w, n), load4_checked(v + 2u * w, n),
                load4_checked(v + 3u * w, n));
  let hi = Rows(load4_checked(v + 4u * w, n), load4_checked(v + 5u * w, n),
                load4_checked(v + 6u * w, n), load4_checked(v + 7u * w, n));
  return rows_mask(lo) | (rows_mask(hi) << 16u);
}

// This invocation's share of the visible flags of a u32 tile (for the fallback),
// one row at a time. The fallback is rare, but registers are allocated for the
// busiest point of the kernel: eight loads at once here, while the tile's own scan
// is live, cost `lookback` an eighth of its workgroups per SM (BENCHMARKS.md v20).
fn count_flags(tile : u32, li : u32, n : u32) -> u32 {
  let v = tile * (TILE / 4u) + li;
  var c = 0u;
  for (var r = 0u; r < ROWS; r = r + 1u) {
    c = c + countOneBits(nibble(load4_checked(v + r * WORKGROUP_SIZE, n)));
  }
  return c;
}

fn count_bits(tile : u32, li : u32, n : u32) -> u32 {
  var c = 0u;
  if (li < TILE_WORDS / 4u) {
    let w = countOneBits(bit_words4(tile * (TILE_WORDS / 4u) + li, n));
    c = w.x + w.y + w.z + w.w;
  }
  return c;
}

// The look-back's fallback: this invocation's share of a blocked tile's visible
// flags, from bit words or from u32 flags.
fn count_tile(tile : u32, li : u32, n : u32, bits : bool) -> u32 {
  if (bits) {
    return count_bits(tile, li, n);
  }
  return count_flags(tile, li, n);
}
