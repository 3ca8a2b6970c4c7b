//! `bench --sizes 100000,16777216 --density 0.5 [--json] [--reps 30] [--methods ...]`:
//! the median GPU time of every method and of a vec4 copy kernel of the same N, in
//! one process. Flags come from `flags::random(n, density, n)`, the generator of
//! `shared/bench/cub_select.cu`, so CUB compacts the same array.
//!
//! Timing: GPU timestamps at the start and end of the method's compute pass (every
//! dispatch of the method, nothing else), median of `--reps` runs after warm-up; the
//! wall clock of submit-to-idle, labelled `wall`, where the adapter has no
//! TIMESTAMP_QUERY. When flags and outputs fit in the 60 MB L2 of the GPUs this is
//! measured on, runs rotate over copies of the buffers so that no run finds its
//! input in cache. Each method's output is checked against the CPU once per size.

use std::process::ExitCode;
use std::time::Instant;

use compaction_playground::gpu::kernel::{storage_buffer, words, Kernel};
use compaction_playground::gpu::readback::{self, Readback};
use compaction_playground::gpu::{
    copy_vec4,
    lookback::{self, LookbackOptions},
};
use compaction_playground::{cli, cpu, flags, Compaction, Compactor, GpuContext, Method};

const USAGE: &str = "usage: bench [--sizes N,N,...] [--density D,D,...] [--reps R] [--warmup W] \
                     [--methods m,m,...] [--portable] [--unchecked] [--stats] [--json] \
                     [--source lookback-variant.wgsl ...]";

/// Bytes of buffers that rotation spreads the runs over: three times a 60 MB L2.
const ROTATION_BYTES: u64 = 180_000_000;
const MAX_ROTATION: u64 = 256;
/// The least time each measurement warms up for.
const WARMUP_TIME: std::time::Duration = std::time::Duration::from_millis(100);

struct Args {
    sizes: Vec<usize>,
    densities: Vec<f64>,
    reps: usize,
    warmup: usize,
    methods: Vec<Method>,
    portable: bool,
    unchecked: bool,
    stats: bool,
    json: bool,
    /// `--source PATH`: look-back kernels built from other WGSL, each a variant.
    sources: Vec<(String, &'static str)>,
}

/// The `--source` file a compactor was built from.
fn source_name<'a>(
    compactor: &Compactor,
    sources: &'a [(String, &'static str)],
) -> Option<&'a str> {
    let source = compactor.lookback_options().source?;
    sources
        .iter()
        .find(|(_, s)| std::ptr::eq(*s, source))
        .map(|(name, _)| name.as_str())
}

