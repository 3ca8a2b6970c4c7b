//! CPU mirror of `shaders/pack_bits.wgsl`: one bit per flag, 32 to a word, least
//! significant first (`pack_bits`), and the tiles' counts too (`pack_bits_counted`).

use crate::is_visible;

/// The bits of `flags`: bit `i % 32` of word `i / 32` is flag `i`'s visibility.
pub fn pack_bits(flags: &[u32]) -> Vec<u32> {
    let mut bits = vec![0u32; flags.len().div_ceil(32)];
    for (i, _) in flags.iter().enumerate().filter(|(_, &f)| is_visible(f)) {
        bits[i / 32] |= 1 << (i % 32);
    }
    bits
}

/// The bits of `flags` and the count of each of their tiles of [`crate::layout::TILE`].
pub fn pack_bits_counted(flags: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let bits = pack_bits(flags);
    let tiles = flags.len().div_ceil(crate::layout::TILE);
    let counts = super::tile_counts(&bits, flags.len(), tiles);
    (bits, counts)
}
