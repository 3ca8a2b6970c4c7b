//! The catalogue against the WGSL: every module of every build parses and
//! validates with naga, every kernel's row (entry point, workgroup size, storage
//! bindings by number and name, live uniform, shared memory) matches what naga
//! finds, every file of `shaders/` is composed somewhere and shipped, each helper
//! is written once, and the sizes the Rust side relies on match the WGSL.

use std::collections::BTreeMap;

use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};

use super::catalogue::{
    Build, KernelId, Payload, Spec, FILES, GROUP_SLOT_WRITES, INPUT_BINDINGS, KERNELS,
    PAYLOAD_BINDINGS, SCANS, SCAN_RECORDS, TILE_INPUTS, TILE_WRITES,
};
use super::options::{LookbackOptions, STAT_WORDS};
use super::pipelines::{constants, Variant};
use crate::layout::{
    group_slots_start, BLOCK, GROUP, LIVE_BINDING, LOOKBACK_WORKGROUP, MAX_PAYLOAD_WORDS,
    SCAN_TILES_PER_INVOCATION, SCAN_TILES_WORKGROUP, SPIN_LIMIT, STEPS, TILE,
    TILE_COUNTS_WORKGROUP,
};

/// A renderer's visibility function, for the culled builds: its resources in
/// @group(1), which the catalogue's rows (group 0) do not list.
const VISIBLE: &str = "@group(1) @binding(0) var<storage, read> cull_spheres : array<vec4<f32>>;
fn visible(object : u32) -> bool { return cull_spheres[object].w > 0.0; }";

fn validate(name: &str, source: &str) -> (naga::Module, ModuleInfo) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name} does not parse:\n{}", e.emit_to_string(source)));
    let info = Validator::new(ValidationFlags::all(), Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name} is invalid:\n{}", e.emit_to_string(source)));
    (module, info)
}

/// Every build of `spec`'s module that a compactor makes: portable and with
/// subgroups, without a payload and (where it copies one) with.
fn builds(spec: &Spec) -> Vec<Build> {
    let mut builds = Vec::new();
    for subgroups in [false, true] {
        for payload in [false, true] {
            for group_slots in [false, true] {
                let build = spec.module.build_of(Build {
                    subgroups,
                    payload: payload && spec.payload == Payload::Composed,
                    group_slots,
                    source: None,
                    cull: 0,
                    traced: spec.id == KernelId::ScanBlockTraced,
                });
                if !builds.contains(&build) {
                    builds.push(build);
                }
                // Only `lookback`'s entry points ask a visibility function.
                let culled = Build { cull: 1, ..build };
                let asks = matches!(spec.id, KernelId::Lookback | KernelId::LookbackPaired);
                if asks && spec.module.build_of(culled) == culled && !builds.contains(&culled) {
                    builds.push(culled);
                }
            }
        }
    }
    builds
}

/// The variants of `spec`'s pipeline in `build`: both levels of the scan's block
/// scan, a payload where the build (or the kernel's own payload entry) copies one,
/// and the grouped segments over bits (the group slots' writes are a build).
fn variants(spec: &Spec, build: &Build) -> Vec<Variant> {
    // A culled build's pipelines are its function's (and write bits with group slots).
    let plain = plain_variants(spec, build)
        .into_iter()
        .map(|v| Variant {
            cull: build.cull,
            ..v
        })
        .collect();
    match spec.id {
        KernelId::SegmentArgsGrouped => [false, true]
            .map(|bits| Variant {
                group_slots: true,
                bits,
                ..Variant::PLAIN
            })
            .to_vec(),
        _ => plain,
    }
}

fn plain_variants(spec: &Spec, build: &Build) -> Vec<Variant> {
    match (spec.id, spec.payload) {
        (KernelId::ScanBlock | KernelId::ScanBlockTraced, _) => {
            vec![Variant::scan_level(0), Variant::scan_level(1)]
        }
        (_, Payload::Composed) if build.payload => [1, 3, 4, MAX_PAYLOAD_WORDS]
            .into_iter()
            .map(Variant::payload)
            .collect(),
        (_, Payload::Entry(_)) => vec![Variant::PLAIN, Variant::payload(MAX_PAYLOAD_WORDS)],
        // Two tiles a look-back state too.
        (KernelId::LookbackBits, _) => vec![
            Variant::PLAIN,
            Variant {
                subtiles: 2,
                ..Variant::PLAIN
            },
        ],
        _ => vec![Variant::PLAIN],
    }
}

