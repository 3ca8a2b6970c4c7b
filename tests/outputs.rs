//! What a GPU-driven renderer asks of a compaction besides its own buffers: the
//! indices and arguments in ranges of the renderer's buffers with an index base,
//! each visible object's payload copied alongside (`payload_matches_cpu`), and
//! per-mesh segments with one draw record each (`segment_args_matches_cpu`), all
//! checked against the CPU mirrors, with the bytes around every range untouched.

mod common;

use common::{compactor, random, read_words, run_on, upload_bytes};
use wgpu::util::DeviceExt;
use wgpu_compaction::teaching::cpu;
use wgpu_compaction::teaching::cpu::inputs::XorShift64;
use wgpu_compaction::{
    CompactionDesc, CompactionOutput, Compactor, DrawArgs, Error, IndexedIndirectArgs, Method,
    PayloadDesc, Segment, SegmentsDesc,
};

/// The order-keeping methods: the ones that take a payload and segments.
const ORDERED: [Method; 4] = [
    Method::Scan,
    Method::Lookback,
    Method::LookbackBits,
    Method::PackedScan,
];

/// Fills a new buffer of `words` u32 with a sentinel, so that what a compaction
/// must not touch can be checked.
const SENTINEL: u32 = 0xDEAD_BEEF;

fn buffer(words: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    compactor()
        .device()
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("tests:outputs"),
            contents: bytemuck::cast_slice(&vec![SENTINEL; words as usize]),
            usage: usage | wgpu::BufferUsages::COPY_SRC,
        })
}

fn upload(words: &[u32], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    upload_bytes(bytemuck::cast_slice(words), usage)
}

fn alignment() -> u64 {
    u64::from(
        compactor()
            .device()
            .limits()
            .min_storage_buffer_offset_alignment,
    )
}

/// `words` rounded up to whole storage-offset alignments, in bytes.
fn aligned_bytes(words: u64) -> u64 {
    (words.max(1) * 4).next_multiple_of(alignment())
}

/// Encodes every compaction (with `len` where given) in one encoder, reads them back.
fn run(compactions: &[(&wgpu_compaction::Compaction, Option<u64>)]) -> Vec<CompactionOutput> {
    let compactor = compactor();
    let device = compactor.device();
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut pending = Vec::new();
    for &(compaction, len) in compactions {
        match len {
            Some(len) => compactor.encode_len(&mut encoder, compaction, len),
            None => compactor.encode(&mut encoder, compaction),
        }
        .expect("encode");
        pending.push(compaction.read_output(device, &mut encoder).expect("read"));
    }
    compactor.queue().submit([encoder.finish()]);
    pending
        .into_iter()
        .map(|p| pollster::block_on(p.read(device)).expect("readback"))
        .collect()
}

/// The visible indices of `flags[..len]`, each plus `base`.
fn expected(flags: &[u32], len: usize, base: u32) -> Vec<u32> {
    (0..len as u32)
        .filter(|&i| flags[i as usize] != 0)
        .map(|i| i + base)
        .collect()
}

/// `got`'s indices as the method orders them: sorted for the ones whose order varies.
fn in_order(method: Method, mut got: Vec<u32>) -> Vec<u32> {
    if !method.preserves_order() {
        got.sort_unstable();
    }
    got
}

