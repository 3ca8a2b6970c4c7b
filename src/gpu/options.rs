//! How the single-pass kernels are built: what a renderer may choose (subgroups)
//! and the knobs of tests and measurement.

use crate::layout::{
    PAIRED_FROM_TILES, SCAN_TILES_PER_INVOCATION, SPIN_LIMIT, WIDE_BITS_FROM_TILES,
};

/// Words after the tile states that [`LookbackOptions::stats`] counts into:
/// wide rounds, polls, fallbacks, tiles (summed over tiles), then the workgroups
/// running now and the most that ever ran at once.
pub const STAT_WORDS: u64 = 8;

/// How the look-back kernels (`Lookback`, `LookbackBits`, `TileAtomic`) are built.
/// The default is what a renderer wants; the other fields are for tests and
/// measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookbackOptions {
    /// Use subgroup operations when the device has `SUBGROUP` (default true).
    pub subgroups: bool,
    /// Look-back rounds spent waiting for one predecessor before counting its flags.
    pub spin_limit: u32,
    /// Tests only: ignore every published tile state, so that each tile counts all
    /// its predecessors itself (the fallback path, made deterministic).
    pub stress_fallback: bool,
    /// The capacity in tiles (4096 flags each) from which [`crate::Method::Lookback`]
    /// runs `lookback_paired`, two tiles a workgroup (default 8192, 2^25 flags);
    /// lower it to test that schedule on small arrays.
    pub paired_from_tiles: u32,
    /// The capacity in tiles from which [`crate::Method::LookbackBits`] takes two
    /// tiles a look-back state, so that its chain of states is half as long
    /// (default 16384, 2^26 flags; `u32::MAX` never); lower it to test that build on
    /// small arrays. Tile traces follow it.
    pub wide_bits_from_tiles: u32,
    /// Tests only: the tile counts each invocation of `scan_tiles`
    /// ([`crate::Method::PackedScan`]) takes a round, a multiple of 4 up to 64 (the
    /// default: one round up to 16384 tiles); lower it to scan in many rounds on
    /// small arrays.
    pub scan_tiles_per_invocation: u32,
    /// Measurement only: count look-back events in [`STAT_WORDS`] words after the
    /// tile states (see [`crate::Compaction::tile_states`]).
    pub stats: bool,
    /// wgpu's bounds checks and loop bounding in the generated shader (native
    /// only; browsers always check). `false` is for measuring what they cost.
    pub runtime_checks: bool,
    /// Measurement only: WGSL to build instead of the tile kernels' own files
    /// (`shaders/tiles.wgsl`, `lookback.wgsl`, `tile_atomic.wgsl`,
    /// `tile_scatter_bits.wgsl`, in that order), with the same entry points,
    /// bindings, overrides and tile size; composed with the module's other files
    /// like them (the scan and look-back variant only unless it defines its own
    /// `fn workgroup_scan(`).
    pub source: Option<&'static str>,
}

impl Default for LookbackOptions {
    fn default() -> Self {
        Self {
            subgroups: true,
            spin_limit: SPIN_LIMIT,
            stress_fallback: false,
            paired_from_tiles: PAIRED_FROM_TILES,
            wide_bits_from_tiles: WIDE_BITS_FROM_TILES,
            scan_tiles_per_invocation: SCAN_TILES_PER_INVOCATION,
            stats: false,
            runtime_checks: true,
            source: None,
        }
    }
}

impl LookbackOptions {
    /// Whether [`Self::subgroups`] picks the workgroup scan and look-back the kernels
    /// are built with: false for a [`Self::source`] that brings its own
    /// (`fn workgroup_scan(`), which is built as it is.
    pub fn scan_follows_subgroups(&self) -> bool {
        !self.source.is_some_and(super::catalogue::brings_own_scan)
    }
}
