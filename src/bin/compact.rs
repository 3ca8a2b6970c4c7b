//! `compact --method scan < flags.txt`: compacts flags on the GPU and prints JSON.
//! Bad input: exit code 2 and one line on stderr, nothing on stdout.

use std::io::Read;
use std::process::ExitCode;

use compaction_playground::flags::{self, FlagsFormat};
use compaction_playground::{cli, Compactor, GpuContext, Method};

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
    let mut options = cli::Options::new(std::env::args().skip(1));
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

fn read_input(path: Option<&str>) -> Result<Vec<u8>, String> {
    match path {
        Some(path) => std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}")),
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            Ok(bytes)
        }
    }
}

fn json_list(values: &[u32]) -> String {
    let items: Vec<String> = values.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(","))
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn main() -> ExitCode {
    if std::env::args().skip(1).any(|a| a == "-h" || a == "--help") {
        println!("{}", usage());
        return ExitCode::SUCCESS;
    }
    let prepared = parse_args().and_then(|args| {
        let bytes = read_input(args.input.as_deref())?;
        let flags = flags::parse(&bytes, args.format).map_err(|e| e.to_string())?;
        Ok((args.method, flags))
    });
    let (method, flags) = match prepared {
        Ok(ok) => ok,
        Err(message) => {
            eprintln!("compact: {message}");
            return ExitCode::from(2);
        }
    };
    let result = pollster::block_on(async {
        let gpu = GpuContext::new().await?;
        let compactor = Compactor::new(&gpu.device, &gpu.queue);
        let output = compactor.run(&flags, method).await?;
        Ok::<_, compaction_playground::Error>((gpu.adapter_name(), output))
    });
    match result {
        Ok((adapter, out)) => {
            let args = out.indirect;
            println!(
                "{{\"method\":{},\"adapter\":{},\"count\":{},\"indices\":{},\"indirect\":{{\"vertex_count\":{},\"instance_count\":{},\"first_vertex\":{},\"first_instance\":{}}}}}",
                json_string(method.name()),
                json_string(&adapter),
                out.count,
                json_list(&out.indices),
                args.vertex_count,
                args.instance_count,
                args.first_vertex,
                args.first_instance
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("compact: {e}");
            // Too many flags for the device is bad input too.
            ExitCode::from(
                if matches!(e, compaction_playground::Error::TooLarge { .. }) {
                    2
                } else {
                    1
                },
            )
        }
    }
}
