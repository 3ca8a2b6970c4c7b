//! The `compact` command line: JSON on success; exit 2, one stderr line and an
//! empty stdout on bad input.

use std::io::Write;
use std::process::{Command, Stdio};

fn compact(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_compact"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn compact");
    // A compact that rejects its arguments exits without reading stdin: a broken
    // pipe here is that, not a failure.
    let written = child.stdin.take().expect("stdin").write_all(stdin);
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write: {e}");
    }
    let out = child.wait_with_output().expect("wait");
    let stderr: String = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| !l.contains("XDG_RUNTIME_DIR"))
        .collect::<Vec<_>>()
        .join("\n");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

#[test]
fn compacts_the_article_example_with_every_method() {
    for method in ["atomic", "aggregated", "scan"] {
        let (code, stdout, stderr) = compact(&["--method", method], b"1 0 0 1 1 0 1 0 0 1\n");
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.starts_with(&format!("{{\"method\":\"{method}\",\"adapter\":")),
            "{stdout}"
        );
        assert!(stdout.contains("\"count\":5,"), "{stdout}");
        assert!(
            stdout.contains("\"indirect\":{\"vertex_count\":6,\"instance_count\":5,\"first_vertex\":0,\"first_instance\":0}"),
            "{stdout}"
        );
        if method == "scan" {
            assert!(stdout.contains("\"indices\":[0,3,4,6,9]"), "{stdout}");
        }
    }
}

#[test]
fn reads_bits_and_u32le_from_a_file() {
    let (code, stdout, _) = compact(&["--flags-format", "bits"], b"1001 1010 01");
    assert_eq!(code, 0);
    assert!(stdout.contains("\"indices\":[0,3,4,6,9]"), "{stdout}");
    let path = std::env::temp_dir().join(format!("compact-cli-{}.bin", std::process::id()));
    let words: Vec<u8> = [0u32, 7, 0, u32::MAX]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    std::fs::write(&path, words).expect("write");
    let (code, stdout, _) = compact(
        &["--flags-format=u32le", "--input", path.to_str().unwrap()],
        b"",
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, 0);
    assert!(stdout.contains("\"indices\":[1,3]"), "{stdout}");
}

#[test]
fn bad_input_exits_2_with_one_line_and_no_stdout() {
    let cases: &[(&[&str], &[u8], &str)] = &[
        (&[], b"1 0 x 1", "token 3"),
        (&["--flags-format", "bits"], b"10a", "token 3"),
        (&["--flags-format", "u32le"], b"\x01\x00\x00", "3 bytes"),
        (&["--method", "magic"], b"1", "unknown method"),
        (&["--input", "/nonexistent/flags.txt"], b"", "cannot read"),
        (&["--bogus"], b"", "unknown argument"),
    ];
    for (args, stdin, needle) in cases {
        let (code, stdout, stderr) = compact(args, stdin);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: stdout {stdout:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr:?}");
        assert!(
            stderr.contains(needle),
            "{args:?}: {stderr:?} lacks {needle:?}"
        );
    }
}

