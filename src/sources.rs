//! The WGSL of every kernel exactly as a compactor compiles it, module by
//! module, with the pipeline-overridable constants of each entry point: for a
//! page that shows its code, and for anyone reading what runs.

use std::borrow::Cow;

use crate::compactor::pipelines::KernelId;
use crate::gpu::{
    add_offsets, atomic_aggregated, atomic_counter, indirect_args, lookback, pack_bits, scan_block,
    scan_tiles, scatter, tile_counts,
};
use crate::{Compactor, LookbackOptions, Method};

/// One shader module as it is handed to `create_shader_module`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderSource {
    /// The module's label, as wgpu's errors name it (`"scan_block"`, `"lookback"`).
    pub label: &'static str,
    /// The files of `shaders/` it is made of, in order, each followed by one
    /// newline when another comes after it.
    pub files: Vec<&'static str>,
    /// The pipelines the method builds from it.
    pub pipelines: Vec<PipelineSource>,
    /// The WGSL itself.
    pub wgsl: Cow<'static, str>,
}

/// One compute pipeline of a module.
#[derive(Clone, Debug, PartialEq)]
pub struct PipelineSource {
    /// The pipeline's label (`"scan_block:flags"`).
    pub label: &'static str,
    /// The WGSL entry point.
    pub entry_point: &'static str,
    /// Its `override` constants, as given at pipeline creation.
    pub constants: Vec<(&'static str, f64)>,
}

fn pipeline(label: &'static str, entry_point: &'static str) -> PipelineSource {
    PipelineSource {
        label,
        entry_point,
        constants: Vec::new(),
    }
}

/// The modules `method` compiles, in dispatch order (one per module, with every
/// pipeline the method builds from it): the look-back built as `options` says,
/// with subgroups when `subgroups` (the device has `SUBGROUP` and the options
/// allow them). `LookbackBits` and `PackedScan` list `pack_bits`, which runs on
/// u32 input.
pub fn shader_sources(
    method: Method,
    options: &LookbackOptions,
    subgroups: bool,
) -> Vec<ShaderSource> {
    let mut modules: Vec<ShaderSource> = Vec::new();
    for &id in KernelId::of(method) {
        let (label, files, wgsl, pipe): (_, _, Cow<'static, str>, _) = match id {
            KernelId::AtomicCounter => one(
                "atomic_counter",
                "shaders/atomic_counter.wgsl",
                atomic_counter::SOURCE,
            ),
            KernelId::AtomicAggregated => one(
                "atomic_aggregated",
                "shaders/atomic_aggregated.wgsl",
                atomic_aggregated::SOURCE,
            ),
            KernelId::AddOffsets => one(
                "add_offsets",
                "shaders/add_offsets.wgsl",
                add_offsets::SOURCE,
            ),
            KernelId::Scatter => one("scatter", "shaders/scatter.wgsl", scatter::SOURCE),
            KernelId::IndirectArgs => one(
                "indirect_args",
                "shaders/indirect_args.wgsl",
                indirect_args::SOURCE,
            ),
            KernelId::PackBits => one("pack_bits", "shaders/pack_bits.wgsl", pack_bits::SOURCE),
            KernelId::PackBitsCounted => one(
                "pack_bits_counted",
                "shaders/pack_bits.wgsl",
                pack_bits::SOURCE,
            ),
            KernelId::TileCounts => one(
                "tile_counts",
                "shaders/tile_counts.wgsl",
                tile_counts::SOURCE,
            ),
            KernelId::ScanTiles => {
                let (label, files, wgsl, mut pipe) =
                    one("scan_tiles", "shaders/scan_tiles.wgsl", scan_tiles::SOURCE);
                pipe.constants = scan_tiles::constants(options.scan_tiles_per_invocation).to_vec();
                (label, files, wgsl, pipe)
            }
            KernelId::ScanBlock { level, traced } => {
                let flags_input = level == 0;
                let variant = usize::from(!flags_input) + 2 * usize::from(traced);
                let entry = if traced {
                    "scan_block_traced"
                } else {
                    "scan_block"
                };
                let pipe = PipelineSource {
                    label: scan_block::LABELS[variant],
                    entry_point: entry,
                    constants: scan_block::constants(flags_input).to_vec(),
                };
                let (label, files, wgsl, _) =
                    one("scan_block", "shaders/scan_block.wgsl", scan_block::SOURCE);
                (label, files, wgsl, pipe)
            }
            KernelId::Lookback
            | KernelId::LookbackPaired
            | KernelId::LookbackBits
            | KernelId::TileAtomic
            | KernelId::TileScatterBits => {
                let entry = crate::compactor::pipelines::lookback_entry(id);
                let labels = lookback::labels(subgroups);
                let kernels = options.source.unwrap_or(lookback::KERNELS);
                let pipe = PipelineSource {
                    label: labels[1 + entry],
                    entry_point: lookback::ENTRY_POINTS[entry],
                    constants: lookback::constants(options, subgroups, entry).to_vec(),
                };
                let files = lookback::composed_files(kernels, options.source.is_some(), subgroups);
                let wgsl = Cow::Owned(lookback::compose(kernels, subgroups));
                (labels[0], files, wgsl, pipe)
            }
        };
        match modules.iter_mut().find(|m| m.label == label) {
            Some(module) => module.pipelines.push(pipe),
            None => modules.push(ShaderSource {
                label,
                files,
                pipelines: vec![pipe],
                wgsl,
            }),
        }
    }
    modules
}

type Module = (
    &'static str,
    Vec<&'static str>,
    Cow<'static, str>,
    PipelineSource,
);

/// A module of one file with one pipeline, whose entry point is the module's name.
fn one(name: &'static str, file: &'static str, wgsl: &'static str) -> Module {
    (name, vec![file], Cow::Borrowed(wgsl), pipeline(name, name))
}

impl Compactor {
    /// The WGSL `method` compiles on this compactor's device, module by module
    /// (see [`shader_sources`]).
    pub fn shader_sources(&self, method: Method) -> Vec<ShaderSource> {
        shader_sources(method, &self.lookback_options(), self.uses_subgroups())
    }
}
