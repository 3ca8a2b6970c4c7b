//! Pipeline for `shaders/atomic_counter.wgsl` (the article's kernel 1).

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/atomic_counter.wgsl");
pub const WORKGROUP_SIZE: u32 = 64;

/// Bindings: visible flags, indices, counter.
pub fn atomic_counter(device: &wgpu::Device) -> Kernel {
    let module = shader_module(device, "atomic_counter", SOURCE);
    Kernel::new(
        device,
        &module,
        "atomic_counter",
        "atomic_counter",
        WORKGROUP_SIZE,
        &[],
    )
}
