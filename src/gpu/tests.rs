//! Every shader parses and validates with naga, and what the Rust side relies on
//! matches the WGSL: workgroup sizes, the block and tile sizes, the live-length
//! binding, and each kernel's needs (storage and uniform buffers, shared memory,
//! invocations) that `prepare` checks a device against.

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

use super::lookback::LookbackOptions;
use super::{
    add_offsets, atomic_aggregated, atomic_counter, indirect_args, lookback, pack_bits, scan_block,
    scan_tiles, scatter, tile_counts,
};
use crate::compactor::limits::{kernel_needs, Needs};
use crate::compactor::pipelines::KernelId;
use crate::layout::{
    ATOMIC_WORKGROUP, BLOCK, LIVE_BINDING, LOOKBACK_WORKGROUP, PACK_BITS_WORKGROUP,
    SCAN_TILES_PER_INVOCATION, SCAN_TILES_WORKGROUP, SPIN_LIMIT, STEPS, TILE,
    TILE_COUNTS_WORKGROUP,
};

fn validate(name: &str, source: &str) -> (naga::Module, ModuleInfo) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name} does not parse:\n{}", e.emit_to_string(source)));
    let info = Validator::new(ValidationFlags::all(), Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name} is invalid:\n{}", e.emit_to_string(source)));
    (module, info)
}

/// Every WGSL the library builds, as it builds it.
fn sources() -> Vec<(&'static str, String)> {
    vec![
        ("atomic_counter", atomic_counter::SOURCE.to_string()),
        ("atomic_aggregated", atomic_aggregated::SOURCE.to_string()),
        ("scan_block", scan_block::SOURCE.to_string()),
        ("add_offsets", add_offsets::SOURCE.to_string()),
        ("scatter", scatter::SOURCE.to_string()),
        ("indirect_args", indirect_args::SOURCE.to_string()),
        ("pack_bits", pack_bits::SOURCE.to_string()),
        ("tile_counts", tile_counts::SOURCE.to_string()),
        ("scan_tiles", scan_tiles::SOURCE.to_string()),
        (
            "lookback (portable)",
            lookback::compose(lookback::KERNELS, false),
        ),
        (
            "lookback (subgroups)",
            lookback::compose(lookback::KERNELS, true),
        ),
    ]
}

#[test]
fn every_shader_validates_with_naga() {
    for (name, source) in sources() {
        validate(name, &source);
    }
}

/// The library's WGSL files under `shaders/` (name, path): the playground's own
/// shaders live there too, and its tests check them.
fn library_shader_files() -> Vec<(String, std::path::PathBuf)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    // (The playground's shaders live in playground/shaders/: every file here is the library's.)
    let files: Vec<_> = std::fs::read_dir(dir)
        .expect("shaders/")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "wgsl"))
        .filter_map(|path| Some((path.file_stem()?.to_str()?.to_string(), path)))
        .collect();
    assert!(!files.is_empty(), "no library shader under shaders/");
    files
}

#[test]
fn every_library_shader_file_is_built() {
    let built: String = sources().into_iter().map(|(_, s)| s).collect();
    for (stem, path) in library_shader_files() {
        let source = std::fs::read_to_string(&path).expect("read");
        assert!(
            built.contains(source.trim()),
            "shaders/{stem}.wgsl is not built by the library"
        );
    }
}

#[test]
fn every_library_shader_file_is_packaged() {
    // The package takes shaders/*.wgsl, and every file there is built by the
    // library (`every_library_shader_file_is_built`): all of them, nothing else.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        manifest.contains("\"shaders/*.wgsl\""),
        "the package's `include` (Cargo.toml) takes shaders/*.wgsl"
    );
}

