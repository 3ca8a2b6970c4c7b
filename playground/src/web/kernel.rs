//! A learner's kernel in place of ours (the kernel panel): its facts, its
//! module made by the browser's compiler (whose messages the page reads in
//! UTF-16 columns), installed on one playground, and the probe its guarded
//! loops report to. Checking,
//! generating cases and shrinking are the panel's JS (every page pays for
//! the wasm's bytes). Part of the one wasm boundary of `web.rs`.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::convert::{js_error, object};
use super::{args, Playground};
use crate::Error;
use wgpu_compaction::teaching::{kernel_facts as facts_of, KernelOverride, OVERRIDABLE};

/// The longest kernel source taken: a learner's module of at most 64 KiB
/// (the panel's limit) with the loop guard's code, which grows with its loops.
pub const MAX_KERNEL_BYTES: usize = 1024 * 1024;

/// The kernels a learner may replace: `[{ module, method, path, wgsl,
/// entryPoints: [{ name, bindings: [names] }], appended: [{ path, wgsl }] }]`
/// (the files the module appends after the learner's; `live` among the bindings
/// where the entry point reads the uniform of `shaders/live.wgsl`, which the
/// module appends after the learner's text).
#[wasm_bindgen(js_name = kernelFacts)]
pub fn kernel_facts() -> JsValue {
    let all: Array = OVERRIDABLE
        .iter()
        .filter_map(|&(module, _)| facts_of(module))
        .map(|facts| {
            let entry_points: Array = facts
                .entry_points
                .iter()
                .map(|(name, bindings)| {
                    let names: Array = bindings.iter().map(|&b| JsValue::from(b)).collect();
                    object(&[("name", (*name).into()), ("bindings", names.into())])
                })
                .collect();
            let appended: Array = facts
                .appended
                .iter()
                .map(|&(path, wgsl)| object(&[("path", path.into()), ("wgsl", wgsl.into())]))
                .collect();
            object(&[
                ("module", facts.module.into()),
                ("method", facts.method.name().into()),
                ("path", facts.path.into()),
                ("wgsl", facts.wgsl.into()),
                ("entryPoints", entry_points.into()),
                ("appended", appended.into()),
            ])
        })
        .collect();
    all.into()
}

#[wasm_bindgen]
impl Playground {
    /// The browser's shader module of `wgsl` in place of `module`'s file, with
    /// the files the module appends after it (`shaders/live.wgsl`): `{ module:
    /// GPUShaderModule, scope: Promise }`; the module's `getCompilationInfo()`
    /// places its messages in the learner's lines (the learner's text first)
    /// and UTF-16 columns; `scope` settles with the validation error of a module
    /// that does not compile (already said by the messages). GPU only.
    #[wasm_bindgen(js_name = kernelModule)]
    pub fn kernel_module(&self, module: JsValue, wgsl: JsValue) -> Result<JsValue, JsValue> {
        let kernel = kernel_of(&module, &wgsl, &JsValue::FALSE).map_err(js_error)?;
        let gpu = self.state.backend.gpu().map_err(js_error)?;
        let (module, scope) = gpu.shader_module(&kernel).map_err(js_error)?;
        Ok(object(&[("module", module), ("scope", scope)]))
    }

    /// Later runs and traces of this playground use `wgsl` in place of
    /// `module`'s file (`probed`: it declares the probe, binding 15, and uses it
    /// in every entry point); its pipelines are built on first use, and a
    /// pipeline's error rejects that call. GPU only.
    #[wasm_bindgen(js_name = setKernel)]
    pub fn set_kernel(
        &self,
        module: JsValue,
        wgsl: JsValue,
        probed: JsValue,
    ) -> Result<(), JsValue> {
        let kernel = kernel_of(&module, &wgsl, &probed).map_err(js_error)?;
        let gpu = self.state.backend.gpu().map_err(js_error)?;
        gpu.set_kernel(&kernel);
        Ok(())
    }

    /// Later runs and traces of this playground use the learner's kernel that
    /// `from` (another playground of the page) has set, its pipelines already
    /// compiled: compiled once, for the checker, and stepped on the page. False
    /// where `from` has none. GPU only.
    #[wasm_bindgen(js_name = shareKernel)]
    pub fn share_kernel(&self, from: &Playground) -> Result<bool, JsValue> {
        let gpu = self.state.backend.gpu().map_err(js_error)?;
        let other = from.state.backend.gpu().map_err(js_error)?;
        Ok(gpu.share_kernel(other))
    }

