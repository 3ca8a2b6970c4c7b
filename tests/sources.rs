//! `shader_sources` lists, for every method, the WGSL exactly as the files in
//! `shaders/` make it, with entry points that the WGSL defines.

use std::path::Path;

use wgpu_compaction::{shader_sources, LookbackOptions, Method};

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

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
                assert_eq!(
                    module.wgsl, joined,
                    "{method:?} {}: {:?}",
                    module.label, module.files
                );
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
fn the_look_back_takes_the_scan_of_its_build() {
    let files = |subgroups| {
        shader_sources(Method::Lookback, &LookbackOptions::default(), subgroups)[0]
            .files
            .clone()
    };
    assert_eq!(
        files(false),
        [
            "shaders/lookback.wgsl",
            "shaders/lookback_portable.wgsl",
            "shaders/lookback_stats.wgsl"
        ]
    );
    assert_eq!(
        files(true),
        [
            "shaders/lookback.wgsl",
            "shaders/lookback_subgroups.wgsl",
            "shaders/lookback_stats.wgsl"
        ]
    );
    let scan = shader_sources(Method::Scan, &LookbackOptions::default(), false);
    let labels: Vec<_> = scan.iter().map(|m| m.label).collect();
    assert_eq!(
        labels,
        ["scan_block", "add_offsets", "scatter", "indirect_args"]
    );
    let levels: Vec<_> = scan[0]
        .pipelines
        .iter()
        .map(|p| (p.label, p.constants.clone()))
        .collect();
    assert_eq!(
        levels,
        [
            ("scan_block:flags", vec![("FLAGS_INPUT", 1.0)]),
            ("scan_block:sums", vec![("FLAGS_INPUT", 0.0)])
        ]
    );
}
