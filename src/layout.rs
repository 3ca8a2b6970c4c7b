//! The kernels' sizes, defined once: the WGSL files mirror them and a test
//! (`gpu::tests`) fails when the two drift.

/// Elements per block of the prefix scan (`Method::Scan`): one workgroup each.
pub const BLOCK: usize = 256;
/// Hillis-Steele steps inside a block: log2(`BLOCK`).
pub const STEPS: usize = 8;
/// Flags per tile of the single-pass methods (`Lookback`, `LookbackBits`,
/// `TileAtomic`): one workgroup each.
pub const TILE: usize = 4096;
/// The single-pass methods' tile states hold 30-bit counts: they take fewer flags than this.
pub const TILE_MAX_FLAGS: u64 = 1 << 30;
/// Marks a flag that received no output slot in [`crate::teaching::trace::AtomicTrace::slots`].
pub const NO_SLOT: u32 = u32::MAX;

/// Invocations per workgroup of the look-back kernels.
pub(crate) const LOOKBACK_WORKGROUP: usize = 128;
/// Invocations per workgroup of the article's atomic kernels and the scatter:
/// `aggregated` reserves one range a workgroup of this many.
pub const ATOMIC_WORKGROUP: usize = 64;
/// Invocations per workgroup of `pack_bits` (one output word each).
pub(crate) const PACK_BITS_WORKGROUP: usize = 256;
/// Invocations per workgroup of `tile_counts` (four bit words each).
pub(crate) const TILE_COUNTS_WORKGROUP: usize = 256;
/// Invocations per workgroup of the segment kernels (`segment_args`: one segment a
/// workgroup; `segment_args_grouped`: one an invocation).
pub(crate) const SEGMENT_ARGS_WORKGROUP: usize = 64;
/// Flags per group slot: a segmented `Lookback` or `LookbackBits` writes the slot of
/// every `GROUP`th flag (shaders/group_slots.wgsl).
pub(crate) const GROUP: u64 = 32;

/// The word of `tile_states` where the group slots start, for a capacity of
/// `capacity` flags: past the ticket and a state a tile, at a multiple of 64 words
/// (a 256-byte binding offset). `group_slots_start` in shaders/group_slots.wgsl.
pub(crate) fn group_slots_start(capacity: u64) -> u64 {
    (capacity.div_ceil(TILE as u64) + 1).div_ceil(64) * 64
}

/// The group slots' words: whole tiles of the capacity (one for none, so that
/// an empty compaction binds them too).
pub(crate) fn group_slot_words(capacity: u64) -> u64 {
    capacity.div_ceil(TILE as u64).max(1) * (TILE as u64 / GROUP)
}

/// The word of `tile_states` where a culled compaction's group bits start (one
/// bit word a group, as many words as the group slots): right after the slots,
/// still at a multiple of 64 words. `group_bits_start` in shaders/group_slots.wgsl.
pub(crate) fn group_bits_start(capacity: u64) -> u64 {
    group_slots_start(capacity) + capacity.div_ceil(TILE as u64) * (TILE as u64 / GROUP)
}

/// The most u32 words of payload per object.
pub(crate) const MAX_PAYLOAD_WORDS: u32 = 64;
/// Invocations of `scan_tiles`' one workgroup.
pub(crate) const SCAN_TILES_WORKGROUP: usize = 256;
/// Tile counts each `scan_tiles` invocation takes a round (and the most it can).
pub(crate) const SCAN_TILES_PER_INVOCATION: u32 = 64;
/// The look-back rounds a tile waits for one predecessor before counting its flags.
pub(crate) const SPIN_LIMIT: u32 = 64;
/// The capacity in tiles from which `Lookback` runs `lookback_paired`, two tiles a
/// workgroup.
pub(crate) const PAIRED_FROM_TILES: u32 = 8192;
/// The capacity in tiles from which `LookbackBits` takes two tiles a look-back
/// state (`SUBTILES` in shaders/lookback.wgsl): 2^26 flags (BENCHMARKS.md v28).
pub(crate) const WIDE_BITS_FROM_TILES: u32 = 16384;
/// Tiles a `LookbackBits` look-back state covers from there.
pub const WIDE_BITS_SUBTILES: u32 = 2;

/// Tiles of `TILE` flags a look-back state of `method` covers on a capacity of
/// `capacity` flags, with `LookbackBits` wide from `wide_from_tiles` tiles: the
/// kernels' `SUBTILES`, and the span of a tile trace's entries.
pub(crate) fn subtiles(method: crate::Method, capacity: u64, wide_from_tiles: u32) -> u32 {
    let tiles = capacity.div_ceil(TILE as u64);
    if method == crate::Method::LookbackBits && tiles >= u64::from(wide_from_tiles) {
        WIDE_BITS_SUBTILES
    } else {
        1
    }
}

/// The binding of the live-length uniform in every kernel that reads flags.
pub(crate) const LIVE_BINDING: u32 = 7;
/// Bytes in one u32 word.
pub(crate) const WORD: u64 = 4;

/// The one meaning of a flag in every kernel and mirror: any nonzero value is visible.
pub fn is_visible(flag: u32) -> bool {
    flag != 0
}

/// The lengths of the recursion levels: `n`, then the number of blocks of each
/// level, until one block holds everything. Empty for `n == 0`.
pub fn scan_level_lengths(n: usize) -> Vec<usize> {
    let mut lengths = Vec::new();
    let mut len = n;
    while len > 0 {
        lengths.push(len);
        if len <= BLOCK {
            break;
        }
        len = len.div_ceil(BLOCK);
    }
    lengths
}

/// What a teaching tool fills a learner's index buffer and a traced scan's
/// snapshots with before a run: a word still holding it was never written (no
/// index reaches it: at most 2^32 - 2 flags).
pub const UNWRITTEN: u32 = u32::MAX;
