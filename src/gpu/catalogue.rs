//! Every kernel's facts, written once: the WGSL files of its module, its entry
//! point, workgroup size, storage bindings, shared memory, whether it reads the
//! live uniform and how a payload compaction builds it. The pipelines
//! (`gpu::pipelines`), the device limits (`compactor::limits`), `shader_sources`,
//! the drift tests (`gpu::tests`, which check every row against the WGSL with naga)
//! and the package's file list (`FILES`) read this table.

use crate::layout::{
    ATOMIC_WORKGROUP, BLOCK, LOOKBACK_WORKGROUP, PACK_BITS_WORKGROUP, SCAN_TILES_WORKGROUP,
    SEGMENT_ARGS_WORKGROUP, TILE_COUNTS_WORKGROUP,
};
use crate::Method;

/// A WGSL file of `shaders/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct File {
    pub path: &'static str,
    pub wgsl: &'static str,
}

macro_rules! shader_file {
    ($name:literal) => {
        File {
            path: concat!("shaders/", $name, ".wgsl"),
            wgsl: include_str!(concat!("../../shaders/", $name, ".wgsl")),
        }
    };
}

const LIVE: File = shader_file!("live");
const INPUT: File = shader_file!("input");
const ATOMIC_COUNTER: File = shader_file!("atomic_counter");
const ATOMIC_AGGREGATED: File = shader_file!("atomic_aggregated");
const SCAN_BLOCK: File = shader_file!("scan_block");
const SCAN_RECORD: File = shader_file!("scan_record");
const SCAN_RECORD_NONE: File = shader_file!("scan_record_none");
const ADD_OFFSETS: File = shader_file!("add_offsets");
const SCATTER: File = shader_file!("scatter");
const INDIRECT_ARGS: File = shader_file!("indirect_args");
const PACK_BITS: File = shader_file!("pack_bits");
const TILE_COUNTS: File = shader_file!("tile_counts");
const SCAN_TILES: File = shader_file!("scan_tiles");
const PACK_RECORDS: File =
    super::strip::optional_shader_file!(cfg!(feature = "segments"), "pack_records");
// No page shows these (nor the subgroup scan and the records' packing): compiled
// without their comments (`gpu::strip`).
const SEGMENT_ARGS: File =
    super::strip::optional_shader_file!(cfg!(feature = "segments"), "segment_args");
const TILES: File = shader_file!("tiles");
const LOOKBACK: File = shader_file!("lookback");
const TILE_ATOMIC: File = shader_file!("tile_atomic");
const TILE_SCATTER_BITS: File = shader_file!("tile_scatter_bits");
const TILE_WRITE: File = shader_file!("tile_write");
const TILE_WRITE_PAYLOAD: File = super::strip::stripped_shader_file!("tile_write_payload");
const LOOKBACK_PORTABLE: File = shader_file!("lookback_portable");
// Browsers have no subgroups (wgpu on wasm cannot ask for them), so no page shows it.
const LOOKBACK_SUBGROUPS: File = super::strip::stripped_shader_file!("lookback_subgroups");
const LOOKBACK_STATS: File = shader_file!("lookback_stats");
// Only segmented compactions write group slots, and no page segments.
const GROUP_SLOTS: File =
    super::strip::optional_shader_file!(cfg!(feature = "segments"), "group_slots");
const GROUP_SLOTS_NONE: File = shader_file!("group_slots_none");
const TILE_INPUT: File = shader_file!("tile_input");
// Only a renderer's one-pass culling reads it, and no page culls.
const TILE_INPUT_CULLED: File =
    super::strip::optional_shader_file!(cfg!(feature = "cull"), "tile_input_culled");