#[test]
fn two_views_share_the_renderers_instance_and_argument_buffers() {
    let compactor = compactor();
    let n = 10_000u64;
    let flags_a = random(n as usize, 0.3, 1);
    let flags_b = random(n as usize, 0.6, 2);
    let mut both = flags_a.clone();
    // The second view's flags at an aligned offset of the same buffer.
    let offset_b = aligned_bytes(n);
    both.resize((offset_b / 4) as usize, 0);
    both.extend(&flags_b);
    let storage = wgpu::BufferUsages::STORAGE;
    let flags = upload(&both, storage);
    let view_bytes = aligned_bytes(n);
    for method in Method::ALL {
        // One instance buffer and one argument buffer for both views, a gap of
        // sentinels before, between and after.
        let instances = buffer(
            (alignment() + 2 * view_bytes + alignment()) / 4,
            storage | wgpu::BufferUsages::VERTEX,
        );
        let args = buffer(
            4 * alignment() / 4,
            storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
        );
        let at_a = alignment();
        let at_b = alignment() + view_bytes;
        let draw = DrawArgs::Indexed(IndexedIndirectArgs {
            index_count: 6,
            first_index: 3,
            base_vertex: -2,
            first_instance: (at_b / 4) as u32,
            ..Default::default()
        });
        let a = compactor
            .prepare_with(
                &CompactionDesc::new(&flags, n, method)
                    .with_indices_to((&instances, at_a))
                    .with_indirect_to((&args, alignment()))
                    .with_index_base(0),
            )
            .expect("view a");
        let b = compactor
            .prepare_with(
                &CompactionDesc::new(&flags, n, method)
                    .with_flags_offset(offset_b)
                    .with_indices_to((&instances, at_b))
                    .with_indirect_to((&args, 2 * alignment()))
                    .with_index_base(1_000_000)
                    .with_draw(draw),
            )
            .expect("view b");
        assert_eq!((a.indices_offset(), b.indices_offset()), (at_a, at_b));
        let out = run(&[(&a, None), (&b, Some(n - 7))]);
        let want_a = expected(&flags_a, n as usize, 0);
        let want_b = expected(&flags_b, n as usize - 7, 1_000_000);
        assert_eq!(
            in_order(method, out[0].indices.clone()),
            want_a,
            "{method} a"
        );
        assert_eq!(
            in_order(method, out[1].indices.clone()),
            want_b,
            "{method} b"
        );
        assert_eq!(
            out[1].indirect,
            draw.with_count(want_b.len()),
            "{method} b's args"
        );
        // The renderer's buffers hold the same, and nothing outside the ranges changed.
        let words = read_words(compactor, &instances, instances.size() / 4);
        let at = |bytes: u64| (bytes / 4) as usize;
        assert!(
            words[..at(at_a)].iter().all(|&w| w == SENTINEL),
            "{method}: before a"
        );
        assert_eq!(
            &words[at(at_a)..at(at_a) + want_a.len()],
            &out[0].indices[..]
        );
        assert_eq!(
            &words[at(at_b)..at(at_b) + want_b.len()],
            &out[1].indices[..]
        );
        let end_b = at(at_b) + n as usize;
        assert!(
            words[end_b..].iter().all(|&w| w == SENTINEL),
            "{method}: after b"
        );
        let args_words = read_words(compactor, &args, args.size() / 4);
        assert!(args_words[..at(alignment())].iter().all(|&w| w == SENTINEL));
        assert_eq!(args_words[at(2 * alignment()) + 1] as usize, want_b.len());
        assert_eq!(args_words[at(2 * alignment()) + 4], (at_b / 4) as u32);
        assert!(args_words[at(2 * alignment()) + 5..at(3 * alignment())]
            .iter()
            .all(|&w| w == SENTINEL));
        // Destroying a compaction leaves the renderer's buffers usable.
        a.destroy();
        b.destroy();
        let again = read_words(compactor, &instances, 1);
        assert_eq!(again, [SENTINEL]);
    }
}

trait WithCount {
    fn with_count(self, count: usize) -> Self;
}

impl WithCount for DrawArgs {
    fn with_count(self, count: usize) -> Self {
        match self {
            DrawArgs::Indexed(args) => DrawArgs::Indexed(IndexedIndirectArgs {
                instance_count: count as u32,
                ..args
            }),
            DrawArgs::NonIndexed(args) => DrawArgs::NonIndexed(wgpu_compaction::IndirectArgs {
                instance_count: count as u32,
                ..args
            }),
        }
    }
}

/// Seeded payload words, `words` per object.
fn payload_source(objects: usize, words: u32, seed: u64) -> Vec<u32> {
    let mut rng = XorShift64::new(seed);
    (0..objects * words as usize)
        .map(|_| rng.next_u64() as u32)
        .collect()
}

