//! `packed-scan` kernel by kernel against its CPU mirrors: `pack_bits_counted`
//! (from u32 flags) or `tile_counts` (from bits), then `scan_tiles` (read back as
//! the tile slots they leave), then `tile_scatter_bits` (the indices), portable and
//! with subgroups; edge sizes, all densities, the scan of the counts over more
//! than one round (more than 16384 tiles), and every run bit-identical.

mod common;

use common::{expected_indices, read_words, save_failure, wild_flags};
use wgpu_compaction::teaching::layout::TILE;
use wgpu_compaction::teaching::{cpu, LookbackOptions};
use wgpu_compaction::{CompactionDesc, Compactor, Input, Method};

/// Sizes around a bit word, a vec4 of words, a tile and a `tile_counts` workgroup (8 tiles).
const SIZES: [usize; 13] = [
    0,
    1,
    31,
    32,
    33,
    127,
    129,
    TILE - 1,
    TILE,
    TILE + 1,
    8 * TILE,
    8 * TILE + 1,
    13 * TILE + 333,
];

/// Runs `packed-scan` once (twice for bit-identity) and checks every stage.
fn check(compactor: &Compactor, flags: &[u32], bits_input: bool, case: &str) {
    let n = flags.len();
    let mut bits = cpu::pack_bits(flags);
    if bits_input && !n.is_multiple_of(32) {
        // Bits past the last flag are not flags.
        if let Some(last) = bits.last_mut() {
            *last |= !0u32 << (n % 32);
        }
    }
    let buffer = if bits_input {
        compactor.upload(&bits)
    } else {
        compactor.upload(flags)
    }
    .expect("upload");
    let desc = CompactionDesc::new(&buffer, n as u64, Method::PackedScan)
        .with_input(if bits_input { Input::Bits } else { Input::U32 });
    let compaction = compactor.prepare_with(&desc).expect("prepare");
    let fail = |what: String| -> ! {
        let path = save_failure(case, flags);
        panic!("{case}: {what} (flags saved to {path})");
    };
    let first = pollster::block_on(compactor.run_compaction(&compaction)).expect("run");
    let tiles = n.div_ceil(TILE);
    if !bits_input {
        let packed = compaction
            .packed_bits()
            .expect("packed bits from u32 flags");
        let got = read_words(compactor, packed, bits.len() as u64);
        if got != cpu::pack_bits(flags) {
            fail("pack_bits differs from the CPU".into());
        }
    } else if compaction.packed_bits().is_some() {
        fail("bits were packed again".into());
    }
    let counts = if bits_input {
        cpu::tile_counts(&bits, n, tiles)
    } else {
        cpu::pack_bits_counted(flags).1
    };
    let (slots, total) = cpu::scan_tiles(&counts);
    if n > 0 {
        let got = read_words(
            compactor,
            compaction.tile_slots().expect("slots"),
            tiles as u64,
        );
        if got != slots {
            let at = got.iter().zip(&slots).position(|(a, b)| a != b);
            fail(format!(
                "tile slots differ from the CPU's scan_tiles of the counts, first at {at:?}"
            ));
        }
    }
    let mut indices = vec![0; total as usize];
    cpu::tile_scatter_bits(&bits, n, &slots, &mut indices);
    let expected = expected_indices(flags);
    assert_eq!(indices, expected, "{case}: the CPU mirror");
    if first.count != total || first.indirect.instance_count() != total {
        fail(format!(
            "count {} / instance_count {} != {total}",
            first.count,
            first.indirect.instance_count()
        ));
    }
    if first.indices != indices {
        let at = first.indices.iter().zip(&indices).position(|(a, b)| a != b);
        fail(format!(
            "indices differ from tile_scatter_bits, first at {at:?}"
        ));
    }
    let again = pollster::block_on(compactor.run_compaction(&compaction)).expect("run");
    if again != first {
        fail("a second run differs".into());
    }
}

fn builds() -> Vec<(&'static str, Compactor)> {
    let (_, device, queue) = common::open_device(None);
    let mut builds = vec![(
        "portable",
        Compactor::with_options(
            &device,
            &queue,
            LookbackOptions {
                subgroups: false,
                ..LookbackOptions::default()
            },
        ),
    )];
    if device.features().contains(wgpu::Features::SUBGROUP) {
        builds.push(("subgroups", Compactor::new(&device, &queue)));
    }
    builds
}

#[test]
fn packed_scan_kernels_match_cpu() {
    for (build, compactor) in builds() {
        for &n in &SIZES {
            for density in [0.0, 0.001, 0.5, 1.0] {
                let flags = wild_flags(n, density, n as u64 + 7);
                for bits_input in [false, true] {
                    let case = format!("packed-scan-{build}-{n}-{density}-bits{bits_input}");
                    check(&compactor, &flags, bits_input, &case);
                }
            }
        }
    }
}

#[test]
fn scan_tiles_takes_more_than_one_round() {
    // 4 counts an invocation: 1024 tiles a round, so 2500 tiles take three.
    let (_, device, queue) = common::open_device(None);
    let options = LookbackOptions {
        scan_tiles_per_invocation: 4,
        ..LookbackOptions::default()
    };
    let compactor = Compactor::with_options(&device, &queue, options);
    for (n, density) in [
        (2500 * TILE + 77, 0.3),
        (1024 * TILE, 1.0),
        (2048 * TILE + 1, 0.5),
    ] {
        let flags = common::random(n, density, n as u64);
        for bits_input in [false, true] {
            check(
                &compactor,
                &flags,
                bits_input,
                &format!("packed-scan-rounds-{n}-bits{bits_input}"),
            );
        }
    }
}
