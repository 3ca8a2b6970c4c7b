//! Pipeline for `shaders/pack_bits.wgsl`.

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/pack_bits.wgsl");
pub const WORKGROUP_SIZE: u32 = 256;

/// Bindings: flags as vec4, flags, bits. One invocation per output word.
pub fn pack_bits(device: &wgpu::Device) -> Kernel {
    let module = shader_module(device, "pack_bits", SOURCE);
    Kernel::new(
        device,
        &module,
        "pack_bits",
        "pack_bits",
        WORKGROUP_SIZE,
        &[],
    )
}
