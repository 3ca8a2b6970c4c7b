//! Setup, once per flags buffer: the checks, the buffers (the compaction's own,
//! or ranges of the caller's) and the list of dispatches a compaction records
//! every frame.

use super::limits::{check, compaction_needs};
use super::{Compaction, Compactor, Dispatch, Output, PayloadOut, ScanLevel, SegmentsOut};
use crate::error::{Error, Result};
use crate::gpu::catalogue::KernelId;
use crate::gpu::kernel::{buffer_with, holds, storage_buffer, words, words_at};
use crate::gpu::options::STAT_WORDS;
use crate::gpu::pipelines::Variant;
use crate::layout::{
    subtiles, BLOCK, MAX_PAYLOAD_WORDS, SEGMENT_ARGS_WORKGROUP, STEPS, TILE, WORD,
};
use crate::output::{DrawArgs, Segment};
use crate::Method;

/// How the flags are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Input {
    /// One u32 per flag; any nonzero value is visible.
    #[default]
    U32,
    /// One bit per flag, 32 to a u32 word, least significant first (as a culling
    /// pass can write them with `atomicOr`). Only [`Method::LookbackBits`] and
    /// [`Method::PackedScan`] read bits.
    Bits,
}

/// A range of one of your buffers: the buffer and a byte offset into it.
pub type BufferAt<'a> = (&'a wgpu::Buffer, u64);

/// Everything a compaction is prepared for. `CompactionDesc::new` fills the
/// usual defaults; set the fields that differ.
#[derive(Clone, Debug)]
pub struct CompactionDesc<'a> {
    /// Prefixes the labels of the buffers and passes the compaction creates.
    pub label: Option<&'a str>,
    /// The method.
    pub method: Method,
    /// The flags: needs `STORAGE` usage.
    pub flags: &'a wgpu::Buffer,
    /// Where the flags start in `flags`, in bytes: a multiple of the device's
    /// `min_storage_buffer_offset_alignment` (256 on most devices). The indices
    /// count from here: index 0 is the first flag at this offset.
    pub flags_offset: u64,
    /// u32 flags or bits.
    pub input: Input,
    /// The most flags a frame compacts. The live length (see
    /// [`Compactor::encode_len`]) is this until set otherwise.
    pub capacity: u64,
    /// The indirect arguments written for the draw: non-indexed (16 bytes) or
    /// indexed (20 bytes); the GPU fills in `instance_count`.
    pub draw: DrawArgs,
    /// Added to every index written (and so to what the vertex shader reads):
    /// for example the first object of this flags range in a renderer's object
    /// table. Default 0.
    pub index_base: u32,
    /// Write the indices into this range of your buffer instead of a buffer of the
    /// compaction's own: `STORAGE` usage, the offset a multiple of
    /// `min_storage_buffer_offset_alignment`, room for `capacity` u32 from it
    /// (several views can share one instance buffer this way).
    pub indices_to: Option<BufferAt<'a>>,
    /// Write the indirect arguments into this range of your buffer instead:
    /// `STORAGE | INDIRECT | COPY_DST` usage, the offset a multiple of
    /// `min_storage_buffer_offset_alignment`, room for the 16 or 20 bytes of
    /// `draw`. `prepare` writes `draw` there once; every encode writes its
    /// `instance_count`.
    pub indirect_to: Option<BufferAt<'a>>,
    /// Also copy the count (the `instance_count`) to this buffer at this byte
    /// offset at the end of every encode: for an arguments buffer of yours that
    /// the compaction does not bind. Needs `COPY_DST`; the offset a multiple of 4.
    pub instance_count_to: Option<BufferAt<'a>>,
    /// Copy each visible object's payload (a transform, a few words of instance
    /// data) into a dense buffer, in the same pass as the indices: what the
    /// vertex shader reads at `instance_index` directly. Order-keeping methods only.
    pub payload: Option<PayloadDesc<'a>>,
    /// Compact objects grouped by mesh into one dense range per mesh, with one
    /// draw record per mesh for `multi_draw_indexed_indirect(_count)`.
    /// Order-keeping methods only.
    pub segments: Option<SegmentsDesc<'a>>,
}

