//! The public `Compactor`: pipelines created once, per-array `Compaction`s
//! prepared once (buffers and bind groups), then recorded into a caller's encoder
//! every frame. `run` does all three for tests, the CLI and the page.

mod trace;

use std::sync::OnceLock;

use wgpu::util::DeviceExt;

use crate::error::{Error, Result};
use crate::gpu::error_scope::scoped;
use crate::gpu::kernel::{storage_buffer, words, Kernel, WORD};
use crate::gpu::lookback::{Lookback, LookbackOptions, TILE, WORKGROUP_SIZE};
use crate::gpu::readback::Readback;
use crate::gpu::scan_block::{ScanBlock, BLOCK, STEPS};
use crate::gpu::{
    add_offsets, atomic_aggregated, atomic_counter, indirect_args, pack_bits, scatter,
};
use crate::output::{CompactionOutput, IndirectArgs};

pub use trace::MAX_TRACE_FLAGS;

/// How the visible indices are compacted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The article's kernel 1: one global atomicAdd per visible flag. Order varies.
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
    /// `Lookback` reading one bit per flag (`Compactor::prepare_bits`); from u32
    /// flags the compactor packs them first, in the same pass.
    LookbackBits,
    /// The look-back's tiles, each taking its output range with one global
    /// atomicAdd: order kept inside a tile of 4096, not between tiles.
    TileAtomic,
}

impl Method {
    pub const ALL: [Method; 6] = [
        Method::Atomic,
        Method::Aggregated,
        Method::Scan,
        Method::Lookback,
        Method::LookbackBits,
        Method::TileAtomic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Method::Atomic => "atomic",
            Method::Aggregated => "aggregated",
            Method::Scan => "scan",
            Method::Lookback => "lookback",
            Method::LookbackBits => "lookback-bits",
            Method::TileAtomic => "tile-atomic",
        }
    }

    /// Whether the output keeps the flags' order (and so is the same every run).
    pub fn preserves_order(self) -> bool {
        matches!(self, Method::Scan | Method::Lookback | Method::LookbackBits)
    }

    /// Whether the method runs on the look-back's tiles (and so takes fewer than
    /// `cpu::lookback::MAX_FLAGS` flags).
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
    fn from_str(s: &str) -> Result<Self> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
                Error::UnknownMethod(crate::flags::printable(s), names.join(", "))
            })
    }
}

/// Which pipeline a dispatch uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KernelId {
    AtomicCounter,
    AtomicAggregated,
    ScanBlock { level: usize, traced: bool },
    AddOffsets,
    Scatter,
    IndirectArgs,
    Lookback,
    LookbackBits,
    TileAtomic,
    PackBits,
}

struct Dispatch {
    kernel: KernelId,
    bind_group: wgpu::BindGroup,
    invocations: u64,
}

/// The buffers of one level of the recursive scan.
struct ScanLevel {
    len: u64,
    prefix: wgpu::Buffer,
    /// `None` at the top level, whose single block sum goes to the count buffer.
    block_sums: Option<wgpu::Buffer>,
    /// `(STEPS + 1)` snapshots of every block, for traced compactions only.
    trace: Option<wgpu::Buffer>,
}

/// One flags buffer prepared for one method: outputs, scratch and bind groups.
/// Record it with `Compactor::encode` as often as the flags change.
pub struct Compaction {
    method: Method,
    len: u64,
    indices: wgpu::Buffer,
    count: wgpu::Buffer,
    indirect: wgpu::Buffer,
    levels: Vec<ScanLevel>,
    /// The look-back's ticket counter and tile states; they carry over from run to
    /// run (the state codes alternate), so they live as long as the compaction.
    tile_states: Option<wgpu::Buffer>,
    /// `LookbackBits` prepared from u32 flags: the bits the pass packs them into.
    packed_bits: Option<wgpu::Buffer>,
    dispatches: Vec<Dispatch>,
}

