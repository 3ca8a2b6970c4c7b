//! Pipeline for `shaders/indirect_args.wgsl`.

use super::kernel::Kernel;

pub(crate) const SOURCE: &str = include_str!("../../shaders/indirect_args.wgsl");

/// Bindings: count, indirect arguments.
pub(crate) fn indirect_args(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(device, "indirect_args", SOURCE, 1, false)
}
