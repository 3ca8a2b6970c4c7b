//! The compute pipelines of every method, each compiled the first time a
//! compaction needs it (or at `warm_up`): a page that only runs the scan never
//! waits for the look-back kernels (seconds on a software adapter).

use std::sync::OnceLock;

use crate::gpu::kernel::Kernel;
use crate::gpu::lookback::{Lookback, LookbackOptions};
use crate::gpu::scan_block::ScanBlock;
use crate::gpu::{
    add_offsets, atomic_aggregated, atomic_counter, indirect_args, pack_bits, scan_tiles, scatter,
    tile_counts,
};
use crate::Method;

/// Which pipeline a dispatch uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KernelId {
    AtomicCounter,
    AtomicAggregated,
    ScanBlock { level: usize, traced: bool },
    AddOffsets,
    Scatter,
    IndirectArgs,
    Lookback,
    LookbackPaired,
    LookbackBits,
    TileAtomic,
    PackBits,
    PackBitsCounted,
    TileCounts,
    ScanTiles,
    TileScatterBits,
}

impl KernelId {
    /// Whether `warm_up` leaves this kernel to the first `prepare` that needs it:
    /// `lookback_paired` runs only from `paired_from_tiles` (2^25 flags by default),
    /// and a software adapter takes seconds for a pipeline, which a page of small
    /// arrays would wait for and never run.
    pub fn compiled_by_prepare(self) -> bool {
        self == KernelId::LookbackPaired
    }

    /// The kernels a method may dispatch (the scan's levels 0 and 1 stand for all).
    pub fn of(method: Method) -> &'static [KernelId] {
        match method {
            Method::Atomic => &[KernelId::AtomicCounter, KernelId::IndirectArgs],
            Method::Aggregated => &[KernelId::AtomicAggregated, KernelId::IndirectArgs],
            Method::Scan => &[
                KernelId::ScanBlock {
                    level: 0,
                    traced: false,
                },
                KernelId::ScanBlock {
                    level: 1,
                    traced: false,
                },
                KernelId::AddOffsets,
                KernelId::Scatter,
                KernelId::IndirectArgs,
            ],
            Method::Lookback => &[
                KernelId::Lookback,
                KernelId::LookbackPaired,
                KernelId::IndirectArgs,
            ],
            Method::LookbackBits => &[
                KernelId::PackBits,
                KernelId::LookbackBits,
                KernelId::IndirectArgs,
            ],
            Method::TileAtomic => &[KernelId::TileAtomic, KernelId::IndirectArgs],
            Method::PackedScan => &[
                KernelId::PackBitsCounted,
                KernelId::TileCounts,
                KernelId::ScanTiles,
                KernelId::TileScatterBits,
                KernelId::IndirectArgs,
            ],
        }
    }
}

/// One lazily compiled pipeline per kernel.
pub(crate) struct Pipelines {
    options: LookbackOptions,
    atomic_counter: OnceLock<Kernel>,
    atomic_aggregated: OnceLock<Kernel>,
    scan_block: OnceLock<ScanBlock>,
    add_offsets: OnceLock<Kernel>,
    scatter: OnceLock<Kernel>,
    indirect_args: OnceLock<Kernel>,
    lookback: OnceLock<Lookback>,
    pack_bits: OnceLock<Kernel>,
    pack_bits_counted: OnceLock<Kernel>,
    tile_counts: OnceLock<Kernel>,
    scan_tiles: OnceLock<Kernel>,
}

impl Pipelines {
    pub fn new(options: LookbackOptions) -> Self {
        Self {
            options,
            atomic_counter: OnceLock::new(),
            atomic_aggregated: OnceLock::new(),
            scan_block: OnceLock::new(),
            add_offsets: OnceLock::new(),
            scatter: OnceLock::new(),
            indirect_args: OnceLock::new(),
            lookback: OnceLock::new(),
            pack_bits: OnceLock::new(),
            pack_bits_counted: OnceLock::new(),
            tile_counts: OnceLock::new(),
            scan_tiles: OnceLock::new(),
        }
    }

