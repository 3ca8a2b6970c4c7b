//! CPU mirrors of every GPU kernel: the oracle of the tests and the playground's
//! "CPU reference" when the browser has no WebGPU. Nothing here knows wgpu.

pub mod add_offsets;
pub mod atomic_aggregated;
pub mod atomic_counter;
pub mod inputs;
pub mod lookback;
pub mod pack_bits;
pub mod payload;
pub mod scan_block;
pub mod scan_tiles;
pub mod scatter;
pub mod segment_args;
pub mod tile_atomic;
pub mod tile_counts;
pub mod tile_scatter_bits;

/// The scan's recursion levels (the library's, re-exported for the mirrors' users).
pub use crate::layout::scan_level_lengths;
pub use add_offsets::add_offsets;
pub use atomic_aggregated::atomic_aggregated;
pub use atomic_counter::atomic_counter;
pub use lookback::{lookback, lookback_bits, lookback_paired};
pub use pack_bits::{pack_bits, pack_bits_counted};
pub use payload::payload;
pub use scan_block::scan_block;
pub use scan_tiles::scan_tiles;
pub use scatter::scatter;
pub use segment_args::{group_slots, pack_records, segment_args, segment_args_grouped};
pub use tile_atomic::tile_atomic;
pub use tile_counts::tile_counts;
pub use tile_scatter_bits::tile_scatter_bits;

use crate::error::{Error, Result};
use crate::output::{CompactionOutput, DrawArgs};
use crate::teaching::trace::{
    AtomicTrace, PackedTrace, ScanLevelTrace, ScanTrace, TileSchedule, TileTrace,
};
use crate::Method;

/// The whole order-preserving compaction, keeping every intermediate state.
pub fn trace_scan(flags: &[u32]) -> ScanTrace {
    let mut levels: Vec<ScanLevelTrace> = Vec::new();
    let mut input = flags.to_vec();
    for level in 0..scan_level_lengths(flags.len()).len() {
        let out = scan_block(&input, level == 0);
        let next = out.block_sums.clone();
        levels.push(ScanLevelTrace {
            input,
            steps: out.steps,
            prefix: out.prefix.clone(),
            block_prefix: out.prefix,
            block_sums: out.block_sums,
            offsets: Vec::new(),
        });
        input = next;
    }
    // Down the levels: each one's offsets are the finished prefix of the one above.
    for level in (0..levels.len().saturating_sub(1)).rev() {
        let offsets = levels[level + 1].prefix.clone();
        add_offsets(&mut levels[level].prefix, &offsets);
        levels[level].offsets = offsets;
    }
    let count = levels.last().map_or(0, |top| top.block_sums[0]);
    let prefix = levels.first().map_or(Vec::new(), |l| l.prefix.clone());
    let indices = scatter(flags, &prefix, count);
    ScanTrace {
        flags: flags.to_vec(),
        levels,
        indices,
        count,
        instance_count: count,
    }
}

/// The CPU mirror of an atomic method's run, slot by slot.
pub fn trace_atomic(flags: &[u32], method: Method) -> AtomicTrace {
    let indices = compact(flags, method, DrawArgs::vertices(0)).indices;
    let count = indices.len() as u32;
    AtomicTrace::from_indices(flags.to_vec(), indices, count)
}

/// The CPU mirror of `packed-scan`'s run ([`crate::teaching::trace_packed`]'
/// shape), kernel by kernel.
pub fn trace_packed(flags: &[u32]) -> PackedTrace {
    let (bits, tile_counts) = pack_bits_counted(flags);
    let (tile_slots, count) = scan_tiles(&tile_counts);
    let mut indices = vec![0; count as usize];
    tile_scatter_bits(&bits, flags.len(), &tile_slots, &mut indices);
    PackedTrace {
        flags: flags.to_vec(),
        bits,
        tile_counts,
        tile_slots,
        indices,
        count,
        instance_count: count,
    }
}

/// The CPU mirror of a tile method's run ([`crate::teaching::trace_tiles`]'
/// shape): the look-back methods with the chains of `schedule`, `tile-atomic` in
/// launch order. Its tiles are the look-back states of a compactor with the
/// default options (two tiles of 4096 flags each for `lookback-bits` on 2^26
/// flags and more).
pub fn trace_tiles(flags: &[u32], method: Method, schedule: &TileSchedule) -> Result<TileTrace> {
    match method {
        Method::Lookback | Method::LookbackBits => {
            let subtiles = crate::layout::subtiles(
                method,
                flags.len() as u64,
                crate::layout::WIDE_BITS_FROM_TILES,
            );
            let span = crate::layout::TILE * subtiles as usize;
            Ok(lookback::trace_lookback_tiles(flags, schedule, span))
        }
        Method::TileAtomic => Ok(tile_atomic::trace_tile_atomic(flags)),
        _ => Err(Error::NotTiled(method)),
    }
}

/// `packed-scan` of the first `len` flags of `bits`, kernel by kernel: the visible indices.
pub fn packed_scan(bits: &[u32], len: usize) -> Vec<u32> {
    let tiles = len.div_ceil(crate::layout::TILE);
    let (slots, total) = scan_tiles(&tile_counts(bits, len, tiles));
    let mut indices = vec![0; total as usize];
    tile_scatter_bits(bits, len, &slots, &mut indices);
    indices
}

/// What `method` produces on the CPU. Atomic methods give one legal order (the
/// sequential one); the GPU's may differ.
pub fn compact(flags: &[u32], method: Method, draw: DrawArgs) -> CompactionOutput {
    let indices = match method {
        Method::Atomic => atomic_counter(flags),
        Method::Aggregated => atomic_aggregated(flags),
        Method::Scan => trace_scan(flags).indices,
        Method::Lookback => lookback(flags),
        Method::LookbackBits => lookback_bits(&pack_bits(flags), flags.len()),
        Method::TileAtomic => tile_atomic(flags),
        Method::PackedScan => packed_scan(&pack_bits(flags), flags.len()),
    };
    let count = indices.len() as u32;
    CompactionOutput {
        indices,
        count,
        indirect: draw.with_instances(count),
        requested: flags.len() as u32,
        payload: Vec::new(),
        segment_args: Vec::new(),
        draw_count: 0,
        dropped: 0,
        record_meshes: Vec::new(),
    }
}
