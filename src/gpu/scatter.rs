//! Pipeline for `shaders/scatter.wgsl`.

use super::kernel::Kernel;

pub(crate) const SOURCE: &str = include_str!("../../shaders/scatter.wgsl");

/// Bindings: visible flags, prefix, indices; the live length.
pub(crate) fn scatter(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(
        device,
        "scatter",
        SOURCE,
        crate::layout::ATOMIC_WORKGROUP,
        true,
    )
}