/// The kernel an entry point is, by its name.
fn kernel_of(entry: &str) -> KernelId {
    match entry {
        "atomic_counter" => KernelId::AtomicCounter,
        "atomic_aggregated" => KernelId::AtomicAggregated,
        "scan_block" => KernelId::ScanBlock {
            level: 0,
            traced: false,
        },
        "scan_block_traced" => KernelId::ScanBlock {
            level: 0,
            traced: true,
        },
        "add_offsets" => KernelId::AddOffsets,
        "scatter" => KernelId::Scatter,
        "indirect_args" => KernelId::IndirectArgs,
        "pack_bits" => KernelId::PackBits,
        "pack_bits_counted" => KernelId::PackBitsCounted,
        "lookback" => KernelId::Lookback,
        "lookback_paired" => KernelId::LookbackPaired,
        "lookback_bits" => KernelId::LookbackBits,
        "tile_atomic" => KernelId::TileAtomic,
        "tile_counts" => KernelId::TileCounts,
        "scan_tiles" => KernelId::ScanTiles,
        "tile_scatter_bits" => KernelId::TileScatterBits,
        other => panic!("unknown entry point {other}"),
    }
}

/// What an entry point needs, from the WGSL, and whether it reads the live length.
fn needs_of(module: &naga::Module, info: &ModuleInfo, index: usize) -> (Needs, bool) {
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    let used = info.get_entry_point(index);
    let mut needs = Needs::default();
    let mut live = false;
    for (handle, var) in module.global_variables.iter() {
        if used[handle].is_empty() {
            continue;
        }
        match var.space {
            naga::AddressSpace::Storage { .. } => needs.storage_buffers += 1,
            naga::AddressSpace::Uniform => {
                needs.uniform_buffers += 1;
                let binding = var.binding.as_ref().expect("a uniform has a binding");
                assert_eq!(binding.binding, LIVE_BINDING, "the live length's binding");
                live = true;
            }
            naga::AddressSpace::WorkGroup => needs.workgroup_storage += layouter[var.ty].size,
            _ => {}
        }
    }
    needs.invocations = module.entry_points[index].workgroup_size.iter().product();
    (needs, live)
}

/// The look-back module as the pipeline of entry point `entry` builds it in the
/// build with subgroups or the portable one: its overrides set (`STAGE_ROWS` sizes
/// the shared staging) and that entry point alone.
fn specialised(
    module: &naga::Module,
    info: &ModuleInfo,
    subgroups: bool,
    entry: &str,
) -> (naga::Module, ModuleInfo) {
    let index = lookback::ENTRY_POINTS
        .iter()
        .position(|&e| e == entry)
        .expect("a look-back entry point");
    let constants: naga::back::PipelineConstants =
        lookback::constants(&LookbackOptions::default(), subgroups, index)
            .iter()
            .map(|&(name, value)| (name.to_string(), value))
            .collect();
    let (module, info) = naga::back::pipeline_constants::process_overrides(
        module,
        info,
        Some((naga::ShaderStage::Compute, entry)),
        &constants,
    )
    .unwrap_or_else(|e| panic!("{entry}: overrides: {e:?}"));
    (module.into_owned(), info.into_owned())
}

#[test]
fn each_kernels_needs_match_the_wgsl() {
    // A look-back kernel declares the most shared memory over both compositions
    // (the portable scan's scratch against the subgroup totals).
    let mut most_storage: Vec<(KernelId, u32)> = Vec::new();
    for (name, source) in sources() {
        let (module, info) = validate(name, &source);
        for (index, entry) in module.entry_points.iter().enumerate() {
            let id = kernel_of(&entry.name);
            let in_lookback_module = lookback::ENTRY_POINTS.contains(&entry.name.as_str());
            let (mut needs, live) = if in_lookback_module {
                let subgroups = name.contains("subgroups");
                let (module, info) = specialised(&module, &info, subgroups, &entry.name);
                needs_of(&module, &info, 0)
            } else {
                needs_of(&module, &info, index)
            };
            if in_lookback_module {
                match most_storage.iter_mut().find(|(k, _)| *k == id) {
                    Some((_, most)) => *most = (*most).max(needs.workgroup_storage),
                    None => most_storage.push((id, needs.workgroup_storage)),
                }
                needs.workgroup_storage = kernel_needs(id).workgroup_storage;
            }
            assert_eq!(needs, kernel_needs(id), "{name}: {}", entry.name);
            // Every kernel that reads flags, and add_offsets for its slice base (live.z).
            let reads_live = id != KernelId::IndirectArgs;
            assert_eq!(live, reads_live, "{}: reads the live uniform", entry.name);
        }
    }
    assert_eq!(most_storage.len(), lookback::ENTRY_POINTS.len());
    for (id, most) in most_storage {
        assert_eq!(
            most,
            kernel_needs(id).workgroup_storage,
            "{id:?}'s shared memory"
        );
    }
}