/// The module as the pipeline of `entry` builds it: its overrides set and that
/// entry point alone.
fn specialised(
    module: &naga::Module,
    info: &ModuleInfo,
    entry: &str,
    constants: &[(&'static str, f64)],
) -> (naga::Module, ModuleInfo) {
    let constants: naga::back::PipelineConstants = constants
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

/// What naga finds an entry point binds and needs.
#[derive(Debug, PartialEq)]
struct Found {
    storage: Vec<(u32, String)>,
    live: bool,
    workgroup_storage: u32,
    workgroup_size: [u32; 3],
}

fn found(module: &naga::Module, info: &ModuleInfo, index: usize) -> Found {
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    let used = info.get_entry_point(index);
    let mut out = Found {
        storage: Vec::new(),
        live: false,
        workgroup_storage: 0,
        workgroup_size: module.entry_points[index].workgroup_size,
    };
    for (handle, var) in module.global_variables.iter() {
        // The renderer's own (a culled build's visibility function) are not ours.
        if used[handle].is_empty() || var.binding.as_ref().is_some_and(|b| b.group != 0) {
            continue;
        }
        let binding = var.binding.as_ref().map(|b| b.binding);
        let name = var.name.clone().unwrap_or_default();
        match var.space {
            naga::AddressSpace::Storage { .. } => {
                out.storage
                    .push((binding.expect("a storage binding"), name));
            }
            naga::AddressSpace::Uniform => {
                assert_eq!(binding, Some(LIVE_BINDING), "the live uniform's binding");
                assert_eq!(name, "live");
                out.live = true;
            }
            naga::AddressSpace::WorkGroup => out.workgroup_storage += layouter[var.ty].size,
            _ => {}
        }
    }
    out.storage.sort();
    out
}

#[test]
fn the_catalogue_is_in_kernel_id_order() {
    for (index, spec) in KERNELS.iter().enumerate() {
        assert_eq!(spec.id as usize, index, "{:?}", spec.id);
        assert!(std::ptr::eq(spec.id.spec(), spec));
    }
}

#[test]
fn every_kernel_matches_its_row_of_the_catalogue_in_every_build() {
    let options = LookbackOptions::default();
    for spec in &KERNELS {
        let mut most_storage = 0;
        for build in builds(spec) {
            let name = format!("{} ({})", spec.entry_point, spec.module.label(&build));
            let mut wgsl = spec.module.wgsl(&build);
            if build.cull != 0 {
                wgsl = format!("{VISIBLE}\n{wgsl}");
            }
            let (module, info) = validate(&name, &wgsl);
            for variant in variants(spec, &build) {
                let copies = variant.payload_words > 0;
                let entry = match spec.payload {
                    Payload::Entry(entry) if copies => entry,
                    _ => spec.entry_point,
                };
                let constants = constants(spec.id, variant, &options, &build);
                let (module, info) = specialised(&module, &info, entry, &constants);
                let got = found(&module, &info, 0);
                let mut bindings: Vec<(u32, String)> = spec
                    .bindings
                    .iter()
                    .map(|&(n, name)| (n, name.to_string()))
                    .collect();
                if copies {
                    bindings.extend(PAYLOAD_BINDINGS.iter().map(|&(n, s)| (n, s.to_string())));
                }
                if build.cull != 0 {
                    bindings.retain(|(n, name)| !INPUT_BINDINGS.contains(&(*n, name.as_str())));
                }
                bindings.sort();
                assert_eq!(got.storage, bindings, "{name}: {entry}'s storage bindings");
                assert_eq!(got.live, spec.reads_live, "{name}: {entry} reads live");
                assert_eq!(
                    got.workgroup_size,
                    [spec.workgroup_size as u32, 1, 1],
                    "{name}: {entry}"
                );
                assert!(
                    got.workgroup_storage <= spec.workgroup_storage,
                    "{name}: {entry}: {} bytes of shared memory",
                    got.workgroup_storage
                );
                most_storage = most_storage.max(got.workgroup_storage);
            }
        }
        assert_eq!(
            most_storage, spec.workgroup_storage,
            "{}: the most shared memory over its builds",
            spec.entry_point
        );
    }
}

/// The files each module build composes.
fn composed() -> Vec<&'static str> {
    let mut paths = Vec::new();
    for spec in &KERNELS {
        for build in builds(spec) {
            paths.extend(spec.module.files(&build).into_iter().map(|(path, _)| path));
        }
    }
    paths.sort_unstable();
    paths.dedup();
    paths
}

#[test]
fn every_file_of_shaders_is_in_the_catalogue_composed_and_packaged() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut on_disk: Vec<String> = std::fs::read_dir(root.join("shaders"))
        .expect("shaders/")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .map(|name| format!("shaders/{name}"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<&str> = FILES.iter().map(|f| f.path).collect();
    listed.sort_unstable();
    assert_eq!(on_disk, listed, "shaders/ and catalogue::FILES");
    assert_eq!(composed(), listed, "every file composed into some module");
    // Each file as written, or without its comments where no page shows it.
    let mut stripped = Vec::new();
    for file in FILES {
        let text = std::fs::read_to_string(root.join(file.path)).expect("read");
        if text != file.wgsl {
            assert_eq!(super::strip::stripped(&text), file.wgsl, "{}", file.path);
            stripped.push(file.path);
        }
    }
    assert_eq!(
        stripped,
        [
            "shaders/pack_records.wgsl",
            "shaders/segment_args.wgsl",
            "shaders/tile_write_payload.wgsl",
            "shaders/lookback_subgroups.wgsl",
            "shaders/group_slots.wgsl",
            "shaders/tile_input_culled.wgsl"
        ]
    );
    // The package takes shaders/*.wgsl: all of them, nothing else (the rest of
    // the repository's WGSL is the playground's).
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    assert!(
        manifest.contains("\"shaders/*.wgsl\""),
        "the package's `include` (Cargo.toml) takes shaders/*.wgsl"
    );
}

#[test]
fn each_wgsl_helper_is_written_once() {
    // A function defined in two files is a copy, unless the files are the
    // alternatives of one module part (portable or subgroups, indices or payload).
    let mut defined: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for file in FILES {
        for line in file.wgsl.lines() {
            if let Some(rest) = line.strip_prefix("fn ") {
                let name = rest.split('(').next().unwrap_or(rest).trim().to_string();
                defined.entry(name).or_default().push(file.path);
            }
        }
    }
    let alternatives = [
        TILE_WRITES,
        SCANS,
        GROUP_SLOT_WRITES,
        TILE_INPUTS,
        SCAN_RECORDS,
    ]
    .map(|group| group.map(|f| f.path));
    for (name, files) in defined {
        if files.len() > 1 {
            assert!(
                alternatives
                    .iter()
                    .any(|group| files.iter().all(|f| group.contains(f))),
                "fn {name} is written in {files:?}"
            );
        }
    }
}

/// A file of the catalogue by its name.
fn wgsl(name: &str) -> &'static str {
    let path = format!("shaders/{name}.wgsl");
    FILES
        .iter()
        .find(|f| f.path == path)
        .unwrap_or_else(|| panic!("{path}"))
        .wgsl
}

#[test]
fn layout_constants_match_rust() {
    let scan = wgsl("scan_block");
    assert!(scan.contains(&format!("const BLOCK : u32 = {BLOCK}u;")));
    assert!(scan.contains(&format!("const STEPS : u32 = {STEPS}u;")));
    assert_eq!(1 << STEPS, BLOCK);
    assert!(wgsl("add_offsets").contains(&format!("const BLOCK : u32 = {BLOCK}u;")));
    let tiles = wgsl("tiles");
    assert!(tiles.contains(&format!(
        "const WORKGROUP_SIZE : u32 = {LOOKBACK_WORKGROUP}u;"
    )));
    assert!(tiles.contains("const TILE : u32 = ROWS * 4u * WORKGROUP_SIZE;"));
    assert!(tiles.contains("const ROWS : u32 = 8u;"));
    assert_eq!(8 * 4 * LOOKBACK_WORKGROUP, TILE);
    let lookback = wgsl("lookback");
    assert!(lookback.contains(&format!("override SPIN_LIMIT : u32 = {SPIN_LIMIT}u;")));
    let group_slots = wgsl("group_slots");
    assert!(group_slots.contains(&format!("const GROUP : u32 = {GROUP}u;")));
    assert!(wgsl("segment_args").contains(&format!("const GROUP : u32 = {GROUP}u;")));
    // `group_slots_start`: past the ticket and a state a tile, at 64 words.
    assert!(group_slots.contains("return (tiles + 1u + 63u) / 64u * 64u;"));
    assert_eq!(group_slots_start(1), 64);
    assert_eq!(group_slots_start(63 * TILE as u64), 64);
    assert_eq!(group_slots_start(63 * TILE as u64 + 1), 128);
    let tile_counts = wgsl("tile_counts");
    assert!(tile_counts.contains(&format!(
        "const WORKGROUP_SIZE : u32 = {TILE_COUNTS_WORKGROUP}u;"
    )));
    assert!(tile_counts.contains(&format!("const TILE_WORDS : u32 = {}u;", TILE / 32)));
    assert!(wgsl("pack_bits").contains(&format!("const TILE_WORDS : u32 = {}u;", TILE / 32)));
    let scan_tiles = wgsl("scan_tiles");
    assert!(scan_tiles.contains(&format!(
        "const WORKGROUP_SIZE : u32 = {SCAN_TILES_WORKGROUP}u;"
    )));
    assert!(scan_tiles.contains(&format!("const TILE : u32 = {TILE}u;")));
    assert!(scan_tiles.contains(&format!(
        "override PER_INVOCATION : u32 = {SCAN_TILES_PER_INVOCATION}u;"
    )));
    assert!(scan_tiles.contains(&format!(
        "let c{} = load_counts(v0, {}u, tiles);",
        SCAN_TILES_PER_INVOCATION / 4 - 1,
        SCAN_TILES_PER_INVOCATION / 4 - 1
    )));
    assert!(wgsl("lookback_stats").contains(&format!("const STAT_WORDS : u32 = {STAT_WORDS}u;")));
}
