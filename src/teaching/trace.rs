//! Step-by-step state of a compaction, as the playground shows it. The GPU fills
//! these from real buffers (`teaching::trace_*`), the CPU mirror from its own
//! simulation (`cpu::trace_*`); the tests require both to be equal.

use crate::layout::NO_SLOT;

/// One level of the recursive scan: the values scanned, the Hillis-Steele states
/// inside every block, the block sums and the offsets added back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanLevelTrace {
    /// Values scanned at this level: the flags at level 0, the block sums of the
    /// level below above that.
    pub input: Vec<u32>,
    /// `tmp` after the load (flags counted as 0/1) and after each step with offset
    /// 1, 2, 4, ... 128: `STEPS + 1` snapshots of `input.len()` values each.
    pub steps: Vec<Vec<u32>>,
    /// Exclusive prefix within each block, as `scan_block` writes it.
    pub block_prefix: Vec<u32>,
    /// Inclusive total of each block.
    pub block_sums: Vec<u32>,
    /// What `add_offsets` added to each block: the scanned block sums of the level
    /// above. Empty at the top level, whose single block needs no offset.
    pub offsets: Vec<u32>,
    /// The exclusive prefix of this level after the offsets were added.
    pub prefix: Vec<u32>,
}

/// Every state of one run of the scan (`Method::Scan`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanTrace {
    /// The flags scanned.
    pub flags: Vec<u32>,
    /// Level 0 first. Empty when there are no flags.
    pub levels: Vec<ScanLevelTrace>,
    /// The scatter's output: the dense list of visible indices, in order.
    pub indices: Vec<u32>,
    /// The number of visible flags.
    pub count: u32,
    /// The `instance_count` of the indirect arguments.
    pub instance_count: u32,
}

impl ScanTrace {
    /// The final exclusive prefix of the flags (level 0 after its offsets).
    pub fn prefix(&self) -> &[u32] {
        self.levels.first().map_or(&[], |level| &level.prefix)
    }
}

/// One run of an atomic method: which slot each visible invocation received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AtomicTrace {
    /// The flags compacted.
    pub flags: Vec<u32>,
    /// For every flag, the output slot its invocation received, or `NO_SLOT`.
    pub slots: Vec<u32>,
    /// The output, in the order the slots were taken.
    pub indices: Vec<u32>,
    /// The number of visible flags.
    pub count: u32,
    /// The `instance_count` of the indirect arguments.
    pub instance_count: u32,
}

impl AtomicTrace {
    /// Derives each invocation's slot from the output buffer: `indices[slot] = i`.
    pub fn from_indices(flags: Vec<u32>, indices: Vec<u32>, instance_count: u32) -> Self {
        let mut slots = vec![NO_SLOT; flags.len()];
        for (slot, &index) in indices.iter().enumerate() {
            if let Some(entry) = slots.get_mut(index as usize) {
                *entry = slot as u32;
            }
        }
        let count = indices.len() as u32;
        Self {
            flags,
            slots,
            indices,
            count,
            instance_count,
        }
    }
}

/// One run of `packed-scan`, kernel by kernel: the flags packed into bits, each
/// tile's count, the counts scanned into each tile's first slot, the scatter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackedTrace {
    /// The flags compacted.
    pub flags: Vec<u32>,
    /// `pack_bits_counted`'s bits: flag `i` is bit `i % 32` of word `i / 32`.
    pub bits: Vec<u32>,
    /// `pack_bits_counted`'s count of visible flags in each tile of `TILE` flags.
    pub tile_counts: Vec<u32>,
    /// `scan_tiles`' exclusive scan of the counts: where each tile's run starts.
    pub tile_slots: Vec<u32>,
    /// `tile_scatter_bits`' output: the visible indices, in order.
    pub indices: Vec<u32>,
    /// The number of visible flags.
    pub count: u32,
    /// The `instance_count` of the indirect arguments.
    pub instance_count: u32,
}

/// What a tile's state word says, decoded (`shaders/lookback.wgsl`: the value in
/// the high 30 bits, the status in the low 2). The discriminants are the kernel's
/// status codes for an even run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum TileStatus {
    /// Nothing published yet (or, for `tile-atomic`, never: it publishes no states).
    #[default]
    Invalid = 0,
    /// The tile's own count: its prefix is not known yet.
    Aggregate = 1,
    /// The count of the tile and every tile before it.
    Inclusive = 2,
}

impl TileStatus {
    /// Every status, in the order of its code.
    pub const ALL: [TileStatus; 3] = [Self::Invalid, Self::Aggregate, Self::Inclusive];

    /// `invalid`, `aggregate` or `inclusive`.
    pub fn name(self) -> &'static str {
        match self {
            TileStatus::Invalid => "invalid",
            TileStatus::Aggregate => "aggregate",
            TileStatus::Inclusive => "inclusive",
        }
    }
}

