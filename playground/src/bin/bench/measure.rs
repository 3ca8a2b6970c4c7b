//! One size of the benchmark: the copy reference, then every method and variant,
//! each output checked against the CPU.

use std::rc::Rc;

use compaction_playground::{flags, GpuContext};
use wgpu_compaction::teaching::{cpu, Readback, STAT_WORDS};
use wgpu_compaction::{
    Compaction, CompactionDesc, Compactor, DrawArgs, Input, Method, PayloadDesc, Segment,
    SegmentsDesc,
};

use crate::args::{source_name, Args, NARROW, UNPAIRED};
use crate::copy::{FixedCost, References};
use crate::report::{median, Row};
use crate::timer::Timer;

/// Bytes of buffers that rotation spreads the runs over: three times a 60 MB L2.
const ROTATION_BYTES: u64 = 180_000_000;
const MAX_ROTATION: u64 = 256;

/// What a row computes besides the indices: a payload copy, or per-mesh records.
#[derive(Clone)]
enum Extra {
    None,
    /// The payload's words per object and the source it copies from.
    Payload(u32, Rc<Vec<u32>>),
    /// The segments.
    Segments(Rc<Vec<Segment>>),
}

/// What was checked against the CPU, or what differed ("WRONG …", "READBACK FAILED …").
fn verify(
    gpu: &GpuContext,
    compaction: &Compaction,
    method: Method,
    expected: &[u32],
    extra: &Extra,
) -> String {
    let device = &gpu.device;
    let mut encoder = device.create_command_encoder(&Default::default());
    let pending = match compaction.read_output(device, &mut encoder) {
        Ok(pending) => pending,
        Err(e) => return format!("READBACK FAILED: {e}"),
    };
    gpu.queue.submit([encoder.finish()]);
    let out = match pollster::block_on(pending.read(device)) {
        Ok(out) => out,
        Err(e) => return format!("READBACK FAILED: {e}"),
    };
    let (count, instance_count) = (out.count as usize, out.indirect.instance_count() as usize);
    if count != expected.len() || instance_count != expected.len() {
        return format!(
            "WRONG count {count} instance_count {instance_count} != {}",
            expected.len()
        );
    }
    let got = &out.indices;
    if method.preserves_order() {
        if got[..] != expected[..] {
            let at = got.iter().zip(expected).position(|(a, b)| a != b);
            return format!("WRONG order, first difference at {at:?}");
        }
        match extra {
            Extra::Payload(words, source) => {
                if out.payload != cpu::payload(expected, 0, source, *words) {
                    return "WRONG payload".into();
                }
            }
            Extra::Segments(list) => {
                let n = compaction.capacity() as u32;
                let (records, draws) =
                    cpu::segment_args(expected, 0, n, list, compaction.draw_args());
                if out.segment_args != records || out.draw_count != draws {
                    return "WRONG segment records".into();
                }
            }
            Extra::None => {}
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

/// What one row of a size runs.
enum Work<'a> {
    /// The copy reference over each rotation's flags.
    Copy(Vec<(wgpu::BindGroup, wgpu::Buffer)>),
    /// `--fixed`: row `FixedCost::ROWS[k]`.
    Fixed(usize),
    /// `--cull`'s reference: the culling pass writing each rotation's flags, then
    /// `lookback` prepared over them (timed from the first pass's start to the
    /// compaction's end).
    CullThenCompact {
        compactor: &'a Compactor,
        compactions: Vec<Compaction>,
        binds: Vec<[wgpu::BindGroup; 2]>,
        extra: Extra,
    },
    /// A method prepared over each rotation's input.
    Compact {
        compactor: &'a Compactor,
        method: Method,
        compactions: Vec<Compaction>,
        extra: Extra,
    },
}

/// The variant label of `compactor`'s build, and whether `method` runs on it.
fn variant(compactors: &[Compactor], which: usize, method: Method, args: &Args) -> Option<String> {
    let compactor = &compactors[which];
    // The extra compactors differ only in how the look-back module is built (its
    // tiles serve `packed-scan` too), and the unpaired ones only in
    // `lookback`.
    let built = method.uses_tiles() || method == Method::PackedScan;
    if !built {
        return (which == 0).then(|| "-".into());
    }
    let options = compactor.lookback_options();
    let unpaired = options.paired_from_tiles == UNPAIRED;
    if unpaired && method != Method::Lookback {
        return None;
    }
    let narrow = options.wide_bits_from_tiles == NARROW;
    if narrow && method != Method::LookbackBits {
        return None;
    }
    let mut variant = if compactor.uses_subgroups() {
        "subgroups".to_string()
    } else {
        "portable".to_string()
    };
    if !options.runtime_checks {
        variant.push_str(",unchecked");
    }
    if unpaired {
        variant.push_str(",unpaired");
    }
    if narrow {
        variant.push_str(",narrow");
    }
    if let Some(name) = source_name(compactor, &args.sources) {
        variant = format!("{name},{variant}");
    }
    Some(variant)
}

/// Every row of one size, timed in rounds: each round runs every row once, so that
/// a slow spell of the GPU (its clocks, another tenant) falls on all rows alike and
/// the ratios between them hold.
pub fn bench_size(
    gpu: &GpuContext,
    compactors: &[Compactor],
    references: &References,
    timer: &Timer,
    args: &Args,
    n: usize,
    density: f64,
) -> Vec<Row> {
    let device = &gpu.device;
    let (copy, fixed) = (&references.copy, references.fixed.as_ref());
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
    let upload = |data: &[u32]| -> Vec<wgpu::Buffer> {
        (0..rotation)
            .map(|_| compactor.upload(data).expect("upload flags"))
            .collect()
    };
    let flag_buffers = upload(&flags);
    let needs_bits = args.methods.iter().any(|m| m.reads_bits());
    let bit_buffers = if needs_bits {
        upload(&bits)
    } else {
        Vec::new()
    };
    let row = |method: &str, input: &'static str, variant: String, bytes: f64| Row {
        n,
        k,
        density,
        method: method.into(),
        input,
        variant,
        timer: timer.label(),
        median_us: f64::NAN,
        min_us: f64::NAN,
        bytes,
        x_copy: f64::NAN,
        check: "-".into(),
    };

    // The reference: read N words, write N words, as vec4.
    let vec4s = (n as u64 / 4).max(1);
    let mut cases = vec![(
        row("copy_vec4", "u32", "-".into(), 8.0 * n as f64),
        Work::Copy(
            flag_buffers
                .iter()
                .map(|src| copy.bind(device, src, vec4s))
                .collect(),
        ),
    )];
    if fixed.is_some() {
        for (k, name) in FixedCost::ROWS.iter().enumerate() {
            cases.push((row(name, "-", "-".into(), 0.0), Work::Fixed(k)));
        }
    }
    for &method in &args.methods {
        for (which, compactor) in compactors.iter().enumerate() {
            let Some(variant) = variant(compactors, which, method, args) else {
                continue;
            };
            // The bits methods twice: reading bits (what a culling pass that writes
            // bits gets), and packing u32 flags in the same pass first (part of
            // `packed-scan` itself, so its row says u32).
            let inputs: &[&'static str] = match method {
                Method::LookbackBits => &["bits", "u32->bits"],
                Method::PackedScan => &["bits", "u32"],
                _ => &["u32"],
            };
            for &input in inputs {
                let prepared: Result<Vec<Compaction>, _> = (0..rotation)
                    .map(|r| {
                        if input == "bits" {
                            compactor.prepare_with(
                                &CompactionDesc::new(&bit_buffers[r], n as u64, method)
                                    .with_input(Input::Bits),
                            )
                        } else {
                            compactor.prepare(&flag_buffers[r], n as u64, method, 1)
                        }
                    })
                    .collect();
                let compactions = match prepared {
                    Ok(c) => c,
                    Err(e) => {
                        eprintln!(
                            "bench: {method} at n={n}: {}",
                            compaction_playground::cli::escaped(&e.to_string())
                        );
                        continue;
                    }
                };
                let read_bytes = if input == "bits" {
                    n as f64 / 8.0
                } else {
                    4.0 * n as f64
                };
                cases.push((
                    row(
                        method.name(),
                        input,
                        variant.clone(),
                        read_bytes + 4.0 * k as f64,
                    ),
                    Work::Compact {
                        compactor,
                        method,
                        compactions,
                        extra: Extra::None,
                    },
                ));
            }
        }
    }
    // What a GPU-driven renderer adds: a payload copied alongside, per-mesh records.
    // Their inputs are made and uploaded once a size, for every method's rows.
    let compactor = &compactors[0];
    let ordered: Vec<Method> = args
        .methods
        .iter()
        .copied()
        .filter(|m| m.preserves_order())
        .collect();
    let payloads: Vec<(u32, Rc<Vec<u32>>, Vec<wgpu::Buffer>)> = args
        .payload
        .iter()
        .filter(|_| !ordered.is_empty())
        .map(|&words| {
            let source = Rc::new(payload_source(n, words));
            let buffers = (0..rotation)
                .map(|_| compactor.upload(&source).expect("upload the payload"))
                .collect();
            (words, source, buffers)
        })
        .collect();
    let meshes: Vec<(u32, Rc<Vec<Segment>>, wgpu::Buffer)> = args
        .segments
        .iter()
        .filter(|_| !ordered.is_empty())
        .map(|&count| {
            let list: Vec<Segment> = (0..count)
                .map(|s| Segment {
                    first_object: (u64::from(s) * n as u64 / u64::from(count)) as u32,
                    index_count: 36,
                    first_index: 36 * s,
                    base_vertex: 0,
                })
                .collect();
            let buffer = compactor
                .upload(bytemuck::cast_slice(&list))
                .expect("upload the segments");
            (count, Rc::new(list), buffer)
        })
        .collect();
    for &method in &ordered {
        for (words, source, sources) in &payloads {
            let words = *words;
            let prepared = (0..rotation).map(|r| {
                compactor.prepare_with(
                    &CompactionDesc::new(&flag_buffers[r], n as u64, method)
                        .with_draw(DrawArgs::vertices(1))
                        .with_payload(PayloadDesc::new((&sources[r], 0), words)),
                )
            });
            let bytes = 4.0 * n as f64 + (4.0 + 8.0 * f64::from(words)) * k as f64;
            let extra = Extra::Payload(words, source.clone());
            let variant = format!("payload{words}");
            push_case(
                &mut cases,
                row(method.name(), "u32", variant, bytes),
                compactor,
                method,
                prepared,
                extra,
            );
        }
        for mesh in &meshes {
            let (count, list, _) = mesh;
            let count = *count;
            let prepared = (0..rotation).map(|r| {
                let desc = CompactionDesc::new(&flag_buffers[r], n as u64, method);
                compactor.prepare_with(&with_segments(desc, Some(mesh)))
            });
            let bytes = 4.0 * n as f64 + 4.0 * k as f64 + 36.0 * f64::from(count);
            let variant = format!("seg{count}");
            push_case(
                &mut cases,
                row(method.name(), "u32", variant, bytes),
                compactor,
                method,
                prepared,
                Extra::Segments(list.clone()),
            );
        }
    }

    let culls = references
        .cull
        .as_ref()
        .filter(|_| args.methods.contains(&Method::Lookback));
    // Kept alive while the compactions bind them.
    let mut cull_buffers = Vec::new();
    if let Some(cull) = culls {
        let spheres = crate::cull::spheres(&flags);
        for _ in 0..rotation {
            let spheres = compactor
                .upload(bytemuck::cast_slice(&spheres))
                .expect("upload the spheres");
            let flags = compactor.upload(&vec![0; n]).expect("the culled flags");
            cull_buffers.push((spheres, flags));
        }
        // The culling pass's bind groups, one a rotation, for every two-pass row.
        let binds: Vec<[wgpu::BindGroup; 2]> = cull_buffers
            .iter()
            .map(|(spheres, flags)| cull.bind(device, spheres, flags))
            .collect();
        // Plain, and with each `--segments` count's records (unpacked, as its rows above).
        let plain = std::iter::once(None);
        for segments in plain.chain(meshes.iter().map(Some)) {
            let (suffix, extra, records) = match segments {
                Some((count, list, _)) => (
                    format!(",seg{count}"),
                    Extra::Segments(list.clone()),
                    36.0 * f64::from(*count),
                ),
                None => (String::new(), Extra::None, 0.0),
            };
            let bytes = 16.0 * n as f64 + 4.0 * k as f64 + records;
            let two_passes: Result<Vec<Compaction>, _> = cull_buffers
                .iter()
                .map(|(_, flags)| {
                    let desc = CompactionDesc::new(flags, n as u64, Method::Lookback);
                    compactor.prepare_with(&with_segments(desc, segments))
                })
                .collect();
            match two_passes {
                Ok(compactions) => cases.push((
                    row(
                        "lookback",
                        "spheres",
                        format!("cull,then-compact{suffix}"),
                        bytes,
                    ),
                    Work::CullThenCompact {
                        compactor,
                        compactions,
                        binds: binds.clone(),
                        extra: extra.clone(),
                    },
                )),
                Err(e) => eprintln!("bench: cull then lookback{suffix} at n={n}: {e}"),
            }
            let prepared = cull_buffers.iter().map(|(spheres, _)| {
                let entries = cull.entries(spheres);
                let desc = compactor.culled(cull.desc(&entries), n as u64);
                compactor.prepare_with(&with_segments(desc, segments))
            });
            push_case(
                &mut cases,
                row("lookback", "spheres", format!("one-pass{suffix}"), bytes),
                compactor,
                Method::Lookback,
                prepared,
                extra,
            );
        }
    }

    // Consecutive runs (the rows of a round, and a round's last row and the next
    // one's first) take different copies, so that no run finds the flags the run
    // before it read still in L2.
    let rows = cases.len();
    let copy_of = |case: usize, run: usize| (run * rows + case) % rotation;
    let times = timer.measure(
        gpu,
        args.warmup,
        args.reps,
        cases.len(),
        |case, encoder, run, writes| match &cases[case].1 {
            Work::Copy(copies) => {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("copy_vec4"),
                    timestamp_writes: writes,
                });
                copy.dispatch(&mut pass, &copies[copy_of(case, run)].0, vec4s, max_dim);
            }
            Work::Fixed(k) => {
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some(FixedCost::ROWS[*k]),
                    timestamp_writes: writes,
                });
                if let Some(fixed) = fixed {
                    fixed.dispatch(&mut pass, *k, n as u64, max_dim);
                }
            }
            Work::CullThenCompact {
                compactor,
                compactions,
                binds,
                ..
            } => {
                let copy = copy_of(case, run);
                let (first, last) = split(writes);
                {
                    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some("bench:cull"),
                        timestamp_writes: first,
                    });
                    if let Some(cull) = culls {
                        cull.dispatch(&mut pass, &binds[copy], n as u64, max_dim);
                    }
                }
                compactor
                    .encode_timed(encoder, &compactions[copy], last)
                    .expect("a case's compactions are its compactor's")
            }
            Work::Compact {
                compactor,
                compactions,
                ..
            } => compactor
                .encode_timed(encoder, &compactions[copy_of(case, run)], writes)
                .expect("a case's compactions are its compactor's"),
        },
    );
    let (copy_us, _) = median(times[0].clone());
    cases
        .into_iter()
        .zip(times)
        .enumerate()
        .map(|(case, ((mut row, work), times))| {
            (row.median_us, row.min_us) = median(times);
            row.x_copy = row.median_us / copy_us;
            if let Work::CullThenCompact {
                compactions, extra, ..
            } = &work
            {
                let first = &compactions[copy_of(case, 0)];
                row.check = verify(gpu, first, Method::Lookback, &expected, extra);
            }
            if let Work::Compact {
                compactor,
                method,
                compactions,
                extra,
            } = work
            {
                // The copy the first round ran.
                let first = &compactions[copy_of(case, 0)];
                row.check = verify(gpu, first, method, &expected, &extra);
                if args.stats && method.uses_tiles() {
                    row.check.push_str(&stats(gpu, compactor, &compactions[0]));
                }
            }
            row
        })
        .collect()
}

