//! The page's tools around the runs: the WGSL each method compiles, compiling a
//! method apart from its runs, timing runs on the visitor's GPU (the benchmark
//! panel) and a run drawn in draw order (the order panel). Part of the one
//! wasm boundary of `web.rs`.

use js_sys::{Array, Float64Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::convert::{js_error, object};
use super::render::{run_gpu, Draw, Uploaded};
use super::shared::SharedGpu;
use super::{after_loss, args, convert, Playground};
use crate::{flags, Error};
use wgpu_compaction::teaching::{cpu, shader_sources, LookbackOptions, Readback, ShaderSource};
use wgpu_compaction::{CompactionOutput, Compactor, DrawArgs, Method};

/// The most compactions between two timestamps, and the most measurements.
const MAX_REPS: u64 = 4096;
const MAX_SAMPLES: u64 = 64;
/// The most materials the order view colours.
const MAX_GROUPS: u64 = 64;
/// The benchmark's flags: `flags::random(n, DENSITY, SEED)`, as the native bench.
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
                let modules = match &self.state.gpu {
                    Some(gpu) => {
                        let compactor = &gpu.shared.compactor;
                        let options = compactor.lookback_options();
                        shader_sources(method, &options, compactor.uses_subgroups())
                    }
                    None => shader_sources(method, &LookbackOptions::default(), false),
                };
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
            if let Some(gpu) = &state.gpu {
                let _turn = gpu.shared.lock.lock().await;
                gpu.shared.check().map_err(js_error)?;
                let compactor = &gpu.shared.compactor;
                compactor.warm_up(&[method]);
                let run = compactor.run(&flags::ARTICLE_EXAMPLE, method).await;
                run.map_err(|e| js_error(after_loss(&gpu.shared, e)))?;
            }
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Times `method` on `n` random flags (density 0.5, seed 1, as `bench`):
    /// `samples` measurements of `reps` compactions recorded back to back, timed
    /// between two GPU timestamps where the device has `timestamp-query`, by the
    /// wall clock to the end of a readback otherwise. Resolves to `{ method, n,
    /// count, reps, timer: "gpu" | "wall" | "cpu", samplesNs: Float64Array (ns per
    /// compaction), resolutionNs (the timestamps' quantum, or null), check:
    /// "exact" | "count+sum" }`; rejects when the output differs from the CPU's.
    pub fn benchmark(
        &self,
        method: JsValue,
        n: JsValue,
        reps: JsValue,
        samples: JsValue,
        signal: JsValue,
    ) -> js_sys::Promise {
        let state = self.state.clone();
        let limit = self.limit();
        let parsed = (|| -> crate::Result<(Method, u64, u32, u32, Option<JsValue>)> {
            Ok((
                args::method(&method)?,
                args::whole(&n, "the size", 1, limit)?,
                args::whole(&reps, "reps", 1, MAX_REPS)? as u32,
                args::whole(&samples, "samples", 1, MAX_SAMPLES)? as u32,
                args::abort_signal(&signal)?,
            ))
        })();
        future_to_promise(async move {
            let (method, n, reps, samples, signal) = parsed.map_err(js_error)?;
            let flags = flags::random(n as usize, DENSITY, SEED);
            let measured = match &state.gpu {
                Some(gpu) => {
                    let measured =
                        time_gpu(&gpu.shared, &flags, method, reps, samples, signal.as_ref()).await;
                    measured.map_err(|e| js_error(after_loss(&gpu.shared, e)))?
                }
                None => time_cpu(&flags, method, reps, samples),
            };
            let check = check(&flags, method, &measured.output).map_err(js_error)?;
            Ok(object(&[
                ("method", method.name().into()),
                ("n", (n as f64).into()),
                ("count", measured.output.count.into()),
                ("reps", reps.into()),
                ("timer", measured.timer.into()),
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
        let flags = state.flags.borrow().clone();
        let buffer = state.gpu.as_ref().and_then(|g| g.flags.borrow().clone());
        let max_side = state.gpu.as_ref().map_or(1, |g| {
            u64::from(g.shared.context.device.limits().max_texture_dimension_2d)
        });
        let parsed = (|| -> crate::Result<(Method, u32, u32, u32)> {
            let side =
                |v: &JsValue, what| args::whole(v, what, 1, max_side.max(1)).map(|s| s as u32);
            Ok((
                args::method(&method)?,
                side(&width, "the width")?,
                side(&height, "the height")?,
                args::whole(&groups, "groups", 1, MAX_GROUPS)? as u32,
            ))
        })();
        future_to_promise(async move {
            let (method, width, height, groups) = parsed.map_err(js_error)?;
            let (out, image) = match &state.gpu {
                Some(gpu) => {
                    let draw = Draw::Order {
                        width,
                        height,
                        groups,
                    };
                    let result = run_gpu(gpu, &flags, buffer, method, draw).await;
                    result.map_err(|e| js_error(after_loss(&gpu.shared, e)))?
                }
                None => (
                    cpu::compact(
                        &flags,
                        method,
                        DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
                    ),
                    None,
                ),
            };
            let backend = if state.gpu.is_some() { "gpu" } else { "cpu" };
            Ok(convert::run_object(method, &out, image, backend))
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

struct Measured {
    timer: &'static str,
    samples_ns: Vec<f64>,
    resolution_ns: Option<f64>,
    output: CompactionOutput,
}

fn now_ms() -> f64 {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok());
    performance.map_or_else(js_sys::Date::now, |p| p.now())
}

/// Times `samples` rounds of `reps` compactions. Each round is its own turn on
/// the page's GPU, waited for before the next: between rounds another
/// playground's call runs, and `signal` (an AbortSignal) is looked at, so that
/// neither waits for the whole benchmark.
async fn time_gpu(
    shared: &SharedGpu,
    flags: &[u32],
    method: Method,
    reps: u32,
    samples: u32,
    signal: Option<&JsValue>,
) -> crate::Result<Measured> {
    let aborted = || {
        if signal.and_then(args::aborted).unwrap_or(false) {
            Err(crate::Error::Aborted("the benchmark was cancelled".into()))
        } else {
            Ok(())
        }
    };
    aborted()?;
    let turn = shared.lock.lock().await;
    shared.check()?;
    let compactor = &shared.compactor;
    let device = compactor.device();
    let queue = compactor.queue();
    let buffer = Uploaded(compactor.upload(flags)?);
    let compaction = compactor
        .prepare(
            &buffer.0,
            flags.len() as u64,
            method,
            Compactor::DEFAULT_VERTEX_COUNT,
        )?
        .destroy_on_drop();
    // One run first: its pipelines compiled, its buffers touched, its output checked.
    let output = compactor.run_compaction(&compaction).await?;
    drop(turn);
    if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        let mut samples_ns = Vec::with_capacity(samples as usize);
        for _ in 0..samples {
            aborted()?;
            let _turn = shared.lock.lock().await;
            shared.check()?;
            let started = now_ms();
            let mut encoder = device.create_command_encoder(&Default::default());
            for _ in 0..reps {
                compactor.encode(&mut encoder, &compaction)?;
            }
            let mut done = Readback::default();
            done.copy(device, &mut encoder, compaction.count(), 0, 1);
            queue.submit([encoder.finish()]);
            done.read(device).await?;
            samples_ns.push((now_ms() - started) * 1e6 / f64::from(reps));
        }
        return Ok(Measured {
            timer: "wall",
            samples_ns,
            resolution_ns: None,
            output,
        });
    }
    let stamps = 2 * samples;
    let set = device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("benchmark:timestamps"),
        ty: wgpu::QueryType::Timestamp,
        count: stamps,
    });
    let resolve = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("benchmark:resolve"),
        size: u64::from(stamps) * 8,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    for s in 0..samples {
        aborted()?;
        let _turn = shared.lock.lock().await;
        shared.check()?;
        let mut encoder = device.create_command_encoder(&Default::default());
        for r in 0..reps {
            let (first, last) = (r == 0, r == reps - 1);
            let writes = (first || last).then(|| wgpu::ComputePassTimestampWrites {
                query_set: &set,
                beginning_of_pass_write_index: first.then_some(2 * s),
                end_of_pass_write_index: last.then_some(2 * s + 1),
            });
            compactor.encode_timed(&mut encoder, &compaction, writes)?;
        }
        // The round done before the turn passes: the next call does not queue behind it.
        let mut done = Readback::default();
        done.copy(device, &mut encoder, compaction.count(), 0, 1);
        queue.submit([encoder.finish()]);
        done.read(device).await?;
    }
    let _turn = shared.lock.lock().await;
    shared.check()?;
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.resolve_query_set(&set, 0..stamps, &resolve, 0);
    let mut read = Readback::default();
    read.copy(device, &mut encoder, &resolve, 0, u64::from(stamps) * 2);
    queue.submit([encoder.finish()]);
    let words = read.read(device).await?;
    let ticks: Vec<u64> = words[0]
        .chunks_exact(2)
        .map(|p| u64::from(p[0]) | (u64::from(p[1]) << 32))
        .collect();
    let period = f64::from(queue.get_timestamp_period());
    let samples_ns = ticks
        .chunks_exact(2)
        .map(|t| t[1].saturating_sub(t[0]) as f64 * period / f64::from(reps))
        .collect();
    Ok(Measured {
        timer: "gpu",
        samples_ns,
        resolution_ns: quantum(&ticks).map(|q| q as f64 * period),
        output,
    })
}

/// The largest step every timestamp is a multiple of (browsers quantise
/// timestamps), in ticks; None when there is nothing to tell.
fn quantum(ticks: &[u64]) -> Option<u64> {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let q = ticks.iter().fold(0, |g, &t| gcd(g, t));
    (q > 0).then_some(q)
}

fn time_cpu(flags: &[u32], method: Method, reps: u32, samples: u32) -> Measured {
    let args = || DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT);
    let output = cpu::compact(flags, method, args());
    let samples_ns = (0..samples)
        .map(|_| {
            let started = now_ms();
            for _ in 0..reps {
                std::hint::black_box(cpu::compact(flags, method, args()));
            }
            (now_ms() - started) * 1e6 / f64::from(reps)
        })
        .collect();
    Measured {
        timer: "cpu",
        samples_ns,
        resolution_ns: None,
        output,
    }
}

/// The benchmark's output against the CPU mirror: every index in order for the
/// methods that keep it, the count and the index sum for the others.
fn check(flags: &[u32], method: Method, got: &CompactionOutput) -> crate::Result<&'static str> {
    let want = cpu::compact(
        flags,
        method,
        DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
    );
    let sum = |o: &CompactionOutput| o.indices.iter().map(|&i| u64::from(i)).sum::<u64>();
    if method.preserves_order() {
        if got.indices == want.indices && got.count == want.count {
            return Ok("exact");
        }
    } else if got.count == want.count && sum(got) == sum(&want) {
        return Ok("count+sum");
    }
    Err(Error::Compaction(wgpu_compaction::Error::Gpu(format!(
        "{method}: the GPU's output differs from the CPU's (count {} vs {})",
        got.count, want.count
    ))))
}
