//! Pipelines for `shaders/scan_block.wgsl`: the Hillis-Steele block scan, for
//! flags (level 0) and for block sums (upper levels), each plain and traced.
//! Each pipeline is compiled the first time it is used.

use std::sync::OnceLock;

use super::kernel::{shader_module, Kernel};
use crate::layout::BLOCK;

pub(crate) const SOURCE: &str = include_str!("../../shaders/scan_block.wgsl");

/// The pipelines' labels: flags, sums, flags traced, sums traced.
pub(crate) const LABELS: [&str; 4] = [
    "scan_block:flags",
    "scan_block:sums",
    "scan_block:flags:traced",
    "scan_block:sums:traced",
];

/// Level 0 reads flags (any nonzero counts one); the levels above read counts.
pub(crate) fn constants(flags_input: bool) -> [(&'static str, f64); 1] {
    [("FLAGS_INPUT", f64::from(u8::from(flags_input)))]
}

pub(crate) struct ScanBlock {
    module: wgpu::ShaderModule,
    /// flags, sums, flags traced, sums traced.
    variants: [OnceLock<Kernel>; 4],
}

impl ScanBlock {
    /// Bindings: input, prefix, block sums (and the trace buffer when traced); the live length.
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            module: shader_module(device, "scan_block", SOURCE),
            variants: Default::default(),
        }
    }

    /// The pipeline for recursion level `level` (0 scans flags, the others block sums).
    pub fn level(&self, device: &wgpu::Device, level: usize, traced: bool) -> &Kernel {
        let flags_input = level == 0;
        let variant = usize::from(!flags_input) + 2 * usize::from(traced);
        self.variants[variant].get_or_init(|| {
            let entry = if traced {
                "scan_block_traced"
            } else {
                "scan_block"
            };
            let constants = constants(flags_input);
            Kernel::new(
                device,
                &self.module,
                LABELS[variant],
                entry,
                BLOCK,
                &constants,
                true,
            )
        })
    }
}