    pub fn options(&self) -> LookbackOptions {
        self.options
    }

    fn lookback(&self, device: &wgpu::Device) -> &Lookback {
        self.lookback
            .get_or_init(|| Lookback::new(device, self.options))
    }

    /// Whether `id`'s pipeline is compiled (the scan's: its level-0 variant).
    #[cfg(test)]
    pub fn compiled(&self, id: KernelId) -> bool {
        match id {
            KernelId::AtomicCounter => self.atomic_counter.get().is_some(),
            KernelId::AtomicAggregated => self.atomic_aggregated.get().is_some(),
            KernelId::AddOffsets => self.add_offsets.get().is_some(),
            KernelId::Scatter => self.scatter.get().is_some(),
            KernelId::IndirectArgs => self.indirect_args.get().is_some(),
            KernelId::PackBits => self.pack_bits.get().is_some(),
            KernelId::PackBitsCounted => self.pack_bits_counted.get().is_some(),
            KernelId::TileCounts => self.tile_counts.get().is_some(),
            KernelId::ScanTiles => self.scan_tiles.get().is_some(),
            KernelId::ScanBlock { .. } => self.scan_block.get().is_some(),
            KernelId::Lookback
            | KernelId::LookbackPaired
            | KernelId::LookbackBits
            | KernelId::TileAtomic
            | KernelId::TileScatterBits => self
                .lookback
                .get()
                .is_some_and(|l| l.compiled(lookback_entry(id))),
        }
    }

    /// The pipeline of `id`, compiled now if it was not yet.
    pub fn kernel(&self, device: &wgpu::Device, id: KernelId) -> &Kernel {
        type Make = fn(&wgpu::Device) -> Kernel;
        let (cell, make): (&OnceLock<Kernel>, Make) = match id {
            KernelId::AtomicCounter => (&self.atomic_counter, atomic_counter::atomic_counter),
            KernelId::AtomicAggregated => (
                &self.atomic_aggregated,
                atomic_aggregated::atomic_aggregated,
            ),
            KernelId::AddOffsets => (&self.add_offsets, add_offsets::add_offsets),
            KernelId::Scatter => (&self.scatter, scatter::scatter),
            KernelId::IndirectArgs => (&self.indirect_args, indirect_args::indirect_args),
            KernelId::PackBits => (&self.pack_bits, pack_bits::pack_bits),
            KernelId::PackBitsCounted => (&self.pack_bits_counted, pack_bits::pack_bits_counted),
            KernelId::TileCounts => (&self.tile_counts, tile_counts::tile_counts),
            KernelId::ScanTiles => {
                let per_invocation = self.options.scan_tiles_per_invocation;
                return self
                    .scan_tiles
                    .get_or_init(|| scan_tiles::scan_tiles(device, per_invocation));
            }
            KernelId::ScanBlock { level, traced } => {
                return self
                    .scan_block
                    .get_or_init(|| ScanBlock::new(device))
                    .level(device, level, traced);
            }
            KernelId::Lookback
            | KernelId::LookbackPaired
            | KernelId::LookbackBits
            | KernelId::TileAtomic
            | KernelId::TileScatterBits => {
                return self.lookback(device).kernel(device, lookback_entry(id));
            }
        };
        cell.get_or_init(|| make(device))
    }
}

/// The look-back module's entry point (`gpu::lookback::ENTRY_POINTS`) of a kernel of it.
pub(crate) fn lookback_entry(id: KernelId) -> usize {
    match id {
        KernelId::Lookback => 0,
        KernelId::LookbackPaired => 1,
        KernelId::LookbackBits => 2,
        KernelId::TileAtomic => 3,
        KernelId::TileScatterBits => 4,
        other => unreachable!("{other:?} is not in the look-back module"),
    }
}