#[test]
fn signs_and_control_characters_are_refused_and_escaped() {
    for (stdin, needle) in [(&b"1 +5"[..], "token 2"), (&b"1 \x1b[31m"[..], "\\u{1b}")] {
        let (code, stdout, stderr) = compact(&[], stdin);
        assert_eq!(code, 2, "{stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(needle), "{stderr:?}");
        assert!(
            !stderr.contains('\x1b'),
            "a raw control byte reached the terminal: {stderr:?}"
        );
    }
}

#[test]
fn endless_input_is_refused_without_reading_it_all() {
    // /dev/zero never ends: list and bits stop at the first byte, u32le at the
    // device's limit plus one word, all with exit code 2.
    for (format, needle) in [
        ("list", "token 1"),
        ("bits", "token 1"),
        ("u32le", "more than"),
    ] {
        let start = std::time::Instant::now();
        let (code, stdout, stderr) =
            compact(&["--flags-format", format, "--input", "/dev/zero"], b"");
        assert_eq!(code, 2, "{format}: {stderr}");
        assert!(stdout.is_empty());
        assert!(stderr.contains(needle), "{format}: {stderr:?}");
        assert!(
            start.elapsed().as_secs() < 60,
            "{format}: took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_closed_stdout_ends_quietly_and_a_full_one_is_said() {
    // The reader goes away after 20 bytes (`compact … | head -c 20`).
    let input: Vec<u8> = "1 0 ".repeat(200_000).into_bytes();
    let path = std::env::temp_dir().join(format!("compact-pipe-{}.txt", std::process::id()));
    std::fs::write(&path, &input).expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_compact"))
        .args(["--input", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn compact");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 20];
    std::io::Read::read_exact(&mut stdout, &mut first).expect("20 bytes");
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );

    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_compact"))
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().expect("stdin").write_all(b"1 0 1")?;
            child.wait_with_output()
        })
        .expect("run compact");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot write the output") && stderr.contains("No space left"),
        "{stderr}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_closed_stdout_is_said() {
    // `compact >&-`: Rust's start-up would put /dev/null there and the result would go nowhere.
    let out = Command::new("sh")
        .args(["-c", "echo 1 0 1 | \"$0\" >&-"])
        .arg(env!("CARGO_BIN_EXE_compact"))
        .stderr(Stdio::piped())
        .output()
        .expect("run compact through sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("standard output is closed"), "{stderr}");
}

#[test]
#[cfg(target_os = "linux")]
fn a_closed_stdin_is_said_and_a_closed_stdout_fails_bench_and_registers() {
    // `compact <&-`: Rust's start-up would read /dev/null there, a count of 0.
    let out = Command::new("sh")
        .args(["-c", "\"$0\" <&-"])
        .arg(env!("CARGO_BIN_EXE_compact"))
        .output()
        .expect("run compact through sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(stderr.contains("standard input is closed"), "{stderr}");
    for bin in [env!("CARGO_BIN_EXE_bench"), env!("CARGO_BIN_EXE_registers")] {
        let out = Command::new("sh")
            .args(["-c", "\"$0\" --help >&-"])
            .arg(bin)
            .output()
            .expect("run through sh");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{bin}: {stderr}");
        assert!(
            stderr.contains("standard output is closed"),
            "{bin}: {stderr}"
        );
    }
}

#[test]
fn a_byte_order_mark_opens_the_input_quietly() {
    let (code, stdout, stderr) = compact(&["--method", "scan"], "\u{feff}1,0,1".as_bytes());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"count\":2"), "{stdout}");
}

#[test]
fn a_file_name_with_control_characters_is_escaped_in_the_error() {
    let (code, stdout, stderr) = compact(&["--input", "/nonexistent/a\u{1b}[31m\u{202e}b"], b"");
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(stderr.contains("\\u{001b}[31m\\u{202e}b"), "{stderr:?}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{202e}'),
        "{stderr:?}"
    );
}

#[test]
fn a_driver_without_memory_is_said_in_one_line_not_a_panic() {
    // 200 000 KiB of address space: lavapipe's device fails inside wgpu-hal (an
    // unwrapped ERROR_OUT_OF_HOST_MEMORY). A driver that fits answers as usual.
    let out = Command::new("sh")
        .args(["-c", "ulimit -v 200000 && exec \"$0\" --method scan"])
        .arg(env!("CARGO_BIN_EXE_compact"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            let _ = child.stdin.take().expect("stdin").write_all(b"1 0 1");
            child.wait_with_output()
        })
        .expect("run compact under ulimit");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.contains("XDG_RUNTIME_DIR"))
        .collect();
    match out.status.code() {
        Some(0) => assert!(String::from_utf8_lossy(&out.stdout).contains("\"count\":2")),
        Some(1) => {
            assert_eq!(said.len(), 1, "{stderr}");
            assert!(
                said[0].starts_with("compact: the GPU driver failed"),
                "{stderr}"
            );
            assert!(out.stdout.is_empty());
        }
        other => panic!("exit {other:?}: {stderr}"),
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}
