//! CPU mirror of `shaders/lookback.wgsl`: the tiles in launch order. On the GPU a
//! tile learns the count before it by looking back over its predecessors' states
//! (or, when one is slow, by counting its flags itself); either way it is the sum
//! of the earlier tiles' counts, which is what this mirror adds up in order.

use crate::flags::is_visible;

/// Invocations per workgroup.
pub const WORKGROUP_SIZE: usize = 256;
/// Flags per tile (128 bit words), in every entry point.
pub const TILE: usize = 4096;
/// The states hold 30-bit counts: the look-back methods take fewer flags than this.
pub const MAX_FLAGS: u64 = 1 << 30;

/// What each tile publishes, in tile order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileStates {
    /// Each tile's own count of visible flags (its "aggregate").
    pub aggregates: Vec<u32>,
    /// The count of visible flags in the tile and all before it.
    pub inclusive: Vec<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LookbackOutput {
    pub indices: Vec<u32>,
    pub tiles: TileStates,
}

/// Compacts visible flags (0/1 per entry) tile by tile.
fn compact_tiles(visible: impl Fn(usize) -> bool, len: usize) -> LookbackOutput {
    let mut indices = Vec::new();
    let mut tiles = TileStates::default();
    for start in (0..len).step_by(TILE) {
        let before = indices.len();
        indices.extend(
            (start..(start + TILE).min(len))
                .filter(|&i| visible(i))
                .map(|i| i as u32),
        );
        tiles.aggregates.push((indices.len() - before) as u32);
        tiles.inclusive.push(indices.len() as u32);
    }
    LookbackOutput { indices, tiles }
}

/// `lookback`: u32 flags, any nonzero value visible.
pub fn lookback(flags: &[u32]) -> LookbackOutput {
    compact_tiles(|i| is_visible(flags[i]), flags.len())
}

/// `lookback_bits`: the first `len` flags of `bits` (32 to a word, least significant first).
pub fn lookback_bits(bits: &[u32], len: usize) -> LookbackOutput {
    let bit = |i: usize| bits.get(i / 32).is_some_and(|w| (w >> (i % 32)) & 1 == 1);
    compact_tiles(bit, len)
}

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