/// Where each object's payload is, and where its copy goes (see
/// [`CompactionDesc::payload`]).
#[derive(Clone, Debug)]
pub struct PayloadDesc<'a> {
    /// The objects' payloads: object `i`'s `words` u32 at byte
    /// `offset + 4 · words · i` (objects counted as the indices are, before the
    /// index base). `STORAGE` usage, the offset aligned as the flags'.
    pub source: BufferAt<'a>,
    /// u32 words per object, 1 to 16.
    pub words: u32,
    /// The dense copies: visible object number `k` (in the order of the indices)
    /// at word `words · k` of this range of your buffer (`STORAGE`, aligned
    /// offset, room for `capacity · words` u32), or `None` for a buffer of the
    /// compaction's own ([`Compaction::payload`]).
    pub to: Option<BufferAt<'a>>,
}

/// The renderer's meshes as contiguous segments of the objects (see
/// [`CompactionDesc::segments`]).
#[derive(Clone, Debug)]
pub struct SegmentsDesc<'a> {
    /// `count` [`Segment`]s (16 bytes each), read on the GPU every encode, so
    /// that a renderer can rewrite them: `STORAGE` usage, the offset aligned as
    /// the flags'.
    pub segments: BufferAt<'a>,
    /// How many segments.
    pub count: u32,
    /// Where the records go: `count` indirect-argument records (as `draw`: 20
    /// bytes indexed, 16 not), then one u32, the draw count. This range of your
    /// buffer (`STORAGE | INDIRECT | COPY_DST`, aligned offset), or `None` for a
    /// buffer of the compaction's own ([`Compaction::segment_args`]).
    pub args_to: Option<BufferAt<'a>>,
}

impl<'a> CompactionDesc<'a> {
    /// u32 flags from the start of `flags`, `capacity` of them, for a
    /// non-indexed draw of a quad (6 vertices) per instance, into buffers of the
    /// compaction's own.
    pub fn new(flags: &'a wgpu::Buffer, capacity: u64, method: Method) -> Self {
        Self {
            label: None,
            method,
            flags,
            flags_offset: 0,
            input: Input::U32,
            capacity,
            draw: DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
            index_base: 0,
            indices_to: None,
            indirect_to: None,
            instance_count_to: None,
            payload: None,
            segments: None,
        }
    }
}

impl Compactor {
    /// Allocates the outputs and scratch for compacting the first `len` u32 of
    /// `flags` with `method`, drawing `vertex_count` vertices per instance, and
    /// binds them. Setup: do it once, not per frame. Checks everything it can:
    /// an `Err`, never a panic later.
    pub fn prepare(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
        vertex_count: u32,
    ) -> Result<Compaction> {
        self.prepare_with(&CompactionDesc {
            draw: DrawArgs::vertices(vertex_count),
            ..CompactionDesc::new(flags, len, method)
        })
    }

    /// `prepare` for [`Method::LookbackBits`] when the flags are already bits:
    /// the first `len` bits of `bits` (bits past `len` are ignored).
    pub fn prepare_bits(
        &self,
        bits: &wgpu::Buffer,
        len: u64,
        vertex_count: u32,
    ) -> Result<Compaction> {
        self.prepare_with(&CompactionDesc {
            input: Input::Bits,
            draw: DrawArgs::vertices(vertex_count),
            ..CompactionDesc::new(bits, len, Method::LookbackBits)
        })
    }

    /// `prepare` with every choice: capacity, offset, bits, indexed arguments,
    /// the caller's output buffers, a payload, segments, labels.
    pub fn prepare_with(&self, desc: &CompactionDesc) -> Result<Compaction> {
        self.prepare_impl(desc, false)
    }

    pub(super) fn prepare_impl(&self, desc: &CompactionDesc, traced: bool) -> Result<Compaction> {
        self.check(desc)?;
        // What wgpu finds wrong (a buffer of another device, a lost device) is an error too.
        crate::gpu::error_scope::scoped_now(&self.device, || self.build(desc, traced))
    }

