//! The single-pass look-back methods (`lookback`, `lookback-bits`, `tile-atomic`)
//! and `pack_bits` against their CPU mirrors: every edge size and density, flags
//! other than 0/1, exact order, bit-identical runs, indirect arguments written on
//! the GPU; built with subgroups (when the adapter has them) and without, with
//! `lookback`'s two tiles a workgroup from every size, and with the fallback forced
//! on every predecessor.

mod common;

use std::sync::OnceLock;

use common::{expected_indices, read_words, save_failure, wild_flags, DENSITIES, SIZES};
use wgpu_compaction::teaching::layout::TILE;
use wgpu_compaction::teaching::{cpu, LookbackOptions};
use wgpu_compaction::{Compaction, CompactionOutput, Compactor, DrawArgs, Error, Method};

/// The ways the look-back kernels are built, on one device.
struct Variants {
    /// (name, compactor): with subgroups when the adapter has them, portable, both
    /// with two tiles a workgroup (`lookback`) or a state (`lookback-bits`) from the
    /// first tile ("-paired"), and all again with every published state ignored
    /// (the fallback path).
    compactors: Vec<(&'static str, Compactor)>,
}

fn variants() -> &'static Variants {
    static VARIANTS: OnceLock<Variants> = OnceLock::new();
    VARIANTS.get_or_init(|| {
        let (adapter, device, queue) = common::open_device(None);
        let has_subgroups = device.features().contains(wgpu::Features::SUBGROUP);
        eprintln!(
            "adapter: {:?}, SUBGROUP: {has_subgroups}",
            adapter.get_info().name
        );
        let build = |subgroups, paired, stress_fallback| {
            let defaults = LookbackOptions::default();
            let options = LookbackOptions {
                subgroups,
                stress_fallback,
                paired_from_tiles: if paired {
                    1
                } else {
                    defaults.paired_from_tiles
                },
                // Two tiles a state for `lookback-bits` too, from the first.
                wide_bits_from_tiles: if paired {
                    1
                } else {
                    defaults.wide_bits_from_tiles
                },
                ..defaults
            };
            Compactor::with_options(&device, &queue, options)
        };
        let mut compactors = vec![
            ("portable", build(false, false, false)),
            ("portable-paired", build(false, true, false)),
        ];
        if has_subgroups {
            compactors.push(("subgroups", build(true, false, false)));
            compactors.push(("subgroups-paired", build(true, true, false)));
        }
        compactors.push(("portable-fallback", build(false, false, true)));
        compactors.push(("portable-paired-fallback", build(false, true, true)));
        if has_subgroups {
            compactors.push(("subgroups-fallback", build(true, false, true)));
            compactors.push(("subgroups-paired-fallback", build(true, true, true)));
        }
        for (name, compactor) in &compactors {
            assert_eq!(
                compactor.uses_subgroups(),
                name.starts_with("subgroups"),
                "{name}"
            );
        }
        Variants { compactors }
    })
}

/// The regular variants (published states trusted), and the fallback ones.
fn regular() -> impl Iterator<Item = &'static (&'static str, Compactor)> {
    variants()
        .compactors
        .iter()
        .filter(|(name, _)| !name.ends_with("fallback"))
}

fn fallback() -> impl Iterator<Item = &'static (&'static str, Compactor)> {
    variants()
        .compactors
        .iter()
        .filter(|(name, _)| name.ends_with("fallback"))
}

/// Encodes a prepared compaction and reads back its outputs.
fn encode_and_read(compactor: &Compactor, compaction: &Compaction) -> CompactionOutput {
    pollster::block_on(compactor.run_compaction(compaction)).expect("run")
}

/// Runs `method` on `flags` (u32 flags, or packed bits for `bits_input`).
fn run(compactor: &Compactor, flags: &[u32], method: Method, bits_input: bool) -> CompactionOutput {
    if bits_input {
        let mut bits = cpu::pack_bits(flags);
        // Bits past the last flag are not flags: set them to prove they are ignored.
        if !flags.len().is_multiple_of(32) {
            if let Some(last) = bits.last_mut() {
                *last |= !0u32 << (flags.len() % 32);
            }
        }
        let buffer = compactor.upload(&bits).expect("upload bits");
        let compaction = compactor
            .prepare_bits(&buffer, flags.len() as u64, Compactor::DEFAULT_VERTEX_COUNT)
            .expect("prepare_bits");
        encode_and_read(compactor, &compaction)
    } else {
        let buffer = compactor.upload(flags).expect("upload");
        let compaction = compactor
            .prepare(
                &buffer,
                flags.len() as u64,
                method,
                Compactor::DEFAULT_VERTEX_COUNT,
            )
            .expect("prepare");
        encode_and_read(compactor, &compaction)
    }
}