#[test]
fn payload_matches_cpu() {
    let compactor = compactor();
    let paired = Compactor::with_options(
        compactor.device(),
        compactor.queue(),
        wgpu_compaction::teaching::LookbackOptions {
            paired_from_tiles: 2,
            ..Default::default()
        },
    );
    let storage = wgpu::BufferUsages::STORAGE;
    let sizes = [0usize, 1, 4095, 4097, 3 * 4096 + 5, 100_000];
    for (k, &n) in sizes.iter().enumerate() {
        let flags = random(n, [0.5, 0.01, 1.0][k % 3], 40 + k as u64);
        let flags_buffer = upload(&flags, storage);
        // 39 words: a bevy-sized instance record; 64: the most.
        for words in [1u32, 3, 4, 16, 39, 64] {
            let source = payload_source(n, words, 7 + u64::from(words));
            let source_buffer = upload(&source, storage);
            for method in ORDERED {
                for (who, c) in [("", compactor), (" paired", &paired)] {
                    if who == " paired" && method != Method::Lookback {
                        continue;
                    }
                    // Into the compaction's own buffer, and into a range of the renderer's.
                    let mine = buffer(
                        (alignment() + aligned_bytes(n as u64 * u64::from(words))) / 4,
                        storage,
                    );
                    for to in [None, Some((&mine, alignment()))] {
                        let compaction = c
                            .prepare_with(
                                &CompactionDesc::new(&flags_buffer, n as u64, method)
                                    .with_index_base(5)
                                    .with_payload({
                                        let mut d = PayloadDesc::new((&source_buffer, 0), words);
                                        d.to = to;
                                        d
                                    }),
                            )
                            .unwrap_or_else(|e| panic!("{method}{who} {words} words: {e}"));
                        let live = (n as u64).saturating_sub(3);
                        let out = run_on(c, &compaction, live);
                        let want = expected(&flags, live as usize, 5);
                        let case = format!(
                            "{method}{who}, n {n}, {words} words, to {:?}",
                            to.map(|t| t.1)
                        );
                        assert_eq!(out.indices, want, "{case}");
                        assert_eq!(
                            out.payload,
                            cpu::payload(&want, 5, &source, words),
                            "{case}"
                        );
                    }
                }
            }
        }
    }
}

/// Seeded segments over `objects`: starts that never decrease, some empty, some
/// past the end; meshes with their own index ranges.
fn segments(objects: u32, count: usize, seed: u64) -> Vec<Segment> {
    let mut rng = XorShift64::new(seed);
    let mut starts: Vec<u32> = (0..count)
        .map(|_| (rng.next_u64() % u64::from(objects + objects / 8 + 1)) as u32)
        .collect();
    starts.sort_unstable();
    if let Some(first) = starts.first_mut() {
        *first = 0;
    }
    starts
        .iter()
        .enumerate()
        .map(|(m, &first_object)| Segment {
            first_object,
            index_count: 3 * (m as u32 % 5 + 1),
            first_index: 100 * m as u32,
            base_vertex: m as i32 * 7 - 20,
        })
        .collect()
}

/// A compactor whose `lookback` pairs tiles and whose `lookback-bits` takes two
/// tiles a state from the first tile: their group slots too.
fn paired_and_wide(compactor: &Compactor) -> Compactor {
    Compactor::with_options(
        compactor.device(),
        compactor.queue(),
        wgpu_compaction::teaching::LookbackOptions {
            paired_from_tiles: 1,
            wide_bits_from_tiles: 1,
            ..Default::default()
        },
    )
}

