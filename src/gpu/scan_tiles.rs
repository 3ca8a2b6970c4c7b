//! Pipeline for `shaders/scan_tiles.wgsl`.

use super::kernel::{shader_module, Kernel};

pub(crate) const SOURCE: &str = include_str!("../../shaders/scan_tiles.wgsl");

/// The pipeline-overridable constants it is built with.
pub(crate) fn constants(per_invocation: u32) -> [(&'static str, f64); 1] {
    [("PER_INVOCATION", f64::from(per_invocation))]
}

/// Bindings: tile counts (as vec4, scanned in place), count, indirect; the live
/// length. One workgroup; each invocation takes `per_invocation` counts a round.
pub(crate) fn scan_tiles(device: &wgpu::Device, per_invocation: u32) -> Kernel {
    let module = shader_module(device, "scan_tiles", SOURCE);
    Kernel::new(
        device,
        &module,
        "scan_tiles",
        "scan_tiles",
        crate::layout::SCAN_TILES_WORKGROUP,
        &constants(per_invocation),
        true,
    )
}