fn check(
    variant: &str,
    compactor: &Compactor,
    method: Method,
    bits_input: bool,
    flags: &[u32],
    case: &str,
) {
    let case = format!(
        "{method}{}-{variant}-{case}",
        if bits_input { "-bitsin" } else { "" }
    );
    let got = run(compactor, flags, method, bits_input);
    let mut oracle = cpu::compact(
        flags,
        method,
        DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
    );
    // The paired builds run `lookback_paired` at every size.
    if method == Method::Lookback && variant.contains("paired") {
        oracle.indices = cpu::lookback_paired(flags);
    }
    let expected = expected_indices(flags);
    assert_eq!(
        oracle.indices.len(),
        expected.len(),
        "{case}: CPU mirror count"
    );
    let fail = |what: String| -> ! {
        let path = save_failure(&case, flags);
        panic!("{case}: {what} (flags saved to {path})");
    };
    if got.count != oracle.count {
        fail(format!("count {} != {}", got.count, oracle.count));
    }
    if got.indirect != oracle.indirect {
        fail(format!(
            "indirect {:?} != {:?}",
            got.indirect, oracle.indirect
        ));
    }
    if method.preserves_order() {
        if got.indices != oracle.indices {
            let first = got
                .indices
                .iter()
                .zip(&oracle.indices)
                .position(|(a, b)| a != b);
            fail(format!(
                "indices differ from the CPU mirror, first at {first:?}"
            ));
        }
    } else {
        check_tiles_contiguous(&got.indices, &expected).unwrap_or_else(|e| fail(e));
    }
}

/// `tile-atomic`: the same set, and each tile's indices one ascending run.
fn check_tiles_contiguous(got: &[u32], expected: &[u32]) -> Result<(), String> {
    let mut sorted = got.to_vec();
    sorted.sort_unstable();
    if sorted != expected {
        return Err("the set of indices differs".into());
    }
    let tile = |i: u32| i as usize / TILE;
    let mut seen = std::collections::HashSet::new();
    for (k, &i) in got.iter().enumerate() {
        let continues = k > 0 && tile(got[k - 1]) == tile(i);
        if continues && got[k - 1] >= i {
            return Err(format!("tile {} out of order at slot {k}", tile(i)));
        }
        if !continues && !seen.insert(tile(i)) {
            return Err(format!("tile {} split at slot {k}", tile(i)));
        }
    }
    Ok(())
}

/// `method` on every regular variant that `paired` says (the paired builds
/// differ in `lookback`, two tiles a workgroup, and `lookback-bits`, two tiles a
/// look-back state).
fn sweep(method: Method, bits_input: bool, paired: bool) {
    for (variant, compactor) in regular() {
        if variant.contains("paired") != paired {
            continue;
        }
        for &n in &SIZES {
            for &density in &DENSITIES {
                let flags = common::random(n, density, n as u64 ^ density.to_bits());
                check(
                    variant,
                    compactor,
                    method,
                    bits_input,
                    &flags,
                    &format!("n{n}-d{density}"),
                );
            }
        }
    }
}

#[test]
fn lookback_matches_cpu() {
    sweep(Method::Lookback, false, false);
}

#[test]
fn lookback_paired_matches_cpu() {
    sweep(Method::Lookback, false, true);
}

#[test]
fn lookback_bits_matches_cpu() {
    sweep(Method::LookbackBits, true, false);
}

#[test]
fn lookback_bits_from_u32_flags_matches_cpu() {
    sweep(Method::LookbackBits, false, false);
}

#[test]
fn lookback_bits_two_tiles_a_state_matches_cpu() {
    sweep(Method::LookbackBits, true, true);
    sweep(Method::LookbackBits, false, true);
}

#[test]
fn tile_atomic_matches_cpu() {
    sweep(Method::TileAtomic, false, false);
}

#[test]
fn lookback_fallback_matches_cpu() {
    // Every tile counts every predecessor from its flags: quadratic, so the sizes
    // stop at 2^20 + 3 (257 tiles).
    for (variant, compactor) in fallback() {
        for &n in SIZES.iter().filter(|&&n| n <= (1 << 20) + 3) {
            for &density in &[0.001, 0.5, 1.0] {
                let flags = common::random(n, density, 99 ^ n as u64);
                let case = format!("n{n}-d{density}");
                check(variant, compactor, Method::Lookback, false, &flags, &case);
                check(
                    variant,
                    compactor,
                    Method::LookbackBits,
                    true,
                    &flags,
                    &case,
                );
            }
        }
    }
}

#[test]
fn pack_bits_matches_cpu() {
    for (variant, compactor) in regular() {
        for &n in &[1usize, 31, 32, 33, 255, 256, 257, 65_536, 70_001] {
            let flags = wild_flags(n, 0.5, 3 + n as u64);
            let buffer = compactor.upload(&flags).expect("upload");
            let compaction = compactor
                .prepare(&buffer, n as u64, Method::LookbackBits, 6)
                .expect("prepare");
            let mut encoder = compactor
                .device()
                .create_command_encoder(&Default::default());
            compactor.encode(&mut encoder, &compaction).expect("encode");
            compactor.queue().submit([encoder.finish()]);
            let bits = compaction.packed_bits().expect("packed bits");
            let read = read_words(compactor, bits, n.div_ceil(32) as u64);
            assert_eq!(read, cpu::pack_bits(&flags), "{variant} n={n}");
        }
    }
}

