//! Pipeline for `shaders/tile_counts.wgsl`.

use super::kernel::Kernel;

pub(crate) const SOURCE: &str = include_str!("../../shaders/tile_counts.wgsl");

/// Bindings: bits as vec4, bits, tile counts; the live length. 32 invocations per tile.
pub(crate) fn tile_counts(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(
        device,
        "tile_counts",
        SOURCE,
        crate::layout::TILE_COUNTS_WORKGROUP,
        true,
    )
}
