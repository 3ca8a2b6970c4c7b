//! The dispatch builder: the buffers of a prepared compaction (its own, or
//! ranges of the caller's) and the list of dispatches it records every frame,
//! method by method.

use crate::compactor::{
    Compaction, Compactor, Dispatch, Output, PackedRecords, PayloadOut, ScanLevel, SegmentsOut,
};
use crate::gpu::catalogue::KernelId;
use crate::gpu::kernel::{buffer_with, storage_buffer, words, words_at};
use crate::gpu::options::STAT_WORDS;
use crate::gpu::pipelines::Variant;
use crate::layout::{
    group_bits_start, group_slot_words, group_slots_start, subtiles, BLOCK, SEGMENT_ARGS_WORKGROUP,
    STEPS, TILE, WORD,
};
use crate::output::Segment;
use crate::Method;

use super::desc::{
    input_words, out_capacity, segment_args_words, BufferAt, CompactionDesc, CullDesc, Input,
};
use crate::error::Result;

/// A payload's source and copies, bound by the kernels that write indices.
struct PayloadIo<'d> {
    source: BufferAt<'d>,
    /// u32 words of the source: the capacity times the words per object.
    words: u64,
    /// u32 words of the copies: the outputs' capacity times the words per object.
    out_words: u64,
    out: Output,
}

impl PayloadIo<'_> {
    fn bindings(&self) -> [(&'static str, wgpu::BufferBinding<'_>); 2] {
        let (source, offset) = self.source;
        [
            ("payload_in", words_at(source, offset, self.words)),
            ("payload_out", self.out.binding(self.out_words)),
        ]
    }
}

/// The buffer set every method shares, and the dispatch list as it grows.
pub(super) struct Builder<'c, 'd> {
    compactor: &'c Compactor,
    desc: &'d CompactionDesc<'d>,
    pub(super) out: Compaction,
}

