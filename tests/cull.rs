//! One-pass culling (`CompactionDesc::cull`): `lookback` asks the renderer's
//! `visible(object)` about each object instead of reading flags. Checked against
//! a CPU cull of the same spheres and planes (`teaching::frustum`; whole-number
//! centres keep the arithmetic exact), with everything a renderer adds (an
//! index base, a payload, outputs sized by `max_visible`, packed per-mesh records,
//! a live length), with tiles paired and with the look-back's fallback forced (it
//! asks `visible` again); and what it refuses, as `Err` with wgpu's default
//! handler installed (a panic fails the test) and nothing left in an error scope.
//! (Without the `cull` feature `prepare` refuses any visibility function: nothing
//! here to run.)
#![cfg(feature = "cull")]

mod common;

use common::{compactor, run_on, upload_bytes};
use wgpu_compaction::teaching::cpu::inputs::XorShift64;
use wgpu_compaction::teaching::frustum::{self, BOX_PLANES, VISIBLE};
use wgpu_compaction::teaching::{cpu, LookbackOptions};
use wgpu_compaction::{
    Compactor, CullDesc, DrawArgs, Error, Method, PayloadDesc, Segment, SegmentsDesc,
};

/// Seeded spheres: whole-number centres in [-6, 6], radius 0.25 (about a third inside).
fn spheres(n: usize, seed: u64) -> Vec<[f32; 4]> {
    let mut rng = XorShift64::new(seed);
    let mut coordinate = || (rng.next_u64() % 13) as f32 - 6.0;
    (0..n)
        .map(|_| [coordinate(), coordinate(), coordinate(), 0.25])
        .collect()
}

/// The CPU's cull: the same test, in the same order.
fn cpu_visible(spheres: &[[f32; 4]]) -> Vec<u32> {
    (0..spheres.len() as u32)
        .filter(|&i| frustum::inside(spheres[i as usize], &BOX_PLANES))
        .collect()
}

/// Segments over `objects`: ascending starts, a few empty meshes.
fn segments(objects: u32, count: u32) -> Vec<Segment> {
    (0..count)
        .map(|m| Segment {
            first_object: (u64::from(m) * u64::from(objects) / u64::from(count)) as u32 / 2 * 2,
            index_count: 3 * (m % 4 + 1),
            first_index: 10 * m,
            base_vertex: m as i32 - 3,
        })
        .collect()
}

#[test]
fn culled_lookback_matches_a_cpu_cull() {
    let base = compactor();
    let device = base.device();
    let with = |options: LookbackOptions| Compactor::with_options(device, base.queue(), options);
    let paired = with(LookbackOptions {
        paired_from_tiles: 1,
        ..Default::default()
    });
    // Every predecessor counted by the fallback: `visible` asked again.
    let fallback = with(LookbackOptions {
        stress_fallback: true,
        ..Default::default()
    });
    let storage = wgpu::BufferUsages::STORAGE;
    let planes = upload_bytes(
        bytemuck::cast_slice(&BOX_PLANES),
        wgpu::BufferUsages::UNIFORM,
    );
    for (n, seed) in [(1, 1), (4095, 2), (3 * 4096 + 5, 3), (65_536 + 7, 4)] {
        let list = spheres(n, seed);
        let all = cpu_visible(&list);
        let sphere_buffer = upload_bytes(bytemuck::cast_slice(&list), storage);
        let bindings = frustum::bindings(&sphere_buffer, &planes);
        let cull = CullDesc::new(VISIBLE, &bindings);
        let words = 3u32;
        let source: Vec<u32> = (0..n as u32 * words).map(|w| w ^ 0x5A5A).collect();
        let source_buffer = upload_bytes(bytemuck::cast_slice(&source), storage);
        let meshes = segments(n as u32, 9);
        let segment_buffer = upload_bytes(bytemuck::cast_slice(&meshes), storage);
        let draw = DrawArgs::indexed(0);
        for (who, c) in [("", base), (" paired", &paired), (" fallback", &fallback)] {
            // Plain, then everything a renderer adds, with room for about half.
            let plain = c
                .prepare_with(&c.culled(cull.clone(), n as u64))
                .unwrap_or_else(|e| panic!("n {n}{who}: {e}"));
            let out = run_on(c, &plain, n as u64);
            assert_eq!(out.indices, all, "n {n}{who}: plain");
            assert_eq!(out.indirect.instance_count() as usize, all.len());
            let max = (all.len() as u64 / 2).max(1);
            let full = c
                .prepare_with(
                    &c.culled(cull.clone(), n as u64)
                        .with_index_base(5)
                        .with_draw(draw)
                        .with_max_visible(max)
                        .with_payload(PayloadDesc::new((&source_buffer, 0), words))
                        .with_segments(
                            SegmentsDesc::new((&segment_buffer, 0), meshes.len() as u32)
                                .with_packed(true),
                        ),
                )
                .unwrap_or_else(|e| panic!("n {n}{who}: {e}"));
            for live in [n as u64, n as u64 / 2 + 1] {
                let case = format!("n {n}{who}, live {live}, max {max}");
                let out = run_on(c, &full, live);
                let visible: Vec<u32> = all
                    .iter()
                    .filter(|&&i| u64::from(i) < live)
                    .map(|&i| i + 5)
                    .collect();
                let kept = &visible[..visible.len().min(max as usize)];
                assert_eq!(out.indices, kept, "{case}");
                assert_eq!(out.count as usize, kept.len(), "{case}");
                assert_eq!(out.dropped as usize, visible.len() - kept.len(), "{case}");
                assert_eq!(out.payload, cpu::payload(kept, 5, &source, words), "{case}");
                let (records, _) = cpu::segment_args(kept, 5, live as u32, &meshes, draw);
                let (packed, record_meshes, draw_count) = cpu::pack_records(&records);
                assert_eq!(out.segment_args, packed, "{case}");
                assert_eq!(out.record_meshes, record_meshes, "{case}");
                assert_eq!(out.draw_count, draw_count, "{case}");
            }
        }
    }
}

