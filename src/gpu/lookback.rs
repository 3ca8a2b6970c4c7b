//! Pipelines for `shaders/lookback.wgsl`: the single-pass compaction with decoupled
//! look-back (u32 flags one or two tiles a workgroup, and bit-packed flags), the
//! tile-atomic variant and `packed-scan`'s tile pass. The kernels are composed with
//! the workgroup scan and look-back of `shaders/lookback_subgroups.wgsl` when the
//! device has `SUBGROUP`, of `shaders/lookback_portable.wgsl` otherwise, and with the
//! counters of `shaders/lookback_stats.wgsl`.

use std::sync::OnceLock;

use super::kernel::{shader_module, Kernel};
use crate::layout::{LOOKBACK_WORKGROUP, PAIRED_FROM_TILES, SCAN_TILES_PER_INVOCATION, SPIN_LIMIT};

pub(crate) const KERNELS: &str = include_str!("../../shaders/lookback.wgsl");
pub(crate) const PORTABLE: &str = include_str!("../../shaders/lookback_portable.wgsl");
pub(crate) const SUBGROUPS: &str = include_str!("../../shaders/lookback_subgroups.wgsl");
pub(crate) const STATS: &str = include_str!("../../shaders/lookback_stats.wgsl");

/// Words after the tile states that [`LookbackOptions::stats`] counts into:
/// wide rounds, polls, fallbacks, tiles (summed over tiles), then the workgroups
/// running now and the most that ever ran at once.
pub const STAT_WORDS: u64 = 8;

/// How the look-back kernels (`Lookback`, `LookbackBits`, `TileAtomic`) are built.
/// The default is what a renderer wants; the other fields are for tests and
/// measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookbackOptions {
    /// Use subgroup operations when the device has `SUBGROUP` (default true).
    pub subgroups: bool,
    /// Look-back rounds spent waiting for one predecessor before counting its flags.
    pub spin_limit: u32,
    /// Tests only: ignore every published tile state, so that each tile counts all
    /// its predecessors itself (the fallback path, made deterministic).
    pub stress_fallback: bool,
    /// The capacity in tiles (4096 flags each) from which [`crate::Method::Lookback`]
    /// runs `lookback_paired`, two tiles a workgroup (default 8192, 2^25 flags);
    /// lower it to test that schedule on small arrays.
    pub paired_from_tiles: u32,
    /// Tests only: the tile counts each invocation of `scan_tiles`
    /// ([`crate::Method::PackedScan`]) takes a round, a multiple of 4 up to 64 (the
    /// default: one round up to 16384 tiles); lower it to scan in many rounds on
    /// small arrays.
    pub scan_tiles_per_invocation: u32,
    /// Measurement only: count look-back events in [`STAT_WORDS`] words after the
    /// tile states (see [`crate::Compaction::tile_states`]).
    pub stats: bool,
    /// wgpu's bounds checks and loop bounding in the generated shader (native
    /// only; browsers always check). `false` is for measuring what they cost.
    pub runtime_checks: bool,
    /// Measurement only: WGSL to build instead of `shaders/lookback.wgsl`, with the
    /// same entry points, bindings, overrides and tile size (composed like it,
    /// unless it defines its own `workgroup_scan` and look-back).
    pub source: Option<&'static str>,
}

impl Default for LookbackOptions {
    fn default() -> Self {
        Self {
            subgroups: true,
            spin_limit: SPIN_LIMIT,
            stress_fallback: false,
            paired_from_tiles: PAIRED_FROM_TILES,
            scan_tiles_per_invocation: SCAN_TILES_PER_INVOCATION,
            stats: false,
            runtime_checks: true,
            source: None,
        }
    }
}

impl LookbackOptions {
    /// Whether [`Self::subgroups`] picks the workgroup scan and look-back the kernels
    /// are built with: false for a [`Self::source`] that brings its own
    /// (`fn workgroup_scan(`), which is built as it is.
    pub fn scan_follows_subgroups(&self) -> bool {
        !self.source.is_some_and(brings_own_scan)
    }
}

/// Whether `kernels` defines its own workgroup scan and look-back (a measurement
/// source may), so that no variant file is appended.
fn brings_own_scan(kernels: &str) -> bool {
    kernels.contains("fn workgroup_scan(")
}

/// The WGSL the kernels are built from: `kernels` with the scan and look-back of
/// one variant and the stats counters. A measurement source that brings its own
/// `workgroup_scan` is taken with the stats counters only.
pub(crate) fn compose(kernels: &str, subgroups: bool) -> String {
    if brings_own_scan(kernels) {
        return format!("{kernels}\n{STATS}");
    }
    let scan = if subgroups { SUBGROUPS } else { PORTABLE };
    format!("{kernels}\n{scan}\n{STATS}")
}