#[test]
fn workgroup_sizes_and_layout_constants_match_rust() {
    let sizes = [
        ("atomic_counter", ATOMIC_WORKGROUP),
        ("atomic_aggregated", ATOMIC_WORKGROUP),
        ("scatter", ATOMIC_WORKGROUP),
        ("scan_block", BLOCK),
        ("scan_block_traced", BLOCK),
        ("add_offsets", BLOCK),
        ("pack_bits", PACK_BITS_WORKGROUP),
        ("pack_bits_counted", PACK_BITS_WORKGROUP),
        ("lookback", LOOKBACK_WORKGROUP),
        ("lookback_paired", LOOKBACK_WORKGROUP),
        ("lookback_bits", LOOKBACK_WORKGROUP),
        ("tile_atomic", LOOKBACK_WORKGROUP),
        ("tile_scatter_bits", LOOKBACK_WORKGROUP),
        ("tile_counts", TILE_COUNTS_WORKGROUP),
        ("scan_tiles", SCAN_TILES_WORKGROUP),
        ("indirect_args", 1),
    ];
    for (name, source) in sources() {
        let (module, _) = validate(name, &source);
        for entry in &module.entry_points {
            let (_, size) = sizes
                .iter()
                .find(|(e, _)| *e == entry.name)
                .expect("listed");
            assert_eq!(entry.workgroup_size, [*size as u32, 1, 1], "{}", entry.name);
        }
    }
    let scan = scan_block::SOURCE;
    assert!(scan.contains(&format!("const BLOCK : u32 = {BLOCK}u;")));
    assert!(scan.contains(&format!("const STEPS : u32 = {STEPS}u;")));
    assert_eq!(1 << STEPS, BLOCK);
    assert!(add_offsets::SOURCE.contains(&format!("const BLOCK : u32 = {BLOCK}u;")));
    assert!(lookback::KERNELS.contains(&format!(
        "const WORKGROUP_SIZE : u32 = {LOOKBACK_WORKGROUP}u;"
    )));
    assert!(lookback::KERNELS.contains("const TILE : u32 = ROWS * 4u * WORKGROUP_SIZE;"));
    assert!(lookback::KERNELS.contains("const ROWS : u32 = 8u;"));
    assert_eq!(8 * 4 * LOOKBACK_WORKGROUP, TILE);
    assert!(lookback::KERNELS.contains(&format!("override SPIN_LIMIT : u32 = {SPIN_LIMIT}u;")));
    assert!(tile_counts::SOURCE.contains(&format!(
        "const WORKGROUP_SIZE : u32 = {TILE_COUNTS_WORKGROUP}u;"
    )));
    assert!(tile_counts::SOURCE.contains(&format!("const TILE_WORDS : u32 = {}u;", TILE / 32)));
    assert!(pack_bits::SOURCE.contains(&format!("const TILE_WORDS : u32 = {}u;", TILE / 32)));
    assert!(scan_tiles::SOURCE.contains(&format!(
        "const WORKGROUP_SIZE : u32 = {SCAN_TILES_WORKGROUP}u;"
    )));
    assert!(scan_tiles::SOURCE.contains(&format!("const TILE : u32 = {TILE}u;")));
    assert!(scan_tiles::SOURCE.contains(&format!(
        "override PER_INVOCATION : u32 = {SCAN_TILES_PER_INVOCATION}u;"
    )));
    assert!(scan_tiles::SOURCE.contains(&format!(
        "let c{} = load_counts(v0, {}u, tiles);",
        SCAN_TILES_PER_INVOCATION / 4 - 1,
        SCAN_TILES_PER_INVOCATION / 4 - 1
    )));
    assert!(lookback::STATS.contains(&format!(
        "const STAT_WORDS : u32 = {}u;",
        lookback::STAT_WORDS
    )));
}
