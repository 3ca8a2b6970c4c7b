//! Pipeline for `shaders/atomic_aggregated.wgsl` (the article's kernel 2).

use super::kernel::Kernel;

pub(crate) const SOURCE: &str = include_str!("../../shaders/atomic_aggregated.wgsl");

/// Bindings: visible flags, indices, counter; the live length.
pub(crate) fn atomic_aggregated(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(
        device,
        "atomic_aggregated",
        SOURCE,
        crate::layout::ATOMIC_WORKGROUP,
        true,
    )
}