    fn build(&self, desc: &CompactionDesc, traced: bool) -> Result<Compaction> {
        let mut b = Builder::new(self, desc);
        match desc.method {
            Method::Atomic | Method::Aggregated => b.atomic(),
            Method::Scan => b.scan(traced),
            Method::Lookback | Method::LookbackBits | Method::TileAtomic => b.tiles(),
            Method::PackedScan => b.packed_scan(),
        }
        // The look-back's last tile and `scan_tiles` write the indirect arguments themselves.
        let own_args = matches!(
            desc.method,
            Method::Lookback | Method::LookbackBits | Method::PackedScan
        );
        if !own_args || desc.capacity == 0 {
            let count = b.out.count.clone();
            let indirect = b.out.indirect.clone();
            let args = indirect.binding(b.out.draw.words());
            b.push(
                KernelId::IndirectArgs,
                Variant::PLAIN,
                &[("count", words(&count, 1)), ("args", args)],
                1,
            );
        }
        b.segment_args();
        Ok(b.out)
    }

    /// Every check `prepare` makes before it allocates.
    fn check(&self, desc: &CompactionDesc) -> Result<()> {
        let method = desc.method;
        let needs = compaction_needs(method, desc.payload.is_some(), desc.segments.is_some());
        check(method, needs, &self.device.limits())?;
        self.check_len_for(desc.capacity, method)?;
        if desc.input == Input::Bits && !method.reads_bits() {
            return Err(Error::Unsupported {
                method,
                what: "bit input (only lookback-bits and packed-scan read bits)",
            });
        }
        let storage = wgpu::BufferUsages::STORAGE;
        self.check_range(
            ("flags", "flags offset"),
            (desc.flags, desc.flags_offset),
            input_words(desc),
            storage,
            true,
        )?;
        if let Some(indices) = desc.indices_to {
            self.check_range(
                ("indices", "indices offset"),
                indices,
                desc.capacity,
                storage,
                true,
            )?;
        }
        if let Some(indirect) = desc.indirect_to {
            // `prepare` writes the draw there through the queue.
            let usage = storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST;
            self.check_range(
                ("indirect", "indirect offset"),
                indirect,
                desc.draw.words(),
                usage,
                true,
            )?;
        }
        if let Some(target) = desc.instance_count_to {
            let usage = wgpu::BufferUsages::COPY_DST;
            self.check_range(
                ("instance count target", "instance count offset"),
                target,
                1,
                usage,
                false,
            )?;
        }
        if let Some(payload) = &desc.payload {
            if !method.takes_payload() {
                return Err(Error::Unsupported {
                    method,
                    what: "a payload (its order varies: only the order-keeping methods copy one)",
                });
            }
            if !(1..=MAX_PAYLOAD_WORDS).contains(&payload.words) {
                return Err(Error::PayloadWords {
                    words: payload.words,
                    max: MAX_PAYLOAD_WORDS,
                });
            }
            let words = desc.capacity.saturating_mul(u64::from(payload.words));
            self.check_binding_size("payload", words)?;
            self.check_range(
                ("payload source", "payload source offset"),
                payload.source,
                words,
                storage,
                true,
            )?;
            if let Some(to) = payload.to {
                self.check_range(("payload", "payload offset"), to, words, storage, true)?;
            }
        }
        if let Some(segments) = &desc.segments {
            if !method.preserves_order() {
                return Err(Error::Unsupported {
                    method,
                    what: "segments (its order varies: only the order-keeping methods keep a mesh's objects together)",
                });
            }
            let count = u64::from(segments.count);
            let records = Segment::WORDS * count;
            self.check_binding_size("segments", records)?;
            self.check_range(
                ("segments", "segments offset"),
                segments.segments,
                records,
                storage,
                true,
            )?;
            let args = segment_args_words(desc.draw, segments.count);
            self.check_binding_size("segment args", args)?;
            if let Some(to) = segments.args_to {
                let usage = storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST;
                self.check_range(
                    ("segment args", "segment args offset"),
                    to,
                    args,
                    usage,
                    true,
                )?;
            }
        }
        check_aliasing(desc)
    }

    /// A range of a caller's buffer the compaction binds or copies into: its
    /// usages, its offset (aligned for a storage binding, or to 4 for a copy)
    /// and room for `words` u32 (at least one: bindings are never empty).
    pub(super) fn check_range(
        &self,
        (buffer, offset_what): (&'static str, &'static str),
        (target, offset): BufferAt,
        words: u64,
        usage: wgpu::BufferUsages,
        bound: bool,
    ) -> Result<()> {
        if !target.usage().contains(usage) {
            return Err(Error::BufferUsage {
                buffer,
                missing: usage - target.usage(),
            });
        }
        let alignment = if bound {
            u64::from(self.device.limits().min_storage_buffer_offset_alignment)
        } else {
            WORD
        };
        if !offset.is_multiple_of(alignment) {
            return Err(Error::Misaligned {
                what: offset_what,
                offset,
                alignment,
            });
        }
        let needed = words.max(1).saturating_mul(WORD);
        if !holds(target, offset, needed) {
            return Err(Error::BufferTooSmall {
                buffer,
                size: target.size(),
                needed,
            });
        }
        Ok(())
    }

