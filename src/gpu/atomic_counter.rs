//! Pipeline for `shaders/atomic_counter.wgsl` (the article's kernel 1).

use super::kernel::Kernel;

pub(crate) const SOURCE: &str = include_str!("../../shaders/atomic_counter.wgsl");

/// Bindings: visible flags, indices, counter; the live length.
pub(crate) fn atomic_counter(device: &wgpu::Device) -> Kernel {
    Kernel::from_wgsl(
        device,
        "atomic_counter",
        SOURCE,
        crate::layout::ATOMIC_WORKGROUP,
        true,
    )
}
