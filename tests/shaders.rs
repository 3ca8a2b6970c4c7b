//! Every shader parses and validates with naga on its own, and the constants the
//! Rust side relies on (workgroup sizes, block size) match the WGSL.

use compaction_playground::gpu;

const SHADERS: &[(&str, &str)] = &[
    ("atomic_counter", gpu::atomic_counter::SOURCE),
    ("atomic_aggregated", gpu::atomic_aggregated::SOURCE),
    ("scan_block", gpu::scan_block::SOURCE),
    ("add_offsets", gpu::add_offsets::SOURCE),
    ("scatter", gpu::scatter::SOURCE),
    ("indirect_args", gpu::indirect_args::SOURCE),
    ("copy_vec4", gpu::copy_vec4::SOURCE),
    ("draw_instances", gpu::draw_instances::SOURCE),
];

fn validate(name: &str, source: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name}.wgsl does not parse:\n{}", e.emit_to_string(source)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{name}.wgsl is invalid:\n{}", e.emit_to_string(source)));
    module
}

#[test]
fn every_shader_validates_with_naga() {
    for (name, source) in SHADERS {
        validate(name, source);
    }
}

#[test]
fn every_shader_file_is_checked() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    for entry in std::fs::read_dir(dir).expect("shaders/") {
        let path = entry.expect("entry").path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if path.extension().is_some_and(|e| e == "wgsl") {
            let source = std::fs::read_to_string(&path).expect("read");
            if stem == "lookback_subgroups" {
                // A fragment: it replaces the tail of lookback.wgsl.
                let whole = gpu::lookback::source(true);
                assert!(whole.ends_with(source.as_str()));
                validate(&stem, &whole);
            } else {
                validate(&stem, &source);
            }
        }
    }
}

fn workgroup_size(source: &str, entry: &str) -> [u32; 3] {
    let module = validate(entry, source);
    module
        .entry_points
        .iter()
        .find(|e| e.name == entry)
        .unwrap_or_else(|| panic!("no entry point {entry}"))
        .workgroup_size
}

#[test]
fn workgroup_sizes_match_rust() {
    let cases = [
        (
            gpu::atomic_counter::SOURCE,
            "atomic_counter",
            gpu::atomic_counter::WORKGROUP_SIZE,
        ),
        (
            gpu::atomic_aggregated::SOURCE,
            "atomic_aggregated",
            gpu::atomic_aggregated::WORKGROUP_SIZE,
        ),
        (
            gpu::scan_block::SOURCE,
            "scan_block",
            gpu::scan_block::BLOCK,
        ),
        (
            gpu::scan_block::SOURCE,
            "scan_block_traced",
            gpu::scan_block::BLOCK,
        ),
        (
            gpu::add_offsets::SOURCE,
            "add_offsets",
            gpu::add_offsets::WORKGROUP_SIZE,
        ),
        (
            gpu::scatter::SOURCE,
            "scatter",
            gpu::scatter::WORKGROUP_SIZE,
        ),
        (
            gpu::indirect_args::SOURCE,
            "indirect_args",
            gpu::indirect_args::WORKGROUP_SIZE,
        ),
        (
            gpu::copy_vec4::SOURCE,
            "copy_vec4",
            gpu::copy_vec4::WORKGROUP_SIZE,
        ),
    ];
    for (source, entry, rust) in cases {
        assert_eq!(workgroup_size(source, entry), [rust, 1, 1], "{entry}");
    }
}

#[test]
fn block_constants_match_rust() {
    let source = gpu::scan_block::SOURCE;
    assert!(source.contains(&format!("const BLOCK : u32 = {}u;", gpu::scan_block::BLOCK)));
    assert!(source.contains(&format!("const STEPS : u32 = {}u;", gpu::scan_block::STEPS)));
    assert_eq!(1 << gpu::scan_block::STEPS, gpu::scan_block::BLOCK);
    assert!(gpu::add_offsets::SOURCE
        .contains(&format!("const BLOCK : u32 = {}u;", gpu::scan_block::BLOCK)));
}
