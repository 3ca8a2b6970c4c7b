//! Every misuse a renderer can make of `prepare` and `encode_len*` is a typed
//! error from the library, never a panic: each call runs inside the device's
//! validation and out-of-memory error scopes, which must stay empty (nothing
//! reached wgpu). Devices below a method's limits are refused up front.

mod common;

use wgpu_compaction::{
    CompactionDesc, Compactor, DrawArgs, Error, IndexedIndirectArgs, Input, Method, PayloadDesc,
    SegmentsDesc, LENGTH_SLOTS,
};

/// `f()`, asserting that it raised no GPU error.
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

fn buffer(device: &wgpu::Device, size: u64, usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tests:misuse"),
        size,
        usage,
        mapped_at_creation: false,
    })
}

#[test]
fn every_misuse_of_prepare_is_its_error() {
    let compactor = common::compactor();
    let device = compactor.device();
    let storage = wgpu::BufferUsages::STORAGE;
    let flags = buffer(device, 4096, storage | wgpu::BufferUsages::COPY_DST);
    let not_storage = buffer(device, 4096, wgpu::BufferUsages::COPY_DST);
    let target_no_dst = buffer(device, 64, wgpu::BufferUsages::INDIRECT);
    let small_target = buffer(device, 4, wgpu::BufferUsages::COPY_DST);
    for method in Method::ALL {
        let desc = CompactionDesc::new(&flags, 1000, method);
        let check = |desc: CompactionDesc, want: &dyn Fn(&Error) -> bool, what: &str| {
            let got = no_gpu_error(device, || compactor.prepare_with(&desc));
            match got {
                Err(e) if want(&e) => assert!(!e.to_string().is_empty()),
                Err(e) => panic!("{method} {what}: {e:?}"),
                Ok(_) => panic!("{method} {what}: prepared"),
            }
        };
        check(
            {
                let mut d = desc.clone();
                d.flags = &not_storage;
                d
            },
            &|e| matches!(e, Error::BufferUsage { buffer: "flags", missing, .. } if *missing == storage),
            "flags without STORAGE",
        );
        check(
            desc.clone().with_capacity(1025),
            &|e| {
                matches!(
                    e,
                    Error::BufferTooSmall {
                        buffer: "flags",
                        size: 4096,
                        offset: 0,
                        needed: 4100,
                        ..
                    }
                )
            },
            "flags smaller than 4·len",
        );
        check(
            desc.clone().with_flags_offset(4).with_capacity(10),
            &|e| {
                matches!(
                    e,
                    Error::Misaligned {
                        what: "flags offset",
                        offset: 4,
                        ..
                    }
                )
            },
            "an unaligned flags offset",
        );
        check(
            desc.clone().with_instance_count_to((&target_no_dst, 4)),
            &|e| {
                matches!(
                    e,
                    Error::BufferUsage {
                        buffer: "instance count target",
                        ..
                    }
                )
            },
            "a target without COPY_DST",
        );
        check(
            desc.clone().with_instance_count_to((&small_target, 2)),
            &|e| {
                matches!(
                    e,
                    Error::Misaligned {
                        what: "instance count offset",
                        ..
                    }
                )
            },
            "an unaligned target offset",
        );
        check(
            desc.clone().with_instance_count_to((&small_target, 4)),
            &|e| {
                matches!(
                    e,
                    Error::BufferTooSmall {
                        buffer: "instance count target",
                        ..
                    }
                )
            },
            "a target too small",
        );
        check(
            desc.clone()
                .with_capacity(compactor.max_flags_for(method) + 1),
            &|e| matches!(e, Error::TooLarge { .. }),
            "more flags than a binding holds",
        );
        if !method.reads_bits() {
            check(
                desc.clone().with_input(Input::Bits),
                &|e| matches!(e, Error::Unsupported { .. }),
                "bit input",
            );
        }
    }
}

/// What an error must be.
type Want = dyn Fn(&Error) -> bool;

