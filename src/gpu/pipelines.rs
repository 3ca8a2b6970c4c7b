//! The compute pipelines of the catalogue, each compiled the first time a
//! compaction needs it (or at `warm_up`): a page that only runs the scan never
//! waits for the tile kernels (seconds on a software adapter).

use std::sync::{Arc, Mutex, MutexGuard};

use super::catalogue::{Build, KernelId, Module, Payload, Spec};
use super::kernel::{Extras, Kernel};
use super::options::LookbackOptions;

/// What varies between the pipelines of one kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Variant {
    /// `scan_block` on flags (level 0) rather than on block sums.
    pub flags_input: bool,
    /// u32 words of payload copied per object; 0 for none.
    pub payload_words: u32,
    /// Tiles a look-back state covers (`SUBTILES`; 0 stands for 1).
    pub subtiles: u32,
    /// A look-back kernel that writes the group slots (its build composes
    /// shaders/group_slots.wgsl), or `segment_args_grouped` reading them.
    pub group_slots: bool,
    /// `segment_args_grouped` over bits rather than u32 flags (`BITS`).
    pub bits: bool,
    /// A tile kernel that asks a renderer's visibility function instead of
    /// reading flags: its number (`Pipelines::cull_id`); 0 for none.
    pub cull: u32,
}

impl Variant {
    /// The plain pipeline.
    pub const PLAIN: Variant = Variant {
        flags_input: false,
        payload_words: 0,
        subtiles: 0,
        group_slots: false,
        bits: false,
        cull: 0,
    };

    /// `scan_block` at recursion level `level` (0 scans flags).
    pub fn scan_level(level: usize) -> Self {
        Variant {
            flags_input: level == 0,
            ..Variant::PLAIN
        }
    }

    /// A kernel of a compaction copying `words` of payload per object (0: none).
    pub fn payload(words: u32) -> Self {
        Variant {
            payload_words: words,
            ..Variant::PLAIN
        }
    }
}

/// Rows each tile kernel stages in shared memory before writing them out, in the
/// build with subgroups or the portable one. One row takes less memory, so that
/// more workgroups can run at once; two rows take one pair of barriers where one
/// row takes two. The portable build, whose scan holds 2 KiB more, was 5–8 %
/// faster with one row (`lookback` at 2^24 and 2^26 on the H200), as was
/// `lookback_bits` in both (1188 → 1320 workgroups at once); with subgroups the
/// others were as fast or faster with two (BENCHMARKS.md v23). `tile_atomic`
/// stages as `lookback` does, being its tiles without the look-back.
pub(crate) fn stage_rows(id: KernelId, subgroups: bool) -> u32 {
    if subgroups && id != KernelId::LookbackBits {
        2
    } else {
        1
    }
}

/// One lazily compiled pipeline per kernel and variant, one module per build.
/// A few dozen at most: lists searched in order (a hash map would add to every
/// page's wasm for nothing).
pub(crate) struct Pipelines {
    options: LookbackOptions,
    subgroups: bool,
    /// A file of `shaders/` replaced by other WGSL (`teaching::KernelOverride`).
    replaced: Option<Replaced>,
    modules: Mutex<Vec<(ModuleKey, wgpu::ShaderModule)>>,
    kernels: Mutex<Vec<(KernelKey, Arc<Kernel>)>>,
    /// The renderers' visibility functions (`CullDesc::wgsl`), numbered from 1 in
    /// the order first seen: compactions of one function share its pipelines.
    culls: Mutex<Vec<Arc<str>>>,
}

/// A file's replacement, and the probe its instrumented loops report to.
pub(crate) struct Replaced {
    pub path: &'static str,
    pub wgsl: Arc<str>,
    pub probe: Option<super::kernel::Probe>,
}