#[test]
fn any_nonzero_flag_is_visible() {
    for (variant, compactor) in variants().compactors.iter() {
        for &n in &[1usize, 257, 4097, 70_000] {
            let flags = wild_flags(n, 0.5, 7 + n as u64);
            let case = format!("wild-n{n}");
            for method in [Method::Lookback, Method::LookbackBits, Method::TileAtomic] {
                check(variant, compactor, method, false, &flags, &case);
            }
        }
        let extremes = [2, 0, u32::MAX, 0, 1, 0x8000_0000, 0, 0, 3, 0];
        for method in [Method::Lookback, Method::LookbackBits] {
            let out = pollster::block_on(compactor.run(&extremes, method)).expect("runs");
            assert_eq!(out.indices, vec![0, 2, 4, 5, 8], "{variant} {method}");
            assert_eq!(out.indirect.instance_count(), 5, "{variant} {method}");
        }
    }
}

#[test]
fn lookback_is_bit_identical_over_repeated_runs() {
    // One prepared compaction encoded again and again: the tile states carry over
    // from run to run (their codes alternate), so odd and even runs must agree,
    // also when several runs share one submission.
    let flags = common::random((1 << 20) + 3, 0.5, 42);
    let expected = cpu::lookback(&flags);
    for (variant, compactor) in regular() {
        let buffer = compactor.upload(&flags).expect("upload");
        let compaction = compactor
            .prepare(&buffer, flags.len() as u64, Method::Lookback, 6)
            .expect("prepare");
        for run in 0..20 {
            let device = compactor.device();
            let mut encoder = device.create_command_encoder(&Default::default());
            for _ in 0..run % 3 {
                compactor.encode(&mut encoder, &compaction).expect("encode");
            }
            compactor.queue().submit([encoder.finish()]);
            let out = encode_and_read(compactor, &compaction);
            assert!(
                out.indices == expected && out.count as usize == expected.len(),
                "{variant} run {run} differs (hash {:08x})",
                out.hash()
            );
        }
    }
}

#[test]
fn prepared_lookback_writes_indirect_on_the_gpu() {
    // The renderer path: prepare once, new flags, encode, read only the indirect buffer.
    for (variant, compactor) in regular() {
        let device = compactor.device();
        let flags_a = common::random(50_000, 0.3, 1);
        let flags_b = common::random(50_000, 0.7, 2);
        let buffer = compactor.upload(&flags_a).expect("upload");
        for method in [Method::Lookback, Method::LookbackBits, Method::TileAtomic] {
            let compaction = compactor
                .prepare(&buffer, 50_000, method, 3)
                .expect("prepare");
            for flags in [&flags_a, &flags_b, &flags_a] {
                compactor
                    .queue()
                    .write_buffer(&buffer, 0, bytemuck::cast_slice(flags));
                let mut encoder = device.create_command_encoder(&Default::default());
                compactor.encode(&mut encoder, &compaction).expect("encode");
                compactor.queue().submit([encoder.finish()]);
                let words = read_words(compactor, compaction.indirect(), 4);
                let visible = flags.iter().filter(|&&f| f != 0).count() as u32;
                assert_eq!(words, vec![3, visible, 0, 0], "{variant} {method}");
            }
        }
    }
}

#[test]
fn lookback_extra_memory_is_under_n_over_64_words() {
    let compactor = &variants().compactors[0].1;
    for n in [1usize, 4096, 4097, 100_000, 1 << 20] {
        let buffer = compactor.upload(&vec![1; n]).expect("upload");
        for method in [Method::Lookback, Method::TileAtomic] {
            let compaction = compactor
                .prepare(&buffer, n as u64, method, 6)
                .expect("prepare");
            let words = compaction.tile_states().expect("tile states").size() / 4;
            // One word per 4096 flags plus the ticket counter.
            assert!(
                words <= (n as u64).div_ceil(64).max(2),
                "{method} n={n}: {words} words"
            );
        }
    }
}

#[test]
fn lookback_refuses_more_flags_than_its_states_hold() {
    let compactor = &variants().compactors[0].1;
    let max = compactor.max_flags_for(Method::Lookback);
    let buffer = compactor.upload(&[1, 0, 1]).expect("upload");
    // Refused from the length, before the small buffer is even looked at.
    match compactor.prepare(&buffer, max + 1, Method::Lookback, 6) {
        Err(Error::TooLarge { n, max_flags, .. }) => assert_eq!((n, max_flags), (max + 1, max)),
        other => panic!("{:?}", other.map(|_| ())),
    }
}
