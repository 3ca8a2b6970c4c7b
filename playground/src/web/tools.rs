//! The page's tools around the runs: the WGSL each method compiles, compiling a
//! method apart from its runs, timing runs on the visitor's GPU (the benchmark
//! panel) and a run drawn in draw order (the order panel). Part of the one
//! wasm boundary of `web.rs`.

use js_sys::{Array, Float64Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::backend::Draw;
use super::convert::{js_error, object};
use super::{args, convert, Playground};
use crate::{flags, Error};
use wgpu_compaction::teaching::ShaderSource;
use wgpu_compaction::{CompactionOutput, Method};

/// The most compactions between two timestamps, and the most measurements.
const MAX_REPS: u64 = 4096;
const MAX_SAMPLES: u64 = 64;
/// The most materials the order view colours.
const MAX_GROUPS: u64 = 64;
/// The benchmark's flags: `flags::random(n, density, SEED)`, as the native
/// bench's (`--density`, 0.5 unless given).
const DENSITY: f64 = 0.5;
const SEED: u64 = 1;

#[wasm_bindgen]
impl Playground {
    /// The WGSL of every method exactly as this playground compiles it:
    /// `[{ method, modules: [{ label, files, pipelines: [{ label, entryPoint,
    /// constants: { NAME: value } }], wgsl }] }]`. The CPU reference lists what a
    /// browser's GPU compiles (the portable build: wgpu on wasm has no subgroups).
    #[wasm_bindgen(js_name = kernelSources)]
    pub fn kernel_sources(&self) -> JsValue {
        let all: Array = Method::ALL
            .iter()
            .map(|&method| {
                let modules = self.state.backend.sources(method);
                let modules: Array = modules.iter().map(module_object).collect();
                object(&[
                    ("method", method.name().into()),
                    ("modules", modules.into()),
                ])
            })
            .collect();
        all.into()
    }

    /// Compiles `method`'s pipelines and runs it once on the article's 10 flags,
    /// resolving when the GPU is done: what a first run would otherwise count as
    /// its own time. Resolves at once on the CPU reference.
    pub fn compile(&self, method: JsValue) -> js_sys::Promise {
        let state = self.state.clone();
        let method = args::method(&method);
        future_to_promise(async move {
            let method = method.map_err(js_error)?;
            state.backend.compile(method).await.map_err(js_error)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Times `method` on `n` random flags (`density`, 0.5 when undefined; seed
    /// 1, as `bench`): `samples` measurements of `reps` compactions recorded
    /// back to back, timed between two GPU timestamps where the device has
    /// `timestamp-query` and a run is one submission, by the wall clock to the
    /// end of a readback otherwise. Resolves to `{ method, n, density, count,
    /// reps, timer: "gpu" | "wall" | "cpu", wallBecause: "slices" |
    /// "no-timestamps" | null, samplesNs: Float64Array (ns per compaction),
    /// resolutionNs (the timestamps' quantum, or null), check: "exact" |
    /// "count+sum" }`; rejects when the output differs from the CPU's.
    pub fn benchmark(
        &self,
        method: JsValue,
        n: JsValue,
        reps: JsValue,
        samples: JsValue,
        signal: JsValue,
        density: JsValue,
    ) -> js_sys::Promise {
        let state = self.state.clone();
        let limit = self.limit();
        let parsed = (|| -> crate::Result<(Method, u64, u32, u32, Option<JsValue>, f64)> {
            Ok((
                args::method(&method)?,
                args::whole(&n, "the size", 1, limit)?,
                args::whole(&reps, "reps", 1, MAX_REPS)? as u32,
                args::whole(&samples, "samples", 1, MAX_SAMPLES)? as u32,
                args::abort_signal(&signal)?,
                if density.is_undefined() {
                    DENSITY
                } else {
                    args::number(&density, "the density", 0.0, 1.0)?
                },
            ))
        })();
        future_to_promise(async move {
            let (method, n, reps, samples, signal, density) = parsed.map_err(js_error)?;
            let flags = flags::random(n as usize, density, SEED);
            let measured = state
                .backend
                .time(&flags, method, (reps, samples), signal.as_ref());
            let measured = measured.await.map_err(js_error)?;
            let check = check(&flags, method, &measured.output).map_err(js_error)?;
            Ok(object(&[
                ("method", method.name().into()),
                ("n", (n as f64).into()),
                ("density", density.into()),
                ("count", measured.output.count.into()),
                ("reps", reps.into()),
                ("timer", measured.timer.into()),
                (
                    "wallBecause",
                    measured.wall_because.map_or(JsValue::NULL, JsValue::from),
                ),
                (
                    "samplesNs",
                    Float64Array::from(&measured.samples_ns[..]).into(),
                ),
                (
                    "resolutionNs",
                    measured.resolution_ns.map_or(JsValue::NULL, JsValue::from),
                ),
                ("check", check.into()),
            ]))
        })
    }

    /// Compacts the current flags with `method` and draws the result with the
    /// same `drawIndirect`, each instance at its place in the draw, coloured by
    /// which of `groups` materials its object belongs to and shaded by depth,
    /// into a `width` × `height` image: `run`'s result, with `image` on the GPU
    /// (null on the CPU reference, which draws nothing).
    #[wasm_bindgen(js_name = drawOrder)]
    pub fn draw_order(
        &self,
        method: JsValue,
        width: JsValue,
        height: JsValue,
        groups: JsValue,
    ) -> js_sys::Promise {
        let state = self.state.clone();
        let input = state.backend.input(state.flags.borrow().clone());
        let max_side = state.backend.max_image_side();
        let parsed = (|| -> crate::Result<(Method, u32, u32, u32)> {
            let (width, height) = args::image_size(&width, &height, max_side.max(1))?;
            Ok((
                args::method(&method)?,
                width,
                height,
                args::whole(&groups, "groups", 1, MAX_GROUPS)? as u32,
            ))
        })();
        future_to_promise(async move {
            let (method, width, height, groups) = parsed.map_err(js_error)?;
            let draw = Draw::Order {
                width,
                height,
                groups,
            };
            let run = state.backend.run(input, method, draw).await;
            let (out, image) = run.map_err(js_error)?;
            Ok(convert::run_object(
                method,
                &out,
                image,
                state.backend.name(),
            ))
        })
    }
}

fn module_object(module: &ShaderSource) -> JsValue {
    let files: Array = module.files.iter().map(|f| JsValue::from(*f)).collect();
    let pipelines: Array = module
        .pipelines
        .iter()
        .map(|p| {
            let constants: Vec<(&str, JsValue)> = p
                .constants
                .iter()
                .map(|(name, value)| (*name, JsValue::from(*value)))
                .collect();
            object(&[
                ("label", p.label.as_str().into()),
                ("entryPoint", p.entry_point.into()),
                ("constants", object(&constants)),
            ])
        })
        .collect();
    object(&[
        ("label", module.label.as_str().into()),
        ("files", files.into()),
        ("pipelines", pipelines.into()),
        ("wgsl", module.wgsl.as_ref().into()),
    ])
}

/// The benchmark's output against the CPU mirror: every index in order for the
/// methods that keep it, the count and the index sum for the others.
fn check(flags: &[u32], method: Method, got: &CompactionOutput) -> crate::Result<&'static str> {
    // Walked against the flags, holding nothing more: the CPU mirror's whole
    // compaction of 2^26 flags beside the GPU's took the wasm past its memory.
    let visible = || {
        flags
            .iter()
            .enumerate()
            .filter(|(_, &f)| wgpu_compaction::is_visible(f))
            .map(|(i, _)| i as u32)
    };
    let counted = got.indices.len() == got.count as usize;
    if method.preserves_order() {
        if counted && visible().eq(got.indices.iter().copied()) {
            return Ok("exact");
        }
    } else {
        let (count, sum) = visible().fold((0u32, 0u64), |(c, s), i| (c + 1, s + u64::from(i)));
        let got_sum: u64 = got.indices.iter().map(|&i| u64::from(i)).sum();
        if counted && got.count == count && got_sum == sum {
            return Ok("count+sum");
        }
    }
    Err(Error::Compaction(wgpu_compaction::Error::Gpu(format!(
        "{method}: the GPU's output differs from the CPU's (count {} vs {})",
        got.count,
        visible().count()
    ))))
}