/// `desc` with `segments`' per-mesh records (unpacked), if any.
fn with_segments<'b>(
    desc: CompactionDesc<'b>,
    segments: Option<&'b (u32, Rc<Vec<Segment>>, wgpu::Buffer)>,
) -> CompactionDesc<'b> {
    match segments {
        Some((count, _, buffer)) => desc
            .with_draw(DrawArgs::indexed(0))
            .with_segments(SegmentsDesc::new((buffer, 0), *count).with_packed(false)),
        None => desc,
    }
}

/// One pass's timestamp writes as two passes': the first's start, the last's end.
fn split(
    writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
) -> (
    Option<wgpu::ComputePassTimestampWrites<'_>>,
    Option<wgpu::ComputePassTimestampWrites<'_>>,
) {
    let Some(w) = writes else {
        return (None, None);
    };
    let first = wgpu::ComputePassTimestampWrites {
        query_set: w.query_set,
        beginning_of_pass_write_index: w.beginning_of_pass_write_index,
        end_of_pass_write_index: None,
    };
    let last = wgpu::ComputePassTimestampWrites {
        query_set: w.query_set,
        beginning_of_pass_write_index: None,
        end_of_pass_write_index: w.end_of_pass_write_index,
    };
    (Some(first), Some(last))
}

