//! Step-by-step state of a compaction, as the playground shows it. The GPU fills
//! these from real buffers (`Compactor::trace_*`), the CPU mirror from its own
//! simulation (`cpu::trace_*`); the tests require both to be equal.

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

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanTrace {
    pub flags: Vec<u32>,
    /// Level 0 first. Empty when there are no flags.
    pub levels: Vec<ScanLevelTrace>,
    /// The scatter's output: the dense list of visible indices, in order.
    pub indices: Vec<u32>,
    pub count: u32,
    pub instance_count: u32,
}

impl ScanTrace {
    /// The final exclusive prefix of the flags (level 0 after its offsets).
    pub fn prefix(&self) -> &[u32] {
        self.levels.first().map_or(&[], |level| &level.prefix)
    }
}

/// Marks flags that received no slot in `AtomicTrace::slots`.
pub const NO_SLOT: u32 = u32::MAX;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AtomicTrace {
    pub flags: Vec<u32>,
    /// For every flag, the output slot its invocation received, or `NO_SLOT`.
    pub slots: Vec<u32>,
    pub indices: Vec<u32>,
    pub count: u32,
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