/// A module by its name and build; a pipeline by its kernel and variant.
type ModuleKey = (&'static str, Build);
type KernelKey = (KernelId, Variant);

/// The value of `key` in `list`, made by `make` and kept the first time.
fn entry<K: PartialEq, V: Clone>(list: &mut Vec<(K, V)>, key: K, make: impl FnOnce() -> V) -> V {
    if let Some((_, value)) = list.iter().find(|(k, _)| *k == key) {
        return value.clone();
    }
    let value = make();
    list.push((key, value.clone()));
    value
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Pipelines {
    /// The pipelines of `options`, with one file of `shaders/` replaced where `replaced` says.
    pub fn replacing(
        device: &wgpu::Device,
        options: LookbackOptions,
        replaced: Option<Replaced>,
    ) -> Self {
        Self {
            options,
            subgroups: options.subgroups && device.features().contains(wgpu::Features::SUBGROUP),
            replaced,
            modules: Mutex::default(),
            kernels: Mutex::default(),
            culls: Mutex::default(),
        }
    }

    pub fn options(&self) -> LookbackOptions {
        self.options
    }

    /// The replaced file, if one is.
    pub fn replaced(&self) -> Option<&Replaced> {
        self.replaced.as_ref()
    }

    /// The replacement of one of `module`'s files, if one is.
    fn replacement_in(&self, module: &Module) -> Option<&Replaced> {
        self.replaced.as_ref().filter(|r| module.has_file(r.path))
    }

    /// Whether the tile kernels use subgroup operations.
    pub fn subgroups(&self) -> bool {
        self.subgroups
    }

    /// The build of `module` for a compaction with or without a payload, with or
    /// without the tiles' group slots, and with visibility function `cull` (0: none).
    pub fn build(&self, module: &Module, payload: bool, group_slots: bool, cull: u32) -> Build {
        module.build_of(Build {
            subgroups: self.subgroups,
            payload,
            group_slots,
            source: self.options.source,
            cull,
            traced: false,
        })
    }

    /// The number of the visibility function `wgsl` (from 1), given it now if new.
    pub fn cull_id(&self, wgsl: &str) -> u32 {
        let mut culls = lock(&self.culls);
        let at = match culls.iter().position(|c| c.as_ref() == wgsl) {
            Some(at) => at,
            None => {
                culls.push(wgsl.into());
                culls.len() - 1
            }
        };
        at as u32 + 1
    }

    /// Forgets `id`'s pipeline in `variant` and its module, so that the next
    /// compaction asking for it compiles it again (one whose renderer's WGSL did
    /// not compile: the error is said once, at the `prepare` that compiled it).
    /// How many kernels are compiled (each variant once).
    pub fn compiled_count(&self) -> usize {
        lock(&self.kernels).len()
    }

    pub fn forget(&self, id: KernelId, variant: Variant) {
        lock(&self.kernels).retain(|(key, _)| *key != (id, variant));
        let build = self.build_for(id.spec(), variant);
        lock(&self.modules).retain(|(key, _)| *key != (id.spec().module.name, build));
    }

    fn build_for(&self, spec: &Spec, variant: Variant) -> Build {
        let payload = variant.payload_words > 0;
        let build = self.build(
            spec.module,
            payload && spec.payload == Payload::Composed,
            variant.group_slots,
            variant.cull,
        );
        Build {
            traced: spec.id == KernelId::ScanBlockTraced,
            ..build
        }
    }

    /// Whether `id`'s plain pipeline (any level of the scan's) is compiled.
    #[cfg(test)]
    pub fn compiled(&self, id: KernelId) -> bool {
        lock(&self.kernels).iter().any(|&((k, _), _)| k == id)
    }

    /// The pipeline of `id` in `variant`, compiled now if it was not yet.
    pub fn kernel(&self, device: &wgpu::Device, id: KernelId, variant: Variant) -> Arc<Kernel> {
        let mut kernels = lock(&self.kernels);
        entry(&mut kernels, (id, variant), || {
            Arc::new(self.compile(device, id.spec(), variant))
        })
    }

    fn compile(&self, device: &wgpu::Device, spec: &'static Spec, variant: Variant) -> Kernel {
        let payload = variant.payload_words > 0;
        let build = self.build_for(spec, variant);
        let module = self.module(device, spec.module, build);
        let entry_point = match spec.payload {
            Payload::Entry(entry) if payload => entry,
            _ => spec.entry_point,
        };
        Kernel::new(
            device,
            &module,
            spec,
            entry_point,
            &label(spec, variant, &build),
            &constants(spec.id, variant, &self.options, &build),
            Extras {
                payload: spec.copies_payload(payload),
                probe: self
                    .replacement_in(spec.module)
                    .is_some_and(|r| r.probe.is_some()),
                culled: build.cull != 0,
            },
        )
    }

    fn module(
        &self,
        device: &wgpu::Device,
        module: &'static Module,
        build: Build,
    ) -> wgpu::ShaderModule {
        let mut modules = lock(&self.modules);
        entry(&mut modules, (module.name, build), || {
            let replaced = self
                .replacement_in(module)
                .map(|r| (r.path, r.wgsl.as_ref()));
            let mut wgsl = module.wgsl_with(&build, replaced);
            if cfg!(feature = "cull") && build.cull != 0 {
                // The renderer's WGSL first, so that its errors give its own lines.
                let culls = lock(&self.culls);
                wgsl = format!("{}\n{wgsl}", culls[build.cull as usize - 1]);
            }
            let descriptor = wgpu::ShaderModuleDescriptor {
                label: Some(&module.label(&build)),
                source: wgpu::ShaderSource::Wgsl(wgsl.into()),
            };
            // A renderer's WGSL keeps wgpu's checks: only ours are known to be guarded.
            if self.options.runtime_checks || module.name != "tiles" || build.cull != 0 {
                return device.create_shader_module(descriptor);
            }
            // SAFETY: every index in the tile kernels is guarded by the flag
            // count or the tile count (the same guards that keep the checked
            // build exact); this build only drops wgpu's redundant clamps and
            // loop counters, for measurement.
            unsafe {
                device.create_shader_module_trusted(
                    descriptor,
                    wgpu::ShaderRuntimeChecks::unchecked(),
                )
            }
        })
    }
}

/// A pipeline's label: its entry point, then what its variant and build chose.
pub(crate) fn label(spec: &Spec, variant: Variant, build: &Build) -> String {
    let mut label = spec.entry_point.to_string();
    if matches!(spec.id, KernelId::ScanBlock | KernelId::ScanBlockTraced) {
        label.push_str(if variant.flags_input {
            ":flags"
        } else {
            ":sums"
        });
    }
    if variant.subtiles > 1 {
        label.push_str(&format!(":{}tiles", variant.subtiles));
    }
    if variant.group_slots && spec.id != KernelId::SegmentArgsGrouped {
        label.push_str(":group_slots");
    }
    if variant.bits {
        label.push_str(":bits");
    }
    if variant.cull != 0 {
        label.push_str(&format!(":cull{}", variant.cull));
    }
    if spec.copies_payload(variant.payload_words > 0) {
        label.push_str(&format!(":payload{}", variant.payload_words));
    }
    if build.subgroups {
        label.push_str(":subgroups");
    }
    label
}

/// The pipeline-overridable constants of `id`'s pipeline in `variant`.
pub(crate) fn constants(
    id: KernelId,
    variant: Variant,
    options: &LookbackOptions,
    build: &Build,
) -> Vec<(&'static str, f64)> {
    let payload = ("PAYLOAD_WORDS", f64::from(variant.payload_words));
    match id {
        KernelId::ScanBlock | KernelId::ScanBlockTraced => {
            vec![("FLAGS_INPUT", f64::from(u8::from(variant.flags_input)))]
        }
        KernelId::ScanTiles => vec![(
            "PER_INVOCATION",
            f64::from(options.scan_tiles_per_invocation),
        )],
        KernelId::Scatter if variant.payload_words > 0 => vec![payload],
        KernelId::Lookback
        | KernelId::LookbackPaired
        | KernelId::LookbackBits
        | KernelId::TileAtomic
        | KernelId::TileScatterBits => {
            let mut constants = vec![
                ("SPIN_LIMIT", f64::from(options.spin_limit)),
                (
                    "STRESS_FALLBACK",
                    f64::from(u8::from(options.stress_fallback)),
                ),
                ("STATS", f64::from(u8::from(options.stats))),
                ("STAGE_ROWS", f64::from(stage_rows(id, build.subgroups))),
            ];
            if build.payload && variant.payload_words > 0 {
                constants.push(payload);
            }
            if variant.subtiles > 1 {
                constants.push(("SUBTILES", f64::from(variant.subtiles)));
            }
            // A culled compaction's tiles write the bits its segments read.
            if build.group_slots && variant.cull != 0 {
                constants.push(("GROUP_BITS", 1.0));
            }
            constants
        }
        KernelId::SegmentArgsGrouped if variant.bits => vec![("BITS", 1.0)],
        _ => Vec::new(),
    }
}
