//! Each method's dispatches against the catalogue: every kernel a prepared
//! compaction records is one `KernelId::of` lists for its method, and every
//! kernel listed is recorded by some build (sizes, schedules, bits, payload,
//! segments). Needs a GPU adapter (lavapipe in CI), as the other GPU tests.

use std::collections::BTreeSet;

use crate::gpu::catalogue::KernelId;
use crate::teaching::LookbackOptions;
use crate::{CompactionDesc, Compactor, Input, Method, PayloadDesc, SegmentsDesc};

fn compactor(options: LookbackOptions) -> Compactor {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .expect("the GPU tests need an adapter (Mesa lavapipe in CI)");
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: adapter.features() & wgpu::Features::SUBGROUP,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("a device");
    Compactor::with_options(&device, &queue, options)
}

fn storage(compactor: &Compactor, bytes: u64) -> wgpu::Buffer {
    compactor.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("tests:storage"),
        size: bytes.max(16),
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::INDIRECT,
        mapped_at_creation: false,
    })
}

#[test]
fn dispatched_kernels_are_kernel_id_of() {
    let schedules = [
        LookbackOptions::default(),
        LookbackOptions {
            paired_from_tiles: 1,
            wide_bits_from_tiles: 1,
            ..LookbackOptions::default()
        },
    ];
    let mut seen: Vec<BTreeSet<String>> = vec![BTreeSet::new(); Method::ALL.len()];
    for options in schedules {
        let compactor = compactor(options);
        let capacity = 3 * 4096 + 5;
        let flags = compactor.upload(&vec![1; capacity]).expect("flags");
        let payload = storage(&compactor, capacity as u64 * 4 * 4);
        let segments = storage(&compactor, 16 * 4);
        for (m, method) in Method::ALL.into_iter().enumerate() {
            for n in [0, 1, 4097, capacity as u64] {
                for input in [Input::U32, Input::Bits] {
                    for (with_payload, with_segments, packed) in [
                        (false, false, false),
                        (true, false, false),
                        (false, true, false),
                        (false, true, true),
                    ] {
                        let desc = CompactionDesc {
                            input,
                            payload: with_payload.then_some(PayloadDesc {
                                source: (&payload, 0),
                                words: 4,
                                to: None,
                            }),
                            segments: with_segments.then_some(SegmentsDesc {
                                segments: (&segments, 0),
                                count: 4,
                                args_to: None,
                                packed,
                            }),
                            ..CompactionDesc::new(&flags, n, method)
                        };
                        // What a method does not take (bits, a payload, segments) is refused: nothing to see.
                        let Ok(compaction) = compactor.prepare_with(&desc) else {
                            continue;
                        };
                        for dispatch in &compaction.dispatches {
                            let id = dispatch.kernel.id;
                            assert!(
                                KernelId::of(method).contains(&id),
                                "{method} (n {n}, {input:?}, payload {with_payload}, segments {with_segments}) dispatches {id:?}, which KernelId::of({method}) does not list"
                            );
                            seen[m].insert(format!("{id:?}"));
                        }
                        compaction.destroy();
                    }
                }
            }
        }
    }
    for (method, seen) in Method::ALL.into_iter().zip(seen) {
        let listed: BTreeSet<String> = KernelId::of(method)
            .iter()
            .map(|id| format!("{id:?}"))
            .collect();
        assert_eq!(
            seen, listed,
            "{method}: every kernel listed is dispatched by some build"
        );
    }
}
