//! Pipeline for `shaders/add_offsets.wgsl`.

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/add_offsets.wgsl");
pub const WORKGROUP_SIZE: u32 = super::scan_block::BLOCK;

/// Bindings: prefix (read-write), offsets.
pub fn add_offsets(device: &wgpu::Device) -> Kernel {
    let module = shader_module(device, "add_offsets", SOURCE);
    Kernel::new(
        device,
        &module,
        "add_offsets",
        "add_offsets",
        WORKGROUP_SIZE,
        &[],
    )
}
