//! Tile traces of the single-pass methods: the tile states read back from the GPU
//! equal the CPU mirror's, and the CPU's simulated look-back chains add up.

mod common;

use common::{compactor, expected_indices, save_failure, wild_flags};
use wgpu_compaction::teaching::cpu::lookback as cpu_lookback;
use wgpu_compaction::teaching::layout::{NO_SLOT, TILE};
use wgpu_compaction::teaching::trace::{ChainSeen, TileSchedule, TileStatus, TileTrace};
use wgpu_compaction::teaching::{self, cpu};
use wgpu_compaction::{Error, Method};

/// The GPU's tile trace of `flags` (the chains simulated for `schedule`).
fn gpu_trace(flags: &[u32], method: Method, schedule: &TileSchedule) -> TileTrace {
    pollster::block_on(teaching::trace_tiles(compactor(), flags, method, schedule))
        .expect("tile trace")
}

const SIZES: [usize; 6] = [0, 1, TILE - 1, TILE, TILE + 1, 100_000];

/// Seeded inputs: each size at three densities, and flags 2 and 0xFFFFFFFF.
fn inputs() -> Vec<(String, Vec<u32>)> {
    let mut inputs = Vec::new();
    for &n in &SIZES {
        for &density in &[0.0, 0.3, 1.0] {
            inputs.push((
                format!("n{n}-d{density}"),
                common::random(n, density, n as u64 + 7),
            ));
        }
        let mut odd = wild_flags(n, 0.5, n as u64 + 3);
        for (i, f) in odd.iter_mut().enumerate() {
            if *f != 0 {
                *f = if i % 2 == 0 { 2 } else { u32::MAX };
            }
        }
        inputs.push((format!("n{n}-2-max"), odd));
    }
    inputs
}

/// The count of visible flags up to the end of each tile, the plainest way.
fn inclusive_counts(flags: &[u32]) -> Vec<u32> {
    let mut sum = 0;
    flags
        .chunks(TILE)
        .map(|tile| {
            sum += tile.iter().filter(|&&f| f != 0).count() as u32;
            sum
        })
        .collect()
}

#[test]
fn trace_tiles_matches_cpu() {
    for (name, flags) in inputs() {
        let schedule = TileSchedule::default();
        for method in [Method::Lookback, Method::LookbackBits] {
            let cpu = cpu::trace_tiles(&flags, method, &schedule).expect("cpu tile trace");
            let gpu = gpu_trace(&flags, method, &schedule);
            if gpu != cpu {
                let path = save_failure(&format!("trace_tiles-{method}-{name}"), &flags);
                assert_eq!(gpu.tiles, cpu.tiles, "{method} {name} (flags in {path})");
                assert_eq!(gpu, cpu, "{method} {name} (flags in {path})");
            }
            let inclusive: Vec<u32> = gpu.tiles.iter().map(|t| t.inclusive).collect();
            assert_eq!(inclusive, inclusive_counts(&flags), "{method} {name}");
            assert!(
                gpu.tiles.iter().all(|t| t.status == TileStatus::Inclusive),
                "{method} {name}: every tile INCLUSIVE after the run"
            );
            assert_eq!(gpu.indices, expected_indices(&flags), "{method} {name}");
            assert_eq!(
                gpu.count as usize,
                expected_indices(&flags).len(),
                "the GPU's count buffer"
            );
            assert_eq!(gpu.instance_count, gpu.count);
            assert_eq!(gpu.tickets as usize, flags.len().div_ceil(TILE));
        }
    }
}

