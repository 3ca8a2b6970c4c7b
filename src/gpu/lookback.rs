//! Pipelines for `shaders/lookback.wgsl`: the single-pass compaction with decoupled
//! look-back (u32 flags and bit-packed flags) and the tile-atomic variant, each
//! built with the subgroup scan of `shaders/lookback_subgroups.wgsl` when the
//! device has `SUBGROUP`, and with the portable shared-memory scan otherwise.

use std::borrow::Cow;

use super::kernel::{shader_module, Kernel};
use crate::cpu::lookback as cpu;

pub const SOURCE: &str = include_str!("../../shaders/lookback.wgsl");
pub const SUBGROUPS_SOURCE: &str = include_str!("../../shaders/lookback_subgroups.wgsl");
/// The line in `SOURCE` where the portable workgroup scan starts.
pub const PORTABLE_SCAN_MARKER: &str = "// ---- portable workgroup_scan";

pub const WORKGROUP_SIZE: u32 = cpu::WORKGROUP_SIZE as u32;
pub const TILE: u32 = cpu::TILE as u32;

/// How the look-back kernels are built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookbackOptions {
    /// Use subgroup operations when the device has `SUBGROUP`.
    pub subgroups: bool,
    /// Look-back rounds spent waiting for one predecessor before counting its flags.
    pub spin_limit: u32,
    /// Tests only: ignore every published tile state, so that each tile counts all
    /// its predecessors itself (the fallback path, made deterministic).
    pub stress_fallback: bool,
    /// Measurement only (`bench --stats`): count look-back events in
    /// `STAT_WORDS` words after the tile states (see `Compaction::tile_states`).
    pub stats: bool,
    /// wgpu's bounds checks and loop bounding in the generated shader (native
    /// only; browsers always check). `false` is for measuring what they cost.
    pub runtime_checks: bool,
    /// Measurement only (`bench --source`): WGSL to build instead of
    /// `shaders/lookback.wgsl`, with the same entry points, bindings and tile size.
    pub source: Option<&'static str>,
}

/// Words after the tile states that `LookbackOptions::stats` counts into: wide
/// rounds, polls, fallbacks, tiles (summed over tiles), then the workgroups running
/// now and the most that ever ran at once.
pub const STAT_WORDS: u64 = 8;

impl Default for LookbackOptions {
    fn default() -> Self {
        Self {
            subgroups: true,
            spin_limit: 64,
            stress_fallback: false,
            stats: false,
            runtime_checks: true,
            source: None,
        }
    }
}

/// The WGSL the kernels are built from: `SOURCE` as it is, or with its portable
/// scan replaced by the subgroup scan.
pub fn source(subgroups: bool) -> Cow<'static, str> {
    source_from(SOURCE, subgroups)
}

/// `base` with its portable part replaced by the subgroup one; a `base` without
/// the marker (a `LookbackOptions::source` written whole) is taken as it is.
fn source_from(base: &'static str, subgroups: bool) -> Cow<'static, str> {
    if !subgroups || !base.contains(PORTABLE_SCAN_MARKER) {
        return Cow::Borrowed(base);
    }
    let kernels = base
        .split_once(PORTABLE_SCAN_MARKER)
        .map_or(base, |(kernels, _portable)| kernels);
    Cow::Owned(format!("{kernels}{SUBGROUPS_SOURCE}"))
}

/// Whether kernels built with `options` on `device` use subgroup operations.
pub fn uses_subgroups(device: &wgpu::Device, options: LookbackOptions) -> bool {
    options.subgroups && device.features().contains(wgpu::Features::SUBGROUP)
}

pub struct Lookback {
    /// u32 flags. Bindings: flags as vec4, flags, indices, tile states, count, indirect.
    pub flags: Kernel,
    /// Bit-packed flags. Bindings: bits as vec4, bits, indices, tile states, count, indirect.
    pub bits: Kernel,
    /// u32 flags, one atomic per tile. Bindings: flags as vec4, flags, indices, tile states, count.
    pub tile_atomic: Kernel,
    subgroups: bool,
    options: LookbackOptions,
}

impl Lookback {
    pub fn new(device: &wgpu::Device, options: LookbackOptions) -> Self {
        let subgroups = uses_subgroups(device, options);
        let (label, labels) = if subgroups {
            (
                "lookback:subgroups",
                [
                    "lookback:subgroups",
                    "lookback_bits:subgroups",
                    "tile_atomic:subgroups",
                ],
            )
        } else {
            ("lookback", ["lookback", "lookback_bits", "tile_atomic"])
        };
        let wgsl = source_from(options.source.unwrap_or(SOURCE), subgroups);
        let module = if options.runtime_checks {
            shader_module(device, label, &wgsl)
        } else {
            // SAFETY: every index in lookback.wgsl is guarded by the flag count
            // or the tile count (the same guards that keep the checked build
            // exact); this build only drops wgpu's redundant clamps and loop
            // counters, for measurement.
            unsafe {
                device.create_shader_module_trusted(
                    wgpu::ShaderModuleDescriptor {
                        label: Some(label),
                        source: wgpu::ShaderSource::Wgsl(wgsl),
                    },
                    wgpu::ShaderRuntimeChecks::unchecked(),
                )
            }
        };
        let constants = [
            ("SPIN_LIMIT", f64::from(options.spin_limit)),
            (
                "STRESS_FALLBACK",
                f64::from(u8::from(options.stress_fallback)),
            ),
            ("STATS", f64::from(u8::from(options.stats))),
        ];
        let k =
            |label, entry| Kernel::new(device, &module, label, entry, WORKGROUP_SIZE, &constants);
        Self {
            flags: k(labels[0], "lookback"),
            bits: k(labels[1], "lookback_bits"),
            tile_atomic: k(labels[2], "tile_atomic"),
            subgroups,
            options,
        }
    }

    pub fn options(&self) -> LookbackOptions {
        self.options
    }

    /// Whether these kernels were built with subgroup operations.
    pub fn uses_subgroups(&self) -> bool {
        self.subgroups
    }
}
