//! CPU mirror of `shaders/add_offsets.wgsl`.

use crate::layout::BLOCK;

/// Adds to each element the offset of its block: `offsets[b]` visible elements
/// precede block `b`.
pub fn add_offsets(prefix: &mut [u32], offsets: &[u32]) {
    for (block, chunk) in prefix.chunks_mut(BLOCK).enumerate() {
        for value in chunk {
            *value = value.wrapping_add(offsets[block]);
        }
    }
}
