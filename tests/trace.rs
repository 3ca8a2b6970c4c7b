//! The scan's and `packed-scan`'s traces read from the real GPU buffers equal
//! the CPU mirror's, step by step; the CPU mirror's steps equal an independent
//! Hillis-Steele computation.

mod common;

use common::{compactor, wild_flags};
use wgpu_compaction::teaching::layout::NO_SLOT;
use wgpu_compaction::teaching::{self, cpu, MAX_TRACE_FLAGS};
use wgpu_compaction::{Error, Method};

#[test]
fn scan_trace_matches_cpu() {
    for &n in &[0usize, 1, 10, 255, 256, 257, 1000, 4096, 8192] {
        for &density in &[0.0, 0.3, 1.0] {
            let flags = common::random(n, density, n as u64 + 11);
            let gpu = pollster::block_on(teaching::trace_scan(compactor(), &flags)).expect("trace");
            let cpu = cpu::trace_scan(&flags);
            assert_eq!(gpu.levels.len(), cpu.levels.len(), "n={n}");
            for (level, (g, c)) in gpu.levels.iter().zip(&cpu.levels).enumerate() {
                assert_eq!(g, c, "n={n} density={density} level {level}");
            }
            assert_eq!(gpu, cpu, "n={n} density={density}");
        }
    }
    let wild = wild_flags(3000, 0.5, 5);
    let gpu = pollster::block_on(teaching::trace_scan(compactor(), &wild)).expect("trace");
    assert_eq!(gpu, cpu::trace_scan(&wild));
}

#[test]
fn cpu_trace_steps_are_hillis_steele() {
    let flags = wild_flags(700, 0.4, 9);
    let trace = cpu::trace_scan(&flags);
    let level = &trace.levels[0];
    assert_eq!(level.steps.len(), 9);
    for (block, chunk) in flags.chunks(256).enumerate() {
        let mut state: Vec<u32> = chunk.iter().map(|&f| u32::from(f != 0)).collect();
        let start = block * 256;
        assert_eq!(&level.steps[0][start..start + chunk.len()], &state[..]);
        for s in 1..=8 {
            let offset = 1 << (s - 1);
            let before = state.clone();
            for i in offset..state.len() {
                state[i] = before[i] + before[i - offset];
            }
            assert_eq!(
                &level.steps[s][start..start + chunk.len()],
                &state[..],
                "step {s}"
            );
        }
        // Exclusive prefix within the block, and the block sum.
        let mut running = 0;
        for (k, &f) in chunk.iter().enumerate() {
            assert_eq!(level.block_prefix[start + k], running);
            running += u32::from(f != 0);
        }
        assert_eq!(level.block_sums[block], running);
    }
    let mut running = 0;
    for (i, &f) in flags.iter().enumerate() {
        assert_eq!(trace.prefix()[i], running, "final prefix at {i}");
        running += u32::from(f != 0);
    }
    assert_eq!(trace.count, running);
}

#[test]
fn atomic_trace_slots_point_at_their_index() {
    let flags = common::random(3000, 0.4, 3);
    for method in [Method::Atomic, Method::Aggregated] {
        let trace =
            pollster::block_on(teaching::trace_atomic(compactor(), &flags, method)).expect("trace");
        assert_eq!(
            trace.count as usize,
            flags.iter().filter(|&&f| f != 0).count()
        );
        for (i, &slot) in trace.slots.iter().enumerate() {
            if flags[i] == 0 {
                assert_eq!(slot, NO_SLOT);
            } else {
                assert_eq!(trace.indices[slot as usize], i as u32);
            }
        }
    }
}

#[test]
fn packed_trace_matches_cpu() {
    // One tile, a tile's edge, two tiles (the most a trace reads), a word's edge.
    for &n in &[0usize, 1, 10, 31, 33, 4095, 4096, 4097, 8192] {
        for &density in &[0.0, 0.3, 1.0] {
            let flags = common::random(n, density, n as u64 + 7);
            let gpu =
                pollster::block_on(teaching::trace_packed(compactor(), &flags)).expect("trace");
            assert_eq!(gpu, cpu::trace_packed(&flags), "n={n} density={density}");
        }
    }
    let wild = wild_flags(5000, 0.5, 9);
    let gpu = pollster::block_on(teaching::trace_packed(compactor(), &wild)).expect("trace");
    let cpu = cpu::trace_packed(&wild);
    assert_eq!(gpu, cpu);
    // Independently of the mirror: the bits are the flags, the counts their tiles'.
    for (i, &f) in wild.iter().enumerate() {
        assert_eq!((gpu.bits[i / 32] >> (i % 32)) & 1 == 1, f != 0, "bit {i}");
    }
    let visible = |t: usize| {
        wild[t * 4096..((t + 1) * 4096).min(wild.len())]
            .iter()
            .filter(|&&f| f != 0)
            .count() as u32
    };
    assert_eq!(gpu.tile_counts, vec![visible(0), visible(1)]);
    assert_eq!(gpu.tile_slots, vec![0, visible(0)]);
}

#[test]
fn traces_refuse_arrays_too_large_to_read() {
    let flags = vec![1u32; MAX_TRACE_FLAGS + 1];
    let err = pollster::block_on(teaching::trace_scan(compactor(), &flags)).expect_err("refuses");
    assert!(matches!(err, Error::TraceTooLarge { .. }), "{err}");
    let err = pollster::block_on(teaching::trace_atomic(compactor(), &flags, Method::Atomic))
        .expect_err("refuses");
    assert!(matches!(err, Error::TraceTooLarge { .. }), "{err}");
    let err = pollster::block_on(teaching::trace_packed(compactor(), &flags)).expect_err("refuses");
    assert!(matches!(err, Error::TraceTooLarge { .. }), "{err}");
}