    /// `words` u32 in one storage binding of this device, each numbered by a u32:
    /// no more than the flags it can hold (`max_flags`).
    fn check_binding_size(&self, buffer: &'static str, words: u64) -> Result<()> {
        if words > self.max_flags() {
            return Err(Error::BindingTooLarge {
                buffer,
                bytes: words.saturating_mul(WORD),
                limit: self.max_flags() * WORD,
            });
        }
        Ok(())
    }
}

/// A range of a caller's buffer the compaction binds: what it is, the byte range,
/// and how each pass uses it.
struct Bound<'a> {
    what: &'static str,
    buffer: &'a wgpu::Buffer,
    range: std::ops::Range<u64>,
    /// In the compaction's pass, then in the segments' pass: read (`R`),
    /// written (`W`), or not bound.
    access: [Option<Access>; 2],
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    R,
    W,
}

impl<'a> Bound<'a> {
    fn new(
        what: &'static str,
        (buffer, offset): BufferAt<'a>,
        words: u64,
        access: [Option<Access>; 2],
    ) -> Self {
        Self {
            what,
            buffer,
            // The range checks before made sure that this does not wrap.
            range: offset..offset + words.max(1) * WORD,
            access,
        }
    }
}

/// The caller's ranges must not share a buffer where one pass reads one and
/// writes the other (wgpu refuses such a dispatch), nor overlap where either is
/// written (the outputs would overwrite inputs or each other).
fn check_aliasing(desc: &CompactionDesc) -> Result<()> {
    use Access::{R, W};
    let capacity = desc.capacity;
    let mut bound = vec![Bound::new(
        "flags",
        (desc.flags, desc.flags_offset),
        input_words(desc),
        [Some(R), None],
    )];
    if let Some(at) = desc.indices_to {
        bound.push(Bound::new("indices", at, capacity, [Some(W), Some(R)]));
    }
    if let Some(at) = desc.indirect_to {
        let words = desc.draw.words();
        bound.push(Bound::new("indirect", at, words, [Some(W), Some(R)]));
    }
    if let Some(p) = &desc.payload {
        let words = capacity * u64::from(p.words);
        bound.push(Bound::new(
            "payload source",
            p.source,
            words,
            [Some(R), None],
        ));
        if let Some(at) = p.to {
            bound.push(Bound::new("payload", at, words, [Some(W), None]));
        }
    }
    if let Some(s) = &desc.segments {
        let words = Segment::WORDS * u64::from(s.count);
        bound.push(Bound::new("segments", s.segments, words, [None, Some(R)]));
        if let Some(at) = s.args_to {
            let words = segment_args_words(desc.draw, s.count);
            bound.push(Bound::new("segment args", at, words, [None, Some(W)]));
        }
    }
    for (i, a) in bound.iter().enumerate() {
        for b in &bound[i + 1..] {
            if a.buffer != b.buffer {
                continue;
            }
            let read_and_written = (0..2).any(
                |pass| matches!((a.access[pass], b.access[pass]), (Some(x), Some(y)) if x != y),
            );
            let written = a.access.contains(&Some(W)) || b.access.contains(&Some(W));
            let overlap = a.range.start < b.range.end && b.range.start < a.range.end;
            if read_and_written || (written && overlap) {
                return Err(Error::Aliased {
                    first: a.what,
                    second: b.what,
                });
            }
        }
    }
    Ok(())
}

/// The u32 words of the input: one per flag, or one per 32 bits.
fn input_words(desc: &CompactionDesc) -> u64 {
    match desc.input {
        Input::U32 => desc.capacity,
        Input::Bits => desc.capacity.div_ceil(32),
    }
}

/// The segment records for `count` segments, then the draw count.
pub(super) fn segment_args_words(draw: DrawArgs, count: u32) -> u64 {
    draw.words() * u64::from(count) + 1
}

