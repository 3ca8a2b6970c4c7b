//! The playground's own shaders (the drawIndirect of the page, the benchmark's
//! copy reference) parse and validate with naga. The library checks its kernels.

const SHADERS: &[(&str, &str)] = &[
    (
        "draw_instances",
        compaction_playground::draw_instances::SOURCE,
    ),
    ("copy_vec4", include_str!("../../shaders/copy_vec4.wgsl")),
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