/// Every file of `shaders/`, each once: what the package ships (its `include`
/// takes `shaders/*.wgsl`; `gpu::tests` checks that the two agree).
#[cfg(test)]
pub(crate) const FILES: [File; 28] = [
    LIVE,
    INPUT,
    ATOMIC_COUNTER,
    ATOMIC_AGGREGATED,
    SCAN_BLOCK,
    SCAN_RECORD,
    SCAN_RECORD_NONE,
    ADD_OFFSETS,
    SCATTER,
    INDIRECT_ARGS,
    PACK_BITS,
    TILE_COUNTS,
    SCAN_TILES,
    PACK_RECORDS,
    SEGMENT_ARGS,
    TILES,
    LOOKBACK,
    TILE_ATOMIC,
    TILE_SCATTER_BITS,
    TILE_WRITE,
    TILE_WRITE_PAYLOAD,
    LOOKBACK_PORTABLE,
    LOOKBACK_SUBGROUPS,
    LOOKBACK_STATS,
    GROUP_SLOTS,
    GROUP_SLOTS_NONE,
    TILE_INPUT,
    TILE_INPUT_CULLED,
];

/// The tile kernels' own files: what a measurement source replaces
/// (`LookbackOptions::source`).
pub(crate) const TILE_KERNELS: [File; 4] = [TILES, LOOKBACK, TILE_ATOMIC, TILE_SCATTER_BITS];

/// The files a build chooses between: the write-out without and with a payload,
/// and the workgroup scan and look-back without and with subgroups.
pub(crate) const TILE_WRITES: [File; 2] = [TILE_WRITE, TILE_WRITE_PAYLOAD];
pub(crate) const SCANS: [File; 2] = [LOOKBACK_PORTABLE, LOOKBACK_SUBGROUPS];
/// The tiles' group slots: nothing, or written for the segments (`Variant::group_slots`).
pub(crate) const GROUP_SLOT_WRITES: [File; 2] = [GROUP_SLOTS_NONE, GROUP_SLOTS];
/// How a tile reads its flags: from the input, or from a renderer's `visible` (`Build::cull`).
pub(crate) const TILE_INPUTS: [File; 2] = [TILE_INPUT, TILE_INPUT_CULLED];
/// The scan block's `record`: nothing, or the snapshots of a traced run (`Build::traced`).
pub(crate) const SCAN_RECORDS: [File; 2] = [SCAN_RECORD_NONE, SCAN_RECORD];

/// A part of a module: a file, or the file a build chooses.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Part {
    File(File),
    /// [`TILE_KERNELS`], or the measurement source that replaces them.
    TileKernels,
    /// `tile_write.wgsl`, or `tile_write_payload.wgsl` where a payload is copied.
    TileWrite,
    /// The workgroup scan and look-back: `lookback_subgroups.wgsl` where the device
    /// has SUBGROUP, else `lookback_portable.wgsl`; nothing for a measurement
    /// source that brings its own (`fn workgroup_scan(`).
    Scan,
    /// `group_slots.wgsl` where the tiles write group slots for the segments,
    /// else `group_slots_none.wgsl`.
    GroupSlots,
    /// `tile_input.wgsl`, or `tile_input_culled.wgsl` where a renderer's
    /// visibility function takes the place of the flags (its WGSL goes first in
    /// the module: `gpu::pipelines`).
    TileInput,
    /// `scan_record.wgsl` in the traced scan (its snapshots for a stepper), else
    /// `scan_record_none.wgsl`.
    ScanRecord,
}

/// A shader module: the files joined in order, one newline between two.
#[derive(Debug)]
pub(crate) struct Module {
    pub name: &'static str,
    pub parts: &'static [Part],
}

/// What a device and the options choose of a module's variable parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Build {
    pub subgroups: bool,
    pub payload: bool,
    pub group_slots: bool,
    pub source: Option<&'static str>,
    /// A renderer's visibility function, by its number in the pipelines' list
    /// (`Pipelines::cull_id`); 0 for none.
    pub cull: u32,
    /// The scan block records its snapshots (`KernelId::ScanBlockTraced`).
    pub traced: bool,
}

