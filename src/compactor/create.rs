//! Setup, once per device: the compactor, its pipelines compiled on first use or
//! by `warm_up`, what the device must allow, and uploads.

use super::{limits, Compaction, CompactionDesc, Compactor};
use crate::error::{Error, Result};
use crate::gpu::catalogue::KernelId;
use crate::gpu::kernel::storage_buffer;
use crate::gpu::options::LookbackOptions;
use crate::gpu::pipelines::{Pipelines, Replaced, Variant};
use crate::layout::{TILE_MAX_FLAGS, WORD};
use crate::Method;

impl Compactor {
    /// Vertices per instance of the default indirect arguments: a quad, two triangles.
    pub const DEFAULT_VERTEX_COUNT: u32 = 6;

    /// A compactor for `device`. `device` and `queue` are cheap handles, kept.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_options(device, queue, LookbackOptions::default())
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

    /// Compiles every pipeline `prepare_with` would for each of `descs` (each
    /// payload size, segments, packed records and visibility function has its
    /// own), by preparing each once and destroying what it made: its buffers
    /// exist for the moment, and `prepare` writes `draw` into an `indirect_to`
    /// range as it always does. After it, a `prepare_with` that differs only in
    /// its buffers and offsets compiles nothing; give the capacity you will
    /// use (large arrays add the scan's second level and the look-back's paired
    /// kernel). Errors are `prepare_with`'s. LIBRARY.md lists what each
    /// variant's first `prepare` costs.
    pub fn warm_up_for(&self, descs: &[CompactionDesc]) -> Result<()> {
        for desc in descs {
            self.prepare_with(desc)?.destroy();
        }
        Ok(())
    }

    /// How many pipelines this compactor has compiled (each kernel in each
    /// variant once): unchanged by a `prepare` that compiled nothing.
    pub fn compiled_pipelines(&self) -> usize {
        self.pipelines.compiled_count()
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

    pub(super) fn check_len_for(&self, len: u64, method: Method) -> Result<()> {
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

    /// For tests and measurement: `new`, with the single-pass kernels built as
    /// [`crate::teaching::LookbackOptions`] says (without subgroups, forced
    /// fallbacks, counters, another WGSL).
    pub fn with_options(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: LookbackOptions,
    ) -> Self {
        Self::assemble(device, queue, options, None)
    }

    /// A compactor with one file of `shaders/` replaced (`with_override`).
    pub(crate) fn assemble(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        options: LookbackOptions,
        replaced: Option<Replaced>,
    ) -> Self {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Self {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            device: device.clone(),
            queue: queue.clone(),
            max_workgroups_per_dimension: device.limits().max_compute_workgroups_per_dimension,
            pipelines: Pipelines::replacing(device, options, replaced),
            empty_vec4: storage_buffer(device, "empty_vec4", 4, wgpu::BufferUsages::empty()),
        }
    }

    /// The probe of an instrumented kernel override (`teaching::take_probe`).
    pub(crate) fn probe(&self) -> Option<&crate::gpu::kernel::Probe> {
        self.pipelines.replaced()?.probe.as_ref()
    }

    /// How the single-pass kernels are built (see [`Compactor::with_options`]).
    pub fn lookback_options(&self) -> LookbackOptions {
        self.pipelines.options()
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
