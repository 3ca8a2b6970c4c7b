//! Pipeline for `shaders/indirect_args.wgsl`.

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/indirect_args.wgsl");
pub const WORKGROUP_SIZE: u32 = 1;

/// Bindings: count, indirect arguments.
pub fn indirect_args(device: &wgpu::Device) -> Kernel {
    let module = shader_module(device, "indirect_args", SOURCE);
    Kernel::new(
        device,
        &module,
        "indirect_args",
        "indirect_args",
        WORKGROUP_SIZE,
        &[],
    )
}