/// Where a measurement source sits in a module's file list.
pub(crate) const SOURCE_PATH: &str = "(LookbackOptions::source)";

/// Whether a measurement source brings its own workgroup scan and look-back.
pub(crate) fn brings_own_scan(source: &str) -> bool {
    source.contains("fn workgroup_scan(")
}

impl Module {
    /// Its files as `build` composes them: (path, WGSL).
    pub fn files(&self, build: &Build) -> Vec<(&'static str, &'static str)> {
        let mut files = Vec::new();
        for part in self.parts {
            match part {
                Part::File(f) => files.push((f.path, f.wgsl)),
                Part::TileKernels => match build.source {
                    Some(source) => files.push((SOURCE_PATH, source)),
                    None => files.extend(TILE_KERNELS.iter().map(|f| (f.path, f.wgsl))),
                },
                Part::TileWrite => {
                    let f = TILE_WRITES[usize::from(build.payload)];
                    files.push((f.path, f.wgsl));
                }
                Part::Scan => {
                    if !build.source.is_some_and(brings_own_scan) {
                        let f = SCANS[usize::from(build.subgroups)];
                        files.push((f.path, f.wgsl));
                    }
                }
                Part::GroupSlots => {
                    let f = GROUP_SLOT_WRITES[usize::from(build.group_slots)];
                    files.push((f.path, f.wgsl));
                }
                Part::TileInput => {
                    let f = TILE_INPUTS[usize::from(build.cull != 0)];
                    files.push((f.path, f.wgsl));
                }
                Part::ScanRecord => {
                    let f = SCAN_RECORDS[usize::from(build.traced)];
                    files.push((f.path, f.wgsl));
                }
            }
        }
        files
    }

    /// The WGSL handed to `create_shader_module`.
    pub fn wgsl(&self, build: &Build) -> String {
        self.wgsl_with(build, None)
    }

    /// Its WGSL with the file at `path` replaced by `wgsl` (a kernel override).
    pub fn wgsl_with(&self, build: &Build, replaced: Option<(&str, &str)>) -> String {
        let files = self.files(build);
        let texts: Vec<&str> = files
            .iter()
            .map(|&(path, wgsl)| match replaced {
                Some((p, text)) if p == path => text,
                _ => wgsl,
            })
            .collect();
        texts.join("\n")
    }

    /// Its files where it has no variable part (the article's kernels), in order.
    pub fn plain_files(&self) -> Vec<File> {
        self.parts
            .iter()
            .filter_map(|part| match part {
                Part::File(f) => Some(*f),
                _ => None,
            })
            .collect()
    }

    /// Whether one of its files is `path`.
    pub fn has_file(&self, path: &str) -> bool {
        self.parts
            .iter()
            .any(|part| matches!(part, Part::File(f) if f.path == path))
    }

    /// Whether the module's WGSL depends on the device's subgroups or on a payload.
    fn varies(&self, part: fn(&Part) -> bool) -> bool {
        self.parts.iter().any(part)
    }

    /// Its label in `build` (as `build_of` gives it): the name, then `:payload`
    /// and `:subgroups` where the build chose those files.
    pub fn label(&self, build: &Build) -> String {
        let mut label = self.name.to_string();
        if build.payload {
            label.push_str(":payload");
        }
        if build.subgroups {
            label.push_str(":subgroups");
        }
        if build.group_slots {
            label.push_str(":group_slots");
        }
        if build.cull != 0 {
            label.push_str(&format!(":cull{}", build.cull));
        }
        if build.traced {
            label.push_str(":traced");
        }
        label
    }