/// A payload's source and copies, bound by the kernels that write indices.
struct PayloadIo<'d> {
    source: BufferAt<'d>,
    /// u32 words of each binding: the capacity times the words per object.
    words: u64,
    out: Output,
}

impl PayloadIo<'_> {
    fn bindings(&self) -> [(&'static str, wgpu::BufferBinding<'_>); 2] {
        let (source, offset) = self.source;
        [
            ("payload_in", words_at(source, offset, self.words)),
            ("payload_out", self.out.binding(self.words)),
        ]
    }
}

/// The buffer set every method shares, and the dispatch list as it grows.
struct Builder<'c, 'd> {
    compactor: &'c Compactor,
    desc: &'d CompactionDesc<'d>,
    out: Compaction,
}

impl<'c, 'd> Builder<'c, 'd> {
    fn new(compactor: &'c Compactor, desc: &'d CompactionDesc<'d>) -> Self {
        let device = &compactor.device;
        let label = |what: &str| match desc.label {
            Some(prefix) => format!("{prefix}:{what}"),
            None => what.to_string(),
        };
        let capacity = desc.capacity;
        let with = |what: &str, contents: &[u8], usage| {
            buffer_with(device, &compactor.queue, &label(what), contents, usage)
        };
        // The indices double as an instance-rate vertex buffer.
        let indices = match desc.indices_to {
            Some(at) => Output::yours(at),
            None => Output::own(storage_buffer(
                device,
                &label("indices"),
                capacity,
                wgpu::BufferUsages::VERTEX,
            )),
        };
        let count = storage_buffer(device, &label("count"), 1, wgpu::BufferUsages::COPY_DST);
        let indirect = match desc.indirect_to {
            Some((buffer, offset)) => {
                compactor
                    .queue
                    .write_buffer(buffer, offset, desc.draw.bytes());
                Output::yours((buffer, offset))
            }
            None => Output::own(with(
                "indirect",
                desc.draw.bytes(),
                wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::INDIRECT
                    | wgpu::BufferUsages::COPY_SRC,
            )),
        };
        let live = with(
            "live",
            bytemuck::cast_slice(&[live_word(capacity), live_word(capacity), 0, desc.index_base]),
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_SRC,
        );
        let lengths = with(
            "lengths",
            &[0u8; super::LENGTH_SLOTS as usize * 4],
            wgpu::BufferUsages::COPY_SRC,
        );
        let payload = desc.payload.as_ref().map(|p| PayloadOut {
            words: p.words,
            out: match p.to {
                Some(at) => Output::yours(at),
                None => Output::own(storage_buffer(
                    device,
                    &label("payload"),
                    capacity * u64::from(p.words),
                    wgpu::BufferUsages::VERTEX,
                )),
            },
        });
        let segments = desc.segments.as_ref().map(|s| SegmentsOut {
            count: s.count,
            args: match s.args_to {
                Some(at) => Output::yours(at),
                None => Output::own(storage_buffer(
                    device,
                    &label("segment_args"),
                    segment_args_words(desc.draw, s.count),
                    wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                )),
            },
        });
        let out = Compaction {
            method: desc.method,
            label: desc.label.map(str::to_string),
            capacity,
            input: desc.input,
            indices,
            count,
            indirect,
            draw: desc.draw,
            live,
            instance_count_to: desc
                .instance_count_to
                .map(|(b, offset)| (b.clone(), offset)),
            payload,
            segments,
            levels: Vec::new(),
            tile_states: None,
            subtiles: 1,
            tile_counts: None,
            packed_bits: None,
            dispatches: Vec::new(),
            destroy_on_drop: false,
            lengths,
            next_length: Default::default(),
            compactor: compactor.id,
            device: device.clone(),
            slice_base: Default::default(),
        };
        Self {
            compactor,
            desc,
            out,
        }
    }

    /// Records a dispatch of `id`'s pipeline in `variant`, its buffers bound by
    /// their names in the catalogue.
    fn push(
        &mut self,
        id: KernelId,
        variant: Variant,
        buffers: &[(&str, wgpu::BufferBinding)],
        invocations: u64,
    ) {
        let device = &self.compactor.device;
        let kernel = self.compactor.pipelines.kernel(device, id, variant);
        let bind_group = kernel.bind(device, buffers, &self.out.live);
        self.out.dispatches.push(Dispatch {
            kernel,
            bind_group,
            invocations,
            scan_level: None,
        });
    }

