//! The public `Compactor`: pipelines created once (`pipelines.rs`), per-array
//! `Compaction`s prepared once (`prepare.rs`), then recorded into a caller's
//! encoder every frame (`encode.rs`). `run` does all three for tests and tools.

mod encode;
pub(crate) mod limits;
mod prepare;
mod slices;
pub(crate) mod trace;

pub use encode::{EncodeOptions, Length, PendingOutput};
pub use prepare::{BufferAt, CompactionDesc, Input, PayloadDesc, SegmentsDesc};

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::gpu::catalogue::KernelId;
use crate::gpu::kernel::{storage_buffer, words_at, Kernel};
use crate::gpu::options::LookbackOptions;
use crate::gpu::pipelines::{Pipelines, Variant};
use crate::layout::{TILE_MAX_FLAGS, WORD};
use crate::output::DrawArgs;
use crate::Method;

/// How many `encode_len` calls of one compaction in one submission keep their
/// own lengths (each has a slot, reused after this many).
pub const LENGTH_SLOTS: u32 = 64;

/// One recorded dispatch: a pipeline, its bindings, how many invocations.
struct Dispatch {
    kernel: Arc<Kernel>,
    bind_group: wgpu::BindGroup,
    invocations: u64,
    /// The scan's block scans: the recursion level (for traces).
    scan_level: Option<usize>,
}

/// An output range: a buffer of the compaction's own (from offset 0), or a range
/// of the caller's.
#[derive(Clone)]
struct Output {
    buffer: wgpu::Buffer,
    offset: u64,
    own: bool,
}

impl Output {
    fn own(buffer: wgpu::Buffer) -> Self {
        Self {
            buffer,
            offset: 0,
            own: true,
        }
    }

    fn yours((buffer, offset): BufferAt) -> Self {
        Self {
            buffer: buffer.clone(),
            offset,
            own: false,
        }
    }

    /// Its first `words` u32, as a binding.
    fn binding(&self, words: u64) -> wgpu::BufferBinding<'_> {
        words_at(&self.buffer, self.offset, words)
    }

    fn at(&self) -> BufferAt<'_> {
        (&self.buffer, self.offset)
    }
}

/// The dense copies of the visible objects' payloads.
struct PayloadOut {
    words: u32,
    out: Output,
}

/// The per-segment draw records, then the draw count.
struct SegmentsOut {
    count: u32,
    args: Output,
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
/// Record it with [`Compactor::encode`] every frame.
pub struct Compaction {
    method: Method,
    label: Option<String>,
    capacity: u64,
    input: Input,
    indices: Output,
    count: wgpu::Buffer,
    indirect: Output,
    draw: DrawArgs,
    /// The live length (a uniform the kernels read).
    live: wgpu::Buffer,
    instance_count_to: Option<(wgpu::Buffer, u64)>,
    payload: Option<PayloadOut>,
    segments: Option<SegmentsOut>,
    levels: Vec<ScanLevel>,
    /// `LENGTH_SLOTS` words: each `encode_len`'s length, copied into `live` in the encoder.
    lengths: wgpu::Buffer,
    next_length: std::sync::atomic::AtomicU32,
    /// The look-back's ticket counter and tile states; they carry over from run to
    /// run (the state codes alternate), so they live as long as the compaction.
    tile_states: Option<wgpu::Buffer>,
    /// `PackedScan`'s tile counts, scanned in place into each tile's first slot.
    tile_counts: Option<wgpu::Buffer>,
    /// `LookbackBits` or `PackedScan` prepared from u32 flags: the bits the pass
    /// packs them into.
    packed_bits: Option<wgpu::Buffer>,
    dispatches: Vec<Dispatch>,
    /// Made by the library for one call (`run`, a trace, a benchmark): its buffers are destroyed with it.
    destroy_on_drop: bool,
    /// The `Compactor` that prepared it (its id), and its device.
    compactor: u64,
    device: wgpu::Device,
    /// A slice left a first workgroup in live.z (`encode_slice`): `encode` clears it first.
    slice_base: std::sync::atomic::AtomicBool,
}

impl Drop for Compaction {
    fn drop(&mut self) {
        if self.destroy_on_drop {
            self.destroy_buffers();
        }
    }
}

impl Compaction {
    /// The method it runs.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The most flags it compacts (what it was prepared for).
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// How its flags are stored.
    pub fn input(&self) -> Input {
        self.input
    }

