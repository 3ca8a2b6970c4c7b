//! What a renderer relies on past `prepare`'s checks (issue 50): a visibility
//! function that would write is refused on its line, `check_segments` of a
//! destroyed buffer is an `Err` with wgpu's default handler installed,
//! `warm_up_for` compiles what `prepare` would and no more is compiled after
//! it, and outputs grow from the dropped count read back without a stall.
//! Every misuse row runs in error scopes that must stay empty.

mod common;

use wgpu_compaction::{
    CompactionDesc, CullDesc, DrawArgs, DroppedReadback, Error, Method, PayloadDesc, Segment,
    SegmentsDesc,
};

/// `f()`, asserting that nothing reached wgpu's error handler (the device's is the default: a panic).
fn no_gpu_error<T>(device: &wgpu::Device, f: impl FnOnce() -> T) -> T {
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let out = f();
    assert!(
        pollster::block_on(validation.pop()).is_none(),
        "a validation error reached wgpu"
    );
    assert!(
        pollster::block_on(oom.pop()).is_none(),
        "an out-of-memory error reached wgpu"
    );
    out
}

/// `bytes` in a new buffer of `device` (the tests that make their own compactor: not the shared one's).
fn init(device: &wgpu::Device, bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("tests:upgrade"),
        contents: bytes,
        usage,
    })
}

fn storage(device: &wgpu::Device, bytes: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tests:upgrade"),
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE | usage,
        mapped_at_creation: false,
    })
}

/// Visibility functions that write, each with the line `prepare` must name.
const WRITERS: [(&str, u32, &str); 5] = [
    (
        "@group(1) @binding(0) var<storage, read_write> cull_seen : array<u32>;
fn visible(object : u32) -> bool {
  cull_seen[object] = 1u;
  return true;
}",
        3,
        "`cull_seen`",
    ),
    (
        "var<workgroup> cull_shared : array<u32, 64>;
fn visible(object : u32) -> bool {
  return cull_shared[object % 64u] == 0u;
}",
        3,
        "`cull_shared`",
    ),
    (
        "@group(1) @binding(0) var<storage, read_write> cull_count : atomic<u32>;
fn visible(object : u32) -> bool {
  return atomicAdd(&cull_count, 1u) < 100u;
}",
        3,
        "`cull_count`",
    ),
    (
        // A helper's store, two calls down.
        "@group(1) @binding(0) var<storage, read_write> cull_log : array<u32>;
fn cull_note(i : u32) {
  cull_log[i] = i;
}
fn cull_test(i : u32) -> bool {
  cull_note(i);
  return (i & 1u) == 0u;
}
fn visible(object : u32) -> bool {
  return cull_test(object);
}",
        3,
        "`cull_log`",
    ),
    (
        "@group(1) @binding(0) var cull_out : texture_storage_2d<r32uint, write>;
fn visible(object : u32) -> bool {
  textureStore(cull_out, vec2<i32>(0, 0), vec4<u32>(object));
  return true;
}",
        3,
        "`cull_out`",
    ),
];

/// What a visibility function may do: read storage and uniforms, keep private and local state.
const READER: &str = "@group(1) @binding(0) var<storage, read> cull_radii : array<f32>;
var<private> cull_calls : u32;
fn cull_far(r : f32) -> bool {
  var scratch = r * 2.0;
  scratch = scratch + 1.0;
  return scratch > 2.0;
}
fn visible(object : u32) -> bool {
  cull_calls = cull_calls + 1u;
  return cull_far(cull_radii[object]);
}";

#[test]
fn a_visibility_function_that_writes_is_refused_on_its_line() {
    let compactor = common::compactor();
    let device = compactor.device();
    for (wgsl, line, what) in WRITERS {
        let got = no_gpu_error(device, || {
            compactor.prepare_with(&compactor.culled(CullDesc::new(wgsl, &[]), 256))
        });
        match got {
            Err(Error::CullWrites {
                line: l, what: w, ..
            }) => {
                assert_eq!((l, w.as_str()), (line, what), "{wgsl}");
            }
            other => panic!("{wgsl}\nwas {:?}", other.err()),
        }
        let message = compactor
            .prepare_with(&compactor.culled(CullDesc::new(wgsl, &[]), 256))
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            message.contains(&format!("line {line}")) && message.contains("must write nothing"),
            "{message}"
        );
    }
    // One that only reads prepares, and culls.
    let radii: Vec<f32> = (0..256)
        .map(|i| if i % 3 == 0 { 1.0 } else { 0.25 })
        .collect();
    let radii_buffer =
        common::upload_bytes(bytemuck::cast_slice(&radii), wgpu::BufferUsages::STORAGE);
    let bindings = [wgpu::BindGroupEntry {
        binding: 0,
        resource: radii_buffer.as_entire_binding(),
    }];
    let compaction = no_gpu_error(device, || {
        compactor.prepare_with(&compactor.culled(CullDesc::new(READER, &bindings), 256))
    })
    .expect("a reading visibility function prepares");
    let out = pollster::block_on(compactor.run_compaction(&compaction)).expect("run");
    assert_eq!(out.indices, (0..256).step_by(3).collect::<Vec<u32>>());
}