/// `desc` prepared inside empty error scopes: the error it must be, named by `what`.
fn refused(
    compactor: &Compactor,
    desc: &CompactionDesc,
    want: &dyn Fn(&Error) -> bool,
    what: &str,
) {
    let got = no_gpu_error(compactor.device(), || compactor.prepare_with(desc));
    match got {
        Err(e) if want(&e) => assert!(!e.to_string().is_empty()),
        Err(e) => panic!("{} {what}: {e:?}", desc.method),
        Ok(_) => panic!("{} {what}: prepared", desc.method),
    }
}

#[test]
fn every_misuse_of_the_renderers_outputs_payload_and_segments_is_its_error() {
    use wgpu::BufferUsages as U;
    let compactor = common::compactor();
    let device = compactor.device();
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let flags = buffer(device, 4096, U::STORAGE | U::COPY_DST);
    let storage = buffer(device, 8192, U::STORAGE);
    let not_storage = buffer(device, 8192, U::COPY_DST | U::INDIRECT);
    let args = buffer(device, 8192, U::STORAGE | U::INDIRECT | U::COPY_DST);
    let args_no_dst = buffer(device, 8192, U::STORAGE | U::INDIRECT);
    // 16 bytes past its one aligned offset: not room for indexed arguments.
    let small = buffer(device, align + 16, U::STORAGE | U::INDIRECT | U::COPY_DST);
    let segments = buffer(device, 16 * 8, U::STORAGE);
    let usage = |name: &'static str| move |e: &Error| matches!(e, Error::BufferUsage { buffer, .. } if *buffer == name);
    let misaligned = |name: &'static str| move |e: &Error| matches!(e, Error::Misaligned { what, .. } if *what == name);
    let too_small = |name: &'static str| move |e: &Error| matches!(e, Error::BufferTooSmall { buffer, .. } if *buffer == name);
    let aliased = |a: &'static str, b: &'static str| move |e: &Error| matches!(e, Error::Aliased { first, second, .. } if (*first, *second) == (a, b));
    for method in Method::ALL.into_iter().filter(|m| m.preserves_order()) {
        let desc = CompactionDesc::new(&flags, 1000, method);
        let payload = |source, to| {
            let mut d = PayloadDesc::new(source, 4);
            d.to = to;
            d
        };
        let segmented = |segments, count, args_to| {
            let mut d = SegmentsDesc::new(segments, count).with_packed(false);
            d.args_to = args_to;
            d
        };
        let rows: Vec<(CompactionDesc, Box<Want>, &str)> = vec![
            (
                desc.clone().with_indices_to((&not_storage, 0)),
                Box::new(usage("indices")),
                "indices without STORAGE",
            ),
            (
                desc.clone().with_indices_to((&storage, 4)),
                Box::new(misaligned("indices offset")),
                "an unaligned indices offset",
            ),
            (
                desc.clone().with_indices_to((&storage, 8192 - align)),
                Box::new(too_small("indices")),
                "indices past the buffer",
            ),
            (
                desc.clone()
                    .with_indices_to((&storage, u64::MAX - align + 1)),
                Box::new(too_small("indices")),
                "an indices offset that wraps",
            ),
            (
                desc.clone().with_indirect_to((&storage, 0)),
                Box::new(usage("indirect")),
                "indirect without INDIRECT",
            ),
            (
                desc.clone().with_indirect_to((&args_no_dst, 0)),
                Box::new(usage("indirect")),
                "indirect without COPY_DST",
            ),
            (
                desc.clone().with_indirect_to((&args, 4)),
                Box::new(misaligned("indirect offset")),
                "an unaligned indirect offset",
            ),
            (
                desc.clone()
                    .with_draw(DrawArgs::indexed(3))
                    .with_indirect_to((&small, align)),
                Box::new(too_small("indirect")),
                "indirect arguments past the buffer",
            ),
            (
                desc.clone().with_payload(payload((&not_storage, 0), None)),
                Box::new(usage("payload source")),
                "a payload source without STORAGE",
            ),
            (
                desc.clone().with_payload(payload((&storage, 0), None)),
                Box::new(too_small("payload source")),
                "a payload source too small",
            ),
            (
                desc.clone()
                    .with_capacity(100)
                    .with_payload(payload((&storage, align / 2), None)),
                Box::new(misaligned("payload source offset")),
                "an unaligned payload source",
            ),
            (
                desc.clone()
                    .with_capacity(100)
                    .with_payload(payload((&storage, 0), Some((&small, 0)))),
                Box::new(too_small("payload")),
                "payload copies past the buffer",
            ),
            (
                desc.clone()
                    .with_segments(segmented((&not_storage, 0), 8, None)),
                Box::new(usage("segments")),
                "segments without STORAGE",
            ),
            (
                desc.clone()
                    .with_segments(segmented((&segments, 0), 9, None)),
                Box::new(too_small("segments")),
                "more segments than the buffer holds",
            ),
            (
                desc.clone()
                    .with_segments(segmented((&segments, 0), 8, Some((&args_no_dst, 0)))),
                Box::new(usage("segment args")),
                "segment args without COPY_DST",
            ),
            (
                desc.clone()
                    .with_segments(segmented((&segments, 0), 8, Some((&small, 0)))),
                Box::new(too_small("segment args")),
                "segment args past the buffer",
            ),
            // One buffer where a pass reads one range and writes the other.
            (
                {
                    let mut d = desc
                        .clone()
                        .with_capacity(100)
                        .with_indices_to((&storage, 4096));
                    d.flags = &storage;
                    d
                },
                Box::new(aliased("flags", "indices")),
                "flags and indices in one buffer",
            ),
            (
                desc.clone()
                    .with_capacity(100)
                    .with_payload(payload((&storage, 0), Some((&storage, 4096)))),
                Box::new(aliased("payload source", "payload")),
                "a payload and its copies in one buffer",
            ),
            (
                desc.clone()
                    .with_segments(segmented((&args, 0), 8, Some((&args, 4096)))),
                Box::new(aliased("segments", "segment args")),
                "segments and their records in one buffer",
            ),
            (
                desc.clone()
                    .with_indirect_to((&args, 0))
                    .with_segments(segmented((&segments, 0), 8, Some((&args, 4096)))),
                Box::new(aliased("indirect", "segment args")),
                "the arguments the records read, in the records' buffer",
            ),
            // Two written ranges that overlap.
            (
                desc.clone()
                    .with_capacity(100)
                    .with_indices_to((&storage, 0))
                    .with_payload(payload((&flags, 0), Some((&storage, 0)))),
                Box::new(aliased("indices", "payload")),
                "indices and payload copies overlapping",
            ),
            // The count copied after the pass over a range the pass wrote.
            (
                desc.clone()
                    .with_indices_to((&args, 0))
                    .with_instance_count_to((&args, 0)),
                Box::new(aliased("indices", "instance count")),
                "the instance count copied over the indices",
            ),
        ];
        for (desc, want, what) in &rows {
            refused(compactor, desc, want.as_ref(), what);
        }
        // Two written ranges of one buffer that do not overlap are fine.
        let flags_words: Vec<u32> = (0..100).map(|i| u32::from(i % 3 == 0)).collect();
        let source: Vec<u32> = (0..400).collect();
        let flags = compactor.upload(&flags_words).expect("upload");
        let source = compactor.upload(&source).expect("upload");
        let both = buffer(device, 4096, U::STORAGE | U::COPY_SRC);
        let compaction = no_gpu_error(device, || {
            compactor.prepare_with(
                &CompactionDesc::new(&flags, 100, method)
                    .with_indices_to((&both, 0))
                    .with_payload(PayloadDesc::new((&source, 0), 4).with_to((&both, 2048))),
            )
        })
        .unwrap_or_else(|e| panic!("{method}: {e}"));
        let out = no_gpu_error(device, || {
            pollster::block_on(compactor.run_compaction(&compaction))
        })
        .expect("run");
        let want: Vec<u32> = (0..100).filter(|i| i % 3 == 0).collect();
        assert_eq!(out.indices, want, "{method}");
        let payload: Vec<u32> = want.iter().flat_map(|&i| 4 * i..4 * i + 4).collect();
        assert_eq!(out.payload, payload, "{method}");
    }
}