    /// The buffer of the dense list of visible indices (from
    /// [`Self::indices_offset`]; its first `count` words are meaningful): yours
    /// ([`CompactionDesc::indices_to`]) or the compaction's own, `STORAGE |
    /// VERTEX | COPY_SRC`, so that a vertex shader can read it as a storage buffer
    /// (`visibles[instance_index]`) or as an instance-rate attribute.
    pub fn indices(&self) -> &wgpu::Buffer {
        &self.indices.buffer
    }

    /// Where the indices start in [`Self::indices`], in bytes (0 in a buffer of its own).
    pub fn indices_offset(&self) -> u64 {
        self.indices.offset
    }

    /// One u32: the number of visible flags.
    pub fn count(&self) -> &wgpu::Buffer {
        &self.count
    }

    /// The buffer of the indirect arguments (16 or 20 bytes, as prepared, at
    /// [`Self::indirect_offset`]) with `instance_count` written on the GPU: for
    /// `draw_indirect` / `draw_indexed_indirect`. Yours
    /// ([`CompactionDesc::indirect_to`]) or the compaction's own.
    pub fn indirect(&self) -> &wgpu::Buffer {
        &self.indirect.buffer
    }

    /// Where the indirect arguments are in [`Self::indirect`], in bytes.
    pub fn indirect_offset(&self) -> u64 {
        self.indirect.offset
    }

    /// The dense payload copies (see [`CompactionDesc::payload`]): the buffer
    /// and the byte offset where visible object 0's words start; `None` without
    /// a payload. A buffer of its own is `STORAGE | VERTEX | COPY_SRC`.
    pub fn payload(&self) -> Option<(&wgpu::Buffer, u64)> {
        self.payload.as_ref().map(|p| p.out.at())
    }

    /// The per-segment draw records (see [`CompactionDesc::segments`]): the buffer
    /// and the byte offset of record 0, for `multi_draw_indexed_indirect(buffer,
    /// offset, count)` (or the non-indexed one); `None` without segments. A
    /// buffer of its own is `STORAGE | INDIRECT | COPY_SRC | COPY_DST`.
    pub fn segment_args(&self) -> Option<(&wgpu::Buffer, u64)> {
        self.segments.as_ref().map(|s| s.args.at())
    }

    /// The draw count after the segment records: the buffer and its byte offset,
    /// for `multi_draw_indexed_indirect_count(.., buffer, offset, count)`. It is
    /// one past the last segment with a visible object (0 when none is), so the
    /// draws it skips are all empty.
    pub fn draw_count(&self) -> Option<(&wgpu::Buffer, u64)> {
        self.segments.as_ref().map(|s| {
            let offset = s.args.offset + self.draw.words() * u64::from(s.count) * WORD;
            (&s.args.buffer, offset)
        })
    }

    /// How many segments it was prepared with (0 without).
    pub fn segment_count(&self) -> u32 {
        self.segments.as_ref().map_or(0, |s| s.count)
    }

    /// The live uniform, `vec4<u32>`: `x` the length asked for (what
    /// `encode_len_from` copied from the GPU, possibly past the capacity), `y`
    /// the capacity. The kernels compact `min(x, y)`; bind it as a uniform to
    /// tell an overflow on the GPU (`x > y`), or read `requested` in
    /// [`crate::CompactionOutput`]. `UNIFORM | COPY_SRC`.
    pub fn live(&self) -> &wgpu::Buffer {
        &self.live
    }

    /// The kind of indirect arguments it writes, with the values it was prepared with.
    pub fn draw_args(&self) -> DrawArgs {
        self.draw
    }

    /// The single-pass methods' tile states: word 0 counts tickets, word `1 + t`
    /// is tile `t`'s state (value << 2 | status; see `shaders/lookback.wgsl`),
    /// then [`crate::teaching::STAT_WORDS`] counters when built with `LookbackOptions::stats`.
    pub fn tile_states(&self) -> Option<&wgpu::Buffer> {
        self.tile_states.as_ref()
    }

    /// `PackedScan`'s tile slots: after a run, word `t` is tile `t`'s first slot
    /// in the indices (the visible flags before it); the words past the live
    /// tiles are left over.
    pub fn tile_slots(&self) -> Option<&wgpu::Buffer> {
        self.tile_counts.as_ref()
    }

    /// `LookbackBits` or `PackedScan` prepared from u32 flags: the bits the pass
    /// packs them into.
    pub fn packed_bits(&self) -> Option<&wgpu::Buffer> {
        self.packed_bits.as_ref()
    }

    /// Frees its own GPU buffers now (outputs and scratch; never the flags or any
    /// buffer of yours it writes into). Work already submitted
    /// finishes first; a clone of one of its buffers is unusable after. Dropped
    /// instead, its buffers go when wgpu lets go of them: in a browser, when the
    /// JS GC collects their `GPUBuffer`s, which can keep tens of megabytes of GPU
    /// memory for seconds (wgpu's WebGPU backend never destroys on drop).
    pub fn destroy(mut self) {
        self.destroy_buffers();
        self.destroy_on_drop = false;
    }