/// `f` with wgpu's default handler in place: its error, with nothing left for an
/// error scope around it to catch.
fn refused(compactor: &Compactor, f: impl FnOnce() -> Option<Error>) -> Error {
    let device = compactor.device();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let error = f().expect("refused");
    assert!(
        pollster::block_on(scope.pop()).is_none(),
        "an error reached wgpu"
    );
    error
}

#[test]
fn what_a_visibility_function_is_refused_for() {
    let compactor = compactor();
    let storage = wgpu::BufferUsages::STORAGE;
    let list = spheres(5000, 9);
    let sphere_buffer = upload_bytes(bytemuck::cast_slice(&list), storage);
    let planes = upload_bytes(
        bytemuck::cast_slice(&BOX_PLANES),
        wgpu::BufferUsages::UNIFORM,
    );
    let bindings = frustum::bindings(&sphere_buffer, &planes);
    let prepare = |wgsl: &str, bindings: &[wgpu::BindGroupEntry], method: Method| {
        compactor
            .prepare_with(&{
                let mut d = compactor.culled(CullDesc::new(wgsl, bindings), 5000);
                d.method = method;
                d
            })
            .err()
    };
    // WGSL that does not compile: the line is the renderer's own.
    let broken = "\n\nfn visible(object : u32) -> bool {\n  return object == ;\n}\n";
    let error = refused(compactor, || prepare(broken, &[], Method::Lookback));
    let Error::Cull(message) = &error else {
        panic!("{error:?}")
    };
    assert!(message.contains(":4:"), "the renderer's line 4: {message}");
    // Bindings that do not match the WGSL: one missing.
    let error = refused(compactor, || {
        prepare(VISIBLE, &bindings[..1], Method::Lookback)
    });
    assert!(matches!(error, Error::Cull(_)), "{error:?}");
    // None given where the WGSL declares them, and some where it declares none.
    let error = refused(compactor, || prepare(VISIBLE, &[], Method::Lookback));
    assert!(matches!(error, Error::Cull(_)), "{error:?}");
    let plain = "fn visible(object : u32) -> bool { return object % 3u == 0u; }";
    let error = refused(compactor, || prepare(plain, &bindings, Method::Lookback));
    assert!(matches!(error, Error::Cull(_)), "{error:?}");
    // A function with no resources needs none.
    let every_third = compactor
        .prepare_with(&compactor.culled(CullDesc::new(plain, &[]), 5000))
        .expect("prepare");
    let want: Vec<u32> = (0..5000).filter(|i| i % 3 == 0).collect();
    assert_eq!(run_on(compactor, &every_third, 5000).indices, want);
    // Resources in the compaction's own group.
    let group0 = VISIBLE.replace("@group(1)", "@group(0)");
    let error = refused(compactor, || prepare(&group0, &bindings, Method::Lookback));
    assert!(matches!(error, Error::Cull(_)), "{error:?}");
    // Methods that do not cull in their pass.
    for method in [
        Method::Scan,
        Method::LookbackBits,
        Method::Atomic,
        Method::PackedScan,
    ] {
        let error = refused(compactor, || prepare(VISIBLE, &bindings, method));
        assert!(
            matches!(error, Error::Unsupported { .. }),
            "{method}: {error:?}"
        );
    }
    // An output in a buffer the visibility function reads.
    let error = refused(compactor, || {
        compactor
            .prepare_with(
                &compactor
                    .culled(CullDesc::new(VISIBLE, &bindings), 5000)
                    .with_indices_to((&sphere_buffer, 0)),
            )
            .err()
    });
    assert!(matches!(error, Error::Aliased { .. }), "{error:?}");
    // After all that, the same function compiles and culls.
    let compaction = compactor
        .prepare_with(&compactor.culled(CullDesc::new(VISIBLE, &bindings), 5000))
        .expect("prepare");
    assert_eq!(
        run_on(compactor, &compaction, 5000).indices,
        cpu_visible(&list)
    );
}
