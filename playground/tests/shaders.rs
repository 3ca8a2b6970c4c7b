//! The playground's own shaders (the drawIndirect of the page, the benchmark's
//! copy reference and fence) parse and validate with naga. The library checks its kernels.

const SHADERS: &[(&str, &str)] = &[
    (
        "draw_instances",
        compaction_playground::draw_instances::SOURCE,
    ),
    ("copy_vec4", include_str!("../shaders/copy_vec4.wgsl")),
    ("bench_fence", include_str!("../shaders/bench_fence.wgsl")),
];

#[test]
fn playground_shaders_validate_with_naga() {
    for (name, source) in SHADERS {
        let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| {
            panic!("{name}.wgsl does not parse:\n{}", e.emit_to_string(source))
        });
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}.wgsl is invalid:\n{}", e.emit_to_string(source)));
    }
}

/// The draw's modes and its uniform, as the shader declares them.
#[test]
fn draw_instances_modes_and_grid_match_rust() {
    use compaction_playground::draw_instances::{Grid, DRAW_ORDER, OBJECT_GRID};
    let source = compaction_playground::draw_instances::SOURCE;
    let module = naga::front::wgsl::parse_str(source).expect("parses");
    let constant = |name: &str| {
        let (_, c) = module
            .constants
            .iter()
            .find(|(_, c)| c.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no const {name}"));
        match module.global_expressions[c.init] {
            naga::Expression::Literal(naga::Literal::U32(v)) => v,
            ref e => panic!("{name}: {e:?}"),
        }
    };
    assert_eq!(constant("OBJECT_GRID"), OBJECT_GRID);
    assert_eq!(constant("DRAW_ORDER"), DRAW_ORDER);
    let grid = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some("Grid"))
        .expect("struct Grid");
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    assert_eq!(layouter[grid.0].size as usize, std::mem::size_of::<Grid>());
}
