//! CPU mirror of `shaders/tile_atomic.wgsl`: the tiles of the look-back, each
//! taking its output range with one atomicAdd (in the order they started).

use super::lookback::{tile_aggregates, tile_entries};
use crate::is_visible;
use crate::layout::{NO_SLOT, TILE};
use crate::teaching::trace::{TileSchedule, TileStatus, TileTrace};

/// `tile_atomic`: tiles take their output ranges in the order `schedule` gives
/// (tile indices); inside a tile the order is kept.
pub fn tile_atomic_scheduled(flags: &[u32], schedule: impl IntoIterator<Item = usize>) -> Vec<u32> {
    let mut indices = Vec::with_capacity(flags.len());
    for tile in schedule {
        let start = tile * TILE;
        let end = (start + TILE).min(flags.len());
        indices.extend(
            (start..end)
                .filter(|&i| is_visible(flags[i]))
                .map(|i| i as u32),
        );
    }
    indices
}

/// Tiles in launch order.
pub fn tile_atomic(flags: &[u32]) -> Vec<u32> {
    tile_atomic_scheduled(flags, 0..flags.len().div_ceil(TILE))
}

/// `tile_atomic` in launch order: each tile's run starts where the tiles before
/// it ended. No states are published (all stay INVALID) and nothing looks back.
pub(crate) fn trace_tile_atomic(flags: &[u32]) -> TileTrace {
    let aggregates = tile_aggregates(flags, TILE);
    let mut next = 0;
    let exclusive: Vec<u32> = aggregates
        .iter()
        .map(|&a| {
            let base = next;
            next += a;
            if a == 0 {
                NO_SLOT
            } else {
                base
            }
        })
        .collect();
    let indices = tile_atomic(flags);
    TileTrace {
        tile_size: TILE as u32,
        tiles: tile_entries(
            flags,
            TILE,
            &aggregates,
            |t| exclusive[t],
            TileStatus::Invalid,
        ),
        chains: Vec::new(),
        schedule: TileSchedule::default(),
        tickets: aggregates.len() as u32,
        count: indices.len() as u32,
        instance_count: indices.len() as u32,
        indices,
    }
}
