//! Timing compactions for the benchmark panel: on the GPU between two
//! timestamps (or by the wall clock to a readback's end), each round its own
//! turn on the page's device; on the CPU mirror by the wall clock.

use wasm_bindgen::{JsCast, JsValue};

use super::args;
use super::shared::{SharedGpu, Uploaded};
use wgpu_compaction::teaching::{cpu, Readback};
use wgpu_compaction::{CompactionOutput, Compactor, DrawArgs, Method};

pub(super) struct Measured {
    pub timer: &'static str,
    /// Why a GPU's run was timed by the wall clock: `"slices"` (a software
    /// adapter's run goes in slices, one submission each), `"no-timestamps"`.
    pub wall_because: Option<&'static str>,
    pub samples_ns: Vec<f64>,
    pub resolution_ns: Option<f64>,
    pub output: CompactionOutput,
}

fn now_ms() -> f64 {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok());
    performance.map_or_else(js_sys::Date::now, |p| p.now())
}

/// Times `samples` rounds of `reps` compactions. Each round is its own turn on
/// the page's GPU, waited for before the next (on a software adapter, each
/// slice of each run): between them another playground's call runs, and
/// `signal` (an AbortSignal) is looked at, so that neither waits for the whole
/// benchmark.
pub(super) async fn time_gpu(
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
    drop(turn);
    // On a software adapter a run goes in its slices, each its own turn and
    // submission, waited for, with `signal` looked at between them: Cancel
    // waits for one slice, not for a run (13 s at 2^24 on SwiftShader), and
    // the timer is the wall clock (the slices' sum).
    let per_slice = shared.slice_invocations();
    let slices = compactor.slices(&compaction, per_slice);
    let sliced = slices > 1;
    // Slice `k` of the compaction `times` over in one submission, its own turn,
    // waited for; its wall time in ms.
    let chunk = |times: u32, k: usize| {
        let compaction = &compaction;
        async move {
            aborted()?;
            let _turn = shared.lock.lock().await;
            shared.check()?;
            let started = now_ms();
            let mut encoder = device.create_command_encoder(&Default::default());
            for _ in 0..times {
                compactor.encode_slice(&mut encoder, compaction, per_slice, k)?;
            }
            let mut done = Readback::default();
            done.copy(device, &mut encoder, compaction.count(), 0, 1);
            queue.submit([encoder.finish()]);
            done.read(device).await?;
            Ok::<f64, crate::Error>(now_ms() - started)
        }
    };
    // One run first: its pipelines compiled, its buffers touched, its output checked.
    for k in 0..slices {
        chunk(1, k).await?;
    }
    let output = {
        aborted()?;
        let _turn = shared.lock.lock().await;
        shared.check()?;
        let mut encoder = device.create_command_encoder(&Default::default());
        let pending = compaction.read_output(device, &mut encoder)?;
        queue.submit([encoder.finish()]);
        pending.read(device).await?
    };
    if sliced || !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        // By the wall clock: a round's reps in one submission, or, sliced, each
        // slice of each rep its own (the slices' sum).
        let mut samples_ns = Vec::with_capacity(samples as usize);
        for _ in 0..samples {
            let mut ms = 0.0;
            if sliced {
                for _ in 0..reps {
                    for k in 0..slices {
                        ms += chunk(1, k).await?;
                    }
                }
            } else {
                ms = chunk(reps, 0).await?;
            }
            samples_ns.push(ms * 1e6 / f64::from(reps));
        }
        return Ok(Measured {
            timer: "wall",
            wall_because: Some(if sliced { "slices" } else { "no-timestamps" }),
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
        wall_because: None,
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

pub(super) fn time_cpu(flags: &[u32], method: Method, reps: u32, samples: u32) -> Measured {
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
        wall_because: None,
        samples_ns,
        resolution_ns: None,
        output,
    }
}
