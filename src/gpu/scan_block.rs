//! Pipelines for `shaders/scan_block.wgsl`: the Hillis-Steele block scan, for
//! flags (level 0) and for block sums (upper levels), each plain and traced.

use super::kernel::{shader_module, Kernel};

pub const SOURCE: &str = include_str!("../../shaders/scan_block.wgsl");
pub const BLOCK: u32 = crate::cpu::scan_block::BLOCK as u32;
pub const STEPS: u32 = crate::cpu::scan_block::STEPS as u32;

pub struct ScanBlock {
    pub flags: Kernel,
    pub sums: Kernel,
    pub flags_traced: Kernel,
    pub sums_traced: Kernel,
}

impl ScanBlock {
    /// Bindings: input, prefix, block sums (and the trace buffer when traced).
    pub fn new(device: &wgpu::Device) -> Self {
        let module = shader_module(device, "scan_block", SOURCE);
        let flags = [("FLAGS_INPUT", 1.0)];
        let sums = [("FLAGS_INPUT", 0.0)];
        let k = |label, entry, constants: &[(&str, f64)]| {
            Kernel::new(device, &module, label, entry, BLOCK, constants)
        };
        Self {
            flags: k("scan_block:flags", "scan_block", &flags),
            sums: k("scan_block:sums", "scan_block", &sums),
            flags_traced: k("scan_block:flags:traced", "scan_block_traced", &flags),
            sums_traced: k("scan_block:sums:traced", "scan_block_traced", &sums),
        }
    }

    pub fn level(&self, level: usize, traced: bool) -> &Kernel {
        match (level == 0, traced) {
            (true, false) => &self.flags,
            (false, false) => &self.sums,
            (true, true) => &self.flags_traced,
            (false, true) => &self.sums_traced,
        }
    }
}
