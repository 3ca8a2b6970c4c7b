//! The page's GPU: one playground's flags and drawing on the device every
//! playground of the page shares (`shared.rs`), and its calls, each taking
//! its turn on that device. A call that fails because the device went away
//! says so (`device-lost`), whatever the error on the way.

mod render;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

pub(in crate::web) use render::Canvas;

use super::{Draw, Input};
use crate::draw_instances::{OffscreenImage, Pixels};
use crate::web::shared::SharedGpu;
use crate::web::timing::{time_gpu, Measured};
use crate::Error;
use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wgpu_compaction::teaching::trace::{
    AtomicTrace, PackedTrace, ScanTrace, TileSchedule, TileTrace,
};
use wgpu_compaction::teaching::{self, shader_sources, KernelOverride, ShaderSource};
use wgpu_compaction::{CompactionOutput, Compactor, Method};

/// One playground's GPU side: its own flags and drawing, on the page's shared device.
pub(in crate::web) struct Gpu {
    pub shared: Rc<SharedGpu>,
    pub flags: RefCell<Option<wgpu::Buffer>>,
    pub canvas: RefCell<Option<Canvas>>,
    pub image: RefCell<Option<Rc<OffscreenImage>>>,
    /// A learner's kernel in place of ours (`setKernel`): its own compactor on the shared device.
    kernel: RefCell<Option<Rc<Compactor>>>,
    /// What the last run's probe said (`probe_line`), until read.
    pub probe_line: Cell<u32>,
    /// The first slot past the count that the last run of a learner's kernel wrote, or -1.
    pub written_past: Cell<f64>,
    /// What the last run of a learner's kernel counted (`teaching::PROBE_COSTS`).
    pub costs: RefCell<Vec<u32>>,
    /// The last run's compaction and count, where it came back in part (`render::PARTIAL_FROM`).
    pub last: RefCell<Option<(wgpu_compaction::Compaction, u32)>>,
}

impl Gpu {
    pub fn new(shared: Rc<SharedGpu>) -> Self {
        Self {
            shared,
            flags: RefCell::new(None),
            canvas: RefCell::new(None),
            image: RefCell::new(None),
            kernel: RefCell::new(None),
            probe_line: Cell::new(0),
            written_past: Cell::new(-1.0),
            costs: RefCell::new(Vec::new()),
            last: RefCell::new(None),
        }
    }

    /// The compactor its runs and traces use: the learner's kernel's, or the page's.
    pub fn compactor(&self) -> Rc<Compactor> {
        let kernel = self.kernel.borrow().clone();
        kernel.unwrap_or_else(|| self.shared.compactor.clone())
    }

    /// `kernel`'s whole module made by the browser's compiler, inside an error
    /// scope pushed and popped in this one synchronous stretch (nothing of
    /// wgpu's runs between, so its own scopes are untouched): a module that does
    /// not compile is the caller's to read by its `getCompilationInfo()`, in
    /// UTF-16 columns. `(module, the scope's promise)`.
    pub fn shader_module(&self, kernel: &KernelOverride) -> crate::Result<(JsValue, JsValue)> {
        self.check()?;
        let raw: JsValue = match self.shared.context.device.as_webgpu() {
            Some(raw) => raw.clone().into(),
            None => return Err(crate::Error::NoWebGpu("no WebGPU device".into())),
        };
        let call = |name: &str, args: &Array| {
            Reflect::get(&raw, &name.into())
                .and_then(|f| f.dyn_into::<js_sys::Function>())
                .and_then(|f| f.apply(&raw, args))
        };
        let descriptor = js_sys::Object::new();
        let _ = Reflect::set(&descriptor, &"code".into(), &kernel.module_wgsl().into());
        let _ = Reflect::set(&descriptor, &"label".into(), &kernel.module().into());
        let made = call("pushErrorScope", &Array::of1(&"validation".into()))
            .and_then(|_| call("createShaderModule", &Array::of1(&descriptor)));
        let popped = call("popErrorScope", &Array::new());
        match (made, popped) {
            (Ok(module), Ok(popped)) => Ok((module, popped)),
            _ => Err(crate::Error::NoWebGpu("createShaderModule failed".into())),
        }
    }

    /// Later runs and traces use `kernel` (its pipelines built on first use).
    pub fn set_kernel(&self, kernel: &KernelOverride) {
        let (device, queue) = (&self.shared.context.device, &self.shared.context.queue);
        let compactor = Compactor::with_override(device, queue, kernel);
        *self.kernel.borrow_mut() = Some(Rc::new(compactor));
    }

    /// `other`'s learner's kernel, its compiled pipelines and all (the two are the
    /// page's one device): nothing is compiled again. False where it has none.
    pub fn share_kernel(&self, other: &Gpu) -> bool {
        let kernel = other.kernel.borrow().clone();
        let shared = kernel.is_some();
        *self.kernel.borrow_mut() = kernel;
        shared
    }