    /// The variant of a kernel that writes indices: with the payload's words.
    fn writing(&self) -> Variant {
        Variant::payload(self.out.payload.as_ref().map_or(0, |p| p.words))
    }

    /// The payload's source and copies, for a kernel that writes indices.
    fn payload_io(&self) -> Option<PayloadIo<'d>> {
        let (desc, out) = (self.desc.payload.as_ref()?, self.out.payload.as_ref()?);
        Some(PayloadIo {
            source: desc.source,
            words: self.desc.capacity * u64::from(desc.words),
            out: out.out.clone(),
        })
    }

    /// The flags, as the kernels bind them.
    fn flags(&self) -> wgpu::BufferBinding<'d> {
        words_at(
            self.desc.flags,
            self.desc.flags_offset,
            input_words(self.desc),
        )
    }

    fn label(&self, what: &str) -> String {
        match &self.out.label {
            Some(prefix) => format!("{prefix}:{what}"),
            None => what.to_string(),
        }
    }

    fn buffer(&self, what: &str, words: u64) -> wgpu::Buffer {
        storage_buffer(
            &self.compactor.device,
            &self.label(what),
            words,
            wgpu::BufferUsages::empty(),
        )
    }

    fn atomic(&mut self) {
        let kernel = if self.desc.method == Method::Atomic {
            KernelId::AtomicCounter
        } else {
            KernelId::AtomicAggregated
        };
        let n = self.desc.capacity;
        let indices = self.out.indices.clone();
        let count = self.out.count.clone();
        self.push(
            kernel,
            Variant::PLAIN,
            &[
                ("visible", self.flags()),
                ("indices", indices.binding(n)),
                ("counter", words(&count, 1)),
            ],
            n,
        );
    }

    fn scan(&mut self, traced: bool) {
        let n = self.desc.capacity;
        let levels = self.scan_levels(traced);
        let count = self.out.count.clone();
        let kernel = if traced {
            KernelId::ScanBlockTraced
        } else {
            KernelId::ScanBlock
        };
        for (level, buffers) in levels.iter().enumerate() {
            let input = match level {
                0 => self.flags(),
                _ => words(
                    levels[level - 1].block_sums.as_ref().unwrap_or(&count),
                    buffers.len,
                ),
            };
            let sums = buffers.block_sums.as_ref().unwrap_or(&count);
            let mut bindings = vec![
                ("input", input),
                ("prefix", words(&buffers.prefix, buffers.len)),
                (
                    "block_sums",
                    words(sums, buffers.len.div_ceil(BLOCK as u64)),
                ),
            ];
            if let Some(trace) = &buffers.trace {
                bindings.push(("trace", trace.as_entire_buffer_binding()));
            }
            // Every block runs, including the zero-padded tail of the last.
            let invocations = buffers.len.div_ceil(BLOCK as u64) * BLOCK as u64;
            self.push(kernel, Variant::scan_level(level), &bindings, invocations);
            if let Some(last) = self.out.dispatches.last_mut() {
                last.scan_level = Some(level);
            }
        }
        for level in (0..levels.len().saturating_sub(1)).rev() {
            let (this, above) = (&levels[level], &levels[level + 1]);
            let bindings = [
                ("prefix", words(&this.prefix, this.len)),
                ("offsets", words(&above.prefix, above.len)),
            ];
            self.push(KernelId::AddOffsets, Variant::PLAIN, &bindings, this.len);
        }
        if let Some(level0) = levels.first() {
            let indices = self.out.indices.clone();
            let mut bindings = vec![
                ("visible", self.flags()),
                ("prefix", words(&level0.prefix, n)),
                ("indices", indices.binding(n)),
            ];
            let payload = self.payload_io();
            bindings.extend(payload.iter().flat_map(PayloadIo::bindings));
            self.push(KernelId::Scatter, self.writing(), &bindings, n);
        }
        self.out.levels = levels;
    }

    fn scan_levels(&self, traced: bool) -> Vec<ScanLevel> {
        let lengths = crate::teaching::cpu::scan_level_lengths(self.desc.capacity as usize);
        let top = lengths.len().saturating_sub(1);
        lengths
            .iter()
            .enumerate()
            .map(|(level, &n)| {
                let n = n as u64;
                let blocks = n.div_ceil(BLOCK as u64);
                ScanLevel {
                    len: n,
                    prefix: self.buffer("scan_block:prefix", n),
                    block_sums: (level < top).then(|| self.buffer("scan_block:block_sums", blocks)),
                    trace: traced.then(|| {
                        self.buffer(
                            "scan_block:trace",
                            (STEPS as u64 + 1) * blocks * BLOCK as u64,
                        )
                    }),
                }
            })
            .collect()
    }

    fn tiles(&mut self) {
        let desc = self.desc;
        let n = desc.capacity;
        let options = self.compactor.pipelines.options();
        // A look-back state covers this many tiles (two for large bits arrays).
        let subtiles = subtiles(desc.method, n, options.wide_bits_from_tiles);
        let tiles = n.div_ceil(TILE as u64 * u64::from(subtiles));
        let stat_words = if options.stats { STAT_WORDS } else { 0 };
        // Word 0 counts tickets; then one state per tile. Fewer than N/4096 + 2 words.
        let tile_states = self.buffer("lookback:tile_states", tiles + 1 + stat_words);
        // u32 flags for the bits method are packed first, in the same pass.
        let bit_words = n.div_ceil(32);
        let packed = (desc.method == Method::LookbackBits && desc.input == Input::U32)
            .then(|| self.pack(KernelId::PackBits, None));
        let (source, offset, input_words) = match &packed {
            Some(packed) => (packed, 0, bit_words),
            None => (desc.flags, desc.flags_offset, input_words(desc)),
        };
        if n > 0 {
            // `lookback` takes two tiles a workgroup from this capacity.
            let paired = self.compactor.pipelines.options().paired_from_tiles;
            let kernel = match desc.method {
                Method::Lookback if tiles >= u64::from(paired) => KernelId::LookbackPaired,
                Method::Lookback => KernelId::Lookback,
                Method::LookbackBits => KernelId::LookbackBits,
                _ => KernelId::TileAtomic,
            };
            let indices = self.out.indices.clone();
            let count = self.out.count.clone();
            let mut bindings = vec![
                ("input4", self.vec4_view(source, offset, input_words)),
                ("input", words_at(source, offset, input_words)),
                ("indices", indices.binding(n)),
                ("tile_states", words(&tile_states, tiles + 1 + stat_words)),
                ("count", words(&count, 1)),
            ];
            let indirect = self.out.indirect.clone();
            let payload = self.payload_io();
            if kernel != KernelId::TileAtomic {
                bindings.push(("indirect", indirect.binding(self.out.draw.words())));
                bindings.extend(payload.iter().flat_map(PayloadIo::bindings));
            }
            let groups = if kernel == KernelId::LookbackPaired {
                tiles.div_ceil(2)
            } else {
                tiles
            };
            let variant = if kernel == KernelId::TileAtomic {
                Variant::PLAIN
            } else {
                Variant {
                    subtiles,
                    ..self.writing()
                }
            };
            self.push(
                kernel,
                variant,
                &bindings,
                groups * crate::layout::LOOKBACK_WORKGROUP as u64,
            );
        }
        self.out.tile_states = Some(tile_states);
        self.out.subtiles = subtiles;
        self.out.packed_bits = packed;
    }

    /// `packed-scan`: the bits (packed first from u32 flags) and each tile's count,
    /// the counts scanned into slots, then every tile written from its slot.
    fn packed_scan(&mut self) {
        let desc = self.desc;
        let n = desc.capacity;
        let tiles = n.div_ceil(TILE as u64);
        // Whole vec4 for `scan_tiles`; N/4096 words, rounded up.
        let count_words = tiles.div_ceil(4) * 4;
        let counts = self.buffer("packed_scan:tile_counts", count_words);
        let bit_words = n.div_ceil(32);
        // From u32 flags the packing counts the tiles too.
        let packed = (desc.input == Input::U32)
            .then(|| self.pack(KernelId::PackBitsCounted, Some(words(&counts, tiles))));
        if n > 0 {
            let (bits, offset) = match &packed {
                Some(packed) => (packed, 0),
                None => (desc.flags, desc.flags_offset),
            };
            let bits4 = self.vec4_view(bits, offset, bit_words);
            let bits1 = words_at(bits, offset, bit_words);
            if packed.is_none() {
                // One vec4 of bit words (128 flags) an invocation.
                self.push(
                    KernelId::TileCounts,
                    Variant::PLAIN,
                    &[
                        ("input4", bits4.clone()),
                        ("input", bits1.clone()),
                        ("counts", words(&counts, tiles)),
                    ],
                    tiles * (TILE as u64 / 128),
                );
            }
            let count = self.out.count.clone();
            let indirect = self.out.indirect.clone();
            self.push(
                KernelId::ScanTiles,
                Variant::PLAIN,
                &[
                    ("counts", words(&counts, count_words)),
                    ("count", words(&count, 1)),
                    ("indirect", indirect.binding(self.out.draw.words())),
                ],
                crate::layout::SCAN_TILES_WORKGROUP as u64,
            );
            let indices = self.out.indices.clone();
            let mut bindings = vec![
                ("input4", bits4),
                ("input", bits1),
                ("indices", indices.binding(n)),
                ("tile_bases", words(&counts, tiles)),
            ];
            let payload = self.payload_io();
            bindings.extend(payload.iter().flat_map(PayloadIo::bindings));
            self.push(
                KernelId::TileScatterBits,
                self.writing(),
                &bindings,
                tiles * crate::layout::LOOKBACK_WORKGROUP as u64,
            );
        }
        self.out.tile_counts = Some(counts);
        self.out.packed_bits = packed;
    }

    /// The bits the u32 flags are packed into by `kernel` (`PackBits`, or
    /// `PackBitsCounted` with the tile counts to write), its dispatch pushed.
    fn pack(&mut self, kernel: KernelId, counts: Option<wgpu::BufferBinding>) -> wgpu::Buffer {
        let desc = self.desc;
        let n = desc.capacity;
        let bit_words = n.div_ceil(32);
        let packed = self.buffer("pack_bits:bits", bit_words);
        if n > 0 {
            let view = self.vec4_view(desc.flags, desc.flags_offset, n);
            let mut bindings = vec![
                ("input4", view),
                ("input", self.flags()),
                ("bits", words(&packed, bit_words)),
            ];
            bindings.extend(counts.map(|c| ("tile_counts", c)));
            self.push(kernel, Variant::PLAIN, &bindings, bit_words);
        }
        packed
    }

    /// The per-segment draw records, after the indices and the count are written.
    fn segment_args(&mut self) {
        let (Some(desc), Some(out)) = (&self.desc.segments, &self.out.segments) else {
            return;
        };
        if desc.count == 0 {
            return;
        }
        let (segments, offset) = desc.segments;
        let draw_words = self.out.draw.words();
        let args = out.args.clone();
        let indices = self.out.indices.clone();
        let indirect = self.out.indirect.clone();
        let capacity = self.desc.capacity;
        let count = desc.count;
        self.push(
            KernelId::SegmentArgs,
            Variant::PLAIN,
            &[
                ("indices", indices.binding(capacity)),
                (
                    "segments",
                    words_at(segments, offset, Segment::WORDS * u64::from(count)),
                ),
                ("own_args", indirect.binding(draw_words)),
                (
                    "args",
                    args.binding(segment_args_words(self.out.draw, count)),
                ),
            ],
            // One workgroup a segment.
            u64::from(count) * SEGMENT_ARGS_WORKGROUP as u64,
        );
    }

    /// The vec4 view of `buffer`'s first `len` words from `offset`: the bulk as
    /// vec4 (the kernels read the tail as u32); a buffer shorter than a vec4
    /// binds a stand-in the kernels never read.
    fn vec4_view<'a>(
        &self,
        buffer: &'a wgpu::Buffer,
        offset: u64,
        len: u64,
    ) -> wgpu::BufferBinding<'a>
    where
        'c: 'a,
    {
        let vec4_words = len / 4 * 4;
        if vec4_words > 0 {
            words_at(buffer, offset, vec4_words)
        } else {
            words(&self.compactor.empty_vec4, 4)
        }
    }
}

/// The live length as the kernels read it (they clamp it to their bindings).
pub(super) fn live_word(len: u64) -> u32 {
    len.min(u64::from(u32::MAX)) as u32
}
