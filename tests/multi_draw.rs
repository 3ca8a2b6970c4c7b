//! `examples/multi_draw.rs` as a test: 100 meshes of up to 10 000 instances,
//! culled, compacted per mesh into the renderer's own buffers (indices, payload,
//! one record per mesh) by every order-keeping method, drawn with
//! `multi_draw_indexed_indirect` (and `_count` where the device has it), then by
//! `lookback` culling in its own pass into outputs sized by `max_visible`, its
//! records packed; every record and every pixel checked against the CPU.

#[path = "../examples/multi_draw.rs"]
#[allow(dead_code)]
mod multi_draw;

#[test]
fn every_order_keeping_method_and_one_pass_culling_draw_each_mesh_exactly_from_one_multi_draw() {
    let report = multi_draw::run().unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    let checked = report
        .lines()
        .filter(|l| l.contains("checked pixel by pixel"))
        .count();
    let ordered = wgpu_compaction::Method::ALL
        .iter()
        .filter(|m| m.preserves_order())
        .count();
    // Each of them, and the one-pass frames.
    assert_eq!(checked, ordered + 1, "{report}");
    assert!(
        report.contains("lookback culling in its pass: "),
        "{report}"
    );
}
