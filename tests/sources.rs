//! `shader_sources` lists, for every method, the WGSL exactly as the files in
//! `shaders/` make it, with entry points that the WGSL defines.

use std::path::Path;

use wgpu_compaction::teaching::{shader_sources, LookbackOptions};
use wgpu_compaction::Method;

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// WGSL without its `//` comments, trailing blanks and empty lines.
fn without_comments(wgsl: &str) -> String {
    wgsl.lines()
        .map(|line| line.split("//").next().unwrap_or("").trim_end())
        .filter(|line| !line.trim().is_empty())
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The build a browser compiles and its code view shows (no subgroups) is the
/// files exactly as written; the subgroup scan, which no page shows, is compiled
/// without its comments.
#[test]
fn every_module_is_its_files_joined() {
    for subgroups in [false, true] {
        for method in Method::ALL {
            let modules = shader_sources(method, &LookbackOptions::default(), subgroups);
            assert!(!modules.is_empty(), "{method:?}");
            for module in &modules {
                let joined = module
                    .files
                    .iter()
                    .map(|f| read(f))
                    .collect::<Vec<_>>()
                    .join("\n");
                if subgroups {
                    assert_eq!(
                        without_comments(&module.wgsl),
                        without_comments(&joined),
                        "{method:?} {}: {:?}",
                        module.label,
                        module.files
                    );
                } else {
                    assert_eq!(
                        module.wgsl, joined,
                        "{method:?} {}: {:?}",
                        module.label, module.files
                    );
                }
                let parsed = naga::front::wgsl::parse_str(&module.wgsl).expect("valid WGSL");
                for pipeline in &module.pipelines {
                    assert!(
                        parsed
                            .entry_points
                            .iter()
                            .any(|e| e.name == pipeline.entry_point),
                        "{}: no entry point {}",
                        module.label,
                        pipeline.entry_point
                    );
                    for (name, _) in &pipeline.constants {
                        assert!(
                            module.wgsl.contains(&format!("override {name} ")),
                            "{}: {name}",
                            module.label
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_tile_kernels_take_the_scan_of_their_build() {
    let files = |subgroups| {
        shader_sources(Method::Lookback, &LookbackOptions::default(), subgroups)[0]
            .files
            .clone()
    };
    let composed = |scan| {
        [
            "shaders/tiles.wgsl",
            "shaders/lookback.wgsl",
            "shaders/tile_atomic.wgsl",
            "shaders/tile_scatter_bits.wgsl",
            "shaders/tile_input.wgsl",
            "shaders/tile_write.wgsl",
            scan,
            "shaders/group_slots_none.wgsl",
            "shaders/lookback_stats.wgsl",
            "shaders/input.wgsl",
            "shaders/live.wgsl",
        ]
    };
    assert_eq!(files(false), composed("shaders/lookback_portable.wgsl"));
    assert_eq!(files(true), composed("shaders/lookback_subgroups.wgsl"));
    let labels = |subgroups| {
        let modules = shader_sources(Method::Lookback, &LookbackOptions::default(), subgroups);
        modules.iter().map(|m| m.label.clone()).collect::<Vec<_>>()
    };
    assert_eq!(labels(false), ["tiles", "indirect_args"]);
    assert_eq!(labels(true), ["tiles:subgroups", "indirect_args"]);
    let scan = shader_sources(Method::Scan, &LookbackOptions::default(), false);
    let labels: Vec<_> = scan.iter().map(|m| m.label.as_str()).collect();
    assert_eq!(
        labels,
        ["scan_block", "add_offsets", "scatter", "indirect_args"]
    );
    let levels: Vec<_> = scan[0]
        .pipelines
        .iter()
        .map(|p| (p.label.as_str(), p.constants.clone()))
        .collect();
    assert_eq!(
        levels,
        [
            ("scan_block:flags", vec![("FLAGS_INPUT", 1.0)]),
            ("scan_block:sums", vec![("FLAGS_INPUT", 0.0)])
        ]
    );
}
