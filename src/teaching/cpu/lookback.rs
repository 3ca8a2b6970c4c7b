//! CPU mirror of `shaders/lookback.wgsl`: the tiles in launch order. On the GPU a
//! tile learns the count before it by looking back over its predecessors' states
//! (or, when one is slow, by counting its flags itself); either way it is the sum
//! of the earlier tiles' counts, which is what this mirror adds up in order.

use crate::is_visible;
use crate::layout::{NO_SLOT, TILE};
use crate::teaching::trace::{
    ChainLink, ChainSeen, TileChain, TileSchedule, TileStatus, TileTrace, TileTraceEntry,
};

/// Compacts visible flags `span` at a time (what one workgroup takes), in order:
/// the visible indices.
fn compact_tiles(visible: impl Fn(usize) -> bool, len: usize, span: usize) -> Vec<u32> {
    (0..len)
        .step_by(span)
        .flat_map(|start| {
            (start..(start + span).min(len))
                .filter(|&i| visible(i))
                .map(|i| i as u32)
        })
        .collect()
}

/// `lookback`: u32 flags, any nonzero value visible. The visible indices, in order.
pub fn lookback(flags: &[u32]) -> Vec<u32> {
    compact_tiles(|i| is_visible(flags[i]), flags.len(), TILE)
}

/// `lookback_paired`: the same as `lookback`, its workgroups taking the tiles two
/// at a time (tickets 2g and 2g + 1), each pair written first tile first.
pub fn lookback_paired(flags: &[u32]) -> Vec<u32> {
    compact_tiles(|i| is_visible(flags[i]), flags.len(), 2 * TILE)
}

/// `lookback_bits`: the first `len` flags of `bits` (32 to a word, least significant first).
pub fn lookback_bits(bits: &[u32], len: usize) -> Vec<u32> {
    let bit = |i: usize| bits.get(i / 32).is_some_and(|w| (w >> (i % 32)) & 1 == 1);
    compact_tiles(bit, len, TILE)
}

/// Each tile's count of visible flags (its aggregate), in tile order, for tiles
/// (look-back states) of `span` flags.
pub fn tile_aggregates(flags: &[u32], span: usize) -> Vec<u32> {
    flags
        .chunks(span)
        .map(|tile| tile.iter().filter(|&&f| is_visible(f)).count() as u32)
        .collect()
}

/// The tiles of `span` flags of `flags` with their counts and the given offsets and status.
pub(crate) fn tile_entries(
    flags: &[u32],
    span: usize,
    aggregates: &[u32],
    exclusive: impl Fn(usize) -> u32,
    status: TileStatus,
) -> Vec<TileTraceEntry> {
    aggregates
        .iter()
        .enumerate()
        .map(|(t, &aggregate)| {
            let first_flag = t * span;
            let exclusive = exclusive(t);
            TileTraceEntry {
                first_flag: first_flag as u32,
                flags: (flags.len() - first_flag).min(span) as u32,
                aggregate,
                exclusive,
                inclusive: if exclusive == NO_SLOT {
                    NO_SLOT
                } else {
                    exclusive + aggregate
                },
                status,
            }
        })
        .collect()
}

/// The tiles (look-back states of `span` flags) after a `lookback` (or
/// `lookback-bits`) run: every one INCLUSIVE with the count up to its end.
pub fn lookback_tiles(flags: &[u32], span: usize) -> Vec<TileTraceEntry> {
    let aggregates = tile_aggregates(flags, span);
    let exclusive: Vec<u32> = aggregates
        .iter()
        .scan(0, |sum, &a| {
            let before = *sum;
            *sum += a;
            Some(before)
        })
        .collect();
    tile_entries(
        flags,
        span,
        &aggregates,
        |t| exclusive[t],
        TileStatus::Inclusive,
    )
}

/// The tiles (states of `span` flags) after a `lookback` run and each tile's chain
/// of predecessors, the look-back simulated for `schedule` (see
/// `teaching::cpu::trace_tiles`).
pub(crate) fn trace_lookback_tiles(
    flags: &[u32],
    schedule: &TileSchedule,
    span: usize,
) -> TileTrace {
    let tiles = lookback_tiles(flags, span);
    let aggregates: Vec<u32> = tiles.iter().map(|t| t.aggregate).collect();
    let indices = lookback(flags);
    TileTrace {
        tile_size: span as u32,
        chains: simulate_chains(&aggregates, schedule),
        schedule: schedule.clone(),
        tickets: tiles.len() as u32,
        tiles,
        count: indices.len() as u32,
        instance_count: indices.len() as u32,
        indices,
    }
}

/// Simulates the look-back: tiles start in waves of `in_flight` (in ticket
/// order). A wave's tiles publish AGGREGATE (tile 0 INCLUSIVE at once: nothing
/// comes before it), then each looks back predecessor by predecessor, adding
/// what it finds until an INCLUSIVE one, then all publish INCLUSIVE. A stalled
/// tile publishes nothing until the rest of its wave is done; meanwhile its
/// successors count its flags themselves (the fallback) and go on past it.
pub fn simulate_chains(aggregates: &[u32], schedule: &TileSchedule) -> Vec<TileChain> {
    let in_flight = schedule.in_flight.max(1) as usize;
    let stalled = schedule.stalled.map(|t| t as usize);
    let mut states = vec![(TileStatus::Invalid, 0u32); aggregates.len()];
    let mut chains = vec![TileChain::default(); aggregates.len()];
    let publish_aggregate = |states: &mut [(TileStatus, u32)], t: usize| {
        let status = if t == 0 {
            TileStatus::Inclusive
        } else {
            TileStatus::Aggregate
        };
        states[t] = (status, aggregates[t]);
    };
    for start in (0..aggregates.len()).step_by(in_flight) {
        let wave = start..(start + in_flight).min(aggregates.len());
        let running: Vec<usize> = wave.clone().filter(|&t| Some(t) != stalled).collect();
        for &t in &running {
            publish_aggregate(&mut states, t);
        }
        // The whole wave looks back before any of it publishes INCLUSIVE.
        for &t in &running {
            chains[t].links = look_back(t, &states, aggregates);
        }
        for &t in &running {
            states[t] = (TileStatus::Inclusive, chains[t].exclusive() + aggregates[t]);
        }
        if let Some(t) = stalled.filter(|t| wave.contains(t)) {
            publish_aggregate(&mut states, t);
            chains[t].links = look_back(t, &states, aggregates);
            chains[t].stalled = true;
            states[t] = (TileStatus::Inclusive, chains[t].exclusive() + aggregates[t]);
        }
        for t in wave {
            chains[t].wave = (start / in_flight) as u32;
        }
    }
    chains
}

/// Tile `t`'s look-back over the states as they are now, nearest first.
fn look_back(t: usize, states: &[(TileStatus, u32)], aggregates: &[u32]) -> Vec<ChainLink> {
    let mut links = Vec::new();
    for j in (0..t).rev() {
        let (seen, value) = match states[j] {
            (TileStatus::Inclusive, value) => (ChainSeen::Inclusive, value),
            (TileStatus::Aggregate, value) => (ChainSeen::Aggregate, value),
            (TileStatus::Invalid, _) => (ChainSeen::CountedItself, aggregates[j]),
        };
        links.push(ChainLink {
            tile: j as u32,
            seen,
            value,
        });
        if seen == ChainSeen::Inclusive {
            break;
        }
    }
    links
}
