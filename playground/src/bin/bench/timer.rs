//! GPU timestamps around one pass per run, or the wall clock without them.

use std::time::Instant;

use compaction_playground::GpuContext;
use wgpu_compaction::Readback;

/// The least time each measurement warms up for.
const WARMUP_TIME: std::time::Duration = std::time::Duration::from_millis(100);

/// Times passes with timestamp queries, or the wall clock without them.
pub struct Timer {
    queries: Option<(wgpu::QuerySet, wgpu::Buffer, u32)>,
    period_ns: f64,
}

impl Timer {
    pub fn new(gpu: &GpuContext, reps: usize) -> Self {
        let device = &gpu.device;
        let queries = device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
            .then(|| {
                let count = 2 * reps as u32;
                let set = device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("bench:timestamps"),
                    ty: wgpu::QueryType::Timestamp,
                    count,
                });
                let resolve = device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("bench:resolve"),
                    size: u64::from(count) * 8,
                    usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                });
                (set, resolve, count)
            });
        Self {
            queries,
            period_ns: f64::from(gpu.queue.get_timestamp_period()),
        }
    }

    pub fn label(&self) -> &'static str {
        if self.queries.is_some() {
            "gpu"
        } else {
            "wall"
        }
    }

    /// Runs `record` at least `warmup` times and for at least `WARMUP_TIME` (the
    /// clocks rise after the CPU-side set-up), then `reps` times measured; instance
    /// `r` on run `r`, one submission each, waiting for the GPU between runs so
    /// that runs never overlap. Returns the measured times in µs.
    pub fn measure(
        &self,
        gpu: &GpuContext,
        warmup: usize,
        reps: usize,
        mut record: impl FnMut(
            &mut wgpu::CommandEncoder,
            usize,
            Option<wgpu::ComputePassTimestampWrites>,
        ),
    ) -> Vec<f64> {
        let device = &gpu.device;
        let mut wall = Vec::with_capacity(reps);
        let started = Instant::now();
        let mut warm_runs = 0;
        while warm_runs < warmup || started.elapsed() < WARMUP_TIME {
            let mut encoder = device.create_command_encoder(&Default::default());
            record(&mut encoder, warm_runs, None);
            gpu.queue.submit([encoder.finish()]);
            wait(device);
            warm_runs += 1;
        }
        for run in warm_runs..warm_runs + reps {
            let measured = Some(run - warm_runs);
            let mut encoder = device.create_command_encoder(&Default::default());
            let writes = match (&self.queries, measured) {
                (Some((set, _, _)), Some(m)) => Some(wgpu::ComputePassTimestampWrites {
                    query_set: set,
                    beginning_of_pass_write_index: Some(2 * m as u32),
                    end_of_pass_write_index: Some(2 * m as u32 + 1),
                }),
                _ => None,
            };
            record(&mut encoder, run, writes);
            let start = Instant::now();
            gpu.queue.submit([encoder.finish()]);
            wait(device);
            if measured.is_some() {
                wall.push(start.elapsed().as_secs_f64() * 1e6);
            }
        }
        let Some((set, resolve, count)) = &self.queries else {
            return wall;
        };
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.resolve_query_set(set, 0..*count, resolve, 0);
        let mut read = Readback::default();
        read.copy(device, &mut encoder, resolve, 0, u64::from(*count) * 2);
        gpu.queue.submit([encoder.finish()]);
        let words = pollster::block_on(read.read(device)).unwrap_or_default();
        let ticks: Vec<u64> = words
            .first()
            .map(|w| {
                w.chunks_exact(2)
                    .map(|p| u64::from(p[0]) | (u64::from(p[1]) << 32))
                    .collect()
            })
            .unwrap_or_default();
        ticks
            .chunks_exact(2)
            .take(reps)
            .map(|t| t[1].saturating_sub(t[0]) as f64 * self.period_ns / 1e3)
            .collect()
    }
}

/// Blocks until the GPU is idle (an error is a lost device; the readback says so).
fn wait(device: &wgpu::Device) {
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
}