impl Compaction {
    pub fn method(&self) -> Method {
        self.method
    }
    pub fn len(&self) -> u64 {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The dense list of visible indices (its first `count` words are meaningful).
    pub fn indices(&self) -> &wgpu::Buffer {
        &self.indices
    }
    /// One u32: the number of visible flags.
    pub fn count(&self) -> &wgpu::Buffer {
        &self.count
    }
    /// `DrawIndirectArgs` with `instance_count` written on the GPU.
    pub fn indirect(&self) -> &wgpu::Buffer {
        &self.indirect
    }

    /// Queues the index list and the indirect arguments for readback; after
    /// `Readback::read`, `OutputSlots::take` turns them into a `CompactionOutput`.
    pub fn read_output(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        readback: &mut Readback,
    ) -> OutputSlots {
        OutputSlots {
            indices: readback.copy(device, encoder, &self.indices, 0, self.len),
            indirect: readback.copy(device, encoder, &self.indirect, 0, 4),
        }
    }
    /// Look-back methods: word 0 counts tickets, word `1 + t` is tile `t`'s state
    /// (value << 2 | status; see `shaders/lookback.wgsl`).
    pub fn tile_states(&self) -> Option<&wgpu::Buffer> {
        self.tile_states.as_ref()
    }
    /// `LookbackBits` prepared from u32 flags: the packed bits.
    pub fn packed_bits(&self) -> Option<&wgpu::Buffer> {
        self.packed_bits.as_ref()
    }
}

/// Pipelines are compiled on first use: a page that only runs the scan does not
/// wait for the look-back kernels (seconds on a software adapter).
pub struct Compactor {
    device: wgpu::Device,
    queue: wgpu::Queue,
    options: LookbackOptions,
    max_workgroups_per_dimension: u32,
    atomic_counter: OnceLock<Kernel>,
    atomic_aggregated: OnceLock<Kernel>,
    scan_block: ScanBlock,
    add_offsets: OnceLock<Kernel>,
    scatter: OnceLock<Kernel>,
    indirect_args: OnceLock<Kernel>,
    lookback: OnceLock<Lookback>,
    pack_bits: OnceLock<Kernel>,
    /// Bound as the vec4 view of inputs shorter than one vec4 (never read).
    empty_vec4: wgpu::Buffer,
}

impl Compactor {
    /// Vertices per instance in `run`'s indirect arguments: a quad, two triangles.
    pub const DEFAULT_VERTEX_COUNT: u32 = 6;

    /// `device` and `queue` are cheap handles, kept.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_options(device, queue, LookbackOptions::default())
    }

    /// `new`, choosing how the look-back kernels are built (e.g. without subgroups).
    pub fn with_options(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: LookbackOptions,
    ) -> Self {
        Self {
            device: device.clone(),
            queue: queue.clone(),
            options,
            max_workgroups_per_dimension: device.limits().max_compute_workgroups_per_dimension,
            atomic_counter: OnceLock::new(),
            atomic_aggregated: OnceLock::new(),
            scan_block: ScanBlock::new(device),
            add_offsets: OnceLock::new(),
            scatter: OnceLock::new(),
            indirect_args: OnceLock::new(),
            lookback: OnceLock::new(),
            pack_bits: OnceLock::new(),
            empty_vec4: storage_buffer(device, "empty_vec4", 4, wgpu::BufferUsages::empty()),
        }
    }

    /// Whether the look-back kernels use subgroup operations on this device.
    pub fn uses_subgroups(&self) -> bool {
        crate::gpu::lookback::uses_subgroups(&self.device, self.options)
    }

    /// How the look-back kernels were built.
    pub fn lookback_options(&self) -> LookbackOptions {
        self.options
    }

    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The most flags one storage binding of this device can hold.
    pub fn max_flags(&self) -> u64 {
        let limits = self.device.limits();
        let bytes = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        (bytes / WORD).min(u64::from(u32::MAX))
    }

    /// The most flags `method` can compact on this device.
    pub fn max_flags_for(&self, method: Method) -> u64 {
        let max = self.max_flags();
        if method.uses_tiles() {
            max.min(crate::cpu::lookback::MAX_FLAGS - 1)
        } else {
            max
        }
    }

    fn check_len(&self, len: u64) -> Result<()> {
        self.check_len_for(len, Method::Scan)
    }

    fn check_len_for(&self, len: u64, method: Method) -> Result<()> {
        let max_flags = self.max_flags_for(method);
        if len > max_flags {
            return Err(Error::TooLarge {
                n: len,
                bytes: len * WORD,
                limit: max_flags * WORD,
                max_flags,
            });
        }
        Ok(())
    }