/// A case of `compactor`'s compactions of `method` (one per rotation), or the
/// error that refused them, said.
fn push_case<'a>(
    cases: &mut Vec<(Row, Work<'a>)>,
    row: Row,
    compactor: &'a Compactor,
    method: Method,
    prepared: impl Iterator<Item = wgpu_compaction::Result<Compaction>>,
    extra: Extra,
) {
    match prepared.collect::<Result<Vec<_>, _>>() {
        Ok(compactions) => cases.push((
            row,
            Work::Compact {
                compactor,
                method,
                compactions,
                extra,
            },
        )),
        Err(e) => eprintln!(
            "bench: {method} {} at n={}: {}",
            row.variant,
            row.n,
            compaction_playground::cli::escaped(&e.to_string())
        ),
    }
}

/// Seeded payload words, `words` per object.
fn payload_source(n: usize, words: u32) -> Vec<u32> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ n as u64;
    (0..n * words as usize)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        })
        .collect()
}

/// Look-back events per tile in one more run (`--stats`).
fn stats(gpu: &GpuContext, compactor: &Compactor, compaction: &Compaction) -> String {
    let Some(states) = compaction.tile_states() else {
        return String::new();
    };
    let words = states.size() / 4;
    let first = words - STAT_WORDS;
    let read = |encode: bool| {
        let device = &gpu.device;
        let mut encoder = device.create_command_encoder(&Default::default());
        if encode && compactor.encode(&mut encoder, compaction).is_err() {
            return Vec::new();
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
