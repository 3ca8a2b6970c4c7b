//! `examples/renderer.rs` as a test: culling, compaction and the three indirect
//! draws (non-indexed, indexed, the renderer's own arguments) of every method in
//! one encoder, every drawn instance checked against the CPU.

#[path = "../examples/renderer.rs"]
#[allow(dead_code)]
mod renderer;

#[test]
fn every_method_draws_exactly_the_visible_objects_indexed_and_not() {
    let report = renderer::run().unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(
        report
            .lines()
            .filter(|l| l.contains("instances drawn and checked"))
            .count(),
        wgpu_compaction::Method::ALL.len(),
        "{report}"
    );
}