#[test]
fn a_payload_past_one_binding_is_refused() {
    let compactor = common::compactor();
    let device = compactor.device();
    let limits = device.limits();
    let limit = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        .min(u64::from(u32::MAX) * 4);
    // From bits, the flags of a payload past the limit fit in a small buffer.
    let capacity = (limit / 64 + 1).min(compactor.max_flags_for(Method::PackedScan));
    let bits = buffer(
        device,
        capacity.div_ceil(32) * 4,
        wgpu::BufferUsages::STORAGE,
    );
    let source = buffer(device, 4096, wgpu::BufferUsages::STORAGE);
    refused(
        compactor,
        &CompactionDesc::new(&bits, capacity, Method::PackedScan)
            .with_input(Input::Bits)
            .with_payload(PayloadDesc::new((&source, 0), 16)),
        &|e| {
            matches!(
                e,
                Error::BindingTooLarge {
                    buffer: "payload",
                    ..
                }
            )
        },
        "a payload past one binding",
    );
}

#[test]
fn live_lengths_are_checked() {
    let compactor = common::compactor();
    let device = compactor.device();
    let flags = compactor.upload(&[1; 100]).expect("upload");
    let compaction = compactor
        .prepare(&flags, 100, Method::Scan, 6)
        .expect("prepare");
    let mut encoder = device.create_command_encoder(&Default::default());
    no_gpu_error(device, || {
        assert!(matches!(
            compactor.encode_len(&mut encoder, &compaction, 101),
            Err(Error::LengthTooLarge {
                len: 101,
                capacity: 100,
                ..
            })
        ));
        let no_src = buffer(device, 16, wgpu::BufferUsages::STORAGE);
        let src = buffer(device, 16, wgpu::BufferUsages::COPY_SRC);
        assert!(matches!(
            compactor.encode_len_from(&mut encoder, &compaction, &no_src, 0),
            Err(Error::BufferUsage {
                buffer: "live length source",
                ..
            })
        ));
        assert!(matches!(
            compactor.encode_len_from(&mut encoder, &compaction, &src, 2),
            Err(Error::Misaligned { .. })
        ));
        assert!(matches!(
            compactor.encode_len_from(&mut encoder, &compaction, &src, 16),
            Err(Error::BufferTooSmall { .. })
        ));
        // Its own length uniform as the source: a copy onto itself, refused here rather than at submit.
        assert!(matches!(
            compactor.encode_len_from(&mut encoder, &compaction, compaction.live(), 0),
            Err(Error::Aliased {
                first: "live length source",
                second: "live",
                ..
            })
        ));
    });
    drop(encoder);
}

