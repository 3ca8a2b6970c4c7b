//! The benchmark end to end on the test adapter: every method and build timed in
//! rounds, one JSON row each, every output checked against the CPU.

use std::process::Command;

#[test]
fn bench_times_and_checks_every_method_and_build() {
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args([
            "--sizes",
            "5000",
            "--density",
            "0.3",
            "--reps",
            "3",
            "--warmup",
            "1",
        ])
        .args(["--portable", "--unpaired", "--paired-from", "1", "--json"])
        .output()
        .expect("run bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "bench failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
    let has = |method: &str, variant: &str| {
        rows.iter().any(|r| {
            r.contains(&format!("\"method\":\"{method}\""))
                && r.contains(&format!("\"variant\":\"{variant}\""))
        })
    };
    assert!(has("copy_vec4", "-"), "no copy row:\n{stdout}");
    for method in ["atomic", "aggregated", "scan"] {
        assert!(has(method, "-"), "no {method} row:\n{stdout}");
    }
    for variant in [
        "subgroups",
        "portable",
        "subgroups,unpaired",
        "portable,unpaired",
    ] {
        assert!(
            has("lookback", variant),
            "no lookback {variant} row:\n{stdout}"
        );
    }
    for method in ["lookback-bits", "tile-atomic", "packed-scan"] {
        assert!(
            has(method, "portable"),
            "no portable {method} row:\n{stdout}"
        );
    }
    // Every row but the copy is a checked method with a time.
    for row in rows.iter().filter(|r| !r.contains("copy_vec4")) {
        assert!(row.contains("\"check\":\"ok"), "not checked ok: {row}");
        assert!(
            !row.contains("NaN") && !row.contains("inf"),
            "no time: {row}"
        );
    }
}

#[test]
fn bench_fixed_times_a_tile_grid_doing_nothing_and_taking_tickets() {
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["--sizes", "100000", "--reps", "3", "--warmup", "1"])
        .args(["--methods", "tile-atomic", "--fixed", "--json"])
        .output()
        .expect("run bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "bench failed:\n{stdout}");
    for name in ["empty_tiles", "ticket_tiles"] {
        let row = stdout
            .lines()
            .find(|l| l.contains(&format!("\"method\":\"{name}\"")))
            .unwrap_or_else(|| panic!("no {name} row:\n{stdout}"));
        let median: f64 = row
            .split("\"median_us\":")
            .nth(1)
            .and_then(|v| v.split([',', '}']).next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no median in {row}"));
        assert!(median > 0.0 && median.is_finite(), "{name}: {median} µs");
    }
    // Without --fixed, no such rows.
    let plain = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args([
            "--sizes",
            "5000",
            "--reps",
            "1",
            "--warmup",
            "1",
            "--methods",
            "tile-atomic",
            "--json",
        ])
        .output()
        .expect("run bench");
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("empty_tiles"));
}

#[test]
fn bench_without_robustness_runs_every_tile_kernel_exactly_on_its_own_device() {
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args([
            "--sizes",
            "70001",
            "--density",
            "0.4",
            "--reps",
            "2",
            "--warmup",
            "1",
        ])
        .args([
            "--methods",
            "lookback,lookback-bits,tile-atomic,packed-scan",
        ])
        .args(["--no-robustness", "--portable", "--json"])
        .output()
        .expect("run bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench failed: {stderr}\n{stdout}");
    // The header says which device the rows come from.
    assert!(stderr.contains("without robust buffer access"), "{stderr}");
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
    // The copy, then each method from u32 (and from bits) in both builds.
    assert_eq!(rows.len(), 1 + 2 * (1 + 2 + 1 + 2), "{stdout}");
    for row in rows.iter().filter(|r| !r.contains("copy_vec4")) {
        assert!(row.contains("\"check\":\"ok"), "not checked ok: {row}");
    }
}

/// `bench` with `args`, stdout to `stdout`: (exit code, stdout, stderr).
fn bench_with(args: &[&str], stdout: std::process::Stdio) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(args)
        .stdout(stdout)
        .output()
        .expect("run bench");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bench_behaves_like_compact_at_every_boundary() {
    let piped = std::process::Stdio::piped;
    // --help: the usage on stdout, success.
    let (code, out, _) = bench_with(&["--help"], piped());
    assert_eq!(code, Some(0));
    assert!(out.starts_with("usage: bench"), "{out}");
    // A bad option: exit 2, naming the option and its bounds.
    let (code, _, err) = bench_with(&["--reps", "5000"], piped());
    assert_eq!(code, Some(2));
    assert!(err.contains("--reps") && err.contains("2048"), "{err}");
    // Echoed values have their control and bidi characters escaped.
    let (code, _, err) = bench_with(&["--x\u{1b}[31m\u{202e}"], piped());
    assert_eq!(code, Some(2));
    assert!(
        !err.contains('\u{1b}') && !err.contains('\u{202e}') && err.contains("\\u{001b}"),
        "{err}"
    );
    // --source: bounded, and a file that is not WGSL is said, not a panic.
    let (code, _, err) = bench_with(&["--source", "/dev/zero"], piped());
    assert_eq!(code, Some(2));
    assert!(err.contains("more than"), "{err}");
    let bad = std::env::temp_dir().join(format!("bench-not-wgsl-{}.wgsl", std::process::id()));
    std::fs::write(&bad, "this is not WGSL").unwrap();
    let path = bad.to_str().unwrap();
    let (code, _, err) = bench_with(
        &[
            "--sizes",
            "5000",
            "--reps",
            "1",
            "--methods",
            "lookback",
            "--source",
            path,
        ],
        piped(),
    );
    std::fs::remove_file(&bad).ok();
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("does not build") && !err.contains("panicked"),
        "{err}"
    );
    // A full disk: exit 1 with a line.
    if let Ok(full) = std::fs::File::create("/dev/full") {
        let (code, _, err) = bench_with(
            &["--sizes", "5000", "--reps", "1", "--methods", "scan"],
            full.into(),
        );
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains("cannot write the output") && !err.contains("panicked"),
            "{err}"
        );
    }
    // A reader that went away (`| head`): quiet success.
    let mut child = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["--sizes", "5000", "--reps", "1", "--methods", "scan"])
        .stdout(piped())
        .stderr(piped())
        .spawn()
        .expect("run bench");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("bench ends");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