/// Every chain reads consecutive predecessors nearest first, adds up to the
/// tile's exclusive count, and ends at an INCLUSIVE tile or at tile 0.
fn check_chains(trace: &TileTrace, what: &str) {
    let schedule = &trace.schedule;
    for (t, (tile, chain)) in trace.tiles.iter().zip(&trace.chains).enumerate() {
        assert_eq!(chain.exclusive(), tile.exclusive, "{what} tile {t}");
        assert_eq!(
            tile.exclusive + tile.aggregate,
            tile.inclusive,
            "{what} tile {t}"
        );
        assert_eq!(
            chain.wave as usize,
            t / schedule.in_flight as usize,
            "{what}"
        );
        assert_eq!(chain.stalled, schedule.stalled == Some(t as u32), "{what}");
        for (k, link) in chain.links.iter().enumerate() {
            assert_eq!(link.tile as usize, t - 1 - k, "{what} tile {t} link {k}");
            let before = &trace.tiles[link.tile as usize];
            let value = match link.seen {
                ChainSeen::Inclusive => before.inclusive,
                ChainSeen::Aggregate | ChainSeen::CountedItself => before.aggregate,
            };
            assert_eq!(link.value, value, "{what} tile {t} link {k}");
            if link.seen == ChainSeen::CountedItself {
                assert_eq!(
                    schedule.stalled,
                    Some(link.tile),
                    "{what}: only the stalled tile is counted"
                );
            }
            let last = k + 1 == chain.links.len();
            if !last {
                assert_ne!(
                    link.seen,
                    ChainSeen::Inclusive,
                    "{what} tile {t}: stops at INCLUSIVE"
                );
            }
        }
        match chain.links.last() {
            None => assert_eq!(t, 0, "{what}: only tile 0 has nothing to look back on"),
            Some(end) => assert!(
                end.seen == ChainSeen::Inclusive || end.tile == 0,
                "{what} tile {t}: the chain ends at an INCLUSIVE tile or at tile 0"
            ),
        }
        // A running tile never reads past its wave and the tile just before it.
        if !chain.stalled {
            assert!(
                chain.links.len() <= schedule.in_flight as usize,
                "{what} tile {t}"
            );
        }
    }
}

#[test]
fn tile_trace_chains_add_up() {
    let flags = common::random(100_000, 0.4, 21);
    let tiles = flags.len().div_ceil(TILE) as u32;
    for in_flight in [1, 2, 4, 8, 64] {
        for stalled in [None, Some(0), Some(1), Some(5), Some(tiles - 1)] {
            let schedule = TileSchedule { in_flight, stalled };
            let trace = cpu::trace_tiles(&flags, Method::Lookback, &schedule).expect("trace");
            let what = format!("in_flight {in_flight}, stalled {stalled:?}");
            check_chains(&trace, &what);
            // The schedule changes the chains, never the result.
            assert_eq!(
                trace.tiles,
                cpu_lookback::lookback_tiles(&flags, TILE),
                "{what}"
            );
            let same_wave = |s: u32| s + 1 < tiles && (s + 1) / in_flight == s / in_flight;
            if let Some(s) = stalled.filter(|&s| same_wave(s)) {
                let s = s as usize;
                assert!(
                    trace.chains[s + 1].links[0].seen == ChainSeen::CountedItself,
                    "{what}: the stalled tile's successor counts it itself"
                );
            }
        }
    }
    // The wave structure: with 4 in flight, tile 6 reads 5 and 4 (AGGREGATE) then 3 (INCLUSIVE).
    let schedule = TileSchedule {
        in_flight: 4,
        stalled: None,
    };
    let trace = cpu::trace_tiles(&flags, Method::Lookback, &schedule).expect("trace");
    let seen: Vec<(u32, ChainSeen)> = trace.chains[6]
        .links
        .iter()
        .map(|l| (l.tile, l.seen))
        .collect();
    assert_eq!(
        seen,
        [
            (5, ChainSeen::Aggregate),
            (4, ChainSeen::Aggregate),
            (3, ChainSeen::Inclusive)
        ]
    );
    // The GPU trace carries the same simulation.
    let schedule = TileSchedule {
        in_flight: 8,
        stalled: Some(3),
    };
    let gpu = gpu_trace(&flags, Method::Lookback, &schedule);
    check_chains(&gpu, "gpu, 8 in flight, tile 3 stalled");
}