#[test]
fn a_device_below_a_methods_limits_is_refused_by_prepare_not_by_a_pipeline() {
    // wgpu's downlevel defaults: 4 storage buffers per stage; the look-back binds 6.
    let (_, device, queue) = common::open_device(Some(wgpu::Limits::downlevel_defaults()));
    let compactor = Compactor::new(&device, &queue);
    let flags = compactor.upload(&[1, 0, 1, 1]).expect("upload");
    for method in Method::ALL {
        // The tile kernels bind 5 or 6 storage buffers; the others at most 4
        // without a payload (what `required_limits` asks for includes one).
        let refused = matches!(
            method,
            Method::Lookback | Method::LookbackBits | Method::TileAtomic
        );
        let prepared = no_gpu_error(&device, || compactor.prepare(&flags, 4, method, 6));
        if refused {
            let want = |e: &Error| {
                matches!(
                    e,
                    Error::Limit {
                        limit: "max_storage_buffers_per_shader_stage",
                        allowed: 4,
                        ..
                    }
                )
            };
            assert!(
                matches!(&prepared, Err(e) if want(e)),
                "{method}: {:?}",
                prepared.as_ref().err()
            );
            assert!(compactor.supports(method).is_err());
        } else {
            let compaction = prepared.unwrap_or_else(|e| panic!("{method}: {e}"));
            let out = pollster::block_on(compactor.run_compaction(&compaction)).expect("run");
            let mut got = out.indices;
            got.sort_unstable();
            assert_eq!(got, vec![0, 2, 3], "{method} on the downlevel device");
        }
    }
    // What required_limits asks for is enough.
    let (_, device, queue) =
        common::open_device(Some(Compactor::required_limits(Method::Lookback)));
    let compactor = Compactor::new(&device, &queue);
    for method in Method::ALL {
        compactor
            .supports(method)
            .unwrap_or_else(|e| panic!("{method}: {e}"));
    }
}