    /// The same compaction, its buffers destroyed (as by [`Compaction::destroy`])
    /// when it is dropped, whichever way the code holding it ends: for one made
    /// for one call (a run, a trace, a benchmark).
    pub fn destroy_on_drop(mut self) -> Self {
        self.destroy_on_drop = true;
        self
    }

    /// Its compute pass's label: the one given in `CompactionDesc`, else the method's name.
    fn pass_label(&self) -> &str {
        self.label.as_deref().unwrap_or(self.method.name())
    }

    fn destroy_buffers(&self) {
        let levels = self
            .levels
            .iter()
            .flat_map(|l| [Some(&l.prefix), l.block_sums.as_ref(), l.trace.as_ref()]);
        let outputs = [
            Some(&self.indices),
            Some(&self.indirect),
            self.payload.as_ref().map(|p| &p.out),
            self.segments.as_ref().map(|s| &s.args),
        ];
        let own_outputs = outputs
            .into_iter()
            .flatten()
            .filter(|o| o.own)
            .map(|o| &o.buffer);
        let own = [Some(&self.count), Some(&self.live), Some(&self.lengths)]
            .into_iter()
            .chain([
                self.tile_states.as_ref(),
                self.tile_counts.as_ref(),
                self.packed_bits.as_ref(),
            ])
            .chain(levels);
        for buffer in own.flatten().chain(own_outputs) {
            buffer.destroy();
        }
    }
}

/// A buffer the library made for one call (an upload inside `run`, a trace):
/// destroyed when dropped, whichever way the call ends.
pub(crate) struct ScratchBuffer(pub wgpu::Buffer);

impl std::ops::Deref for ScratchBuffer {
    type Target = wgpu::Buffer;
    fn deref(&self) -> &wgpu::Buffer {
        &self.0
    }
}

impl Drop for ScratchBuffer {
    fn drop(&mut self) {
        self.0.destroy();
    }
}

/// The compaction methods on one device: their pipelines, compiled on first
/// use (or by [`Compactor::warm_up`]). Cheap to keep; one per device.
pub struct Compactor {
    /// Which Compactor this is: its compactions carry it, so that another one refuses them.
    id: u64,
    device: wgpu::Device,
    queue: wgpu::Queue,
    max_workgroups_per_dimension: u32,
    pipelines: Pipelines,
    /// Bound as the vec4 view of inputs shorter than one vec4 (never read).
    empty_vec4: wgpu::Buffer,
}

impl Compactor {
    /// Vertices per instance of the default indirect arguments: a quad, two triangles.
    pub const DEFAULT_VERTEX_COUNT: u32 = 6;

    /// A compactor for `device`. `device` and `queue` are cheap handles, kept.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_options(device, queue, LookbackOptions::default())
    }

    /// `new`, choosing how the look-back kernels are built (e.g. without subgroups).
    pub fn with_options(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: LookbackOptions,
    ) -> Self {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Self {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            device: device.clone(),
            queue: queue.clone(),
            max_workgroups_per_dimension: device.limits().max_compute_workgroups_per_dimension,
            pipelines: Pipelines::new(device, options),
            empty_vec4: storage_buffer(device, "empty_vec4", 4, wgpu::BufferUsages::empty()),
        }
    }

    /// `Err(ForeignCompaction)` unless this Compactor prepared `compaction`:
    /// checked before anything reaches wgpu.
    pub(crate) fn owns(&self, compaction: &Compaction, what: &'static str) -> Result<()> {
        if compaction.compactor == self.id {
            Ok(())
        } else {
            Err(Error::ForeignCompaction { what })
        }
    }

    /// How the look-back kernels are built.
    pub fn lookback_options(&self) -> LookbackOptions {
        self.pipelines.options()
    }

    /// Whether the look-back kernels use subgroup operations on this device.
    pub fn uses_subgroups(&self) -> bool {
        self.pipelines.subgroups()
    }

    /// The device it runs on.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue it submits to (in `run`; `encode` only records).
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// The limits a device needs for `method`: `wgpu::Limits::downlevel_defaults()`
    /// raised where the method's kernels need more, with a payload and segments
    /// where the method takes them. Merge it into the limits you request the
    /// device with (each field the larger of yours and this).
    pub fn required_limits(method: Method) -> wgpu::Limits {
        limits::required_limits(method)
    }