/// One tile of a tile trace. Which fields come from where:
/// - `first_flag`, `flags`: the tiling (tile `t` is the workgroup with ticket `t`);
/// - `aggregate`: counted from the flags on the CPU, always. The kernel keeps the
///   count in a register and overwrites the AGGREGATE it published with INCLUSIVE,
///   so after the pass no GPU buffer holds it;
/// - `status`, `inclusive`: look-back methods: decoded from the tile's state word
///   read back from the GPU (after a completed run every tile is INCLUSIVE);
/// - `exclusive`: look-back methods: the previous tile's `inclusive` (0 for tile
///   0), i.e. what the tile's look-back found, GPU readback too;
/// - `tile-atomic` publishes no states (every state word stays 0, `Invalid`):
///   `exclusive` is the slot where the tile's run starts in the read-back indices
///   (the value its atomicAdd returned) and `inclusive` is `exclusive + aggregate`;
///   both are `NO_SLOT` for a tile with no visible flag, whose place no buffer shows.
///
/// `teaching::trace_tiles` fills it from the GPU, `teaching::cpu::trace_tiles`
/// from the CPU mirror: for the look-back methods both must be equal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileTraceEntry {
    /// The tile's first flag.
    pub first_flag: u32,
    /// Flags in the tile: `TILE`, fewer in the last.
    pub flags: u32,
    /// The tile's own count of visible flags.
    pub aggregate: u32,
    /// The count of visible flags before the tile (where its run starts).
    pub exclusive: u32,
    /// The count up to the tile's end.
    pub inclusive: u32,
    /// The tile's published state after the run.
    pub status: TileStatus,
}

/// What a tile saw when its look-back read a predecessor's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ChainSeen {
    /// AGGREGATE: add the predecessor's count and look further back.
    Aggregate = 1,
    /// INCLUSIVE: add it and stop: it already counts everything before.
    Inclusive = 2,
    /// Nothing published (the predecessor's workgroup is stalled): after
    /// `SPIN_LIMIT` polls the tile counted the predecessor's flags itself and
    /// went on past it (the fallback).
    CountedItself = 3,
}

impl ChainSeen {
    /// Every outcome, in the order of its code (from 1).
    pub const ALL: [ChainSeen; 3] = [Self::Aggregate, Self::Inclusive, Self::CountedItself];

    /// `aggregate`, `inclusive` or `counted itself`.
    pub fn name(self) -> &'static str {
        match self {
            ChainSeen::Aggregate => "aggregate",
            ChainSeen::Inclusive => "inclusive",
            ChainSeen::CountedItself => "counted itself",
        }
    }
}

/// One predecessor read by a look-back, in the order read (nearest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainLink {
    /// The predecessor read.
    pub tile: u32,
    /// What it had published.
    pub seen: ChainSeen,
    /// What the look-back added: the published value, or the count it made itself.
    pub value: u32,
}

/// One tile's look-back in the simulated schedule.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileChain {
    /// The wave of `TileSchedule::in_flight` tiles the tile ran in.
    pub wave: u32,
    /// The tile's workgroup was the stalled one: it published late.
    pub stalled: bool,
    /// Empty for tile 0; otherwise ends at an `Inclusive` link or at tile 0.
    pub links: Vec<ChainLink>,
}

impl TileChain {
    /// The count before the tile, as its look-back summed it.
    pub fn exclusive(&self) -> u32 {
        self.links.iter().map(|link| link.value).sum()
    }
}

/// The schedule the CPU simulates for the look-back chains. A GPU records no
/// such thing: which states a workgroup read depends on timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSchedule {
    /// Workgroups resident at once: tiles start in waves of this many (at least 1);
    /// all of a wave publish AGGREGATE, then look back, then publish INCLUSIVE.
    pub in_flight: u32,
    /// A tile whose workgroup takes its ticket and then is not run until the rest
    /// of its wave has finished (as a GPU without forward-progress guarantees may
    /// do): its successors find nothing published and count its flags themselves.
    pub stalled: Option<u32>,
}

impl Default for TileSchedule {
    fn default() -> Self {
        Self {
            in_flight: 4,
            stalled: None,
        }
    }
}

/// One run of a tile method (`lookback`, `lookback-bits`, `tile-atomic`): the
/// tiles' states and offsets, the look-back chains of a simulated schedule, and
/// the output. See `TileTraceEntry` for which fields are GPU readback.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileTrace {
    /// Flags per tile.
    pub tile_size: u32,
    /// Every tile, in ticket order.
    pub tiles: Vec<TileTraceEntry>,
    /// Per tile, the look-back of `schedule` (CPU simulation, on every backend).
    /// Empty for `tile-atomic`, which does not look back.
    pub chains: Vec<TileChain>,
    /// The schedule the chains were simulated for.
    pub schedule: TileSchedule,
    /// The ticket counter after the run (GPU readback): the tickets taken (one per
    /// workgroup launched, two from `LookbackOptions::paired_from_tiles` tiles).
    pub tickets: u32,
    /// The output.
    pub indices: Vec<u32>,
    /// The number of visible flags.
    pub count: u32,
    /// The `instance_count` of the indirect arguments.
    pub instance_count: u32,
}
