//! `compact` streams its JSON: its peak memory grows with the flags and the
//! indices it holds as words, not with the text it writes (one `String` per
//! index took 73 bytes an index, 680 MB for 2^23 visible flags).
//! Its own test binary: `getrusage(RUSAGE_CHILDREN)` then sees only these children.

use std::process::{Command, Stdio};

/// The peak resident size, in bytes, of the largest child waited for so far.
fn children_peak() -> u64 {
    // struct rusage on Linux: two timevals (4 longs), then ru_maxrss in KiB.
    let mut usage = [0i64; 18];
    extern "C" {
        fn getrusage(who: i32, usage: *mut i64) -> i32;
    }
    const RUSAGE_CHILDREN: i32 = -1;
    // SAFETY: `usage` is larger than struct rusage (18 longs on 64-bit Linux).
    assert_eq!(unsafe { getrusage(RUSAGE_CHILDREN, usage.as_mut_ptr()) }, 0);
    usage[4] as u64 * 1024
}

/// Runs compact on `n` visible flags (a u32le file); the bytes it wrote.
fn compact_visible(n: usize) -> u64 {
    let path = std::env::temp_dir().join(format!("compact-memory-{}-{n}.u32", std::process::id()));
    std::fs::write(&path, 1u32.to_le_bytes().repeat(n)).expect("write the flags");
    let out = Command::new(env!("CARGO_BIN_EXE_compact"))
        .args(["--method", "lookback", "--flags-format", "u32le", "--input"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .output()
        .expect("run compact");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.contains(&format!("\"count\":{n},")),
        "{}",
        &text[..text.len().min(200)]
    );
    assert!(text.contains(&format!(",{}],", n - 1)));
    text.len() as u64
}

#[test]
#[cfg(target_os = "linux")]
fn compact_streams_its_json() {
    compact_visible(16);
    let baseline = children_peak();
    let n = 1 << 23;
    let written = compact_visible(n);
    let grown = children_peak().saturating_sub(baseline);
    eprintln!(
        "compact: {n} visible, {written} bytes written, peak {} MB over a 16-flag run",
        grown >> 20
    );
    assert!(
        grown < 40 * n as u64,
        "compact grew {} MB for {n} indices",
        grown >> 20
    );
}