    /// `Ok` when this device runs `method` (without a payload or segments); else
    /// the limit it lacks (`Error::Limit`). `prepare` checks what it is asked for.
    pub fn supports(&self, method: Method) -> Result<()> {
        let needs = limits::compaction_needs(method, false, false);
        limits::check(method, needs, &self.device.limits())
    }

    /// Compiles the pipelines of `methods` now, so that no frame pays for it
    /// (compilation takes tens of milliseconds natively, seconds on a software
    /// adapter in a browser). Methods the device does not support are skipped.
    /// [`Method::Lookback`]'s pipeline for two tiles a workgroup, which only arrays
    /// from [`LookbackOptions::paired_from_tiles`] use, is compiled by the first
    /// `prepare` that needs it instead.
    pub fn warm_up(&self, methods: &[Method]) {
        for &method in methods {
            if self.supports(method).is_ok() {
                for &id in KernelId::of(method) {
                    if id.compiled_by_prepare() {
                        continue;
                    }
                    self.pipelines.kernel(&self.device, id, Variant::PLAIN);
                    if id == KernelId::ScanBlock {
                        self.pipelines
                            .kernel(&self.device, id, Variant::scan_level(0));
                    }
                }
            }
        }
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
        // `PackedScan` numbers its flags in u32 like the tile methods.
        if method.uses_tiles() || method == Method::PackedScan {
            max.min(TILE_MAX_FLAGS - 1)
        } else {
            max
        }
    }

    fn check_len_for(&self, len: u64, method: Method) -> Result<()> {
        let max_flags = self.max_flags_for(method);
        if len > max_flags {
            return Err(Error::TooLarge {
                n: len,
                bytes: len.saturating_mul(WORD),
                limit: max_flags.saturating_mul(WORD),
                max_flags,
            });
        }
        Ok(())
    }

    /// A storage buffer holding `flags`, ready to `prepare` (`STORAGE | COPY_DST
    /// | COPY_SRC`).
    pub fn upload(&self, flags: &[u32]) -> Result<wgpu::Buffer> {
        self.check_len_for(flags.len() as u64, Method::Scan)?;
        let contents: &[u8] = if flags.is_empty() {
            &[0; WORD as usize]
        } else {
            bytemuck::cast_slice(flags)
        };
        // A lost device is an `Error::Gpu` (natively; see `scoped_now`).
        crate::gpu::error_scope::scoped_now(&self.device, || {
            Ok(crate::gpu::kernel::buffer_with(
                &self.device,
                &self.queue,
                "flags",
                contents,
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::TILE;

    fn device() -> (wgpu::Device, wgpu::Queue) {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter =
            pollster::block_on(instance.request_adapter(&Default::default())).expect("adapter");
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .expect("device")
    }

    #[test]
    fn warm_up_compiles_exactly_the_methods_asked_for() {
        let (device, queue) = device();
        let compactor = Compactor::new(&device, &queue);
        let all = [
            KernelId::AtomicCounter,
            KernelId::AtomicAggregated,
            KernelId::ScanBlock,
            KernelId::Lookback,
            KernelId::PackBits,
        ];
        assert!(
            all.iter().all(|&id| !compactor.pipelines.compiled(id)),
            "nothing before"
        );
        compactor.warm_up(&[Method::Lookback]);
        assert!(compactor.pipelines.compiled(KernelId::Lookback));
        assert!(!compactor.pipelines.compiled(KernelId::LookbackPaired));
        assert!(compactor.pipelines.compiled(KernelId::IndirectArgs));
        assert!(!compactor.pipelines.compiled(KernelId::AtomicCounter));
        assert!(!compactor.pipelines.compiled(KernelId::ScanBlock));
        compactor.warm_up(&Method::ALL);
        assert!(
            all.iter().all(|&id| compactor.pipelines.compiled(id)),
            "everything after"
        );
        assert!(!compactor.pipelines.compiled(KernelId::LookbackPaired));
    }

    #[test]
    fn the_paired_pipeline_is_compiled_by_the_prepare_that_needs_it() {
        let (device, queue) = device();
        let options = LookbackOptions {
            paired_from_tiles: 2,
            ..Default::default()
        };
        let compactor = Compactor::with_options(&device, &queue, options);
        let flags = compactor.upload(&[1u32; 2 * TILE]).expect("upload");
        compactor
            .prepare(&flags, TILE as u64, Method::Lookback, 1)
            .expect("one tile");
        assert!(!compactor.pipelines.compiled(KernelId::LookbackPaired));
        compactor
            .prepare(&flags, 2 * TILE as u64, Method::Lookback, 1)
            .expect("two tiles");
        assert!(compactor.pipelines.compiled(KernelId::LookbackPaired));
    }
}
