//! Where a playground's kernels run, chosen once when it is made: the page's
//! GPU (`gpu.rs`) or the CPU mirror, the "CPU reference" (`cpu.rs`). The two
//! are siblings with the same calls; the boundary above (`web.rs`,
//! `tools.rs`) asks the backend and never which one it is.

mod cpu;
mod gpu;

use std::future::{ready, Future};
use std::pin::Pin;
use std::rc::Rc;

pub(super) use cpu::Cpu;
pub(super) use gpu::{Canvas, Gpu};

use super::timing::Measured;
use crate::draw_instances::Pixels;
use wgpu_compaction::teaching::trace::{
    AtomicTrace, PackedTrace, ScanTrace, TileSchedule, TileTrace,
};
use wgpu_compaction::teaching::ShaderSource;
use wgpu_compaction::{CompactionOutput, Method};

/// Where a run draws its instances.
pub(super) enum Draw {
    /// Into the playground's attached canvas or image, each object at its cell.
    Attached,
    /// Into an image of its own only, each instance at its place in the draw
    /// (`Grid::draw_order`); made in the run's turn and error scope.
    Order {
        width: u32,
        height: u32,
        groups: u32,
    },
}

/// A call in flight: boxed, so that each call's state lives behind one pointer
/// rather than inlined into every promise that awaits it (smaller wasm).
pub(super) type Pending<'a, T> = Pin<Box<dyn Future<Output = crate::Result<T>> + 'a>>;

/// A playground's backend.
pub(super) enum Backend {
    // (Boxed: the GPU side is a few hundred bytes, the CPU one none.)
    Gpu(Box<Gpu>),
    Cpu(Cpu),
}

/// What a call works on, taken when it is made (a later `setFlags` does not
/// change it): the flags, and their buffer on the device where one was uploaded.
pub(super) struct Input {
    pub flags: Rc<[u32]>,
    pub buffer: Option<wgpu::Buffer>,
}

impl Backend {
    /// `"gpu"` or `"cpu"`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Gpu(_) => "gpu",
            Self::Cpu(_) => "cpu",
        }
    }

    pub fn adapter_name(&self) -> String {
        match self {
            Self::Gpu(gpu) => gpu.adapter_name(),
            Self::Cpu(cpu) => cpu.adapter_name(),
        }
    }

    /// The most flags this backend binds (the page caps it further).
    pub fn max_flags(&self) -> u64 {
        match self {
            Self::Gpu(gpu) => gpu.max_flags(),
            Self::Cpu(_) => crate::web::MAX_CPU_FLAGS,
        }
    }

    /// The GPU, for the calls that only it can answer (drawing); `NoWebGpu` on the CPU.
    pub fn gpu(&self) -> crate::Result<&Gpu> {
        match self {
            Self::Gpu(gpu) => {
                gpu.check()?;
                Ok(gpu)
            }
            Self::Cpu(_) => Err(crate::Error::NoWebGpu("drawing needs WebGPU".into())),
        }
    }

    /// The new flags, uploaded where they run.
    pub fn upload(&self, flags: &[u32]) -> crate::Result<()> {
        match self {
            Self::Gpu(gpu) => gpu.upload(flags),
            Self::Cpu(_) => Ok(()),
        }
    }

    /// What a call made now works on.
    pub fn input(&self, flags: Rc<[u32]>) -> Input {
        let buffer = match self {
            Self::Gpu(gpu) => gpu.uploaded(),
            Self::Cpu(_) => None,
        };
        Input { flags, buffer }
    }

    /// One compaction, drawn as `draw` says where the backend draws.
    pub fn run(
        &self,
        input: Input,
        method: Method,
        draw: Draw,
    ) -> Pending<'_, (CompactionOutput, Option<Pixels>)> {
        match self {
            Self::Gpu(gpu) => Box::pin(gpu.run(input, method, draw)),
            Self::Cpu(cpu) => Box::pin(ready(Ok((cpu.run(&input.flags, method), None)))),
        }
    }

    pub fn trace_scan<'a>(&'a self, flags: &'a [u32]) -> Pending<'a, ScanTrace> {
        match self {
            Self::Gpu(gpu) => Box::pin(gpu.trace_scan(flags)),
            Self::Cpu(cpu) => Box::pin(ready(cpu.trace_scan(flags))),
        }
    }

    pub fn trace_atomic<'a>(
        &'a self,
        flags: &'a [u32],
        method: Method,
    ) -> Pending<'a, AtomicTrace> {
        match self {
            Self::Gpu(gpu) => Box::pin(gpu.trace_atomic(flags, method)),
            Self::Cpu(cpu) => Box::pin(ready(cpu.trace_atomic(flags, method))),
        }
    }

    pub fn trace_packed<'a>(&'a self, flags: &'a [u32]) -> Pending<'a, PackedTrace> {
        match self {
            Self::Gpu(gpu) => Box::pin(gpu.trace_packed(flags)),
            Self::Cpu(cpu) => Box::pin(ready(cpu.trace_packed(flags))),
        }
    }

    /// A tile trace, and where its tile states come from.
    pub fn trace_tiles<'a>(
        &'a self,
        flags: &'a [u32],
        method: Method,
        schedule: &'a TileSchedule,
    ) -> Pending<'a, (TileTrace, &'static str)> {
        match self {
            Self::Gpu(gpu) => {
                Box::pin(
                    async move { Ok((gpu.trace_tiles(flags, method, schedule).await?, "gpu")) },
                )
            }
            Self::Cpu(cpu) => Box::pin(ready(
                cpu.trace_tiles(flags, method, schedule)
                    .map(|t| (t, "cpu reference")),
            )),
        }
    }

    /// The WGSL of `method` as this backend compiles it (the CPU lists a browser's portable build).
    pub fn sources(&self, method: Method) -> Vec<ShaderSource> {
        match self {
            Self::Gpu(gpu) => gpu.sources(method),
            Self::Cpu(cpu) => cpu.sources(method),
        }
    }

    /// `method`'s pipelines compiled and run once (nothing on the CPU).
    pub fn compile(&self, method: Method) -> Pending<'_, ()> {
        match self {
            Self::Gpu(gpu) => Box::pin(gpu.compile(method)),
            Self::Cpu(_) => Box::pin(ready(Ok(()))),
        }
    }

    /// `samples` measurements of `reps` compactions of `flags`.
    pub fn time<'a>(
        &'a self,
        flags: &'a [u32],
        method: Method,
        (reps, samples): (u32, u32),
        signal: Option<&'a wasm_bindgen::JsValue>,
    ) -> Pending<'a, Measured> {
        match self {
            Self::Gpu(gpu) => Box::pin(gpu.time(flags, method, (reps, samples), signal)),
            Self::Cpu(cpu) => Box::pin(ready(Ok(cpu.time(flags, method, (reps, samples))))),
        }
    }

    /// The longest side of an image this backend draws (1 where it draws none).
    pub fn max_image_side(&self) -> u64 {
        match self {
            Self::Gpu(gpu) => gpu.max_image_side(),
            Self::Cpu(_) => 1,
        }
    }
}
