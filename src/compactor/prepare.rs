//! Setup, once per flags buffer: the checks, the buffers and the list of
//! dispatches a compaction records every frame.

use super::pipelines::KernelId;
use super::{Compaction, Compactor, Dispatch, ScanLevel};
use crate::error::{Error, Result};
use crate::gpu::kernel::{buffer_with, holds, storage_buffer, words, words_at};
use crate::gpu::lookback::STAT_WORDS;
use crate::layout::{BLOCK, STEPS, TILE, WORD};
use crate::output::DrawArgs;
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
    /// `min_storage_buffer_offset_alignment` (256 on most devices).
    pub flags_offset: u64,
    /// u32 flags or bits.
    pub input: Input,
    /// The most flags a frame compacts. The live length (see
    /// [`Compactor::encode_len`]) is this until set otherwise.
    pub capacity: u64,
    /// The indirect arguments written for the draw: non-indexed (16 bytes) or
    /// indexed (20 bytes); the GPU fills in `instance_count`.
    pub draw: DrawArgs,
    /// Also copy the count (the `instance_count`) to this buffer at this byte
    /// offset at the end of every encode: for a caller's own indirect buffer.
    /// Needs `COPY_DST`; the offset a multiple of 4.
    pub instance_count_to: Option<(&'a wgpu::Buffer, u64)>,
}

impl<'a> CompactionDesc<'a> {
    /// u32 flags from the start of `flags`, `capacity` of them, for a
    /// non-indexed draw of a quad (6 vertices) per instance.
    pub fn new(flags: &'a wgpu::Buffer, capacity: u64, method: Method) -> Self {
        Self {
            label: None,
            method,
            flags,
            flags_offset: 0,
            input: Input::U32,
            capacity,
            draw: DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
            instance_count_to: None,
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
    /// a caller's instance-count target, labels.
    pub fn prepare_with(&self, desc: &CompactionDesc) -> Result<Compaction> {
        self.prepare_impl(desc, false)
    }

    pub(super) fn prepare_impl(&self, desc: &CompactionDesc, traced: bool) -> Result<Compaction> {
        self.check(desc)?;
        // What wgpu finds wrong (a flags buffer of another device, a lost device) is an error too.
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
            let (count, indirect) = (b.out.count.clone(), b.out.indirect.clone());
            b.push(
                KernelId::IndirectArgs,
                &[words(&count, 1), words(&indirect, b.out.draw.words())],
                1,
            );
        }
        Ok(b.out)
    }

    /// Every check `prepare` makes before it allocates.
    fn check(&self, desc: &CompactionDesc) -> Result<()> {
        let method = desc.method;
        self.supports(method)?;
        self.check_len_for(desc.capacity, method)?;
        if desc.input == Input::Bits && !method.reads_bits() {
            return Err(Error::Unsupported {
                method,
                what: "bit input (only lookback-bits and packed-scan read bits)",
            });
        }
        let flags = desc.flags;
        if !flags.usage().contains(wgpu::BufferUsages::STORAGE) {
            return Err(Error::BufferUsage {
                buffer: "flags",
                missing: wgpu::BufferUsages::STORAGE,
            });
        }
        let alignment = u64::from(self.device.limits().min_storage_buffer_offset_alignment);
        if !desc.flags_offset.is_multiple_of(alignment) {
            return Err(Error::Misaligned {
                what: "flags offset",
                offset: desc.flags_offset,
                alignment,
            });
        }
        let needed = input_words(desc).saturating_mul(WORD);
        if !holds(flags, desc.flags_offset, needed) {
            return Err(Error::BufferTooSmall {
                buffer: "flags",
                size: flags.size(),
                needed,
            });
        }
        if let Some((target, offset)) = desc.instance_count_to {
            if !target.usage().contains(wgpu::BufferUsages::COPY_DST) {
                return Err(Error::BufferUsage {
                    buffer: "instance count target",
                    missing: wgpu::BufferUsages::COPY_DST,
                });
            }
            if !offset.is_multiple_of(WORD) {
                return Err(Error::Misaligned {
                    what: "instance count offset",
                    offset,
                    alignment: WORD,
                });
            }
            if !holds(target, offset, WORD) {
                return Err(Error::BufferTooSmall {
                    buffer: "instance count target",
                    size: target.size(),
                    needed: WORD,
                });
            }
        }
        Ok(())
    }
}

/// The u32 words of the input: one per flag, or one per 32 bits.
fn input_words(desc: &CompactionDesc) -> u64 {
    match desc.input {
        Input::U32 => desc.capacity,
        Input::Bits => desc.capacity.div_ceil(32),
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
        // The indices double as an instance-rate vertex buffer.
        let indices = storage_buffer(
            device,
            &label("indices"),
            capacity,
            wgpu::BufferUsages::VERTEX,
        );
        let count = storage_buffer(device, &label("count"), 1, wgpu::BufferUsages::COPY_DST);
        let with = |what: &str, contents: &[u8], usage| {
            buffer_with(device, &compactor.queue, &label(what), contents, usage)
        };
        let indirect = with(
            "indirect",
            desc.draw.bytes(),
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::INDIRECT
                | wgpu::BufferUsages::COPY_SRC,
        );
        let live = with(
            "live",
            bytemuck::cast_slice(&[live_word(capacity), live_word(capacity), 0, 0]),
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_SRC,
        );
        let lengths = with(
            "lengths",
            &[0u8; super::LENGTH_SLOTS as usize * 4],
            wgpu::BufferUsages::COPY_SRC,
        );
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
            levels: Vec::new(),
            tile_states: None,
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

    fn push(&mut self, kernel: KernelId, buffers: &[wgpu::BufferBinding], invocations: u64) {
        let numbered: Vec<_> = (0..).zip(buffers.iter().cloned()).collect();
        self.push_at(kernel, &numbered, invocations);
    }

    /// `push` with each buffer's binding number given.
    fn push_at(
        &mut self,
        kernel: KernelId,
        buffers: &[(u32, wgpu::BufferBinding)],
        invocations: u64,
    ) {
        let device = &self.compactor.device;
        let bind_group =
            self.compactor
                .pipelines
                .kernel(device, kernel)
                .bind(device, buffers, &self.out.live);
        self.out.dispatches.push(Dispatch {
            kernel,
            bind_group,
            invocations,
        });
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
        let (indices, count) = (self.out.indices.clone(), self.out.count.clone());
        self.push(
            kernel,
            &[self.flags(), words(&indices, n), words(&count, 1)],
            n,
        );
    }

    fn scan(&mut self, traced: bool) {
        let n = self.desc.capacity;
        let levels = self.scan_levels(traced);
        let count = self.out.count.clone();
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
                input,
                words(&buffers.prefix, buffers.len),
                words(sums, buffers.len.div_ceil(BLOCK as u64)),
            ];
            if let Some(trace) = &buffers.trace {
                bindings.push(trace.as_entire_buffer_binding());
            }
            // Every block runs, including the zero-padded tail of the last.
            let invocations = buffers.len.div_ceil(BLOCK as u64) * BLOCK as u64;
            self.push(
                KernelId::ScanBlock { level, traced },
                &bindings,
                invocations,
            );
        }
        for level in (0..levels.len().saturating_sub(1)).rev() {
            let (this, above) = (&levels[level], &levels[level + 1]);
            let bindings = [
                words(&this.prefix, this.len),
                words(&above.prefix, above.len),
            ];
            self.push(KernelId::AddOffsets, &bindings, this.len);
        }
        if let Some(level0) = levels.first() {
            let indices = self.out.indices.clone();
            let bindings = [self.flags(), words(&level0.prefix, n), words(&indices, n)];
            self.push(KernelId::Scatter, &bindings, n);
        }
        self.out.levels = levels;
    }