#[test]
fn segment_args_matches_cpu() {
    let compactor = compactor();
    let wide = paired_and_wide(compactor);
    let storage = wgpu::BufferUsages::STORAGE;
    let cases = [
        (0usize, 3usize),
        (1, 1),
        (5000, 1),
        (5000, 64),
        (5000, 65),
        (100_000, 100),
        (100_000, 1000),
        // Past one round of `pack_records` (4096 meshes).
        (100_000, 9000),
    ];
    for (k, &(n, count)) in cases.iter().enumerate() {
        let flags = random(n, [0.5, 0.02, 1.0, 0.0][k % 4], 90 + k as u64);
        let flags_buffer = upload(&flags, storage);
        let list = segments(n as u32, count, 5 + k as u64);
        let segment_buffer = upload(bytemuck::cast_slice(&list), storage);
        let draws = [
            DrawArgs::Indexed(IndexedIndirectArgs {
                first_instance: 64,
                ..Default::default()
            }),
            DrawArgs::vertices(3),
        ];
        for method in ORDERED {
            let wide_too = matches!(method, Method::Lookback | Method::LookbackBits);
            for (who, c) in [("", compactor), (" wide", &wide)] {
                if who == " wide" && !wide_too {
                    continue;
                }
                for draw in draws {
                    let mine = buffer(
                        (alignment() + aligned_bytes(draw_words(draw) * count as u64 + 1)) / 4,
                        storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                    );
                    // Nothing clears the renderer's records or draw count before the pass.
                    c.queue()
                        .write_buffer(&mine, 0, &vec![0xA5u8; mine.size() as usize]);
                    // Packed records with the renderer's buffer, plain ones with both.
                    let outputs = [
                        (None, false),
                        (Some((&mine, alignment())), false),
                        (Some((&mine, alignment())), true),
                    ];
                    for (args_to, packed) in outputs {
                        let compaction = c
                            .prepare_with(
                                &CompactionDesc::new(&flags_buffer, n as u64, method)
                                    .with_index_base(11)
                                    .with_draw(draw)
                                    .with_segments({
                                        let mut d =
                                            SegmentsDesc::new((&segment_buffer, 0), count as u32)
                                                .with_packed(packed);
                                        d.args_to = args_to;
                                        d
                                    }),
                            )
                            .unwrap_or_else(|e| panic!("{method}{who}: {e}"));
                        assert_eq!(compaction.segment_count(), count as u32);
                        assert_eq!(compaction.record_meshes().is_some(), packed);
                        for live in [n as u64, (n as u64) / 2] {
                            let out = run_on(c, &compaction, live);
                            let want_indices = expected(&flags, live as usize, 11);
                            let (records, draw_count) =
                                cpu::segment_args(&want_indices, 11, live as u32, &list, draw);
                            let case = format!(
                                "{method}{who}, n {n}, {count} segments, live {live}, {draw:?}, \
                                 to {}, packed {packed}",
                                args_to.is_some()
                            );
                            assert_eq!(out.indices, want_indices, "{case}");
                            // The records cover exactly the visible objects, in order, mesh by mesh.
                            let drawn: u32 = records.iter().map(DrawArgs::instance_count).sum();
                            assert_eq!(drawn as usize, want_indices.len(), "{case}");
                            if packed {
                                let (kept, meshes, kept_count) = cpu::pack_records(&records);
                                assert_eq!(out.segment_args, kept, "{case}");
                                assert_eq!(out.record_meshes, meshes, "{case}");
                                assert_eq!(out.draw_count, kept_count, "{case}");
                                let empty = records.iter().filter(|r| r.instance_count() == 0);
                                assert_eq!(kept_count as usize, count - empty.count(), "{case}");
                            } else {
                                assert_eq!(out.segment_args, records, "{case}");
                                assert_eq!(out.draw_count, draw_count, "{case}");
                                assert!(out.record_meshes.is_empty(), "{case}");
                            }
                        }
                    }
                }
            }
        }
    }
}

fn draw_words(draw: DrawArgs) -> u64 {
    draw.bytes().len() as u64 / 4
}

#[test]
fn what_the_order_does_not_keep_takes_no_payload_and_no_segments() {
    let compactor = compactor();
    let storage = wgpu::BufferUsages::STORAGE;
    let flags = upload(&[1; 64], storage);
    let source = upload(&[0; 64 * 16], storage);
    let list = upload(bytemuck::cast_slice(&segments(64, 4, 1)), storage);
    for method in [Method::Atomic, Method::Aggregated, Method::TileAtomic] {
        let payload = compactor.prepare_with(
            &CompactionDesc::new(&flags, 64, method)
                .with_payload(PayloadDesc::new((&source, 0), 4)),
        );
        assert!(
            matches!(payload, Err(Error::Unsupported { .. })),
            "{method}: {:?}",
            payload.err()
        );
        let segmented = compactor.prepare_with(
            &CompactionDesc::new(&flags, 64, method)
                .with_segments(SegmentsDesc::new((&list, 0), 4).with_packed(false)),
        );
        assert!(
            matches!(segmented, Err(Error::Unsupported { .. })),
            "{method}: {:?}",
            segmented.err()
        );
        assert!(!method.takes_payload());
    }
    for method in ORDERED {
        assert!(method.takes_payload() && method.preserves_order());
        for words in [0, 65] {
            let payload = compactor.prepare_with(
                &CompactionDesc::new(&flags, 64, method)
                    .with_payload(PayloadDesc::new((&source, 0), words)),
            );
            assert!(
                matches!(payload, Err(Error::PayloadWords { max: 64, .. })),
                "{method} {words}: {:?}",
                payload.err()
            );
        }
        // No segments: no records, a draw count of 0.
        let none = compactor
            .prepare_with(
                &CompactionDesc::new(&flags, 64, method)
                    .with_segments(SegmentsDesc::new((&list, 0), 0).with_packed(false)),
            )
            .expect("no segments");
        let out = run_on(compactor, &none, 64);
        assert!(out.segment_args.is_empty());
        assert_eq!(out.draw_count, 0);
    }
}

