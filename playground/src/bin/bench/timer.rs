//! GPU timestamps around one pass per run, or the wall clock without them.

use std::time::Instant;

use compaction_playground::GpuContext;
use wgpu_compaction::teaching::Readback;

/// The least time each measurement warms up for.
const WARMUP_TIME: std::time::Duration = std::time::Duration::from_millis(100);

const FENCE: &str = include_str!("../../../shaders/bench_fence.wgsl");
/// Rounds the queue may run ahead of the CPU by.
const ROUNDS_AHEAD: usize = 2;

/// Times passes with timestamp queries, or the wall clock without them.
pub struct Timer {
    timestamps: bool,
    period_ns: f64,
    fence: wgpu::ComputePipeline,
    fence_bind: wgpu::BindGroup,
}

impl Timer {
    pub fn new(gpu: &GpuContext) -> Self {
        let device = &gpu.device;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bench_fence"),
            source: wgpu::ShaderSource::Wgsl(FENCE.into()),
        });
        let fence = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("bench_fence"),
            layout: None,
            module: &module,
            entry_point: Some("bench_fence"),
            compilation_options: Default::default(),
            cache: None,
        });
        let serial = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bench:serial"),
            size: 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let fence_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("bench_fence"),
            layout: &fence.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: serial.as_entire_binding(),
            }],
        });
        Self {
            timestamps: device.features().contains(wgpu::Features::TIMESTAMP_QUERY),
            period_ns: f64::from(gpu.queue.get_timestamp_period()),
            fence,
            fence_bind,
        }
    }

    pub fn label(&self) -> &'static str {
        if self.timestamps {
            "gpu"
        } else {
            "wall"
        }
    }

    /// Runs every one of `cases` in rounds (`record(case, encoder, run, writes)`): at
    /// least `warmup` rounds and for at least `WARMUP_TIME`, then `reps` rounds
    /// measured. Instance `r` on run `r`. A round is one submission, its runs back to
    /// back behind the fence (the queue a few rounds ahead), so that the GPU stays
    /// busy and clocked up as in a frame, yet no two runs overlap. Returns each case's
    /// measured times in µs: GPU timestamps around its pass, or without them each
    /// round's wall clock shared evenly (a round then waits for the one before).
    pub fn measure(
        &self,
        gpu: &GpuContext,
        warmup: usize,
        reps: usize,
        cases: usize,
        mut record: impl FnMut(
            usize,
            &mut wgpu::CommandEncoder,
            usize,
            Option<wgpu::ComputePassTimestampWrites>,
        ),
    ) -> Vec<Vec<f64>> {
        let device = &gpu.device;
        // One query set per case: a set holds at most 4096 queries.
        let queries: Vec<(wgpu::QuerySet, wgpu::Buffer)> = (0..cases)
            .filter(|_| self.timestamps)
            .map(|_| {
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
                (set, resolve)
            })
            .collect();
        // A wait for the whole queue leaves stale indices here: waiting on one is free.
        let mut in_flight = std::collections::VecDeque::new();
        let mut round = |run: usize, measured: Option<usize>| {
            let mut encoder = device.create_command_encoder(&Default::default());
            for case in 0..cases {
                {
                    let mut pass = encoder.begin_compute_pass(&Default::default());
                    pass.set_pipeline(&self.fence);
                    pass.set_bind_group(0, &self.fence_bind, &[]);
                    pass.dispatch_workgroups(1, 1, 1);
                }
                let writes = measured.and_then(|m| {
                    queries
                        .get(case)
                        .map(|(set, _)| wgpu::ComputePassTimestampWrites {
                            query_set: set,
                            beginning_of_pass_write_index: Some(2 * m as u32),
                            end_of_pass_write_index: Some(2 * m as u32 + 1),
                        })
                });
                record(case, &mut encoder, run, writes);
            }
            in_flight.push_back(gpu.queue.submit([encoder.finish()]));
            if in_flight.len() > ROUNDS_AHEAD {
                let oldest = in_flight.pop_front().expect("a round in flight");
                let _ = device.poll(wgpu::PollType::Wait {
                    submission_index: Some(oldest),
                    timeout: None,
                });
            }
        };
        let started = Instant::now();
        let mut warm_runs = 0;
        while warm_runs < warmup || started.elapsed() < WARMUP_TIME {
            round(warm_runs, None);
            warm_runs += 1;
        }
        wait(device);
        let mut wall = vec![Vec::with_capacity(reps); cases];
        for m in 0..reps {
            let start = Instant::now();
            round(warm_runs + m, Some(m));
            if queries.is_empty() {
                wait(device);
                let each = start.elapsed().as_secs_f64() * 1e6 / cases.max(1) as f64;
                wall.iter_mut().for_each(|times| times.push(each));
            }
        }
        wait(device);
        if queries.is_empty() {
            return wall;
        }
        queries
            .iter()
            .map(|(set, resolve)| self.read(gpu, set, resolve, reps))
            .collect()
    }

    /// The µs between each pair of timestamps in `set`.
    fn read(
        &self,
        gpu: &GpuContext,
        set: &wgpu::QuerySet,
        resolve: &wgpu::Buffer,
        reps: usize,
    ) -> Vec<f64> {
        let device = &gpu.device;
        let count = 2 * reps as u32;
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.resolve_query_set(set, 0..count, resolve, 0);
        let mut read = Readback::default();
        read.copy(device, &mut encoder, resolve, 0, u64::from(count) * 2);
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