/// The files `compose` joins for `kernels`, in order (as `shaders/…` paths;
/// `source`: a measurement source instead of `shaders/lookback.wgsl`).
pub(crate) fn composed_files(kernels: &str, source: bool, subgroups: bool) -> Vec<&'static str> {
    let first = if source {
        "(LookbackOptions::source)"
    } else {
        "shaders/lookback.wgsl"
    };
    if brings_own_scan(kernels) {
        return vec![first, "shaders/lookback_stats.wgsl"];
    }
    let scan = if subgroups {
        "shaders/lookback_subgroups.wgsl"
    } else {
        "shaders/lookback_portable.wgsl"
    };
    vec![first, scan, "shaders/lookback_stats.wgsl"]
}

/// The entry points of the look-back module: u32 flags one tile and two tiles a
/// workgroup, bits, tile-atomic, and `packed-scan`'s last pass.
pub(crate) const ENTRY_POINTS: [&str; 5] = [
    "lookback",
    "lookback_paired",
    "lookback_bits",
    "tile_atomic",
    "tile_scatter_bits",
];

/// The module's label, then its five pipelines' (in `ENTRY_POINTS` order).
pub(crate) fn labels(subgroups: bool) -> [&'static str; 6] {
    if subgroups {
        [
            "lookback:subgroups",
            "lookback:subgroups",
            "lookback_paired:subgroups",
            "lookback_bits:subgroups",
            "tile_atomic:subgroups",
            "tile_scatter_bits:subgroups",
        ]
    } else {
        [
            "lookback",
            "lookback",
            "lookback_paired",
            "lookback_bits",
            "tile_atomic",
            "tile_scatter_bits",
        ]
    }
}

/// Rows each entry point stages in shared memory before writing them out (in
/// `ENTRY_POINTS` order): the portable build's, then the subgroup build's. One row
/// takes less memory, so that more workgroups can run at once; two rows take one
/// pair of barriers where one row takes two. The portable build, whose scan holds
/// 2 KiB more, was 5–8 % faster with one row (`lookback` at 2^24 and 2^26 on the
/// H200), as was `lookback_bits` in both (1188 → 1320 workgroups at once); with
/// subgroups the others were as fast or faster with two (BENCHMARKS.md v23).
/// `tile_atomic` stages as `lookback` does, being its tiles without the look-back.
pub(crate) const STAGE_ROWS: [[u32; 5]; 2] = [[1, 1, 1, 1, 1], [2, 2, 1, 2, 2]];

/// The pipeline-overridable constants of entry point `ENTRY_POINTS[entry]`, in the
/// build with subgroups or the portable one.
pub(crate) fn constants(
    options: &LookbackOptions,
    subgroups: bool,
    entry: usize,
) -> [(&'static str, f64); 4] {
    [
        ("SPIN_LIMIT", f64::from(options.spin_limit)),
        (
            "STRESS_FALLBACK",
            f64::from(u8::from(options.stress_fallback)),
        ),
        ("STATS", f64::from(u8::from(options.stats))),
        (
            "STAGE_ROWS",
            f64::from(STAGE_ROWS[usize::from(subgroups)][entry]),
        ),
    ]
}

/// The look-back module, and each entry point's pipeline built the first time a
/// compaction needs it: a device below the look-back's limits (6 storage buffers)
/// still builds `tile_scatter_bits` (4).
pub(crate) struct Lookback {
    module: wgpu::ShaderModule,
    labels: [&'static str; 5],
    options: LookbackOptions,
    subgroups: bool,
    /// In `ENTRY_POINTS` order. Bindings: input as vec4, input, indices, then
    /// `lookback`, `lookback_paired` and `lookback_bits` tile states, count,
    /// indirect; `tile_atomic` tile states, count; `tile_scatter_bits` (binding 6)
    /// the tile slots.
    kernels: [OnceLock<Kernel>; 5],
}

impl Lookback {
    pub fn new(device: &wgpu::Device, options: LookbackOptions) -> Self {
        let subgroups = options.subgroups && device.features().contains(wgpu::Features::SUBGROUP);
        let [label, labels @ ..] = labels(subgroups);
        let wgsl = compose(options.source.unwrap_or(KERNELS), subgroups);
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
                        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
                    },
                    wgpu::ShaderRuntimeChecks::unchecked(),
                )
            }
        };
        Self {
            module,
            labels,
            options,
            subgroups,
            kernels: Default::default(),
        }
    }

    /// The pipeline of entry point `ENTRY_POINTS[entry]`, built now if it was not yet.
    pub fn kernel(&self, device: &wgpu::Device, entry: usize) -> &Kernel {
        self.kernels[entry].get_or_init(|| {
            Kernel::new(
                device,
                &self.module,
                self.labels[entry],
                ENTRY_POINTS[entry],
                LOOKBACK_WORKGROUP,
                &constants(&self.options, self.subgroups, entry),
                true,
            )
        })
    }

    /// Whether entry point `entry`'s pipeline is built.
    #[cfg(test)]
    pub fn compiled(&self, entry: usize) -> bool {
        self.kernels[entry].get().is_some()
    }
}
