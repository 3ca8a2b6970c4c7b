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
