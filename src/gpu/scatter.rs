//! Pipeline for `shaders/scatter.wgsl`.

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/scatter.wgsl");
pub const WORKGROUP_SIZE: u32 = 64;

/// Bindings: visible flags, prefix, indices.
pub fn scatter(device: &wgpu::Device) -> Kernel {
    let module = shader_module(device, "scatter", SOURCE);
    Kernel::new(device, &module, "scatter", "scatter", WORKGROUP_SIZE, &[])
}