#[test]
fn flags_at_an_offset_with_labels_and_a_target() {
    let compactor = common::compactor();
    let device = compactor.device();
    let align = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let flags = common::random(10_000, 0.4, 9);
    // The flags after `align` bytes of something else, which must not be read.
    let mut words = vec![1u32; (align / 4) as usize];
    words.extend(&flags);
    let buffer = compactor.upload(&words).expect("upload");
    let target = buffer_init(
        device,
        &[9, 9, 9, 9],
        wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
    );
    for method in Method::ALL {
        let compaction = compactor
            .prepare_with(
                &CompactionDesc::new(&buffer, flags.len() as u64, method)
                    .with_label("tests:offset")
                    .with_flags_offset(align)
                    .with_draw(DrawArgs::indexed(36))
                    .with_instance_count_to((&target, 8)),
            )
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        let out = pollster::block_on(compactor.run_compaction(&compaction)).expect("run");
        let expected = common::expected_indices(&flags);
        let mut got = out.indices.clone();
        got.sort_unstable();
        assert_eq!(got, expected, "{method}");
        assert!(
            matches!(out.indirect, DrawArgs::Indexed(a) if a.index_count == 36 && a.instance_count as usize == expected.len())
        );
        assert_eq!(
            common::read_words(compactor, &target, 4),
            vec![9, 9, expected.len() as u32, 9],
            "{method}: the target's word 2"
        );
    }
}

fn buffer_init(device: &wgpu::Device, words: &[u32], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("tests:target"),
        contents: bytemuck::cast_slice(words),
        usage,
    })
}

/// Issue 25, finding 4: offsets and sizes that would wrap are refused by the
/// library (a debug build used to panic on the overflow, a release build to
/// pass a wrapped range to wgpu).
#[test]
fn offsets_and_sizes_that_would_wrap_are_errors() {
    let compactor = common::compactor();
    let device = compactor.device();
    let flags = buffer(
        device,
        4096,
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
    );
    let target = buffer(device, 64, wgpu::BufferUsages::COPY_DST);
    let alignment = u64::from(device.limits().min_storage_buffer_offset_alignment);
    let near_max = u64::MAX - u64::MAX % alignment;
    no_gpu_error(device, || {
        for method in Method::ALL {
            let wrapped = compactor
                .prepare_with(&CompactionDesc::new(&flags, 16, method).with_flags_offset(near_max));
            assert!(
                matches!(wrapped, Err(Error::BufferTooSmall { .. })),
                "{method}: {:?}",
                wrapped.as_ref().err()
            );
            let huge = compactor.prepare(&flags, u64::MAX, method, 6);
            assert!(
                matches!(huge, Err(Error::TooLarge { .. })),
                "{method}: {:?}",
                huge.as_ref().err()
            );
            let target_wrapped = compactor.prepare_with(
                &CompactionDesc::new(&flags, 16, method)
                    .with_instance_count_to((&target, u64::MAX - 3)),
            );
            assert!(
                matches!(target_wrapped, Err(Error::BufferTooSmall { .. })),
                "{method}: {:?}",
                target_wrapped.as_ref().err()
            );
        }
        let compaction = compactor
            .prepare(&flags, 16, Method::Scan, 6)
            .expect("prepare");
        let src = buffer(device, 16, wgpu::BufferUsages::COPY_SRC);
        let mut encoder = device.create_command_encoder(&Default::default());
        let wrapped = compactor.encode_len_from(&mut encoder, &compaction, &src, u64::MAX - 3);
        assert!(
            matches!(wrapped, Err(Error::BufferTooSmall { .. })),
            "{:?}",
            wrapped.as_ref().err()
        );
    });
}

