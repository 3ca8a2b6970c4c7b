//! CPU mirror of the payload copy (`shaders/tile_write_payload.wgsl` and
//! `scatter_payload` in `shaders/scatter.wgsl`): each visible object's words, in
//! the order of the indices.

/// The dense copies: for each index in `indices` (with `index_base` added), its
/// object's `words` u32 from `source` (object `i` at word `words · i`).
pub fn payload(indices: &[u32], index_base: u32, source: &[u32], words: u32) -> Vec<u32> {
    let words = words as usize;
    indices
        .iter()
        .flat_map(|&i| {
            let first = i.wrapping_sub(index_base) as usize * words;
            source[first..first + words].iter().copied()
        })
        .collect()
}