    pub fn clear_kernel(&self) {
        *self.kernel.borrow_mut() = None;
    }

    /// The order the learner's kernel's workgroups take their ids in, from its next run.
    pub fn set_schedule(
        &self,
        schedule: [u32; teaching::SCHEDULE_WORDS as usize],
    ) -> crate::Result<()> {
        let kernel = self.kernel.borrow();
        let compactor = kernel
            .as_ref()
            .ok_or_else(|| crate::Error::Range("no learner's kernel is set".into()))?;
        Ok(teaching::set_schedule(compactor, schedule)?)
    }

    /// The line where the learner's guarded loop ran away in the last run, or 0 (cleared).
    pub fn take_probe(&self) -> u32 {
        self.probe_line.replace(0)
    }

    /// `Err(DeviceLost)` once the device is gone.
    pub fn check(&self) -> crate::Result<()> {
        self.shared.check()
    }

    /// A call that failed because the device went away says so.
    fn after_loss(&self, error: impl Into<Error>) -> Error {
        self.shared.check().err().unwrap_or(error.into())
    }

    pub fn adapter_name(&self) -> String {
        self.shared.context.adapter_name()
    }

    pub fn max_flags(&self) -> u64 {
        self.shared.compactor.max_flags()
    }

    pub fn max_image_side(&self) -> u64 {
        u64::from(self.shared.context.device.limits().max_texture_dimension_2d)
    }

    pub fn upload(&self, flags: &[u32]) -> crate::Result<()> {
        self.check()?;
        let buffer = self.shared.compactor.upload(flags)?;
        *self.flags.borrow_mut() = Some(buffer);
        Ok(())
    }

    pub fn uploaded(&self) -> Option<wgpu::Buffer> {
        self.flags.borrow().clone()
    }

    /// (It takes its turns on the page's GPU itself: a large run in slices.)
    pub async fn run(
        &self,
        input: Input,
        method: Method,
        draw: Draw,
    ) -> crate::Result<(CompactionOutput, Option<Pixels>)> {
        let result = render::run_gpu(self, &input.flags, input.buffer, method, draw).await;
        result.map_err(|e| self.after_loss(e))
    }

    /// Every index of the last run, where it came back in part; None where it came back whole.
    pub async fn read_last(&self) -> crate::Result<Option<CompactionOutput>> {
        render::read_last(self)
            .await
            .map_err(|e| self.after_loss(e))
    }

    pub async fn trace_scan(&self, flags: &[u32]) -> crate::Result<ScanTrace> {
        let _turn = self.shared.lock.lock().await;
        self.check()?;
        let trace = teaching::trace_scan(&self.compactor(), flags).await;
        trace.map_err(|e| self.after_loss(e))
    }

    pub async fn trace_atomic(&self, flags: &[u32], method: Method) -> crate::Result<AtomicTrace> {
        let _turn = self.shared.lock.lock().await;
        self.check()?;
        let trace = teaching::trace_atomic(&self.compactor(), flags, method).await;
        trace.map_err(|e| self.after_loss(e))
    }

    pub async fn trace_packed(&self, flags: &[u32]) -> crate::Result<PackedTrace> {
        let _turn = self.shared.lock.lock().await;
        self.check()?;
        let trace = teaching::trace_packed(&self.compactor(), flags).await;
        trace.map_err(|e| self.after_loss(e))
    }

    pub async fn trace_tiles(
        &self,
        flags: &[u32],
        method: Method,
        schedule: &TileSchedule,
    ) -> crate::Result<TileTrace> {
        let _turn = self.shared.lock.lock().await;
        self.check()?;
        let trace = teaching::trace_tiles(&self.compactor(), flags, method, schedule).await;
        trace.map_err(|e| self.after_loss(e))
    }

    pub fn sources(&self, method: Method) -> Vec<ShaderSource> {
        let compactor = self.compactor();
        shader_sources(
            method,
            &compactor.lookback_options(),
            compactor.uses_subgroups(),
        )
    }

    /// Compiles `method`'s pipelines and runs it once on the article's 10 flags.
    pub async fn compile(&self, method: Method) -> crate::Result<()> {
        let _turn = self.shared.lock.lock().await;
        self.check()?;
        let compactor = self.compactor();
        compactor.warm_up(&[method]);
        let run = compactor.run(&crate::flags::ARTICLE_EXAMPLE, method).await;
        run.map(|_| ()).map_err(|e| self.after_loss(e))
    }

    pub async fn time(
        &self,
        flags: &[u32],
        method: Method,
        (reps, samples): (u32, u32),
        signal: Option<&wasm_bindgen::JsValue>,
    ) -> crate::Result<Measured> {
        let measured = time_gpu(&self.shared, flags, method, reps, samples, signal).await;
        measured.map_err(|e| self.after_loss(e))
    }
}
