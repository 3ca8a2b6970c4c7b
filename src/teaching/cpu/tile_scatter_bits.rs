//! CPU mirror of `shaders/tile_scatter_bits.wgsl`: `packed-scan`'s last pass.

use crate::layout::TILE;

/// `tile_scatter_bits`: each tile of the first `len` flags of `bits` written from
/// its slot in `slots` (as `scan_tiles` gives them), into `out`.
pub fn tile_scatter_bits(bits: &[u32], len: usize, slots: &[u32], out: &mut [u32]) {
    let bit = |i: usize| bits.get(i / 32).is_some_and(|w| (w >> (i % 32)) & 1 == 1);
    for (t, &slot) in slots.iter().enumerate().take(len.div_ceil(TILE)) {
        let visible = (t * TILE..((t + 1) * TILE).min(len)).filter(|&i| bit(i));
        for (k, i) in visible.enumerate() {
            out[slot as usize + k] = i as u32;
        }
    }
}
