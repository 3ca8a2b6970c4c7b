//! Pipelines for `shaders/pack_bits.wgsl`.

use super::kernel::Kernel;

pub(crate) const SOURCE: &str = include_str!("../../shaders/pack_bits.wgsl");

/// Bindings: flags as vec4, flags, bits; the live length. One invocation per output word.
pub(crate) fn pack_bits(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(
        device,
        "pack_bits",
        SOURCE,
        crate::layout::PACK_BITS_WORKGROUP,
        true,
    )
}

/// `pack_bits` that also counts each tile: bindings as `pack_bits`, then the tile counts.
pub(crate) fn pack_bits_counted(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(
        device,
        "pack_bits_counted",
        SOURCE,
        crate::layout::PACK_BITS_WORKGROUP,
        true,
    )
}
