//! One compaction prepared for a capacity serves a scene whose object count
//! changes: 100 frames, each with its own live length, given per encode or read
//! on the GPU from a buffer (as a culling pass would write it). The flags past
//! the live length are garbage and must be ignored.

mod common;

use common::{compactor, expected_indices};
use wgpu_compaction::teaching::{cpu, LookbackOptions};
use wgpu_compaction::{Compactor, DrawArgs, Method};

const CAPACITY: usize = 20_000;

/// A compactor whose `lookback` takes two tiles a workgroup from the first tile
/// (as it does on large arrays), on the shared device.
/// Two tiles a workgroup (`lookback`) and two tiles a state (`lookback-bits`) from the first tile.
fn paired_compactor() -> Compactor {
    let shared = compactor();
    let options = LookbackOptions {
        paired_from_tiles: 1,
        wide_bits_from_tiles: 1,
        ..LookbackOptions::default()
    };
    Compactor::with_options(shared.device(), shared.queue(), options)
}

/// A frame's live length: the edges first, then a seeded walk.
fn length(frame: usize, rng: &mut wgpu_compaction::teaching::cpu::inputs::XorShift64) -> usize {
    const EDGES: [usize; 10] = [0, 1, 63, 64, 255, 256, 4095, 4096, 4097, CAPACITY];
    EDGES
        .get(frame)
        .copied()
        .unwrap_or_else(|| (rng.next_u64() % (CAPACITY as u64 + 1)) as usize)
}

#[test]
fn a_capacity_compaction_follows_the_live_length_over_100_frames() {
    let paired = paired_compactor();
    for (compactor, methods) in [
        (compactor(), Method::ALL.to_vec()),
        (&paired, vec![Method::Lookback, Method::LookbackBits]),
    ] {
        follow_the_live_length(compactor, &methods);
    }
}

fn follow_the_live_length(compactor: &Compactor, methods: &[Method]) {
    let device = compactor.device();
    let queue = compactor.queue();
    let flags = common::random(CAPACITY, 0.5, 5);
    let buffer = compactor.upload(&flags).expect("upload");
    // Where the "culling pass" leaves the count: COPY_SRC for encode_len_from.
    let count = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tests:culled count"),
        size: 16,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    for &method in methods {
        let compaction = compactor
            .prepare(&buffer, CAPACITY as u64, method, 6)
            .expect("prepare");
        let mut rng = wgpu_compaction::teaching::cpu::inputs::XorShift64::new(7);
        for frame in 0..100 {
            let len = length(frame, &mut rng);
            let mut encoder = device.create_command_encoder(&Default::default());
            let from_gpu = frame % 2 == 1;
            if from_gpu {
                queue.write_buffer(&count, 8, bytemuck::cast_slice(&[len as u32]));
                compactor
                    .encode_len_from(&mut encoder, &compaction, &count, 8)
                    .expect("encode_len_from");
            } else {
                compactor
                    .encode_len(&mut encoder, &compaction, len as u64)
                    .expect("encode_len");
            }
            let pending = compaction
                .read_output(device, &mut encoder)
                .expect("read_output");
            queue.submit([encoder.finish()]);
            let out = pollster::block_on(pending.read(device)).expect("read");
            let live = &flags[..len];
            let want = cpu::compact(
                live,
                method,
                DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
            );
            let how = if from_gpu {
                "from a GPU buffer"
            } else {
                "given per encode"
            };
            assert_eq!(
                out.count, want.count,
                "{method} frame {frame}, {len} flags {how}"
            );
            assert_eq!(out.indirect, want.indirect, "{method} frame {frame}");
            if method.preserves_order() {
                assert_eq!(out.indices, want.indices, "{method} frame {frame}");
            } else {
                let mut got = out.indices;
                got.sort_unstable();
                assert_eq!(got, expected_indices(live), "{method} frame {frame}");
            }
        }
    }
}

/// Every tile of the capacity rewrites its state word in every run, with that
/// run's parity, even past the live length: a word left from two runs ago would
/// read as fresh once the length grows again (a look-back would then add a stale
/// count). Checked on the words themselves, since the race it prevents only
/// shows when a tile reads its predecessor before the predecessor writes.
#[test]
fn look_back_tiles_past_the_live_length_still_rewrite_their_states() {
    let paired = paired_compactor();
    for (compactor, methods) in [
        (compactor(), vec![Method::Lookback, Method::LookbackBits]),
        (&paired, vec![Method::Lookback, Method::LookbackBits]),
    ] {
        rewrite_states(compactor, &methods);
    }
}