/// Outputs sized for `max_visible`: the first that many visible objects in order,
/// their payloads and per-mesh records, the count and `instance_count` what was
/// written, the rest counted in `dropped`; nothing written past the room, in the
/// compaction's own buffers or in a renderer's range sized for exactly that.
#[test]
fn max_visible_keeps_the_first_in_order_and_counts_the_rest() {
    let compactor = compactor();
    let wide = paired_and_wide(compactor);
    let storage = wgpu::BufferUsages::STORAGE;
    let n = 3 * 4096 + 5;
    let flags = random(n, 0.5, 77);
    let visible = expected(&flags, n, 0).len() as u64;
    let flags_buffer = upload(&flags, storage);
    let words = 4u32;
    let source = payload_source(n, words, 78);
    let source_buffer = upload(&source, storage);
    let list = segments(n as u32, 40, 79);
    let segment_buffer = upload(bytemuck::cast_slice(&list), storage);
    let draw = DrawArgs::indexed(6);
    for max in [
        1,
        100,
        visible / 2,
        visible - 1,
        visible,
        visible + 1,
        n as u64,
    ] {
        for method in [Method::Lookback, Method::LookbackBits] {
            for (who, c) in [("", compactor), (" wide", &wide)] {
                // A renderer's range with room for exactly `max`, sentinels after it.
                let mine = buffer(
                    (alignment() + aligned_bytes(max) + alignment()) / 4,
                    storage,
                );
                for indices_to in [None, Some((&mine, alignment()))] {
                    let compaction = c
                        .prepare_with(&{
                            let mut d = CompactionDesc::new(&flags_buffer, n as u64, method)
                                .with_index_base(3)
                                .with_draw(draw)
                                .with_max_visible(max)
                                .with_payload(PayloadDesc::new((&source_buffer, 0), words))
                                .with_segments(
                                    SegmentsDesc::new((&segment_buffer, 0), list.len() as u32)
                                        .with_packed(false),
                                );
                            d.indices_to = indices_to;
                            d
                        })
                        .unwrap_or_else(|e| panic!("{method}{who} max {max}: {e}"));
                    assert_eq!(compaction.max_visible(), max);
                    for live in [n as u64, n as u64 / 2] {
                        let case = format!(
                            "{method}{who}, max {max}, live {live}, to {}",
                            indices_to.is_some()
                        );
                        let out = run_on(c, &compaction, live);
                        let all = expected(&flags, live as usize, 3);
                        let kept = all.len().min(max as usize);
                        let want = &all[..kept];
                        assert_eq!(out.indices, want, "{case}");
                        assert_eq!(out.count as usize, kept, "{case}");
                        assert_eq!(out.indirect.instance_count() as usize, kept, "{case}");
                        assert_eq!(out.dropped as usize, all.len() - kept, "{case}");
                        assert_eq!(out.payload, cpu::payload(want, 3, &source, words), "{case}");
                        let (records, draw_count) =
                            cpu::segment_args(want, 3, live as u32, &list, draw);
                        assert_eq!(out.segment_args, records, "{case}");
                        assert_eq!(out.draw_count, draw_count, "{case}");
                    }
                    if indices_to.is_some() {
                        // Nothing past the range: the sentinels after `max` words stand.
                        let words_after = read_words(c, &mine, mine.size() / 4);
                        let end = (alignment() / 4 + max) as usize;
                        assert!(
                            words_after[end..].iter().all(|&w| w == SENTINEL),
                            "{method}{who} max {max}: written past the room"
                        );
                    }
                }
            }
        }
    }
    // What it refuses: none, more than the capacity, a method that does not stop.
    let desc =
        |method, max| CompactionDesc::new(&flags_buffer, n as u64, method).with_max_visible(max);
    for max in [0, n as u64 + 1] {
        let refused = compactor.prepare_with(&desc(Method::Lookback, max)).err();
        assert!(
            matches!(refused, Some(Error::MaxVisible { max_visible, capacity, .. })
                if max_visible == max && capacity == n as u64),
            "{refused:?}"
        );
    }
    for method in [
        Method::Scan,
        Method::PackedScan,
        Method::Atomic,
        Method::TileAtomic,
    ] {
        assert!(matches!(
            compactor.prepare_with(&desc(method, 10)).err(),
            Some(Error::Unsupported { .. })
        ));
    }
}