impl<'c, 'd> Builder<'c, 'd> {
    pub(super) fn new(compactor: &'c Compactor, desc: &'d CompactionDesc<'d>) -> Self {
        let device = &compactor.device;
        let label = |what: &str| match desc.label {
            Some(prefix) => format!("{prefix}:{what}"),
            None => what.to_string(),
        };
        let capacity = desc.capacity;
        let out_capacity = out_capacity(desc);
        let with = |what: &str, contents: &[u8], usage| {
            buffer_with(device, &compactor.queue, &label(what), contents, usage)
        };
        // The indices double as an instance-rate vertex buffer; a teaching tool
        // fills them before a learner's kernel runs (`teaching::UNWRITTEN`).
        let indices = match desc.indices_to {
            Some(at) => Output::yours(at),
            None => Output::own(storage_buffer(
                device,
                &label("indices"),
                out_capacity,
                wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            )),
        };
        // The visible objects written, then those past `max_visible` (look-back only).
        let count = storage_buffer(device, &label("count"), 2, wgpu::BufferUsages::COPY_DST);
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
            &[0u8; crate::compactor::LENGTH_SLOTS as usize * 4],
            wgpu::BufferUsages::COPY_SRC,
        );
        let payload = desc.payload.as_ref().map(|p| PayloadOut {
            words: p.words,
            out: match p.to {
                Some(at) => Output::yours(at),
                None => Output::own(storage_buffer(
                    device,
                    &label("payload"),
                    out_capacity * u64::from(p.words),
                    wgpu::BufferUsages::VERTEX,
                )),
            },
        });
        let segments = desc.segments.as_ref().map(|s| SegmentsOut {
            count: s.count,
            source: (s.segments.0.clone(), s.segments.1),
            packed: s.packed.then(|| PackedRecords {
                unpacked: storage_buffer(
                    device,
                    &label("segment_args:unpacked"),
                    segment_args_words(desc.draw, s.count),
                    wgpu::BufferUsages::empty(),
                ),
                meshes: storage_buffer(
                    device,
                    &label("pack_records:meshes"),
                    u64::from(s.count),
                    wgpu::BufferUsages::empty(),
                ),
                places: storage_buffer(
                    device,
                    &label("pack_slots:places"),
                    u64::from(s.count),
                    wgpu::BufferUsages::empty(),
                ),
            }),
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
            out_capacity,
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
            lengths: std::sync::Mutex::new(lengths),
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
    pub(super) fn push(
        &mut self,
        id: KernelId,
        variant: Variant,
        buffers: &[(&str, wgpu::BufferBinding)],
        invocations: u64,
    ) {
        let device = &self.compactor.device;
        let kernel = self.compactor.pipelines.kernel(device, id, variant);
        let probe = self.compactor.probe();
        let bind_group = kernel.bind(device, buffers, &self.out.live, probe);
        self.out.dispatches.push(Dispatch {
            kernel,
            bind_group,
            cull_group: None,
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
            out_words: self.out.out_capacity * u64::from(desc.words),
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

    pub(super) fn atomic(&mut self) {
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
                ("indices", indices.binding(self.out.out_capacity)),
                ("counter", words(&count, 1)),
            ],
            n,
        );
    }

    pub(super) fn scan(&mut self, traced: bool) {
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
                ("indices", indices.binding(self.out.out_capacity)),
            ];
            let payload = self.payload_io();
            bindings.extend(payload.iter().flat_map(PayloadIo::bindings));
            self.push(KernelId::Scatter, self.writing(), &bindings, n);
        }
        self.out.levels = levels;
    }

    fn scan_levels(&self, traced: bool) -> Vec<ScanLevel> {
        let lengths = crate::layout::scan_level_lengths(self.desc.capacity as usize);
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
                    // Snapshots start UNWRITTEN: a learner's loop that stops short leaves its
                    // last ones so, never reading as a block of zeros.
                    trace: traced.then(|| {
                        let words = (STEPS + 1) * blocks as usize * BLOCK;
                        buffer_with(
                            &self.compactor.device,
                            &self.compactor.queue,
                            &self.label("scan_block:trace"),
                            bytemuck::cast_slice(&vec![crate::layout::UNWRITTEN; words]),
                            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                        )
                    }),
                }
            })
            .collect()
    }

    pub(super) fn tiles(&mut self) -> Result<()> {
        let desc = self.desc;
        let n = desc.capacity;
        let options = self.compactor.pipelines.options();
        // A look-back state covers this many tiles (two for large bits arrays).
        let subtiles = subtiles(desc.method, n, options.wide_bits_from_tiles);
        let tiles = n.div_ceil(TILE as u64 * u64::from(subtiles));
        let stat_words = if options.stats { STAT_WORDS } else { 0 };
        // Word 0 counts tickets; then one state per tile. Fewer than N/4096 + 2 words.
        // A segmented look-back adds its group slots (N/32 words) after them.
        let group_slots = self.writes_group_slots();
        // A culled one adds its visibility bits (as many words) after the slots.
        let state_words = match (group_slots, desc.cull.is_some()) {
            (true, true) => group_bits_start(n) + group_slot_words(n),
            (true, false) => group_slots_start(n) + group_slot_words(n),
            _ => tiles + 1,
        };
        let tile_states = self.buffer("lookback:tile_states", state_words + stat_words);
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
                ("indices", indices.binding(self.out.out_capacity)),
                ("tile_states", words(&tile_states, state_words + stat_words)),
                ("count", words(&count, 2)),
            ];
            // A culled compaction reads no flags.
            if desc.cull.is_none() {
                bindings.push(("input4", self.vec4_view(source, offset, input_words)));
                bindings.push(("input", words_at(source, offset, input_words)));
            }
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
            // (Without the `cull` feature `prepare` refused it: the code goes too.)
            let cull = desc.cull.as_ref().filter(|_| cfg!(feature = "cull"));
            let variant = if kernel == KernelId::TileAtomic {
                Variant::PLAIN
            } else {
                Variant {
                    subtiles,
                    group_slots,
                    cull: cull.map_or(0, |c| self.compactor.pipelines.cull_id(c.wgsl)),
                    ..self.writing()
                }
            };
            let invocations = groups * crate::layout::LOOKBACK_WORKGROUP as u64;
            match cull {
                Some(cull) => self.push_culled(kernel, variant, &bindings, invocations, cull)?,
                None => self.push(kernel, variant, &bindings, invocations),
            }
        }
        self.out.tile_states = Some(tile_states);
        self.out.subtiles = subtiles;
        self.out.packed_bits = packed;
        Ok(())
    }

    /// `push` for a tile kernel that asks the renderer's visibility function, with
    /// its bind group of the renderer's resources (made from the dispatch's own
    /// pipeline: a derived layout binds only its pipeline's groups). What wgpu finds
    /// wrong with the renderer's WGSL or bindings is `Error::Cull`; a pipeline that
    /// did not compile is not kept.
    fn push_culled(
        &mut self,
        kernel: KernelId,
        variant: Variant,
        bindings: &[(&str, wgpu::BufferBinding)],
        invocations: u64,
        cull: &CullDesc,
    ) -> Result<()> {
        let compactor = self.compactor;
        let device = &compactor.device;
        let pushed = crate::gpu::error_scope::scoped_now(device, || {
            self.push(kernel, variant, bindings, invocations);
            Ok(())
        });
        if let Err(e) = pushed {
            compactor.pipelines.forget(kernel, variant);
            return Err(e.into_cull());
        }
        if let Some(last) = self.out.dispatches.last_mut() {
            last.cull_group = last.kernel.bind_cull(device, cull.bindings)?;
        }
        Ok(())
    }

    /// `packed-scan`: the bits (packed first from u32 flags) and each tile's count,
    /// the counts scanned into slots, then every tile written from its slot.
    pub(super) fn packed_scan(&mut self) {
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
                ("indices", indices.binding(self.out.out_capacity)),
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

    /// Whether the tiles write the group slots: a segmented look-back, whose
    /// records `segment_args_grouped` reads from them.
    fn writes_group_slots(&self) -> bool {
        self.desc.segments.as_ref().is_some_and(|s| s.count > 0)
            && matches!(self.desc.method, Method::Lookback | Method::LookbackBits)
    }

    /// The per-segment draw records, after the indices and the count are written.
    pub(super) fn segment_args(&mut self) {
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
        let records = segment_args_words(self.out.draw, count);
        // Packed: the records go to a scratch buffer first, `pack_records` then
        // writes the kept ones into the args.
        let packed = out.packed.clone();
        let records_to = match &packed {
            Some(p) => words(&p.unpacked, records),
            None => args.binding(records),
        };
        let mut bindings = vec![
            (
                "segments",
                words_at(segments, offset, Segment::WORDS * u64::from(count)),
            ),
            ("own_args", indirect.binding(draw_words)),
            ("args", records_to),
        ];
        let states = self.out.tile_states.clone();
        match states.filter(|_| self.writes_group_slots()) {
            Some(states) => {
                // The flags the tiles read (the packed bits of u32 flags, or the
                // bits a culled compaction's tiles wrote), and the group slots
                // after the tile states.
                let culled = self.desc.cull.is_some();
                let bits = self.desc.method == Method::LookbackBits || culled;
                let packed = self.out.packed_bits.clone();
                let (source, offset, len) = match &packed {
                    Some(packed) => (packed, 0, capacity.div_ceil(32)),
                    None if culled => (
                        &states,
                        group_bits_start(capacity) * WORD,
                        capacity.div_ceil(32),
                    ),
                    None => (
                        self.desc.flags,
                        self.desc.flags_offset,
                        input_words(self.desc),
                    ),
                };
                bindings.push(("input4", self.vec4_view(source, offset, len)));
                bindings.push(("input", words_at(source, offset, len)));
                bindings.push((
                    "group_slots",
                    words_at(
                        &states,
                        group_slots_start(capacity) * WORD,
                        group_slot_words(capacity),
                    ),
                ));
                let variant = Variant {
                    group_slots: true,
                    bits,
                    ..Variant::PLAIN
                };
                // One invocation a segment.
                self.push(
                    KernelId::SegmentArgsGrouped,
                    variant,
                    &bindings,
                    u64::from(count),
                );
            }
            None => {
                bindings.push(("indices", indices.binding(self.out.out_capacity)));
                // One workgroup a segment.
                let invocations = u64::from(count) * SEGMENT_ARGS_WORKGROUP as u64;
                self.push(
                    KernelId::SegmentArgs,
                    Variant::PLAIN,
                    &bindings,
                    invocations,
                );
            }
        }
        if let Some(p) = packed {
            let places = words(&p.places, u64::from(count));
            self.push(
                KernelId::PackSlots,
                Variant::PLAIN,
                &[
                    ("records", words(&p.unpacked, records)),
                    ("own_args", indirect.binding(draw_words)),
                    ("args", args.binding(records)),
                    ("places", places.clone()),
                ],
                crate::layout::SCAN_TILES_WORKGROUP as u64,
            );
            self.push(
                KernelId::PackRecords,
                Variant::PLAIN,
                &[
                    ("records", words(&p.unpacked, records)),
                    ("own_args", indirect.binding(draw_words)),
                    ("args", args.binding(records)),
                    ("meshes", words(&p.meshes, u64::from(count))),
                    ("places", places),
                ],
                u64::from(count),
            );
        }
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
pub(in crate::compactor) fn live_word(len: u64) -> u32 {
    len.min(u64::from(u32::MAX)) as u32
}
