//! CPU mirror of `shaders/pack_bits.wgsl`: one bit per flag, 32 to a word, least
//! significant first.

use crate::is_visible;

/// The bits of `flags`: bit `i % 32` of word `i / 32` is flag `i`'s visibility.
pub fn pack_bits(flags: &[u32]) -> Vec<u32> {
    let mut bits = vec![0u32; flags.len().div_ceil(32)];
    for (i, _) in flags.iter().enumerate().filter(|(_, &f)| is_visible(f)) {
        bits[i / 32] |= 1 << (i % 32);
    }
    bits
}
