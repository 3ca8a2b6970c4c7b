//! A learner's kernel in place of ours (the kernel panel): its facts, compiled
//! by the browser with the messages placed as an editor counts, installed on
//! one playground, and the probe its guarded loops report to. Checking,
//! generating cases and shrinking are the panel's JS (every page pays for
//! the wasm's bytes). Part of the one wasm boundary of `web.rs`.

use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::convert::{js_error, object};
use super::{args, Playground};
use crate::Error;
use wgpu_compaction::teaching::{kernel_facts as facts_of, KernelOverride, Severity, OVERRIDABLE};

/// The longest kernel source taken (a learner's module is a few KiB).
const MAX_KERNEL_BYTES: usize = 64 * 1024;

/// The kernels a learner may replace: `[{ module, method, path, wgsl,
/// entryPoints: [{ name, bindings: [names] }] }]` (`live` among the bindings
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
            object(&[
                ("module", facts.module.into()),
                ("method", facts.method.name().into()),
                ("path", facts.path.into()),
                ("wgsl", facts.wgsl.into()),
                ("entryPoints", entry_points.into()),
            ])
        })
        .collect();
    all.into()
}

#[wasm_bindgen]
impl Playground {
    /// Compiles `wgsl` in place of `module`'s file (`probed`: it declares the
    /// probe, binding 15). Resolves to `{ diagnostics: [{ severity ('error',
    /// 'warning', 'info'), message, line, column, length }] }`, lines of the whole
    /// module (the learner's text first), columns and lengths in UTF-16 units,
    /// line 0 where the compiler gave no place. Without an error, later runs and
    /// traces of this playground use it (pipelines are built on first use: a
    /// pipeline's error rejects that call); with one, none does. GPU only.
    #[wasm_bindgen(js_name = setKernel)]
    pub fn set_kernel(&self, module: JsValue, wgsl: JsValue, probed: JsValue) -> js_sys::Promise {
        let state = self.state.clone();
        let kernel = (|| -> crate::Result<KernelOverride> {
            let module = args::string(&module, "the kernel")?;
            let wgsl = args::string(&wgsl, "the kernel's WGSL")?;
            if wgsl.len() > MAX_KERNEL_BYTES {
                return Err(Error::Range(format!(
                    "a kernel of {} bytes: at most {MAX_KERNEL_BYTES}",
                    wgsl.len()
                )));
            }
            Ok(KernelOverride::new(&module, wgsl, probed.is_truthy())?)
        })();
        future_to_promise(async move {
            let kernel = kernel.map_err(js_error)?;
            let gpu = state.backend.gpu().map_err(js_error)?;
            let diagnostics = gpu.set_kernel(&kernel).await.map_err(js_error)?;
            let list: Array = diagnostics
                .iter()
                .map(|d| {
                    let severity = match d.severity {
                        Severity::Error => "error",
                        Severity::Warning => "warning",
                        Severity::Info => "info",
                    };
                    object(&[
                        ("severity", severity.into()),
                        ("message", d.message.as_str().into()),
                        ("line", d.line.into()),
                        ("column", d.column.into()),
                        ("length", d.length.into()),
                    ])
                })
                .collect();
            Ok(object(&[("diagnostics", list.into())]))
        })
    }

    /// Back to the library's own kernels.
    #[wasm_bindgen(js_name = clearKernel)]
    pub fn clear_kernel(&self) {
        if let Ok(gpu) = self.state.backend.gpu() {
            gpu.clear_kernel();
        }
    }

    /// Resolves to the line of the guarded loop that ran away in this
    /// playground's kernel since the last call (0: none), and clears it.
    #[wasm_bindgen(js_name = kernelProbe)]
    pub fn kernel_probe(&self) -> js_sys::Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let gpu = state.backend.gpu().map_err(js_error)?;
            let line = gpu.take_probe().await.map_err(js_error)?;
            Ok(line.into())
        })
    }
}