    /// The build that matters to this module: a payload only where it composes one.
    pub fn build_of(&self, build: Build) -> Build {
        Build {
            payload: build.payload && self.varies(|p| matches!(p, Part::TileWrite)),
            subgroups: build.subgroups && self.varies(|p| matches!(p, Part::Scan)),
            group_slots: build.group_slots && self.varies(|p| matches!(p, Part::GroupSlots)),
            source: build
                .source
                .filter(|_| self.varies(|p| matches!(p, Part::TileKernels))),
            cull: if self.varies(|p| matches!(p, Part::TileInput)) {
                build.cull
            } else {
                0
            },
            traced: build.traced && self.varies(|p| matches!(p, Part::ScanRecord)),
        }
    }
}

const fn one(name: &'static str, parts: &'static [Part]) -> Module {
    Module { name, parts }
}

static ATOMIC_COUNTER_MODULE: Module = one(
    "atomic_counter",
    &[Part::File(ATOMIC_COUNTER), Part::File(LIVE)],
);
static ATOMIC_AGGREGATED_MODULE: Module = one(
    "atomic_aggregated",
    &[Part::File(ATOMIC_AGGREGATED), Part::File(LIVE)],
);
static SCAN_BLOCK_MODULE: Module = one(
    "scan_block",
    &[Part::File(SCAN_BLOCK), Part::ScanRecord, Part::File(LIVE)],
);
static ADD_OFFSETS_MODULE: Module =
    one("add_offsets", &[Part::File(ADD_OFFSETS), Part::File(LIVE)]);
static SCATTER_MODULE: Module = one("scatter", &[Part::File(SCATTER), Part::File(LIVE)]);
static INDIRECT_ARGS_MODULE: Module = one("indirect_args", &[Part::File(INDIRECT_ARGS)]);
static PACK_BITS_MODULE: Module = one(
    "pack_bits",
    &[Part::File(PACK_BITS), Part::File(INPUT), Part::File(LIVE)],
);
static TILE_COUNTS_MODULE: Module = one(
    "tile_counts",
    &[Part::File(TILE_COUNTS), Part::File(INPUT), Part::File(LIVE)],
);
static SCAN_TILES_MODULE: Module = one("scan_tiles", &[Part::File(SCAN_TILES), Part::File(LIVE)]);
/// The records packed after the segments: the scan of `scan_tiles` reused.
static PACK_RECORDS_MODULE: Module = one(
    "pack_records",
    &[
        Part::File(PACK_RECORDS),
        Part::File(SCAN_TILES),
        Part::File(LIVE),
    ],
);
static SEGMENT_ARGS_MODULE: Module = one(
    "segment_args",
    &[
        Part::File(SEGMENT_ARGS),
        Part::File(INPUT),
        Part::File(LIVE),
    ],
);
/// Every tile kernel in one module: they share the tiles, the scan and the write-out.
static TILES_MODULE: Module = one(
    "tiles",
    &[
        Part::TileKernels,
        Part::TileInput,
        Part::TileWrite,
        Part::Scan,
        Part::GroupSlots,
        Part::File(LOOKBACK_STATS),
        Part::File(INPUT),
        Part::File(LIVE),
    ],
);

/// Which pipeline a dispatch uses: one per entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum KernelId {
    AtomicCounter,
    AtomicAggregated,
    ScanBlock,
    ScanBlockTraced,
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
    SegmentArgs,
    SegmentArgsGrouped,
    PackSlots,
    PackRecords,
}

