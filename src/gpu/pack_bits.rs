//! Pipelines for `shaders/pack_bits.wgsl`.

use super::kernel::{shader_module, Kernel};

pub(crate) const SOURCE: &str = include_str!("../../shaders/pack_bits.wgsl");

/// Bindings: flags as vec4, flags, bits; the live length. One invocation per output word.
pub(crate) fn pack_bits(device: &wgpu::Device) -> Kernel {
    build(device, "pack_bits")
}

/// `pack_bits` that also counts each tile: bindings as `pack_bits`, then the tile counts.
pub(crate) fn pack_bits_counted(device: &wgpu::Device) -> Kernel {
    build(device, "pack_bits_counted")
}

fn build(device: &wgpu::Device, entry: &'static str) -> Kernel {
    let module = shader_module(device, entry, SOURCE);
    Kernel::new(
        device,
        &module,
        entry,
        entry,
        crate::layout::PACK_BITS_WORKGROUP,
        &[],
        true,
    )
}