fn list<T: std::str::FromStr>(value: &str, what: &str) -> Result<Vec<T>, String> {
    value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|_| format!("{what}: `{s}` is not valid"))
        })
        .collect()
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        sizes: vec![100_000, 1 << 24],
        densities: vec![0.5],
        reps: 30,
        warmup: 5,
        methods: Method::ALL.to_vec(),
        portable: false,
        unchecked: false,
        stats: false,
        json: false,
        sources: Vec::new(),
    };
    let mut options = cli::Options::new(std::env::args().skip(1));
    while let Some((name, inline)) = options.next_option() {
        let mut value = || options.value(&name, inline.clone(), USAGE);
        match name.as_str() {
            "--sizes" => args.sizes = list(&value()?, "--sizes")?,
            "--density" | "--densities" => args.densities = list(&value()?, "--density")?,
            "--reps" => args.reps = value()?.parse().map_err(|_| "--reps: not a number")?,
            "--warmup" => args.warmup = value()?.parse().map_err(|_| "--warmup: not a number")?,
            "--methods" => {
                args.methods = list::<String>(&value()?, "--methods")?
                    .iter()
                    .map(|m| m.parse::<Method>().map_err(|e| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--portable" => args.portable = true,
            "--unchecked" => args.unchecked = true,
            "--stats" => args.stats = true,
            "--json" => args.json = true,
            "--source" => {
                let path = value()?;
                let text =
                    std::fs::read_to_string(&path).map_err(|e| format!("--source {path}: {e}"))?;
                let name = std::path::Path::new(&path)
                    .file_stem()
                    .map_or(path.clone(), |s| s.to_string_lossy().into_owned());
                args.sources.push((name, Box::leak(text.into_boxed_str())));
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument `{other}`; {USAGE}")),
        }
    }
    if args.reps == 0 {
        return Err("--reps must be at least 1".into());
    }
    if args.sizes.iter().any(|&n| n < 4) {
        return Err("--sizes: each size must be at least 4 (the copy reference moves vec4)".into());
    }
    if args.densities.iter().any(|d| !(0.0..=1.0).contains(d)) {
        return Err("--density must lie in [0, 1]".into());
    }
    Ok(args)
}

/// Times passes with timestamp queries, or the wall clock without them.
struct Timer {
    queries: Option<(wgpu::QuerySet, wgpu::Buffer, u32)>,
    period_ns: f64,
}

impl Timer {
    fn new(gpu: &GpuContext, reps: usize) -> Self {
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

    fn label(&self) -> &'static str {
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
    fn measure(
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
            readback::wait(device);
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
            readback::wait(device);
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

fn median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let min = v.first().copied().unwrap_or(f64::NAN);
    (v.get(v.len() / 2).copied().unwrap_or(f64::NAN), min)
}

struct Row {
    n: usize,
    k: usize,
    density: f64,
    method: String,
    input: &'static str,
    variant: String,
    timer: &'static str,
    median_us: f64,
    min_us: f64,
    bytes: f64,
    x_copy: f64,
    check: String,
}

impl Row {
    fn gbps(&self) -> f64 {
        self.bytes / (self.median_us * 1e3)
    }
}

/// What was checked against the CPU, or what differed.
fn verify(gpu: &GpuContext, compaction: &Compaction, method: Method, expected: &[u32]) -> String {
    let device = &gpu.device;
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut read = Readback::default();
    read.copy(device, &mut encoder, compaction.count(), 0, 1);
    read.copy(device, &mut encoder, compaction.indirect(), 0, 4);
    read.copy(
        device,
        &mut encoder,
        compaction.indices(),
        0,
        expected.len() as u64,
    );
    gpu.queue.submit([encoder.finish()]);
    let words = match pollster::block_on(read.read(device)) {
        Ok(words) => words,
        Err(e) => return format!("READBACK FAILED: {e}"),
    };
    let count = words[0][0] as usize;
    let instance_count = words[1][1] as usize;
    if count != expected.len() || instance_count != expected.len() {
        return format!(
            "WRONG count {count} instance_count {instance_count} != {}",
            expected.len()
        );
    }
    let got = &words[2];
    if method.preserves_order() {
        if got[..] != expected[..] {
            let at = got.iter().zip(expected).position(|(a, b)| a != b);
            return format!("WRONG order, first difference at {at:?}");
        }
        "ok (exact)".into()
    } else {
        let sum = |v: &[u32]| v.iter().map(|&x| u64::from(x)).sum::<u64>();
        if sum(got) != sum(expected) {
            return "WRONG index sum".into();
        }
        "ok (count+sum)".into()
    }
}

fn bench_size(
    gpu: &GpuContext,
    compactors: &[Compactor],
    copy: &Kernel,
    timer: &Timer,
    args: &Args,
    n: usize,
    density: f64,
) -> Vec<Row> {
    let device = &gpu.device;
    let max_dim = device.limits().max_compute_workgroups_per_dimension;
    let flags = flags::random(n, density, n as u64);
    let expected: Vec<u32> = (0..n as u32).filter(|&i| flags[i as usize] != 0).collect();
    let k = expected.len();
    let bits = cpu::pack_bits(&flags);
    let instance_bytes = 8 * n as u64;
    let rotation = ROTATION_BYTES
        .div_ceil(instance_bytes.max(1))
        .clamp(1, MAX_ROTATION) as usize;
    let compactor = &compactors[0];
    let flag_buffers: Vec<wgpu::Buffer> = (0..rotation)
        .map(|_| compactor.upload(&flags).expect("upload flags"))
        .collect();
    let runs = |record: &mut dyn FnMut(
        &mut wgpu::CommandEncoder,
        usize,
        Option<wgpu::ComputePassTimestampWrites>,
    )| { median(timer.measure(gpu, args.warmup, args.reps, record)) };
    let mut rows = Vec::new();

    // The reference: read N words, write N words, as vec4.
    let vec4s = (n as u64 / 4).max(1);
    let copies: Vec<(wgpu::BindGroup, wgpu::Buffer)> = flag_buffers
        .iter()
        .map(|src| {
            let dst = storage_buffer(device, "bench:copy", vec4s * 4, wgpu::BufferUsages::empty());
            let bind = copy.bind(device, &[words(src, vec4s * 4), words(&dst, vec4s * 4)]);
            (bind, dst)
        })
        .collect();
    let (copy_us, copy_min) = runs(&mut |encoder, run, writes| {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("copy_vec4"),
            timestamp_writes: writes,
        });
        copy.dispatch(&mut pass, &copies[run % rotation].0, vec4s, max_dim);
    });
    drop(copies);
    rows.push(Row {
        n,
        k,
        density,
        method: "copy_vec4".into(),
        input: "u32",
        variant: "-".into(),
        timer: timer.label(),
        median_us: copy_us,
        min_us: copy_min,
        bytes: 8.0 * n as f64,
        x_copy: 1.0,
        check: "-".into(),
    });

    for &method in &args.methods {
        for (which, compactor) in compactors.iter().enumerate() {
            // The extra compactors differ only in how the look-back is built.
            if which > 0 && !method.uses_tiles() {
                continue;
            }
            let variant: String = if method.uses_tiles() {
                let scan = if compactor.uses_subgroups() {
                    "subgroups"
                } else {
                    "portable"
                };
                let mut variant = scan.to_string();
                if !compactor.lookback_options().runtime_checks {
                    variant.push_str(",unchecked");
                }
                if let Some(name) = source_name(compactor, &args.sources) {
                    variant = format!("{name},{variant}");
                }
                variant
            } else {
                "-".into()
            };
            // The bits method twice: reading bits (what a culling pass that writes
            // bits gets), and packing u32 flags in the same pass first.
            let inputs: &[&'static str] = if method == Method::LookbackBits {
                &["bits", "u32->bits"]
            } else {
                &["u32"]
            };
            for &input in inputs {
                let bit_buffers: Vec<wgpu::Buffer> = if input == "bits" {
                    (0..rotation)
                        .map(|_| compactor.upload(&bits).expect("upload bits"))
                        .collect()
                } else {
                    Vec::new()
                };
                let prepared: Result<Vec<Compaction>, _> = (0..rotation)
                    .map(|r| {
                        if input == "bits" {
                            compactor.prepare_bits(&bit_buffers[r], n as u64, 1)
                        } else {
                            compactor.prepare(&flag_buffers[r], n as u64, method, 1)
                        }
                    })
                    .collect();
                let compactions = match prepared {
                    Ok(c) => c,
                    Err(e) => {
                        eprintln!("bench: {method} at n={n}: {e}");
                        continue;
                    }
                };
                let mut last = 0;
                let (us, min) = runs(&mut |encoder, run, writes| {
                    last = run % rotation;
                    compactor.encode_timed(encoder, &compactions[last], writes);
                });
                let mut check = verify(gpu, &compactions[last], method, &expected);
                if args.stats && method.uses_tiles() {
                    check.push_str(&stats(gpu, compactor, &compactions[last]));
                }
                let read_bytes = if input == "bits" {
                    n as f64 / 8.0
                } else {
                    4.0 * n as f64
                };
                rows.push(Row {
                    n,
                    k,
                    density,
                    method: method.name().into(),
                    input,
                    variant: variant.clone(),
                    timer: timer.label(),
                    median_us: us,
                    min_us: min,
                    bytes: read_bytes + 4.0 * k as f64,
                    x_copy: us / copy_us,
                    check,
                });
            }
        }
    }
    rows
}

/// Look-back events per tile in one more run (`--stats`).
fn stats(gpu: &GpuContext, compactor: &Compactor, compaction: &Compaction) -> String {
    let Some(states) = compaction.tile_states() else {
        return String::new();
    };
    let words = states.size() / 4;
    let first = words - compaction_playground::gpu::lookback::STAT_WORDS;
    let read = |encode: bool| {
        let device = &gpu.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        if encode {
            compactor.encode(&mut encoder, compaction);
        }
        let mut read = Readback::default();
        read.copy(device, &mut encoder, states, first, 6);
        gpu.queue.submit([encoder.finish()]);
        pollster::block_on(read.read(device))
            .map(|mut w| w.swap_remove(0))
            .unwrap_or_default()
    };
    let before = read(false);
    let after = read(true);
    let delta: Vec<f64> = after
        .iter()
        .zip(&before)
        .map(|(a, b)| f64::from(a.wrapping_sub(*b)))
        .collect();
    let Some(&tiles) = delta.get(3) else {
        return String::new();
    };
    let per = |k: usize| delta[k] / tiles.max(1.0);
    // The most workgroups that ever ran at once (any run so far).
    let most = after.get(5).copied().unwrap_or(0);
    format!(
        " | per tile: rounds {:.2} polls {:.2} fallbacks {:.4} | at once: {most}",
        per(0),
        per(1),
        per(2)
    )
}

fn print_header() {
    println!(
        "{:>10} {:>10} {:>7} {:>14} {:>9} {:>9} {:>5} {:>10} {:>10} {:>8} {:>7}  check",
        "N",
        "K",
        "density",
        "method",
        "input",
        "variant",
        "timer",
        "median_us",
        "min_us",
        "GB/s",
        "x_copy"
    );
}

fn print_table(rows: &[Row]) {
    for r in rows {
        println!(
            "{:>10} {:>10} {:>7} {:>14} {:>9} {:>9} {:>5} {:>10.1} {:>10.1} {:>8.1} {:>7.2}  {}",
            r.n,
            r.k,
            r.density,
            r.method,
            r.input,
            r.variant,
            r.timer,
            r.median_us,
            r.min_us,
            r.gbps(),
            r.x_copy,
            r.check
        );
    }
}

fn print_json(rows: &[Row]) {
    for r in rows {
        println!(
            "{{\"n\":{},\"k\":{},\"density\":{},\"method\":\"{}\",\"input\":\"{}\",\"variant\":\"{}\",\"timer\":\"{}\",\"median_us\":{:.3},\"min_us\":{:.3},\"gbps\":{:.2},\"x_copy\":{:.4},\"check\":\"{}\"}}",
            r.n, r.k, r.density, r.method, r.input, r.variant, r.timer, r.median_us, r.min_us,
            r.gbps(), r.x_copy, r.check
        );
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("bench: {message}");
            return ExitCode::from(2);
        }
    };
    let gpu = match pollster::block_on(GpuContext::new()) {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let base = LookbackOptions {
        stats: args.stats,
        ..LookbackOptions::default()
    };
    // The default kernels, then each --source file; each followed by its portable
    // (--portable, default only) and unchecked (--unchecked) builds.
    let mut variants = Vec::new();
    let sources = std::iter::once(None).chain(args.sources.iter().map(|&(_, s)| Some(s)));
    for source in sources {
        let options = LookbackOptions { source, ..base };
        variants.push(options);
        if source.is_none() && args.portable && lookback::uses_subgroups(&gpu.device, base) {
            variants.push(LookbackOptions {
                subgroups: false,
                ..options
            });
        }
        if args.unchecked {
            variants.push(LookbackOptions {
                runtime_checks: false,
                ..options
            });
        }
    }
    let compactors: Vec<Compactor> = variants
        .into_iter()
        .map(|options| Compactor::with_options(&gpu.device, &gpu.queue, options))
        .collect();

    let copy = copy_vec4::copy_vec4(&gpu.device);
    let timer = Timer::new(&gpu, args.reps);
    eprintln!(
        "bench: {}; timer {}; look-back scan with {}; median of {} runs after {} warm-up",
        gpu.adapter_name(),
        timer.label(),
        if compactors[0].uses_subgroups() {
            "subgroups"
        } else {
            "shared memory (no SUBGROUP)"
        },
        args.reps,
        args.warmup
    );
    let mut wrong = false;
    if !args.json {
        print_header();
    }
    for &density in &args.densities {
        for &n in &args.sizes {
            let max = compactors[0].max_flags();
            if n as u64 > max {
                eprintln!("bench: n={n} is more than this device binds ({max} flags); skipped");
                continue;
            }
            let size_rows = bench_size(&gpu, &compactors, &copy, &timer, &args, n, density);
            wrong |= size_rows.iter().any(|r| r.check.starts_with("WRONG"));
            // Each size as it finishes, so that a run cut short keeps its rows.
            if args.json {
                print_json(&size_rows);
            } else {
                print_table(&size_rows);
            }
            let _ = std::io::Write::flush(&mut std::io::stdout());
        }
    }
    if wrong {
        eprintln!("bench: some outputs differ from the CPU");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