    /// A storage buffer holding `flags`, ready to `prepare`.
    pub fn upload(&self, flags: &[u32]) -> Result<wgpu::Buffer> {
        self.check_len(flags.len() as u64)?;
        let contents: &[u8] = if flags.is_empty() {
            &[0; WORD as usize]
        } else {
            bytemuck::cast_slice(flags)
        };
        Ok(self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("flags"),
                contents,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
            }))
    }

    /// Allocates the outputs and scratch for compacting the first `len` u32 of
    /// `flags` with `method`, and binds them. Setup: do it once, not per frame.
    pub fn prepare(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
        vertex_count: u32,
    ) -> Result<Compaction> {
        self.prepare_inner(flags, len, method, vertex_count, false)
    }

    fn prepare_inner(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
        vertex_count: u32,
        traced: bool,
    ) -> Result<Compaction> {
        if method.uses_tiles() {
            return self.prepare_tiles(TilesInput::Flags(flags), len, method, vertex_count);
        }
        self.check_len(len)?;
        let device = &self.device;
        let none = wgpu::BufferUsages::empty();
        let indices = storage_buffer(device, "indices", len, none);
        let count = storage_buffer(device, "count", 1, wgpu::BufferUsages::COPY_DST);
        let indirect = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("indirect"),
                contents: bytemuck::bytes_of(&IndirectArgs {
                    vertex_count,
                    ..IndirectArgs::default()
                }),
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::INDIRECT
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
            });
        let mut levels = Vec::new();
        let mut dispatches = Vec::new();
        let mut push = |kernel: KernelId, buffers: &[wgpu::BufferBinding], invocations: u64| {
            let bind_group = self.kernel(kernel).bind(device, buffers);
            dispatches.push(Dispatch {
                kernel,
                bind_group,
                invocations,
            });
        };
        let flags = words(flags, len);
        match method {
            Method::Atomic | Method::Aggregated => {
                let kernel = if method == Method::Atomic {
                    KernelId::AtomicCounter
                } else {
                    KernelId::AtomicAggregated
                };
                push(
                    kernel,
                    &[flags, words(&indices, len), words(&count, 1)],
                    len,
                );
            }
            Method::Lookback | Method::LookbackBits | Method::TileAtomic => {
                unreachable!("prepare_tiles compacts these")
            }
            Method::Scan => {
                levels = self.scan_levels(len, traced);
                for (level, buffers) in levels.iter().enumerate() {
                    let input = match level {
                        0 => flags.clone(),
                        _ => words(
                            levels[level - 1].block_sums.as_ref().unwrap_or(&count),
                            buffers.len,
                        ),
                    };
                    let sums = buffers.block_sums.as_ref().unwrap_or(&count);
                    let mut bindings = vec![
                        input,
                        words(&buffers.prefix, buffers.len),
                        words(sums, buffers.len.div_ceil(u64::from(BLOCK))),
                    ];
                    if let Some(trace) = &buffers.trace {
                        bindings.push(trace.as_entire_buffer_binding());
                    }
                    // Every block runs, including the zero-padded tail of the last.
                    let invocations = buffers.len.div_ceil(u64::from(BLOCK)) * u64::from(BLOCK);
                    push(
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
                    push(KernelId::AddOffsets, &bindings, this.len);
                }
                if let Some(level0) = levels.first() {
                    let bindings = [flags, words(&level0.prefix, len), words(&indices, len)];
                    push(KernelId::Scatter, &bindings, len);
                }
            }
        }
        push(
            KernelId::IndirectArgs,
            &[words(&count, 1), words(&indirect, 4)],
            1,
        );
        Ok(Compaction {
            method,
            len,
            indices,
            count,
            indirect,
            levels,
            tile_states: None,
            packed_bits: None,
            dispatches,
        })
    }

    /// `prepare` for `Method::LookbackBits` when the flags are already bits: the
    /// first `len` bits of `bits` (32 flags to a u32 word, least significant
    /// first; bits past `len` are ignored). Nothing is packed.
    pub fn prepare_bits(
        &self,
        bits: &wgpu::Buffer,
        len: u64,
        vertex_count: u32,
    ) -> Result<Compaction> {
        self.prepare_tiles(
            TilesInput::Bits(bits),
            len,
            Method::LookbackBits,
            vertex_count,
        )
    }

    fn prepare_tiles(
        &self,
        input: TilesInput,
        len: u64,
        method: Method,
        vertex_count: u32,
    ) -> Result<Compaction> {
        self.check_len_for(len, method)?;
        let device = &self.device;
        let none = wgpu::BufferUsages::empty();
        let indices = storage_buffer(device, "indices", len, none);
        let count = storage_buffer(device, "count", 1, wgpu::BufferUsages::COPY_DST);
        let indirect = self.indirect_buffer(vertex_count);
        let tiles = len.div_ceil(u64::from(TILE));
        // Word 0 counts tickets; then one state per tile. Fewer than N/4096 + 2 words.
        let stat_words = if self.options.stats {
            crate::gpu::lookback::STAT_WORDS
        } else {
            0
        };
        let tile_states =
            storage_buffer(device, "lookback:tile_states", tiles + 1 + stat_words, none);
        let mut dispatches = Vec::new();
        let mut push = |kernel: KernelId, buffers: &[wgpu::BufferBinding], invocations: u64| {
            let bind_group = self.kernel(kernel).bind(device, buffers);
            dispatches.push(Dispatch {
                kernel,
                bind_group,
                invocations,
            });
        };
        // u32 flags for the bits method are packed first, in the same pass.
        let packed = match input {
            TilesInput::Flags(flags) if method == Method::LookbackBits => {
                let bit_words = len.div_ceil(32);
                let packed = storage_buffer(device, "pack_bits:bits", bit_words, none);
                if len > 0 {
                    push(
                        KernelId::PackBits,
                        &[
                            self.vec4_view(flags, len),
                            words(flags, len),
                            words(&packed, bit_words),
                        ],
                        bit_words,
                    );
                }
                Some(packed)
            }
            _ => None,
        };
        let (words_buffer, input_words) = match (input, &packed) {
            (_, Some(packed)) => (packed, len.div_ceil(32)),
            (TilesInput::Flags(flags), None) => (flags, len),
            (TilesInput::Bits(bits), None) => (bits, len.div_ceil(32)),
        };
        if len > 0 {
            let kernel = match method {
                Method::Lookback => KernelId::Lookback,
                Method::LookbackBits => KernelId::LookbackBits,
                _ => KernelId::TileAtomic,
            };
            let mut bindings = vec![
                self.vec4_view(words_buffer, input_words),
                words(words_buffer, input_words),
                words(&indices, len),
                words(&tile_states, tiles + 1 + stat_words),
                words(&count, 1),
            ];
            if kernel != KernelId::TileAtomic {
                bindings.push(words(&indirect, 4));
            }
            push(kernel, &bindings, tiles * u64::from(WORKGROUP_SIZE));
        }
        // The look-back's last tile writes the indirect arguments itself.
        if method == Method::TileAtomic || len == 0 {
            push(
                KernelId::IndirectArgs,
                &[words(&count, 1), words(&indirect, 4)],
                1,
            );
        }

        Ok(Compaction {
            method,
            len,
            indices,
            count,
            indirect,
            levels: Vec::new(),
            tile_states: Some(tile_states),
            packed_bits: packed,
            dispatches,
        })
    }

    fn indirect_buffer(&self, vertex_count: u32) -> wgpu::Buffer {
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("indirect"),
                contents: bytemuck::bytes_of(&IndirectArgs {
                    vertex_count,
                    ..IndirectArgs::default()
                }),
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::INDIRECT
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
            })
    }

    fn scan_levels(&self, len: u64, traced: bool) -> Vec<ScanLevel> {
        let lengths = crate::cpu::scan_level_lengths(len as usize);
        let top = lengths.len().saturating_sub(1);
        let none = wgpu::BufferUsages::empty();
        lengths
            .iter()
            .enumerate()
            .map(|(level, &n)| {
                let n = n as u64;
                let blocks = n.div_ceil(u64::from(BLOCK));
                ScanLevel {
                    len: n,
                    prefix: storage_buffer(&self.device, "scan_block:prefix", n, none),
                    block_sums: (level < top).then(|| {
                        storage_buffer(&self.device, "scan_block:block_sums", blocks, none)
                    }),
                    trace: traced.then(|| {
                        let snapshots = u64::from(STEPS + 1) * blocks * u64::from(BLOCK);
                        storage_buffer(&self.device, "scan_block:trace", snapshots, none)
                    }),
                }
            })
            .collect()
    }

    /// The vec4 view of `buffer`'s first `len` words: the bulk as vec4 (the kernels
    /// read the tail as u32); a buffer shorter than a vec4 binds a stand-in the
    /// kernels never read.
    fn vec4_view<'a>(&'a self, buffer: &'a wgpu::Buffer, len: u64) -> wgpu::BufferBinding<'a> {
        let vec4_words = len / 4 * 4;
        if vec4_words > 0 {
            words(buffer, vec4_words)
        } else {
            words(&self.empty_vec4, 4)
        }
    }

    fn kernel(&self, id: KernelId) -> &Kernel {
        let device = &self.device;
        let lookback = || {
            self.lookback
                .get_or_init(|| Lookback::new(device, self.options))
        };
        match id {
            KernelId::AtomicCounter => self
                .atomic_counter
                .get_or_init(|| atomic_counter::atomic_counter(device)),
            KernelId::AtomicAggregated => self
                .atomic_aggregated
                .get_or_init(|| atomic_aggregated::atomic_aggregated(device)),
            KernelId::ScanBlock { level, traced } => self.scan_block.level(device, level, traced),
            KernelId::AddOffsets => self
                .add_offsets
                .get_or_init(|| add_offsets::add_offsets(device)),
            KernelId::Scatter => self.scatter.get_or_init(|| scatter::scatter(device)),
            KernelId::IndirectArgs => self
                .indirect_args
                .get_or_init(|| indirect_args::indirect_args(device)),
            KernelId::Lookback => &lookback().flags,
            KernelId::LookbackBits => &lookback().bits,
            KernelId::TileAtomic => &lookback().tile_atomic,
            KernelId::PackBits => self.pack_bits.get_or_init(|| pack_bits::pack_bits(device)),
        }
    }

    fn needs_cleared_count(compaction: &Compaction) -> bool {
        // The atomics count up from zero; an empty scan writes no block sum; the
        // look-back's last tile stores the count (there is none when empty).
        match compaction.method {
            Method::Scan => compaction.levels.is_empty(),
            Method::Lookback | Method::LookbackBits => compaction.len == 0,
            Method::Atomic | Method::Aggregated | Method::TileAtomic => true,
        }
    }

    /// Records the compaction into `encoder`: one compute pass, no readback.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, compaction: &Compaction) {
        self.encode_timed(encoder, compaction, None);
    }

    /// `encode`, with GPU timestamps written at the start and end of the pass.
    pub fn encode_timed(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        compaction: &Compaction,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites>,
    ) {
        if Self::needs_cleared_count(compaction) {
            encoder.clear_buffer(&compaction.count, 0, None);
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(compaction.method.name()),
            timestamp_writes,
        });
        for dispatch in &compaction.dispatches {
            self.dispatch(&mut pass, dispatch);
        }
    }

    fn dispatch(&self, pass: &mut wgpu::ComputePass, dispatch: &Dispatch) {
        self.kernel(dispatch.kernel).dispatch(
            pass,
            &dispatch.bind_group,
            dispatch.invocations,
            self.max_workgroups_per_dimension,
        );
    }

    /// Uploads `flags`, compacts them with `method` and reads everything back.
    pub async fn run(&self, flags: &[u32], method: Method) -> Result<CompactionOutput> {
        scoped(&self.device, async {
            let buffer = self.upload(flags)?;
            self.run_buffer(&buffer, flags.len() as u64, method).await
        })
        .await
    }

    /// Compacts the first `len` flags of an uploaded buffer and reads back. A GPU
    /// error on the way (e.g. a buffer without STORAGE usage) is an `Error::Gpu`.
    pub async fn run_buffer(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
    ) -> Result<CompactionOutput> {
        scoped(&self.device, self.run_buffer_unscoped(flags, len, method)).await
    }

    async fn run_buffer_unscoped(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
    ) -> Result<CompactionOutput> {
        let compaction = self.prepare(flags, len, method, Self::DEFAULT_VERTEX_COUNT)?;
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode(&mut encoder, &compaction);
        let mut readback = Readback::default();
        let output = compaction.read_output(&self.device, &mut encoder, &mut readback);
        self.queue.submit([encoder.finish()]);
        let mut read = readback.read(&self.device).await?;
        Ok(output.take(&mut read))
    }
}

/// Where `Compaction::read_output` put the outputs in a readback.
pub struct OutputSlots {
    indices: usize,
    indirect: usize,
}

impl OutputSlots {
    /// The outputs out of `read` (the result of `Readback::read`), the index
    /// list cut to the `instance_count` the GPU wrote.
    pub fn take(&self, read: &mut [Vec<u32>]) -> CompactionOutput {
        let indirect = indirect_from_words(&read[self.indirect]);
        let mut indices = std::mem::take(&mut read[self.indices]);
        indices.truncate(indirect.instance_count as usize);
        CompactionOutput {
            count: indices.len() as u32,
            indices,
            indirect,
        }
    }
}

fn indirect_from_words(words: &[u32]) -> IndirectArgs {
    let mut args = IndirectArgs::default();
    if let [vertex_count, instance_count, first_vertex, first_instance] = *words {
        args = IndirectArgs {
            vertex_count,
            instance_count,
            first_vertex,
            first_instance,
        };
    }
    args
}

/// What `prepare_tiles` reads: u32 flags or packed bits.
#[derive(Clone, Copy)]
enum TilesInput<'a> {
    Flags(&'a wgpu::Buffer),
    Bits(&'a wgpu::Buffer),
}
