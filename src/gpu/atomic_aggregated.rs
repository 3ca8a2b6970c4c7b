//! Pipeline for `shaders/atomic_aggregated.wgsl` (the article's kernel 2).

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/atomic_aggregated.wgsl");
pub const WORKGROUP_SIZE: u32 = 64;

/// Bindings: visible flags, indices, counter.
pub fn atomic_aggregated(device: &wgpu::Device) -> Kernel {
    let module = shader_module(device, "atomic_aggregated", SOURCE);
    Kernel::new(
        device,
        &module,
        "atomic_aggregated",
        "atomic_aggregated",
        WORKGROUP_SIZE,
        &[],
    )
}