#[test]
fn check_segments_of_a_destroyed_buffer_is_an_error_not_the_handlers_panic() {
    let compactor = common::compactor();
    let device = compactor.device();
    let flags = common::upload_bytes(
        bytemuck::cast_slice(&common::random(1000, 0.5, 3)),
        wgpu::BufferUsages::STORAGE,
    );
    let list = [Segment {
        first_object: 0,
        index_count: 3,
        first_index: 0,
        base_vertex: 0,
    }];
    let segments = common::upload_bytes(
        bytemuck::cast_slice(&list),
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    );
    let compaction = compactor
        .prepare_with(
            &CompactionDesc::new(&flags, 1000, Method::Lookback)
                .with_draw(DrawArgs::indexed(3))
                .with_segments(SegmentsDesc::new((&segments, 0), 1)),
        )
        .expect("prepare");
    assert_eq!(
        pollster::block_on(compactor.check_segments(&compaction)),
        Ok(())
    );
    segments.destroy();
    let got = no_gpu_error(device, || {
        pollster::block_on(compactor.check_segments(&compaction))
    });
    assert!(matches!(got, Err(Error::Gpu(_))), "{got:?}");
}

#[test]
fn warm_up_for_compiles_what_prepare_would_and_a_later_prepare_compiles_nothing() {
    let (_, device, queue) = common::open_device(None);
    let compactor = wgpu_compaction::Compactor::new(&device, &queue);
    let n = 100_000u64;
    let flags = storage(&device, n * 4, wgpu::BufferUsages::COPY_DST);
    let source = storage(&device, n * 64, wgpu::BufferUsages::empty());
    let list: Vec<Segment> = (0..4)
        .map(|m| Segment {
            first_object: m * 25_000,
            index_count: 36,
            first_index: 0,
            base_vertex: 0,
        })
        .collect();
    let segments = init(
        &device,
        bytemuck::cast_slice(&list),
        wgpu::BufferUsages::STORAGE,
    );
    let descs = [
        CompactionDesc::new(&flags, n, Method::Lookback),
        CompactionDesc::new(&flags, n, Method::Lookback)
            .with_payload(PayloadDesc::new((&source, 0), 16)),
        CompactionDesc::new(&flags, n, Method::Lookback)
            .with_draw(DrawArgs::indexed(0))
            .with_segments(SegmentsDesc::new((&segments, 0), 4).with_packed(true)),
        compactor.culled(
            CullDesc::new(wgpu_compaction::teaching::frustum::VISIBLE_EARLY_EXIT, &[]),
            n,
        ),
    ];
    let before = compactor.compiled_pipelines();
    // (The culled one binds nothing here: its bindings are not what compiles.)
    let warmed = compactor.warm_up_for(&descs[..3]);
    assert_eq!(warmed, Ok(()));
    let after = compactor.compiled_pipelines();
    assert!(after > before, "{before} then {after}");
    for desc in &descs[..3] {
        let compaction = compactor.prepare_with(desc).expect("prepare");
        assert_eq!(
            compactor.compiled_pipelines(),
            after,
            "a prepare after warm_up_for compiled a pipeline"
        );
        compaction.destroy();
    }
    // A variant it was not given compiles at its own first prepare.
    let payload4 = CompactionDesc::new(&flags, n, Method::Lookback)
        .with_payload(PayloadDesc::new((&source, 0), 4));
    compactor
        .prepare_with(&payload4)
        .expect("prepare")
        .destroy();
    assert!(compactor.compiled_pipelines() > after);
}

