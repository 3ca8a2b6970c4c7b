//! `compact --method scan < flags.txt`: compacts flags on the GPU and prints JSON.
//! Bad input: exit code 2 and one line on stderr, nothing on stdout. The input
//! is read in pieces and refused as soon as it holds more flags than the device
//! compacts; a closed stdout (`| head`) ends it quietly.

use std::io::{Read, Write};
use std::process::ExitCode;

use compaction_playground::cli::{self, json_string};
use compaction_playground::flags::{FlagReader, FlagsFormat};
use compaction_playground::{Error, GpuContext};
use wgpu_compaction::{Compactor, DrawArgs, Method};

fn usage() -> String {
    let methods: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    format!(
        "usage: compact [--method {}] [--input FILE] [--flags-format list|bits|u32le]",
        methods.join("|")
    )
}

struct Args {
    method: Method,
    input: Option<String>,
    format: FlagsFormat,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        method: Method::Scan,
        input: None,
        format: FlagsFormat::List,
    };
    let mut options = cli::Options::new(cli::args()?.into_iter());
    while let Some((name, inline)) = options.next_option() {
        let help = usage();
        let mut value = || options.value(&name, inline.clone(), &help);
        match name.as_str() {
            "--method" => args.method = value()?.parse().map_err(|e| format!("{e}"))?,
            "--input" => args.input = Some(value()?),
            "--flags-format" => args.format = value()?.parse().map_err(|e| format!("{e}"))?,
            other => return Err(format!("unknown argument `{other}`; {help}")),
        }
    }
    Ok(args)
}

/// The input's flags, at most `max` of them.
fn read_flags(path: Option<&str>, format: FlagsFormat, max: u64) -> Result<Vec<u32>, Error> {
    let name = path.unwrap_or("stdin");
    let cannot = |e: std::io::Error| Error::Parse(format!("cannot read {name}: {e}"));
    let mut input: Box<dyn Read> = match path {
        Some(path) => Box::new(std::fs::File::open(path).map_err(cannot)?),
        None => Box::new(std::io::stdin().lock()),
    };
    let mut reader = FlagReader::new(format, max);
    let mut piece = vec![0u8; 1 << 16];
    loop {
        match input.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => reader.push(&piece[..n])?,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(cannot(e)),
        }
    }
    reader.finish()
}

compaction_playground::record_closed_streams!();

fn main() -> ExitCode {
    if cli::closed_at_start(1) {
        eprintln!("compact: the standard output is closed: nowhere to write the result");
        return ExitCode::from(1);
    }
    if std::env::args_os()
        .skip(1)
        .any(|a| a == "-h" || a == "--help")
    {
        return write_out(|out| writeln!(out, "{}", usage()));
    }
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("compact: {}", compaction_playground::cli::shown(&message));
            return ExitCode::from(2);
        }
    };
    if args.input.is_none() && cli::closed_at_start(0) {
        eprintln!(
            "compact: the standard input is closed: give the flags on it or with --input FILE"
        );
        return ExitCode::from(2);
    }
    let run = cli::without_panics(|| {
        pollster::block_on(async {
            let gpu = GpuContext::new().await?;
            let compactor = Compactor::new(&gpu.device, &gpu.queue);
            let max = compactor.max_flags_for(args.method);
            let flags = read_flags(args.input.as_deref(), args.format, max)?;
            let output = compactor.run(&flags, args.method).await?;
            Ok::<_, Error>((gpu.adapter_name(), output))
        })
    });
    let result = match run {
        Ok(result) => result,
        Err(panic) => {
            eprintln!(
                "compact: the GPU driver failed ({}): too little memory for it? (ulimit -v, a container's limit)",
                cli::shown(&panic)
            );
            return ExitCode::from(1);
        }
    };
    match result {
        Ok((adapter, out)) => {
            // `run` writes non-indexed arguments; an indexed draw has the same four.
            let (vertex_count, instance_count, first_vertex, first_instance) = match out.indirect {
                DrawArgs::NonIndexed(a) => (
                    a.vertex_count,
                    a.instance_count,
                    a.first_vertex,
                    a.first_instance,
                ),
                DrawArgs::Indexed(a) => (
                    a.index_count,
                    a.instance_count,
                    a.first_index,
                    a.first_instance,
                ),
            };
            // Streamed: the indices go out as they are read, never held as text.
            write_out(|w| {
                write!(
                    w,
                    "{{\"method\":{},\"adapter\":{},\"count\":{},\"indices\":[",
                    json_string(args.method.name()),
                    json_string(&adapter),
                    out.count
                )?;
                for (k, index) in out.indices.iter().enumerate() {
                    if k > 0 {
                        w.write_all(b",")?;
                    }
                    write!(w, "{index}")?;
                }
                writeln!(
                    w,
                    "],\"indirect\":{{\"vertex_count\":{vertex_count},\"instance_count\":{instance_count},\"first_vertex\":{first_vertex},\"first_instance\":{first_instance}}}}}"
                )
            })
        }
        Err(e) => {
            eprintln!(
                "compact: {}",
                compaction_playground::cli::escaped(&e.to_string())
            );
            // Unreadable input, or more flags than the device takes, is bad input.
            let bad_input = matches!(
                e,
                Error::Parse(_)
                    | Error::BadToken { .. }
                    | Error::TooMany { .. }
                    | Error::Compaction(wgpu_compaction::Error::TooLarge { .. })
            );
            ExitCode::from(if bad_input { 2 } else { 1 })
        }
    }
}

/// Writes through `body` into a buffered stdout: a reader that went away
/// (`| head`) ends the program quietly; any other failure (a full disk) is said.
fn write_out(body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> ExitCode {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match body(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("compact: cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}