    /// Destroys the page's GPU device, for a watchdog that gave up on a run that
    /// never ended (a learner's loop the guard did not catch): every playground
    /// of the page hears `device-lost` and the next `create` opens a new device.
    #[wasm_bindgen(js_name = abandonDevice)]
    pub fn abandon_device(&self) {
        if let Ok(gpu) = self.state.backend.gpu() {
            gpu.shared.context.device.destroy();
        }
    }

    /// Back to the library's own kernels.
    #[wasm_bindgen(js_name = clearKernel)]
    pub fn clear_kernel(&self) {
        if let Ok(gpu) = self.state.backend.gpu() {
            gpu.clear_kernel();
        }
    }

    /// The line of the guarded loop that ran away in this playground's last
    /// run (0: none), read with the run; cleared.
    #[wasm_bindgen(js_name = kernelProbe)]
    pub fn kernel_probe(&self) -> u32 {
        self.state.backend.gpu().map_or(0, |gpu| gpu.take_probe())
    }

    /// The order the learner's kernel's workgroups take their ids in from its
    /// next run: `order` 0 the GPU's own, 1 reversed, 2 `(a·k + b) mod n` (`a`
    /// coprime with every dispatch's workgroup count), and `delayed` (the
    /// workgroup, in that order, held back a while before it starts; -1 for none).
    #[wasm_bindgen(js_name = setSchedule)]
    pub fn set_schedule(
        &self,
        order: JsValue,
        a: JsValue,
        b: JsValue,
        delayed: JsValue,
    ) -> Result<(), JsValue> {
        let word = |v: &JsValue, what: &str| {
            args::whole(v, what, 0, u64::from(u32::MAX)).map(|x| x as u32)
        };
        let schedule = (|| -> crate::Result<[u32; 4]> {
            Ok([
                word(&order, "the order")?,
                word(&a, "a")?,
                word(&b, "b")?,
                if delayed.as_f64() == Some(-1.0) {
                    u32::MAX
                } else {
                    word(&delayed, "the delayed workgroup")?
                },
            ])
        })()
        .map_err(js_error)?;
        let gpu = self.state.backend.gpu().map_err(js_error)?;
        gpu.set_schedule(schedule).map_err(js_error)
    }

    /// What the instrumentation counted in this playground's last run of a
    /// learner's kernel: `{ reads, writes, atomics, barriers, invocations }`
    /// (storage reads and writes, over all invocations), or null.
    #[wasm_bindgen(js_name = kernelCosts)]
    pub fn kernel_costs(&self) -> JsValue {
        let Ok(gpu) = self.state.backend.gpu() else {
            return JsValue::NULL;
        };
        let costs = gpu.costs.borrow();
        let [reads, writes, atomics, barriers, invocations] = costs[..] else {
            return JsValue::NULL;
        };
        object(&[
            ("reads", reads.into()),
            ("writes", writes.into()),
            ("atomics", atomics.into()),
            ("barriers", barriers.into()),
            ("invocations", invocations.into()),
        ])
    }

    /// The first slot past the count that this playground's last run of a
    /// learner's kernel wrote (a word no longer UNWRITTEN), or -1.
    #[wasm_bindgen(js_name = kernelWrittenPast)]
    pub fn kernel_written_past(&self) -> f64 {
        self.state
            .backend
            .gpu()
            .map_or(-1.0, |gpu| gpu.written_past.replace(-1.0))
    }
}

fn kernel_of(module: &JsValue, wgsl: &JsValue, probed: &JsValue) -> crate::Result<KernelOverride> {
    let module = args::string(module, "the kernel")?;
    let wgsl = args::string(wgsl, "the kernel's WGSL")?;
    if wgsl.len() > MAX_KERNEL_BYTES {
        return Err(Error::Range(format!(
            "a kernel of {} bytes: at most {MAX_KERNEL_BYTES}",
            wgsl.len()
        )));
    }
    Ok(KernelOverride::new(&module, wgsl, probed.is_truthy())?)
}
