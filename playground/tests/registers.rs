//! `registers` on the test adapter: every pipeline of every method compiled by the
//! driver from the SPIR-V it writes (lavapipe gives no statistics, so each line
//! says `compiled`; a driver with VK_KHR_pipeline_executable_properties adds its
//! numbers), a source's tile kernels listed under its name, and refusals said.

use std::process::{Command, Output};

fn registers(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_registers"))
        .args(args)
        .output()
        .expect("run registers")
}

/// The tile pipelines the subgroups build makes (`lookback_bits` also with two
/// tiles a state, as large arrays get it).
const TILE_PIPELINES: [&str; 6] = [
    "tiles:subgroups/lookback:subgroups ",
    "tiles:subgroups/lookback_paired:subgroups ",
    "tiles:subgroups/lookback_bits:subgroups ",
    "tiles:subgroups/lookback_bits:subgroups:2tiles ",
    "tiles:subgroups/tile_atomic:subgroups ",
    "tiles:subgroups/tile_scatter_bits:subgroups ",
];

fn compiled(line: &str) -> bool {
    let words = line.split("  ").nth(1).unwrap_or("");
    words == "compiled" || words.split(' ').all(|w| w.contains('='))
}

#[test]
fn every_pipeline_compiles_and_a_source_is_listed_by_name() {
    let dir = std::env::temp_dir().join(format!("registers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A source: the tile kernels as shipped, their files joined as the module does.
    let shipped = ["tiles", "lookback", "tile_atomic", "tile_scatter_bits"]
        .map(|f| {
            std::fs::read_to_string(format!(
                "{}/../shaders/{f}.wgsl",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        })
        .join("\n");
    let source = dir.join("same.wgsl");
    std::fs::write(&source, shipped).unwrap();
    let out = registers(&["--source", source.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "registers failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().skip(1).collect();
    assert!(stdout.starts_with("registers: "), "no header:\n{stdout}");
    for name in [
        "atomic_counter/atomic_counter ",
        "scan_block/scan_block:flags ",
        "pack_bits/pack_bits ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(name) && compiled(l)),
            "{name}missing:\n{stdout}"
        );
    }
    for name in TILE_PIPELINES {
        for prefix in ["", &format!("{}: ", source.display())] {
            let want = format!("{prefix}{name}");
            assert!(
                lines.iter().any(|l| l.starts_with(&want) && compiled(l)),
                "{want}missing or not compiled:\n{stdout}"
            );
        }
    }
    // Only the tile kernels are listed again for a source.
    let sourced = lines
        .iter()
        .filter(|l| l.starts_with(&format!("{}: ", source.display())));
    assert!(sourced.clone().all(|l| l.contains(": tiles:")), "{stdout}");
    assert_eq!(sourced.count(), TILE_PIPELINES.len(), "{stdout}");

    // A source that does not compile: said per pipeline, exit 1.
    let broken = dir.join("broken.wgsl");
    std::fs::write(&broken, "fn lookback( {").unwrap();
    let out = registers(&["--source", broken.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("broken.wgsl: tiles") && l.contains("error: ")),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("did not compile"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_portable_build_compiles_and_bad_arguments_are_refused() {
    let out = registers(&["--portable"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for entry in [
        "lookback",
        "lookback_paired",
        "lookback_bits",
        "tile_atomic",
    ] {
        let want = format!("tiles/{entry} ");
        assert!(
            stdout.lines().any(|l| l.starts_with(&want) && compiled(l)),
            "{want}missing:\n{stdout}"
        );
    }
    for args in [
        &["--bogus"][..],
        &["--source"],
        &["--source", "/nonexistent/x.wgsl"],
    ] {
        let out = registers(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("registers: "),
            "{args:?}"
        );
    }
}

#[test]
fn registers_behaves_like_bench_at_every_boundary() {
    use std::os::unix::ffi::OsStrExt;
    use std::process::Stdio;
    // --source is bounded: /dev/zero is refused at once, not read to the end of memory.
    let out = registers(&["--source", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("more than"), "{err}");
    // A reader that went away (`| head`): quiet success, no panic.
    let mut child = Command::new(env!("CARGO_BIN_EXE_registers"))
        .arg("--portable")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run registers");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("registers ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A full disk: exit 1 with a line.
    if let Ok(full) = std::fs::File::create("/dev/full") {
        let out = Command::new(env!("CARGO_BIN_EXE_registers"))
            .arg("--help")
            .stdout(full)
            .output()
            .expect("run registers");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("cannot write the output") && !err.contains("panicked"),
            "{err}"
        );
    }
    // An argument that is not UTF-8 is refused by each CLI, not a panic.
    let bad = std::ffi::OsStr::from_bytes(b"--method=\xff");
    for exe in [
        env!("CARGO_BIN_EXE_registers"),
        env!("CARGO_BIN_EXE_bench"),
        env!("CARGO_BIN_EXE_compact"),
    ] {
        let out = Command::new(exe)
            .arg(bad)
            .stdin(Stdio::null())
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{exe}: {err}");
        assert!(
            err.contains("not UTF-8") && !err.contains("panicked"),
            "{exe}: {err}"
        );
    }
}