/// A storage binding: its number and its name in the WGSL.
pub(crate) type Binding = (u32, &'static str);

/// How a compaction that copies a payload builds a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Payload {
    /// It writes no indices: the same pipeline.
    Unchanged,
    /// It writes indices in an order that varies: its methods take no payload.
    Refused,
    /// The same entry point in the module's payload build (`tile_write_payload.wgsl`).
    Composed,
    /// Another entry point of the same module.
    Entry(&'static str),
}

/// The payload's bindings, where a payload build adds them.
pub(crate) const PAYLOAD_BINDINGS: [Binding; 2] = [(8, "payload_in"), (9, "payload_out")];

/// One kernel: an entry point of a module and everything the host relies on.
#[derive(Debug)]
pub(crate) struct Spec {
    pub id: KernelId,
    pub module: &'static Module,
    pub entry_point: &'static str,
    pub workgroup_size: usize,
    /// The storage buffers it binds, by number and WGSL name.
    pub bindings: &'static [Binding],
    /// Bytes of `var<workgroup>` memory, the most over the builds (the tile
    /// kernels' portable scan holds 2 KiB, the subgroup one 512 B and a second
    /// staged row; see `STAGE_ROWS`).
    pub workgroup_storage: u32,
    /// Whether it binds the live uniform (binding 7, `shaders/live.wgsl`).
    pub reads_live: bool,
    pub payload: Payload,
}

/// The flags' bindings (shaders/input.wgsl), which a culled tile kernel does not have.
pub(crate) const INPUT_BINDINGS: [Binding; 2] = [(0, "input4"), (1, "input")];

/// The catalogue: one row per kernel.
pub(crate) static KERNELS: [Spec; 20] = [
    Spec {
        id: KernelId::AtomicCounter,
        module: &ATOMIC_COUNTER_MODULE,
        entry_point: "atomic_counter",
        workgroup_size: ATOMIC_WORKGROUP,
        bindings: &[(0, "visible"), (1, "indices"), (2, "counter")],
        workgroup_storage: 0,
        reads_live: true,
        payload: Payload::Refused,
    },
    Spec {
        id: KernelId::AtomicAggregated,
        module: &ATOMIC_AGGREGATED_MODULE,
        entry_point: "atomic_aggregated",
        workgroup_size: ATOMIC_WORKGROUP,
        bindings: &[(0, "visible"), (1, "indices"), (2, "counter")],
        workgroup_storage: 8,
        reads_live: true,
        payload: Payload::Refused,
    },
    Spec {
        id: KernelId::ScanBlock,
        module: &SCAN_BLOCK_MODULE,
        entry_point: "scan_block",
        workgroup_size: BLOCK,
        bindings: &[(0, "input"), (1, "prefix"), (2, "block_sums")],
        workgroup_storage: 1024,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::ScanBlockTraced,
        module: &SCAN_BLOCK_MODULE,
        // The same entry point in the traced build (`Build::traced`).
        entry_point: "scan_block",
        workgroup_size: BLOCK,
        bindings: &[(0, "input"), (1, "prefix"), (2, "block_sums"), (3, "trace")],
        workgroup_storage: 1024,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::AddOffsets,
        module: &ADD_OFFSETS_MODULE,
        entry_point: "add_offsets",
        workgroup_size: BLOCK,
        bindings: &[(0, "prefix"), (1, "offsets")],
        workgroup_storage: 0,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::Scatter,
        module: &SCATTER_MODULE,
        entry_point: "scatter",
        workgroup_size: ATOMIC_WORKGROUP,
        bindings: &[(0, "visible"), (1, "prefix"), (2, "indices")],
        workgroup_storage: 0,
        reads_live: true,
        payload: Payload::Entry("scatter_payload"),
    },
    Spec {
        id: KernelId::IndirectArgs,
        module: &INDIRECT_ARGS_MODULE,
        entry_point: "indirect_args",
        workgroup_size: 1,
        bindings: &[(0, "count"), (1, "args")],
        workgroup_storage: 0,
        reads_live: false,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::Lookback,
        module: &TILES_MODULE,
        entry_point: "lookback",
        workgroup_size: LOOKBACK_WORKGROUP,
        bindings: &LOOKBACK_BINDINGS,
        workgroup_storage: 4632,
        reads_live: true,
        payload: Payload::Composed,
    },
    Spec {
        id: KernelId::LookbackPaired,
        module: &TILES_MODULE,
        entry_point: "lookback_paired",
        workgroup_size: LOOKBACK_WORKGROUP,
        bindings: &LOOKBACK_BINDINGS,
        workgroup_storage: 4632,
        reads_live: true,
        payload: Payload::Composed,
    },
    Spec {
        id: KernelId::LookbackBits,
        module: &TILES_MODULE,
        entry_point: "lookback_bits",
        workgroup_size: LOOKBACK_WORKGROUP,
        bindings: &LOOKBACK_BINDINGS,
        workgroup_storage: 4128,
        reads_live: true,
        payload: Payload::Composed,
    },
    Spec {
        id: KernelId::TileAtomic,
        module: &TILES_MODULE,
        entry_point: "tile_atomic",
        workgroup_size: LOOKBACK_WORKGROUP,
        bindings: &[
            INPUT_BINDINGS[0],
            INPUT_BINDINGS[1],
            (2, "indices"),
            (3, "tile_states"),
            (4, "count"),
        ],
        workgroup_storage: 4616,
        reads_live: true,
        payload: Payload::Refused,
    },
    Spec {
        id: KernelId::PackBits,
        module: &PACK_BITS_MODULE,
        entry_point: "pack_bits",
        workgroup_size: PACK_BITS_WORKGROUP,
        bindings: &[INPUT_BINDINGS[0], INPUT_BINDINGS[1], (2, "bits")],
        workgroup_storage: 8192,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::PackBitsCounted,
        module: &PACK_BITS_MODULE,
        entry_point: "pack_bits_counted",
        workgroup_size: PACK_BITS_WORKGROUP,
        bindings: &[
            INPUT_BINDINGS[0],
            INPUT_BINDINGS[1],
            (2, "bits"),
            (3, "tile_counts"),
        ],
        workgroup_storage: 8200,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::TileCounts,
        module: &TILE_COUNTS_MODULE,
        entry_point: "tile_counts",
        workgroup_size: TILE_COUNTS_WORKGROUP,
        bindings: &[INPUT_BINDINGS[0], INPUT_BINDINGS[1], (2, "counts")],
        workgroup_storage: 32,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::ScanTiles,
        module: &SCAN_TILES_MODULE,
        entry_point: "scan_tiles",
        workgroup_size: SCAN_TILES_WORKGROUP,
        bindings: &[(0, "counts"), (1, "count"), (2, "indirect")],
        workgroup_storage: 1024,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::TileScatterBits,
        module: &TILES_MODULE,
        entry_point: "tile_scatter_bits",
        workgroup_size: LOOKBACK_WORKGROUP,
        bindings: &[
            INPUT_BINDINGS[0],
            INPUT_BINDINGS[1],
            (2, "indices"),
            (6, "tile_bases"),
        ],
        workgroup_storage: 4608,
        reads_live: true,
        payload: Payload::Composed,
    },
    Spec {
        id: KernelId::SegmentArgs,
        module: &SEGMENT_ARGS_MODULE,
        entry_point: "segment_args",
        workgroup_size: SEGMENT_ARGS_WORKGROUP,
        bindings: &[
            (2, "indices"),
            (3, "segments"),
            (4, "own_args"),
            (5, "args"),
        ],
        workgroup_storage: 28,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::SegmentArgsGrouped,
        module: &SEGMENT_ARGS_MODULE,
        entry_point: "segment_args_grouped",
        workgroup_size: SEGMENT_ARGS_WORKGROUP,
        bindings: &[
            INPUT_BINDINGS[0],
            INPUT_BINDINGS[1],
            (3, "segments"),
            (4, "own_args"),
            (5, "args"),
            (6, "group_slots"),
        ],
        workgroup_storage: 0,
        reads_live: true,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::PackSlots,
        module: &PACK_RECORDS_MODULE,
        entry_point: "pack_slots",
        workgroup_size: SCAN_TILES_WORKGROUP,
        bindings: &[(3, "records"), (4, "own_args"), (5, "args"), (8, "places")],
        workgroup_storage: 1024,
        reads_live: false,
        payload: Payload::Unchanged,
    },
    Spec {
        id: KernelId::PackRecords,
        module: &PACK_RECORDS_MODULE,
        entry_point: "pack_records",
        workgroup_size: SEGMENT_ARGS_WORKGROUP,
        bindings: &[
            (3, "records"),
            (4, "own_args"),
            (5, "args"),
            (6, "meshes"),
            (8, "places"),
        ],
        workgroup_storage: 0,
        reads_live: true,
        payload: Payload::Unchanged,
    },
];

const LOOKBACK_BINDINGS: [Binding; 6] = [
    INPUT_BINDINGS[0],
    INPUT_BINDINGS[1],
    (2, "indices"),
    (3, "tile_states"),
    (4, "count"),
    (5, "indirect"),
];

impl Spec {
    /// Whether a compaction that copies a payload (`payload`) builds this kernel
    /// with the payload's bindings (`PAYLOAD_BINDINGS`).
    pub fn copies_payload(&self, payload: bool) -> bool {
        payload && matches!(self.payload, Payload::Composed | Payload::Entry(_))
    }
}

impl KernelId {
    /// Its row of the catalogue.
    pub fn spec(self) -> &'static Spec {
        // The rows are in `KernelId` order (a test checks).
        &KERNELS[self as usize]
    }

    /// Whether `warm_up` leaves this kernel to the first `prepare` that needs it:
    /// `lookback_paired` runs only from `paired_from_tiles` (2^25 flags by default),
    /// the segment kernels only for segmented compactions, and a software adapter
    /// takes seconds for a pipeline, which a page of small arrays would wait for.
    pub fn compiled_by_prepare(self) -> bool {
        matches!(
            self,
            KernelId::LookbackPaired
                | KernelId::SegmentArgs
                | KernelId::SegmentArgsGrouped
                | KernelId::PackSlots
                | KernelId::PackRecords
        )
    }

    /// Whether it writes the per-segment records (after the compaction).
    pub fn writes_segments(self) -> bool {
        matches!(
            self,
            KernelId::SegmentArgs
                | KernelId::SegmentArgsGrouped
                | KernelId::PackSlots
                | KernelId::PackRecords
        )
    }

    /// The kernels a method may dispatch, in dispatch order (a segment kernel last,
    /// for the order-keeping methods' segments: `segment_args_grouped` after the
    /// look-back methods, whose tiles write the group slots it reads).
    pub fn of(method: Method) -> &'static [KernelId] {
        match method {
            Method::Atomic => &[KernelId::AtomicCounter, KernelId::IndirectArgs],
            Method::Aggregated => &[KernelId::AtomicAggregated, KernelId::IndirectArgs],
            Method::Scan => &[
                KernelId::ScanBlock,
                KernelId::AddOffsets,
                KernelId::Scatter,
                KernelId::IndirectArgs,
                KernelId::SegmentArgs,
                KernelId::PackSlots,
                KernelId::PackRecords,
            ],
            Method::Lookback => &[
                KernelId::Lookback,
                KernelId::LookbackPaired,
                KernelId::IndirectArgs,
                KernelId::SegmentArgsGrouped,
                KernelId::PackSlots,
                KernelId::PackRecords,
            ],
            Method::LookbackBits => &[
                KernelId::PackBits,
                KernelId::LookbackBits,
                KernelId::IndirectArgs,
                KernelId::SegmentArgsGrouped,
                KernelId::PackSlots,
                KernelId::PackRecords,
            ],
            Method::TileAtomic => &[KernelId::TileAtomic, KernelId::IndirectArgs],
            Method::PackedScan => &[
                KernelId::PackBitsCounted,
                KernelId::TileCounts,
                KernelId::ScanTiles,
                KernelId::TileScatterBits,
                KernelId::IndirectArgs,
                KernelId::SegmentArgs,
                KernelId::PackSlots,
                KernelId::PackRecords,
            ],
        }
    }
}
