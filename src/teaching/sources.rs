//! The WGSL of every kernel exactly as a compactor compiles it, module by
//! module, with the pipeline-overridable constants of each entry point: for a
//! page that shows its code, and for anyone reading what runs. Read from the
//! catalogue (`gpu::catalogue`), as the pipelines are.

use std::borrow::Cow;

use crate::gpu::catalogue::{Build, KernelId};
use crate::gpu::pipelines::{constants, label, Variant};
use crate::teaching::LookbackOptions;
use crate::Method;

/// One shader module as it is handed to `create_shader_module`.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderSource {
    /// The module's label, as wgpu's errors name it (`"scan_block"`, `"tiles"`).
    pub label: String,
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
    pub label: String,
    /// The WGSL entry point.
    pub entry_point: &'static str,
    /// Its `override` constants, as given at pipeline creation.
    pub constants: Vec<(&'static str, f64)>,
}

/// The modules `method` compiles, in dispatch order (one per module, with every
/// pipeline the method builds from it; the segment kernels, which only segmented
/// compactions run, left out): the tile kernels built as `options` says, with
/// subgroups when `subgroups` (the device has `SUBGROUP` and the options allow
/// them; `Compactor::uses_subgroups` says). `LookbackBits` and `PackedScan` list
/// `pack_bits`, which runs on u32 input.
pub fn shader_sources(
    method: Method,
    options: &LookbackOptions,
    subgroups: bool,
) -> Vec<ShaderSource> {
    let mut modules: Vec<ShaderSource> = Vec::new();
    for &id in KernelId::of(method) {
        if id.writes_segments() {
            continue;
        }
        let spec = id.spec();
        let build = spec.module.build_of(Build {
            subgroups,
            payload: false,
            group_slots: false,
            source: options.source,
            cull: 0,
            traced: false,
        });
        // The scan's block scans: the flags level and the block sums' levels.
        let variants: &[Variant] = if id == KernelId::ScanBlock {
            &[Variant::scan_level(0), Variant::scan_level(1)]
        } else {
            &[Variant::PLAIN]
        };
        let pipelines = variants.iter().map(|&variant| PipelineSource {
            label: label(spec, variant, &build),
            entry_point: spec.entry_point,
            constants: constants(id, variant, options, &build),
        });
        let module_label = spec.module.label(&build);
        match modules.iter_mut().find(|m| m.label == module_label) {
            Some(module) => module.pipelines.extend(pipelines),
            None => {
                let files = spec.module.files(&build);
                modules.push(ShaderSource {
                    label: module_label,
                    files: files.iter().map(|&(path, _)| path).collect(),
                    pipelines: pipelines.collect(),
                    wgsl: Cow::Owned(spec.module.wgsl(&build)),
                })
            }
        }
    }
    modules
}
