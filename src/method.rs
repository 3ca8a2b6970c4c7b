//! The compaction methods: what each keeps and costs.

use crate::error::Error;

/// How the visible indices are compacted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// The article's kernel 1: one global atomicAdd per visible flag. Order varies
    /// from run to run.
    Atomic,
    /// The article's kernel 2: one global atomicAdd per workgroup of 64. Order varies
    /// between workgroups, not within one.
    Aggregated,
    /// The article's exclusive prefix scan (Hillis-Steele blocks, recursive block
    /// sums, offsets, scatter): original order, bit-identical every run.
    Scan,
    /// One pass: tiles of 4096 flags scanned in the workgroup, chained by a
    /// decoupled look-back with a fallback, scattered in the same pass. Original
    /// order, bit-identical every run.
    Lookback,
    /// `Lookback` reading one bit per flag ([`crate::Input::Bits`]); from u32 flags
    /// a packing dispatch runs first.
    LookbackBits,
    /// The look-back's tiles, each taking its output range with one global
    /// atomicAdd: order kept inside a tile of 4096, not between tiles.
    TileAtomic,
    /// Reduce, then scan, over bits: the flags packed to bits (one read of the
    /// flags), each tile's count, a scan of the counts, then every tile scanned
    /// again from its bits and written from its slot. No tile waits for another:
    /// no look-back, no fallback. Original order, bit-identical every run. Reads
    /// [`crate::Input::Bits`] too (then without the packing). Scratch: N/4096
    /// words, and the packed bits (N/32) from u32 flags. Three or four dispatches
    /// cost a few microseconds more than the look-back on small arrays; from bits
    /// on large ones it is the fastest way that keeps the order.
    PackedScan,
}

impl Method {
    /// Every method, in the order the playground shows them.
    pub const ALL: [Method; 7] = [
        Method::Atomic,
        Method::Aggregated,
        Method::Scan,
        Method::Lookback,
        Method::LookbackBits,
        Method::TileAtomic,
        Method::PackedScan,
    ];

    /// The method's name: `atomic`, `aggregated`, `scan`, `lookback`,
    /// `lookback-bits`, `tile-atomic`, `packed-scan` (what `FromStr` takes).
    pub fn name(self) -> &'static str {
        match self {
            Method::Atomic => "atomic",
            Method::Aggregated => "aggregated",
            Method::Scan => "scan",
            Method::Lookback => "lookback",
            Method::LookbackBits => "lookback-bits",
            Method::TileAtomic => "tile-atomic",
            Method::PackedScan => "packed-scan",
        }
    }

    /// Whether the output keeps the flags' order (and so is the same every run).
    pub fn preserves_order(self) -> bool {
        matches!(
            self,
            Method::Scan | Method::Lookback | Method::LookbackBits | Method::PackedScan
        )
    }

    /// Whether the method copies a payload ([`crate::CompactionDesc::payload`]):
    /// the order-keeping ones, whose kernels write every index to a slot that does
    /// not vary.
    pub fn takes_payload(self) -> bool {
        crate::gpu::catalogue::KernelId::of(self)
            .iter()
            .all(|id| id.spec().payload != crate::gpu::catalogue::Payload::Refused)
    }

    /// Whether the method also reads bits ([`crate::Input::Bits`]).
    pub fn reads_bits(self) -> bool {
        matches!(self, Method::LookbackBits | Method::PackedScan)
    }

    /// Whether the method runs on tiles of [`crate::layout::TILE`] flags (and so
    /// takes fewer than [`crate::layout::TILE_MAX_FLAGS`]).
    pub fn uses_tiles(self) -> bool {
        matches!(
            self,
            Method::Lookback | Method::LookbackBits | Method::TileAtomic
        )
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Method {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| Error::UnknownMethod(printable(s)))
    }
}

/// `text` for a message: its first 24 characters, escaped.
pub(crate) fn printable(text: &str) -> String {
    let shown: String = text.chars().take(24).collect();
    let more = if text.chars().count() > 24 { "…" } else { "" };
    format!("{}{more}", shown.escape_debug())
}
