//! CPU mirror of `shaders/scatter.wgsl`.

use crate::is_visible;

/// Every visible element writes its index to the slot the scan gave it; `count`
/// is the scan's total, the length of the dense list.
pub fn scatter(visible: &[u32], prefix: &[u32], count: u32) -> Vec<u32> {
    let mut indices = vec![0u32; count as usize];
    for (i, (&flag, &slot)) in visible.iter().zip(prefix).enumerate() {
        if is_visible(flag) {
            indices[slot as usize] = i as u32;
        }
    }
    indices
}