/// Issue 25, finding 4: a flags buffer of another device, and a device that was
/// destroyed, are `Error::Gpu` from `prepare`, `upload` and `run`, never a panic.
#[test]
fn foreign_and_lost_resources_are_errors() {
    let compactor = common::compactor();
    let (_, other, _) = common::open_device(None);
    let foreign = buffer(
        &other,
        4096,
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
    );
    let got = compactor.prepare(&foreign, 16, Method::Scan, 6);
    assert!(
        matches!(got, Err(Error::Gpu(_))),
        "{:?}",
        got.as_ref().err()
    );

    let (_, device, queue) = common::open_device(None);
    let lost = Compactor::new(&device, &queue);
    let flags = lost.upload(&[1, 0, 1]).expect("upload before the loss");
    device.destroy();
    let prepared = lost.prepare(&flags, 3, Method::Scan, 6);
    assert!(
        prepared.is_err(),
        "prepare after destroy: {:?}",
        prepared.map(|_| ())
    );
    let uploaded = lost.upload(&[1, 0, 1]);
    assert!(uploaded.is_err(), "upload after destroy");
    let ran = pollster::block_on(lost.run(&[1, 0, 1], Method::Scan));
    assert!(
        ran.is_err(),
        "run after destroy: {:?}",
        ran.map(|o| o.indices)
    );
}

/// Issue 39, finding 12: a flags buffer destroyed between `prepare` and
/// `run_compaction` is an `Err`, with the default (panicking) handler installed.
#[test]
fn a_flags_buffer_destroyed_after_prepare_is_an_error_from_run_compaction() {
    let compactor = common::compactor();
    let flags = compactor.upload(&common::ARTICLE_EXAMPLE).expect("upload");
    let compaction = compactor
        .prepare(
            &flags,
            common::ARTICLE_EXAMPLE.len() as u64,
            Method::Lookback,
            6,
        )
        .expect("prepare");
    flags.destroy();
    let got = pollster::block_on(compactor.run_compaction(&compaction));
    assert!(
        matches!(got, Err(Error::Gpu(_))),
        "{:?}",
        got.map(|o| o.indices)
    );
    // The compactor goes on: a new buffer compacts exactly.
    let again =
        pollster::block_on(compactor.run(&common::ARTICLE_EXAMPLE, Method::Lookback)).expect("run");
    assert_eq!(again.indices, vec![0, 3, 4, 6, 9]);
}

#[test]
fn a_compaction_destroyed_after_its_submission_still_gives_that_submissions_output() {
    // `destroy` frees at once what was not yet submitted; work already submitted finishes first.
    let compactor = common::compactor();
    let device = compactor.device();
    let words: Vec<u32> = (0..10_000u32).map(|i| u32::from(i % 3 == 0)).collect();
    let want: Vec<u32> = (0..10_000u32).filter(|i| i % 3 == 0).collect();
    for method in Method::ALL {
        let flags = compactor.upload(&words).expect("upload");
        let compaction = compactor
            .prepare(&flags, words.len() as u64, method, 6)
            .expect("prepare");
        let out = no_gpu_error(device, || {
            let mut encoder = device.create_command_encoder(&Default::default());
            compactor.encode(&mut encoder, &compaction).expect("encode");
            let pending = compaction
                .read_output(device, &mut encoder)
                .expect("read_output");
            compactor.queue().submit([encoder.finish()]);
            compaction.destroy();
            pollster::block_on(pending.read(device)).expect("read")
        });
        let mut got = out.indices.clone();
        got.sort_unstable();
        assert_eq!(got, want, "{method:?}");
        assert_eq!(out.indirect.instance_count(), want.len() as u32);
        // The flags are the caller's: still usable by the next compaction.
        let again = no_gpu_error(device, || {
            pollster::block_on(compactor.run_buffer(&flags, words.len() as u64, method))
        })
        .expect("run again");
        assert_eq!(again.count, want.len() as u32, "{method:?}");
    }
}