#[test]
fn tile_atomic_trace_reads_each_run_from_the_gpu() {
    for (name, flags) in inputs() {
        let schedule = TileSchedule::default();
        let gpu = gpu_trace(&flags, Method::TileAtomic, &schedule);
        let cpu = cpu::trace_tiles(&flags, Method::TileAtomic, &schedule).expect("cpu trace");
        assert_eq!(gpu.tiles.len(), cpu.tiles.len(), "{name}");
        assert!(gpu.chains.is_empty(), "tile-atomic does not look back");
        assert_eq!(gpu.tickets as usize, gpu.tiles.len(), "{name}");
        assert_eq!(gpu.count as usize, expected_indices(&flags).len(), "{name}");
        assert_eq!(gpu.instance_count, gpu.count);
        let mut covered = vec![false; gpu.count as usize];
        for (t, tile) in gpu.tiles.iter().enumerate() {
            assert_eq!(
                tile.status,
                TileStatus::Invalid,
                "{name}: tile-atomic publishes no state"
            );
            assert_eq!(tile.aggregate, cpu.tiles[t].aggregate, "{name} tile {t}");
            let first = tile.first_flag as usize;
            let own = expected_indices(&flags[first..first + tile.flags as usize]);
            if own.is_empty() {
                assert_eq!(
                    (tile.exclusive, tile.inclusive),
                    (NO_SLOT, NO_SLOT),
                    "{name} tile {t}"
                );
                continue;
            }
            let run = &gpu.indices[tile.exclusive as usize..tile.inclusive as usize];
            let own: Vec<u32> = own.iter().map(|i| i + first as u32).collect();
            assert_eq!(run, &own[..], "{name} tile {t}: its run, in order");
            for slot in tile.exclusive..tile.inclusive {
                assert!(
                    !std::mem::replace(&mut covered[slot as usize], true),
                    "{name}"
                );
            }
        }
        assert!(
            covered.iter().all(|&c| c),
            "{name}: the runs fill the output"
        );
    }
}

#[test]
fn tile_traces_refuse_methods_without_tiles() {
    let flags = vec![1u32; 10];
    for method in [Method::Atomic, Method::Aggregated, Method::Scan] {
        let schedule = TileSchedule::default();
        let err = pollster::block_on(teaching::trace_tiles(
            compactor(),
            &flags,
            method,
            &schedule,
        ))
        .expect_err("refuses");
        assert!(matches!(err, Error::NotTiled(_)), "{err}");
        let err = cpu::trace_tiles(&flags, method, &TileSchedule::default()).expect_err("refuses");
        assert!(matches!(err, Error::NotTiled(_)), "{err}");
    }
}

#[test]
fn wide_bits_tile_traces_read_one_state_per_two_tiles() {
    // Two tiles a look-back state from the first tile: the trace's tiles are the states.
    let shared = compactor();
    let wide = wgpu_compaction::Compactor::with_options(
        shared.device(),
        shared.queue(),
        wgpu_compaction::teaching::LookbackOptions {
            wide_bits_from_tiles: 1,
            ..Default::default()
        },
    );
    for (name, flags) in inputs() {
        let schedule = TileSchedule::default();
        let gpu = pollster::block_on(teaching::trace_tiles(
            &wide,
            &flags,
            Method::LookbackBits,
            &schedule,
        ))
        .expect("tile trace");
        // (No tile, no state: an empty array keeps the one-tile span.)
        let span = if flags.is_empty() { TILE } else { 2 * TILE };
        assert_eq!(gpu.tile_size as usize, span, "{name}");
        assert_eq!(
            gpu.tiles,
            cpu_lookback::lookback_tiles(&flags, span),
            "{name}"
        );
        assert_eq!(gpu.indices, expected_indices(&flags), "{name}");
        check_chains(&gpu, &format!("wide {name}"));
    }
}
