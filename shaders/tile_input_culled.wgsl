// One-pass culling (the host's `CullDesc`): the tile kernels ask the renderer's
// `fn visible(object : u32) -> bool` about each object instead of reading a flag,
// so the flags are never written nor read. The renderer's WGSL, with its own
// bindings in @group(1), comes first in the module (its error messages then give
// the renderer's own line numbers); this file takes the place of
// shaders/tile_input.wgsl. `object` counts from 0, as the indices do before the
// index base.

// Objects e .. e+3 as four bits, none at or past object n (`visible` is never
// asked about those).
fn visible4(e : u32, n : u32) -> u32 {
  var m = 0u;
  if (e < n && visible(e)) {
    m = 1u;
  }
  if (e + 1u < n && visible(e + 1u)) {
    m = m | 2u;
  }
  if (e + 2u < n && visible(e + 2u)) {
    m = m | 4u;
  }
  if (e + 3u < n && visible(e + 3u)) {
    m = m | 8u;
  }
  return m;
}

// Objects e .. e+3 of a whole tile: no guards between the calls.
fn all4(e : u32) -> u32 {
  return select(0u, 1u, visible(e)) | select(0u, 2u, visible(e + 1u)) |
         select(0u, 4u, visible(e + 2u)) | select(0u, 8u, visible(e + 3u));
}

// Invocation li's 32 objects of a tile, as `tile_nibbles` gives u32 flags: bits
// 4k .. 4k+3 for row k (objects 4·li .. 4·li+3 of the row). A whole tile asks all
// 32 with no branch between the calls, so that the compiler can issue their loads
// of the renderer's data together (where `visible` itself does not branch).
fn tile_nibbles(tile : u32, li : u32, n : u32) -> u32 {
  let e = tile * TILE + 4u * li;
  if ((tile + 1u) * TILE <= n) {
    return all4(e) | (all4(e + ROW) << 4u) | (all4(e + 2u * ROW) << 8u) |
           (all4(e + 3u * ROW) << 12u) | (all4(e + 4u * ROW) << 16u) |
           (all4(e + 5u * ROW) << 20u) | (all4(e + 6u * ROW) << 24u) |
           (all4(e + 7u * ROW) << 28u);
  }
  return visible4(e, n) | (visible4(e + ROW, n) << 4u) | (visible4(e + 2u * ROW, n) << 8u) |
         (visible4(e + 3u * ROW, n) << 12u) | (visible4(e + 4u * ROW, n) << 16u) |
         (visible4(e + 5u * ROW, n) << 20u) | (visible4(e + 6u * ROW, n) << 24u) |
         (visible4(e + 7u * ROW, n) << 28u);
}

// The look-back's fallback: this invocation's share of a blocked tile's visible
// objects, asked again (`visible` must answer the same within a pass), a row at a
// time to keep registers free as `count_flags` of u32 flags does. (A culled
// compaction has no bits.)
fn count_tile(tile : u32, li : u32, n : u32, bits : bool) -> u32 {
  let e = tile * TILE + 4u * li;
  var c = 0u;
  for (var r = 0u; r < ROWS; r = r + 1u) {
    c = c + countOneBits(visible4(e + r * ROW, n));
  }
  return c;
}