#[test]
fn a_compaction_recorded_by_another_compactor_or_device_is_an_error() {
    let compactor = common::compactor();
    let device = compactor.device();
    let other = Compactor::new(device, compactor.queue());
    let flags = compactor.upload(&common::ARTICLE_EXAMPLE).expect("upload");
    let len = common::ARTICLE_EXAMPLE.len() as u64;
    let compaction = compactor
        .prepare(&flags, len, Method::Scan, 6)
        .expect("prepare");
    let foreign = |r: Result<(), Error>| matches!(r, Err(Error::ForeignCompaction { .. }));
    no_gpu_error(device, || {
        let mut encoder = device.create_command_encoder(&Default::default());
        assert!(foreign(other.encode(&mut encoder, &compaction)));
        assert!(foreign(other.encode_len(&mut encoder, &compaction, 3)));
        assert!(foreign(other.set_len(&compaction, 3)));
        assert!(foreign(other.encode_slice(
            &mut encoder,
            &compaction,
            1 << 20,
            0
        )));
        let count = buffer(device, 4, wgpu::BufferUsages::COPY_SRC);
        assert!(foreign(other.encode_len_from(
            &mut encoder,
            &compaction,
            &count,
            0
        )));
        // Nothing was recorded: the encoder finishes and submits cleanly.
        compactor.queue().submit([encoder.finish()]);
    });
    // Read back through another device's encoder (of the same instance: wgpu tells
    // devices apart by id within one): refused before wgpu sees it.
    let (adapter, device_a, queue_a) = common::open_device(None);
    let (device_b, _queue_b) =
        pollster::block_on(adapter.request_device(&Default::default())).expect("a second device");
    let on_a = Compactor::new(&device_a, &queue_a);
    let flags_a = on_a.upload(&common::ARTICLE_EXAMPLE).expect("upload");
    let compaction_a = on_a
        .prepare(&flags_a, len, Method::Scan, 6)
        .expect("prepare");
    let mut encoder_b = device_b.create_command_encoder(&Default::default());
    assert!(matches!(
        compaction_a.read_output(&device_b, &mut encoder_b),
        Err(Error::ForeignCompaction { .. })
    ));
    // Its own compactor still records it exactly.
    let out = no_gpu_error(device, || {
        pollster::block_on(compactor.run_compaction(&compaction))
    })
    .expect("run");
    assert_eq!(out.indices, vec![0, 3, 4, 6, 9]);
}

