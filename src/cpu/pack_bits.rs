//! CPU mirror of `shaders/pack_bits.wgsl`: one bit per flag, 32 to a word, least
//! significant first.

use crate::flags::is_visible;

pub fn pack_bits(flags: &[u32]) -> Vec<u32> {
    let mut bits = vec![0u32; flags.len().div_ceil(32)];
    for (i, _) in flags.iter().enumerate().filter(|(_, &f)| is_visible(f)) {
        bits[i / 32] |= 1 << (i % 32);
    }
    bits
}

/// The inverse: the first `len` flags of `bits` as 0/1 words (bits past `len` ignored).
pub fn unpack_bits(bits: &[u32], len: usize) -> Vec<u32> {
    (0..len)
        .map(|i| bits.get(i / 32).map_or(0, |w| (w >> (i % 32)) & 1))
        .collect()
}
