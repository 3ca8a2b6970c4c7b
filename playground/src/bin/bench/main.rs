//! `bench --sizes 100000,16777216 --density 0.5 [--json] [--reps 30] [--methods ...]`:
//! the median GPU time of every method and of a vec4 copy kernel of the same N, in
//! one process. Flags come from `flags::random(n, density, n)`, the generator of
//! `playground/bench/cub_select.cu`, so CUB compacts the same array.
//!
//! Timing: GPU timestamps at the start and end of the method's compute pass (every
//! dispatch of the method, nothing else), median of `--reps` runs after warm-up; the
//! wall clock of submit-to-idle, labelled `wall`, where the adapter has no
//! TIMESTAMP_QUERY. When flags and outputs fit in the 60 MB L2 of the GPUs this is
//! measured on, runs rotate over copies of the buffers, each run on a copy other
//! than the run before it, so that no run finds its input in cache. Each method's
//! output is checked against the CPU once per size.

mod args;
mod copy;
mod cull;
mod measure;
mod report;
mod robustness;
mod timer;

use std::process::ExitCode;

use compaction_playground::GpuContext;
use wgpu_compaction::teaching::LookbackOptions;
use wgpu_compaction::Compactor;

use copy::{CopyVec4, FixedCost, References};
use report::{print_header, print_json, print_table};
use timer::Timer;

compaction_playground::record_closed_streams!();

fn main() -> ExitCode {
    if compaction_playground::cli::closed_at_start(1) {
        eprintln!("bench: the standard output is closed: nowhere to write the table");
        return ExitCode::FAILURE;
    }
    let args = match args::parse_args() {
        Ok(args::Parsed::Run(args)) => args,
        Ok(args::Parsed::Help) => {
            println!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("bench: {}", compaction_playground::cli::shown(&message));
            return ExitCode::from(2);
        }
    };
    let mut gpu = match pollster::block_on(GpuContext::new()) {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!(
                "bench: {}",
                compaction_playground::cli::escaped(&e.to_string())
            );
            return ExitCode::FAILURE;
        }
    };
    if args.no_robustness {
        if let Err(e) = robustness::drop_robustness(&mut gpu) {
            eprintln!("bench: {}", compaction_playground::cli::escaped(&e));
            return ExitCode::FAILURE;
        }
    }
    let defaults = LookbackOptions::default();
    let base = LookbackOptions {
        stats: args.stats,
        paired_from_tiles: args.paired_from.unwrap_or(defaults.paired_from_tiles),
        ..defaults
    };
    // The default kernels, then each --source file; each followed by its portable
    // (--portable; not for a source with its own scan and look-back, whose build
    // does not depend on it), unchecked (--unchecked) and unpaired (--unpaired)
    // builds.
    let mut variants = Vec::new();
    let sources = std::iter::once(None).chain(args.sources.iter().map(|&(_, s)| Some(s)));
    for source in sources {
        let options = LookbackOptions { source, ..base };
        let first = variants.len();
        variants.push(options);
        let subgroups = gpu.device.features().contains(wgpu::Features::SUBGROUP);
        if args.portable && subgroups && options.scan_follows_subgroups() {
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
        if args.unpaired {
            let unpaired: Vec<LookbackOptions> = variants[first..]
                .iter()
                .map(|&built| LookbackOptions {
                    paired_from_tiles: args::UNPAIRED,
                    ..built
                })
                .collect();
            variants.extend(unpaired);
        }
        if args.narrow {
            let narrow: Vec<LookbackOptions> = variants[first..]
                .iter()
                .filter(|built| built.paired_from_tiles != args::UNPAIRED)
                .map(|&built| LookbackOptions {
                    wide_bits_from_tiles: args::NARROW,
                    ..built
                })
                .collect();
            variants.extend(narrow);
        }
    }
    let compactors: Vec<Compactor> = variants
        .into_iter()
        .map(|options| Compactor::with_options(&gpu.device, &gpu.queue, options))
        .collect();
    // A --source that does not compile is said, not left to wgpu's panic.
    for compactor in compactors
        .iter()
        .filter(|c| c.lookback_options().source.is_some())
    {
        let validation = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
        compactor.warm_up(&args.methods);
        if let Some(error) = pollster::block_on(validation.pop()) {
            let name = args::source_name(compactor, &args.sources).unwrap_or("--source");
            let text = error
                .to_string()
                .lines()
                .map(compaction_playground::cli::shown)
                .collect::<Vec<_>>()
                .join("\n");
            eprintln!("bench: --source {name} does not build: {text}");
            return ExitCode::from(2);
        }
    }

    let references = References {
        copy: CopyVec4::new(&gpu.device),
        fixed: args.fixed.then(|| FixedCost::new(&gpu.device)),
        cull: args.cull.map(|early| cull::Cull::new(&gpu.device, early)),
    };
    let timer = Timer::new(&gpu);
    eprintln!(
        "bench: {}{}; timer {}; look-back scan with {}; median of {} runs after {} warm-up",
        gpu.adapter_name(),
        if args.no_robustness {
            " without robust buffer access"
        } else {
            ""
        },
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
    let mut out = std::io::stdout().lock();
    if !args.json {
        if let Err(e) = print_header(&mut out) {
            return compaction_playground::cli::write_failed("bench", &e);
        }
    }
    for &density in &args.densities {
        for &n in &args.sizes {
            let max = compactors[0].max_flags();
            if n as u64 > max {
                eprintln!("bench: n={n} is more than this device binds ({max} flags); skipped");
                continue;
            }
            let size_rows =
                measure::bench_size(&gpu, &compactors, &references, &timer, &args, n, density);
            // A wrong output or one that could not be read back fails the run.
            wrong |= size_rows
                .iter()
                .any(|r| r.check.starts_with("WRONG") || r.check.starts_with("READBACK FAILED"));
            // Each size as it finishes, so that a run cut short keeps its rows.
            let printed = if args.json {
                print_json(&mut out, &size_rows)
            } else {
                print_table(&mut out, &size_rows)
            };
            if let Err(e) = printed.and_then(|()| std::io::Write::flush(&mut out)) {
                return compaction_playground::cli::write_failed("bench", &e);
            }
        }
    }
    if wrong {
        eprintln!("bench: some outputs differ from the CPU or could not be read back");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
