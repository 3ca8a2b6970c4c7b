//! Pipeline for `shaders/copy_vec4.wgsl`, the benchmark's reference kernel.

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/copy_vec4.wgsl");
pub const WORKGROUP_SIZE: u32 = 256;

/// Bindings: source, destination (as vec4<u32>).
pub fn copy_vec4(device: &wgpu::Device) -> Kernel {
    let module = shader_module(device, "copy_vec4", SOURCE);
    Kernel::new(
        device,
        &module,
        "copy_vec4",
        "copy_vec4",
        WORKGROUP_SIZE,
        &[],
    )
}