    fn scan_levels(&self, traced: bool) -> Vec<ScanLevel> {
        let lengths = crate::cpu::scan_level_lengths(self.desc.capacity as usize);
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
        let tiles = n.div_ceil(TILE as u64);
        let stat_words = if self.compactor.pipelines.options().stats {
            STAT_WORDS
        } else {
            0
        };
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
            let (indices, count, indirect) = (
                self.out.indices.clone(),
                self.out.count.clone(),
                self.out.indirect.clone(),
            );
            let mut bindings = vec![
                self.vec4_view(source, offset, input_words),
                words_at(source, offset, input_words),
                words(&indices, n),
                words(&tile_states, tiles + 1 + stat_words),
                words(&count, 1),
            ];
            if kernel != KernelId::TileAtomic {
                bindings.push(words(&indirect, self.out.draw.words()));
            }
            let groups = if kernel == KernelId::LookbackPaired {
                tiles.div_ceil(2)
            } else {
                tiles
            };
            self.push(
                kernel,
                &bindings,
                groups * crate::layout::LOOKBACK_WORKGROUP as u64,
            );
        }
        self.out.tile_states = Some(tile_states);
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
                    &[bits4.clone(), bits1.clone(), words(&counts, tiles)],
                    tiles * (TILE as u64 / 128),
                );
            }
            let (count, indirect) = (self.out.count.clone(), self.out.indirect.clone());
            self.push(
                KernelId::ScanTiles,
                &[
                    words(&counts, count_words),
                    words(&count, 1),
                    words(&indirect, self.out.draw.words()),
                ],
                crate::layout::SCAN_TILES_WORKGROUP as u64,
            );
            let indices = self.out.indices.clone();
            self.push_at(
                KernelId::TileScatterBits,
                &[
                    (0, bits4),
                    (1, bits1),
                    (2, words(&indices, n)),
                    (6, words(&counts, tiles)),
                ],
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
            let mut bindings = vec![view, self.flags(), words(&packed, bit_words)];
            bindings.extend(counts);
            self.push(kernel, &bindings, bit_words);
        }
        packed
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
