//! Pipeline for `shaders/add_offsets.wgsl`.

use super::kernel::Kernel;

pub(crate) const SOURCE: &str = include_str!("../../shaders/add_offsets.wgsl");

/// Bindings: prefix (read-write), offsets, live (for its slice base).
pub(crate) fn add_offsets(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(device, "add_offsets", SOURCE, crate::layout::BLOCK, true)
}
