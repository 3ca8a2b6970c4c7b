//! A compaction recorded in slices (`Compactor::encode_slice`, one submission
//! each) gives exactly what `encode` gives: the scan bit for bit, the atomics
//! the same set and count; with a live length; and a plain `encode` after it, or
//! after an abandoned sliced recording, is exact again. The single-pass
//! methods are one slice.

mod common;

use wgpu_compaction::teaching::cpu::inputs::random;
use wgpu_compaction::{Compaction, CompactionOutput, Compactor, Error, Method};

fn read(
    compactor: &Compactor,
    compaction: &Compaction,
    record: impl FnOnce(&mut wgpu::CommandEncoder),
) -> CompactionOutput {
    let device = compactor.device();
    let mut encoder = device.create_command_encoder(&Default::default());
    record(&mut encoder);
    let pending = compaction
        .read_output(device, &mut encoder)
        .expect("read_output");
    compactor.queue().submit([encoder.finish()]);
    pollster::block_on(pending.read(device)).expect("read back")
}

/// Every slice but the last submitted alone, the last read back with the outputs.
fn sliced(compactor: &Compactor, compaction: &Compaction, max: u64) -> CompactionOutput {
    let slices = compactor.slices(compaction, max);
    for k in 0..slices - 1 {
        let mut encoder = compactor
            .device()
            .create_command_encoder(&Default::default());
        compactor
            .encode_slice(&mut encoder, compaction, max, k)
            .expect("slice");
        compactor.queue().submit([encoder.finish()]);
    }
    read(compactor, compaction, |e| {
        compactor
            .encode_slice(e, compaction, max, slices - 1)
            .expect("last slice")
    })
}

fn sorted(out: &CompactionOutput) -> Vec<u32> {
    let mut v = out.indices.clone();
    v.sort_unstable();
    v
}

#[test]
fn a_sliced_recording_gives_what_encode_gives() {
    let compactor = common::compactor();
    let n = 100_003;
    let flags = random(n, 0.4, 7);
    let buffer = compactor.upload(&flags).expect("upload");
    for method in Method::ALL {
        let compaction = compactor
            .prepare(&buffer, n as u64, method, 6)
            .expect("prepare");
        let whole = read(compactor, &compaction, |e| {
            compactor.encode(e, &compaction).expect("encode")
        });
        let slices = compactor.slices(&compaction, 1000);
        let cut = matches!(method, Method::Atomic | Method::Aggregated | Method::Scan);
        if cut {
            assert!(slices > 90, "{method:?}: {slices} slices");
        } else {
            assert_eq!(slices, 1, "{method:?}: its tiles are numbered by ticket");
        }
        let parts = sliced(compactor, &compaction, 1000);
        assert_eq!(parts.count, whole.count, "{method:?}");
        assert_eq!(parts.indirect, whole.indirect, "{method:?}");
        if method == Method::Scan {
            assert_eq!(parts.indices, whole.indices, "the scan, bit for bit");
        } else {
            assert_eq!(sorted(&parts), sorted(&whole), "{method:?}");
        }
        // A live length set before slice 0 holds for every slice.
        compactor.set_len(&compaction, 50_001).expect("set_len");
        let short = sliced(compactor, &compaction, 4096);
        let want = flags[..50_001].iter().filter(|&&f| f != 0).count() as u32;
        assert_eq!(short.count, want, "{method:?} with a live length");
        compactor.set_len(&compaction, n as u64).expect("set_len");
        // After a whole sliced recording, and after one abandoned at its first slice, encode is exact.
        let again = read(compactor, &compaction, |e| {
            compactor.encode(e, &compaction).expect("encode")
        });
        assert_eq!(
            sorted(&again),
            sorted(&whole),
            "{method:?}: encode after slices"
        );
        if cut {
            let mut encoder = compactor
                .device()
                .create_command_encoder(&Default::default());
            compactor
                .encode_slice(&mut encoder, &compaction, 1000, 0)
                .expect("slice 0");
            compactor.queue().submit([encoder.finish()]);
            let after = read(compactor, &compaction, |e| {
                compactor.encode(e, &compaction).expect("encode")
            });
            assert_eq!(
                sorted(&after),
                sorted(&whole),
                "{method:?}: encode after an abandoned recording"
            );
        }
        let mut encoder = compactor
            .device()
            .create_command_encoder(&Default::default());
        assert!(matches!(
            compactor.encode_slice(&mut encoder, &compaction, 1000, slices),
            Err(Error::NoSuchSlice { .. })
        ));
    }
}

#[test]
fn a_slice_that_holds_the_whole_compaction_is_one_submission_on_a_2d_grid() {
    // A device of 1 000 workgroups a dimension: 100 003 flags are 1 563 workgroups
    // of 64 (atomic, scatter), past it. A hardware GPU's unlimited slice never
    // cuts a dispatch at the per-dimension limit: one slice, each dispatch on
    // its 2-D grid, exactly what encode gives.
    let (_, device, queue) = common::open_device(Some(wgpu::Limits {
        max_compute_workgroups_per_dimension: 1000,
        ..wgpu::Limits::downlevel_defaults().using_resolution(Default::default())
    }));
    let compactor = Compactor::new(&device, &queue);
    let n = 100_003;
    let flags = random(n, 0.4, 11);
    let buffer = compactor.upload(&flags).expect("upload");
    for method in [Method::Atomic, Method::Aggregated, Method::Scan] {
        let compaction = compactor
            .prepare(&buffer, n as u64, method, 6)
            .expect("prepare");
        let whole = read(&compactor, &compaction, |e| {
            compactor.encode(e, &compaction).expect("encode")
        });
        assert_eq!(compactor.slices(&compaction, u64::MAX), 1, "{method:?}");
        let one = sliced(&compactor, &compaction, u64::MAX);
        assert_eq!(one.count, whole.count, "{method:?}");
        assert_eq!(sorted(&one), sorted(&whole), "{method:?}");
        // A finite slice still cuts within the limit, and gives the same.
        assert!(compactor.slices(&compaction, 80_000) > 1, "{method:?}");
        assert_eq!(
            sorted(&sliced(&compactor, &compaction, 80_000)),
            sorted(&whole),
            "{method:?}"
        );
    }
}