/// `check_segments` reads the segments back and says which one the GPU would get
/// wrong; out of order, the records still stay within the indices written.
#[test]
fn check_segments_finds_what_the_gpu_assumes_and_records_stay_in_range() {
    let compactor = compactor();
    let storage = wgpu::BufferUsages::STORAGE;
    let n = 10_000u32;
    let flags = random(n as usize, 0.5, 5);
    let flags_buffer = upload(&flags, storage);
    let visible = expected(&flags, n as usize, 0).len() as u32;
    let mesh = |first_object| Segment {
        first_object,
        index_count: 3,
        first_index: 0,
        base_vertex: 0,
    };
    // What check_segments says: (out of order or past the objects, segment, first_object, previous or objects).
    type Said = Option<(bool, u32, u32, u64)>;
    let cases: [(&[u32], Said); 4] = [
        (&[0, 10, 10, 5000, 10_000], None),
        (&[0, 300, 200, 900], Some((true, 2, 200, 300))),
        (&[0, 10_001], Some((false, 1, 10_001, 10_000))),
        (&[9000, 100, 5000, 20], Some((true, 1, 100, 9000))),
    ];
    let said = |e: Option<Error>| match e {
        None => None,
        Some(Error::SegmentsOutOfOrder {
            segment,
            first_object,
            previous,
            ..
        }) => Some((true, segment, first_object, u64::from(previous))),
        Some(Error::SegmentPastObjects {
            segment,
            first_object,
            objects,
            ..
        }) => Some((false, segment, first_object, objects)),
        Some(other) => panic!("{other}"),
    };
    for (starts, want) in cases {
        let list: Vec<Segment> = starts.iter().map(|&s| mesh(s)).collect();
        let segments = upload(bytemuck::cast_slice(&list), storage);
        for method in [Method::Lookback, Method::Scan] {
            let compaction = compactor
                .prepare_with(
                    &CompactionDesc::new(&flags_buffer, u64::from(n), method)
                        .with_draw(DrawArgs::indexed(3))
                        .with_segments(
                            SegmentsDesc::new((&segments, 0), list.len() as u32).with_packed(false),
                        ),
                )
                .expect("prepare");
            let checked = pollster::block_on(compactor.check_segments(&compaction));
            assert_eq!(said(checked.err()), want, "{method} {starts:?}");
            // In order or not, every record draws slots that were written.
            let out = run_on(compactor, &compaction, u64::from(n));
            for record in &out.segment_args {
                let DrawArgs::Indexed(args) = record else {
                    panic!("indexed records")
                };
                assert!(
                    args.first_instance + args.instance_count <= visible,
                    "{method} {starts:?}: {args:?}"
                );
            }
        }
    }
    // The segments' buffer must be readable.
    let list = [mesh(0)];
    let unreadable = compactor
        .device()
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(&list),
            usage: storage,
        });
    let compaction = compactor
        .prepare_with(
            &CompactionDesc::new(&flags_buffer, u64::from(n), Method::Lookback)
                .with_segments(SegmentsDesc::new((&unreadable, 0), 1).with_packed(false)),
        )
        .expect("prepare");
    let refused = pollster::block_on(compactor.check_segments(&compaction)).err();
    assert!(
        matches!(refused, Some(Error::BufferUsage { buffer: "segments", missing, .. })
            if missing == wgpu::BufferUsages::COPY_SRC),
        "{refused:?}"
    );
}