#[test]
fn each_encode_len_of_one_submission_compacts_its_own_length_and_an_overflow_is_told() {
    let compactor = common::compactor();
    let device = compactor.device();
    let flags_words = vec![1u32; 1000];
    let flags = compactor.upload(&flags_words).expect("upload");
    let lengths: Vec<u64> = (0..2 * u64::from(LENGTH_SLOTS) + 2)
        .map(|k| (k * 337 + 100) % 1001)
        .collect();
    let want: Vec<u32> = lengths.iter().map(|&l| l as u32).collect();
    for method in Method::ALL {
        let compaction = compactor.prepare(&flags, 1000, method, 6).expect("prepare");
        let outs = no_gpu_error(device, || {
            // 130 lengths, one submission (past LENGTH_SLOTS twice): each read back
            // right after its encode.
            let mut encoder = device.create_command_encoder(&Default::default());
            let mut pending = Vec::new();
            for len in lengths.clone() {
                compactor
                    .encode_len(&mut encoder, &compaction, len)
                    .expect("encode_len");
                pending.push(
                    compaction
                        .read_output(device, &mut encoder)
                        .expect("read_output"),
                );
            }
            compactor.queue().submit([encoder.finish()]);
            pending
                .into_iter()
                .map(|p| pollster::block_on(p.read(device)).expect("read"))
                .collect::<Vec<_>>()
        });
        let counts: Vec<u32> = outs.iter().map(|o| o.count).collect();
        assert_eq!(counts, want, "{method:?}: lengths in encoder order");
        assert_eq!(outs.iter().map(|o| o.requested).collect::<Vec<_>>(), want);
        // A GPU count past the capacity: clamped, and the length asked for is there to see.
        let source = buffer_init(device, &[1234], wgpu::BufferUsages::COPY_SRC);
        let out = no_gpu_error(device, || {
            let mut encoder = device.create_command_encoder(&Default::default());
            compactor
                .encode_len_from(&mut encoder, &compaction, &source, 0)
                .expect("encode_len_from");
            let pending = compaction
                .read_output(device, &mut encoder)
                .expect("read_output");
            compactor.queue().submit([encoder.finish()]);
            pollster::block_on(pending.read(device)).expect("read")
        });
        assert_eq!(out.count, 1000, "{method:?}: clamped to the capacity");
        assert_eq!(out.requested, 1234, "{method:?}: the overflow told");
    }
}

#[test]
fn an_index_base_that_would_wrap_is_refused_and_a_short_range_names_its_offset() {
    let compactor = common::compactor();
    let flags = compactor.upload(&vec![1u32; 1000]).expect("upload");
    let base_for_last = |last: u32| last - 999;
    for method in Method::ALL {
        // The last index is index_base + 999: u32::MAX is the most it may be.
        let at_max = compactor
            .prepare_with(
                &CompactionDesc::new(&flags, 1000, method).with_index_base(base_for_last(u32::MAX)),
            )
            .expect("the last index at u32::MAX");
        let out = pollster::block_on(compactor.run_compaction(&at_max)).expect("run");
        let mut indices = out.indices.clone();
        indices.sort_unstable();
        assert_eq!(indices.first(), Some(&base_for_last(u32::MAX)), "{method}");
        assert_eq!(indices.last(), Some(&u32::MAX), "{method}");
        let past = compactor.prepare_with(
            &CompactionDesc::new(&flags, 1000, method).with_index_base(base_for_last(u32::MAX) + 1),
        );
        let refused = past.err();
        assert!(
            matches!(refused, Some(Error::IndexOverflow { index_base, capacity: 1000, .. })
                if index_base == base_for_last(u32::MAX) + 1),
            "{method}: {refused:?}"
        );
        // The same of the draw's first instance: the last instance index is first_instance + 999.
        let with_first = |first_instance: u32| {
            compactor.prepare_with(&CompactionDesc::new(&flags, 1000, method).with_draw(
                DrawArgs::Indexed(IndexedIndirectArgs {
                    index_count: 3,
                    first_instance,
                    ..Default::default()
                }),
            ))
        };
        assert!(with_first(base_for_last(u32::MAX)).is_ok(), "{method}");
        let refused = with_first(base_for_last(u32::MAX) + 1).err();
        assert!(
            matches!(refused, Some(Error::InstanceOverflow { first_instance, instances: 1000, .. })
                if first_instance == base_for_last(u32::MAX) + 1),
            "{method}: {refused:?}"
        );
    }
    // A range that starts at an offset says where, and how far it reaches.
    let indices = compactor.device().create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 4252,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let err = compactor
        .prepare_with(
            &CompactionDesc::new(&flags, 1000, Method::Lookback).with_indices_to((&indices, 256)),
        )
        .err()
        .expect("too small");
    assert_eq!(
        err.to_string(),
        "the indices buffer has 4252 bytes, but the compaction needs 4000 from offset 256, 4256 in all"
    );
}