fn rewrite_states(compactor: &Compactor, methods: &[Method]) {
    let tile = wgpu_compaction::teaching::layout::TILE;
    let capacity = 10 * tile;
    let buffer = compactor
        .upload(&common::random(capacity, 0.5, 3))
        .expect("upload");
    for &method in methods {
        let compaction = compactor
            .prepare(&buffer, capacity as u64, method, 6)
            .expect("prepare");
        let states = compaction.tile_states().expect("tile states");
        // Run r has parity r % 2; an INCLUSIVE state is code (2 + 2·parity) & 3.
        for (run, live) in [tile, capacity, tile / 2, 3 * tile, 0, capacity]
            .into_iter()
            .enumerate()
        {
            let mut encoder = compactor
                .device()
                .create_command_encoder(&Default::default());
            compactor
                .encode_len(&mut encoder, &compaction, live as u64)
                .expect("encode");
            compactor.queue().submit([encoder.finish()]);
            // The ticket, then a state a tile (a state two tiles for the wide bits).
            let words = common::read_words(compactor, states, states.size() / 4);
            let code = (2 + 2 * (run as u32 % 2)) & 3;
            for (t, word) in words[1..].iter().enumerate() {
                assert_eq!(
                    word & 3,
                    code,
                    "{method} run {run} (live {live}): tile {t}'s state {word:#x}"
                );
            }
        }
    }
}

#[test]
fn encode_with_takes_every_length_source_and_times_its_pass() {
    use wgpu_compaction::{EncodeOptions, Length};
    let compactor = compactor();
    let device = compactor.device();
    let flags = vec![1u32; 5000];
    let buffer = compactor.upload(&flags).expect("upload");
    let source = {
        let b = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tests:count"),
            size: 8,
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        compactor
            .queue()
            .write_buffer(&b, 4, bytemuck::bytes_of(&1234u32));
        b
    };
    let timestamps = device.features().contains(wgpu::Features::TIMESTAMP_QUERY);
    eprintln!("timestamps on this device: {timestamps}");
    for method in Method::ALL {
        let compaction = compactor
            .prepare(&buffer, 5000, method, 6)
            .expect("prepare");
        let set = timestamps.then(|| {
            device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("tests:stamps"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            })
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut pending = Vec::new();
        for len in [
            Length::Flags(10),
            Length::Gpu {
                buffer: &source,
                offset: 4,
            },
            Length::Kept,
            Length::Capacity,
        ] {
            let timestamp_writes = set
                .as_ref()
                .map(|query_set| wgpu::ComputePassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: Some(1),
                });
            compactor
                .encode_with(
                    &mut encoder,
                    &compaction,
                    EncodeOptions {
                        len,
                        timestamp_writes,
                    },
                )
                .expect("encode_with");
            pending.push(
                compaction
                    .read_output(device, &mut encoder)
                    .expect("read_output"),
            );
        }
        // The last pass's timestamps, where the device has them.
        let mut stamps = wgpu_compaction::teaching::Readback::default();
        if let Some(set) = &set {
            let resolve = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("tests:resolve"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            encoder.resolve_query_set(set, 0..2, &resolve, 0);
            stamps.copy(device, &mut encoder, &resolve, 0, 4);
        }
        compactor.queue().submit([encoder.finish()]);
        if timestamps {
            let words = pollster::block_on(stamps.read(device))
                .expect("stamps")
                .remove(0);
            let (start, end) = (
                u64::from(words[0]) | (u64::from(words[1]) << 32),
                u64::from(words[2]) | (u64::from(words[3]) << 32),
            );
            assert!(
                start > 0 && end >= start,
                "{method:?}: timestamps {start} .. {end}"
            );
        }
        let counts: Vec<u32> = pending
            .into_iter()
            .map(|p| pollster::block_on(p.read(device)).expect("read").count)
            .collect();
        // The GPU's length is kept by the plain encode after it; Capacity puts it back.
        assert_eq!(counts, [10, 1234, 1234, 5000], "{method:?}");
        let mut encoder = device.create_command_encoder(&Default::default());
        let misaligned = Length::Gpu {
            buffer: &source,
            offset: 2,
        };
        assert!(compactor
            .encode_with(
                &mut encoder,
                &compaction,
                EncodeOptions {
                    len: misaligned,
                    ..Default::default()
                }
            )
            .is_err());
        assert!(compactor
            .encode_with(
                &mut encoder,
                &compaction,
                EncodeOptions {
                    len: Length::Flags(5001),
                    ..Default::default()
                }
            )
            .is_err());
    }
}