/// The first prepare of each variant, cold and after `warm_up_for`: what LIBRARY.md quotes (`--nocapture`).
#[test]
fn first_prepare_costs() {
    let (adapter, device, queue) = common::open_device(None);
    let n = 1u64 << 20;
    let flags = storage(&device, n * 4, wgpu::BufferUsages::COPY_DST);
    let source = storage(&device, n * 64, wgpu::BufferUsages::empty());
    let list: Vec<Segment> = (0..64)
        .map(|m| Segment {
            first_object: m * (n as u32 / 64),
            index_count: 36,
            first_index: 0,
            base_vertex: 0,
        })
        .collect();
    let segments = init(
        &device,
        bytemuck::cast_slice(&list),
        wgpu::BufferUsages::STORAGE,
    );
    let spheres = storage(&device, n * 16, wgpu::BufferUsages::empty());
    let planes = init(
        &device,
        bytemuck::cast_slice(&wgpu_compaction::teaching::frustum::BOX_PLANES),
        wgpu::BufferUsages::UNIFORM,
    );
    let bindings = wgpu_compaction::teaching::frustum::bindings(&spheres, &planes);
    let names = [
        "lookback",
        "payload 4 words",
        "payload 16 words",
        "segments",
        "packed segments",
        "culled (frustum)",
    ];
    // Each variant's description on a compactor `c`.
    macro_rules! variant {
        ($k:expr, $c:expr) => {
            match $k {
                0 => CompactionDesc::new(&flags, n, Method::Lookback),
                1 => CompactionDesc::new(&flags, n, Method::Lookback)
                    .with_payload(PayloadDesc::new((&source, 0), 4)),
                2 => CompactionDesc::new(&flags, n, Method::Lookback)
                    .with_payload(PayloadDesc::new((&source, 0), 16)),
                3 => CompactionDesc::new(&flags, n, Method::Lookback)
                    .with_draw(DrawArgs::indexed(0))
                    .with_segments(SegmentsDesc::new((&segments, 0), 64)),
                4 => CompactionDesc::new(&flags, n, Method::Lookback)
                    .with_draw(DrawArgs::indexed(0))
                    .with_segments(SegmentsDesc::new((&segments, 0), 64).with_packed(true)),
                _ => $c.culled(
                    CullDesc::new(wgpu_compaction::teaching::frustum::VISIBLE, &bindings),
                    n,
                ),
            }
        };
    }
    eprintln!(
        "first prepare of each variant at 2^20 objects, on {:?}:",
        adapter.get_info().name
    );
    for (k, name) in names.iter().enumerate() {
        let cold = wgpu_compaction::Compactor::new(&device, &queue);
        cold.warm_up(&[Method::Lookback]);
        let t = std::time::Instant::now();
        cold.prepare_with(&variant!(k, cold))
            .expect("cold prepare")
            .destroy();
        let first = t.elapsed();
        let warm = wgpu_compaction::Compactor::new(&device, &queue);
        warm.warm_up_for(&[variant!(k, warm)]).expect("warm_up_for");
        let t = std::time::Instant::now();
        warm.prepare_with(&variant!(k, warm))
            .expect("warm prepare")
            .destroy();
        let after = t.elapsed();
        eprintln!(
            "  {name:<18} {:>7.1} ms first (after warm_up of the method), {:>6.1} ms after warm_up_for",
            first.as_secs_f64() * 1e3,
            after.as_secs_f64() * 1e3
        );
        assert!(
            after < first,
            "{name}: {after:?} after warm_up_for, {first:?} cold"
        );
    }
}

#[test]
fn outputs_grow_from_the_dropped_count_read_back_frames_later() {
    let (_, device, queue) = common::open_device(None);
    let compactor = wgpu_compaction::Compactor::new(&device, &queue);
    let n = 50_000u64;
    let flags = storage(&device, n * 4, wgpu::BufferUsages::COPY_DST);
    let desc = CompactionDesc::new(&flags, n, Method::Lookback).with_max_visible(1_000);
    let mut compaction = compactor.prepare_with(&desc).expect("prepare");
    let mut readback = DroppedReadback::new(&compactor);
    let mut grown = Vec::new();
    let mut dropped_seen = Vec::new();
    // Frames where more and more objects are visible: 500, then 5 000, then 20 000.
    for frame in 0..30u32 {
        let visible = match frame {
            0..=4 => 500u32,
            5..=14 => 5_000,
            _ => 20_000,
        };
        let words: Vec<u32> = (0..n as u32).map(|i| u32::from(i < visible)).collect();
        queue.write_buffer(&flags, 0, bytemuck::cast_slice(&words));
        let mut encoder = device.create_command_encoder(&Default::default());
        compactor.encode(&mut encoder, &compaction).expect("encode");
        readback.record(&compaction, &mut encoder);
        queue.submit([encoder.finish()]);
        readback.submitted();
        // What a renderer's event loop does: poll without waiting.
        let _ = device.poll(wgpu::PollType::Poll);
        if let Some(seen) = readback.latest().expect("readback") {
            dropped_seen.push(seen.dropped);
            if let Some(bigger) = compactor
                .grow(&compaction, &desc, seen.visible)
                .expect("grow")
            {
                grown.push((frame, bigger.max_visible()));
                compaction = bigger;
            }
        }
    }
    // (On a loaded machine: what has not come back yet, waited for, as a later frame would see it.)
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    if let Some(seen) = readback.latest().expect("readback") {
        dropped_seen.push(seen.dropped);
        if let Some(bigger) = compactor
            .grow(&compaction, &desc, seen.visible)
            .expect("grow")
        {
            grown.push((30, bigger.max_visible()));
            compaction = bigger;
        }
    }
    // The last frames draw all 20 000: nothing dropped once it has grown.
    let out = pollster::block_on(compactor.run_compaction(&compaction)).expect("run");
    assert_eq!(
        (out.count, out.dropped),
        (20_000, 0),
        "grown {grown:?}, dropped seen {dropped_seen:?}"
    );
    assert!(
        compaction.max_visible() >= 20_000 && compaction.max_visible() <= 32_768,
        "{}",
        compaction.max_visible()
    );
    assert!(!grown.is_empty() && grown.len() <= 3, "grown {grown:?}");
    assert!(dropped_seen.iter().any(|&d| d > 0), "{dropped_seen:?}");
    // Nothing dropped: no new compaction; at the capacity: none either.
    assert!(compactor
        .grow(&compaction, &desc, 0)
        .expect("grow")
        .is_none());
    let full = compactor
        .prepare_with(&desc.clone().with_max_visible(n))
        .expect("prepare");
    assert!(compactor.grow(&full, &desc, 10).expect("grow").is_none());
}
