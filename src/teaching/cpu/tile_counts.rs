//! CPU mirror of `shaders/tile_counts.wgsl`: the visible flags of each tile of bits.

use crate::layout::TILE;

/// The count of each tile of [`TILE`] flags among the first `len` flags of `bits`
/// (32 to a word, least significant first), for a capacity of `tiles` tiles (the
/// tiles past `len` count 0).
pub fn tile_counts(bits: &[u32], len: usize, tiles: usize) -> Vec<u32> {
    let words_per_tile = TILE / 32;
    (0..tiles)
        .map(|t| {
            (t * words_per_tile..(t + 1) * words_per_tile)
                .map(|i| {
                    let first = i * 32;
                    let word = bits.get(i).copied().unwrap_or(0);
                    match len.saturating_sub(first) {
                        0 => 0,
                        left if left >= 32 => word.count_ones(),
                        left => (word & ((1u32 << left) - 1)).count_ones(),
                    }
                })
                .sum()
        })
        .collect()
}
