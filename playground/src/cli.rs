//! What the `compact`, `bench` and `registers` binaries share: their arguments
//! (a non-UTF-8 one refused, not a panic), options (`--name value` or
//! `--name=value`, in any order), bounded `--source` files, what a failed write
//! to stdout means, and JSON strings.

/// The options left to read.
pub struct Options<I: Iterator<Item = String>> {
    rest: I,
}

impl<I: Iterator<Item = String>> Options<I> {
    /// Options from the arguments after the program name.
    pub fn new(rest: I) -> Self {
        Self { rest }
    }

    /// The next option's name, and its value if it came as `--name=value`.
    pub fn next_option(&mut self) -> Option<(String, Option<String>)> {
        let arg = self.rest.next()?;
        Some(match arg.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (arg, None),
        })
    }

    /// The value of option `name`: `inline` (from `--name=value`) or the next
    /// argument. `usage` ends the error when there is none.
    pub fn value(
        &mut self,
        name: &str,
        inline: Option<String>,
        usage: &str,
    ) -> Result<String, String> {
        inline
            .or_else(|| self.rest.next())
            .ok_or_else(|| format!("{name} needs a value; {usage}"))
    }
}

/// `s` as a JSON string, quotes, backslashes and control characters escaped.
pub fn json_string(s: &str) -> String {
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

/// The longest message shown on a terminal (a path or a value may be anything).
const SHOWN_CHARS: usize = 400;

/// `s` fit to print in a message: control, bidirectional-override and
/// invisible characters escaped as `\u{…}` (a file name cannot rewrite the line around
/// it), cut to `SHOWN_CHARS`.
pub fn shown(s: &str) -> String {
    escape(s, SHOWN_CHARS)
}

/// `s` with its control and bidirectional-override characters escaped, whole:
/// for the library's and the GPU's messages, which quote file names and values.
pub fn escaped(s: &str) -> String {
    escape(s, usize::MAX)
}

fn escape(s: &str, max_chars: usize) -> String {
    // Bidirectional overrides, and the invisible ones (zero-width, a byte-order mark) a message would show as nothing.
    let bidi = |c: char| matches!(c, '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}');
    let mut out = String::new();
    for (k, c) in s.chars().enumerate() {
        if k == max_chars {
            out.push('…');
            break;
        }
        if c.is_control() || bidi(c) {
            out.push_str(&format!("\\u{{{:04x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The program's arguments after its name. One that is not UTF-8 is refused
/// by its place (std's `args()` would panic on it).
pub fn args() -> Result<Vec<String>, String> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(k, arg)| {
            arg.into_string().map_err(|arg| {
                format!(
                    "argument {} is not UTF-8: {}",
                    k + 1,
                    escaped(&arg.to_string_lossy())
                )
            })
        })
        .collect()
}

/// The most bytes a `--source` file holds: a WGSL module is a few dozen KiB.
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;

/// A `--source` file: at most `MAX_SOURCE_BYTES` read (`/dev/zero` ends at
/// once), UTF-8.
pub fn read_source(path: &str) -> Result<String, String> {
    use std::io::Read;
    let shown = escaped(path);
    let file = std::fs::File::open(path).map_err(|e| format!("--source {shown}: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("--source {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(format!(
            "--source {shown}: more than {MAX_SOURCE_BYTES} bytes: not a WGSL file"
        ));
    }
    String::from_utf8(bytes).map_err(|_| format!("--source {shown}: not UTF-8 text"))
}

/// Which standard streams (0 stdin, 1 stdout) the process started with closed
/// (`compact <&-`, `bench >&-`). Rust's start-up puts /dev/null in a closed
/// one's place before `main`: a closed stdin would read as empty (a count of
/// 0) and every write to a closed stdout would succeed into nothing. So each
/// binary records them before `main` with [`crate::record_closed_streams!`].
static CLOSED_AT_START: [std::sync::atomic::AtomicBool; 2] = [
    std::sync::atomic::AtomicBool::new(false),
    std::sync::atomic::AtomicBool::new(false),
];

/// Records that standard stream `fd` (0 or 1) was closed when the process
/// started; called before `main` by [`crate::record_closed_streams!`].
pub fn record_closed(fd: usize) {
    if let Some(flag) = CLOSED_AT_START.get(fd) {
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether standard stream `fd` (0 stdin, 1 stdout) was closed when the
/// process started (always false where it cannot be told, off Linux).
pub fn closed_at_start(fd: usize) -> bool {
    CLOSED_AT_START
        .get(fd)
        .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
}

/// Expanded once in each binary (so that the linker keeps it): a function in
/// `.init_array`, run before Rust's start-up, that asks whether descriptors 0
/// and 1 are open and records the closed ones ([`cli::closed_at_start`]).
#[macro_export]
macro_rules! record_closed_streams {
    () => {
        #[cfg(target_os = "linux")]
        #[used]
        #[link_section = ".init_array"]
        static RECORD_CLOSED_STREAMS: extern "C" fn() = {
            extern "C" fn record() {
                extern "C" {
                    fn fcntl(fd: i32, cmd: i32, ...) -> i32;
                }
                const F_GETFD: i32 = 1;
                for fd in 0..2 {
                    // SAFETY: F_GETFD only asks for the descriptor's flags; it changes nothing.
                    if unsafe { fcntl(fd, F_GETFD) } < 0 {
                        $crate::cli::record_closed(fd as usize);
                    }
                }
            }
            record
        };
    };
}

/// Stdout failed: a reader that went away (`| head`) ends the run quietly;
/// anything else (a full disk) is said, exit 1.
pub fn write_failed(program: &str, e: &std::io::Error) -> std::process::ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return std::process::ExitCode::SUCCESS;
    }
    eprintln!("{program}: cannot write the output: {e}");
    std::process::ExitCode::FAILURE
}

/// `f()`, or the message of a panic inside it: wgpu's own, where a driver
/// refuses memory (`ulimit -v`: `ERROR_OUT_OF_HOST_MEMORY` unwrapped in
/// wgpu-hal), said by the caller in one line instead of a backtrace.
pub fn without_panics<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    use std::sync::{Arc, Mutex};
    let message = Arc::new(Mutex::new(String::new()));
    let kept = Arc::clone(&message);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        *kept.lock().unwrap_or_else(|e| e.into_inner()) = text;
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result.map_err(|_| message.lock().unwrap_or_else(|e| e.into_inner()).clone())
}

#[cfg(test)]
mod tests {
    use super::{escaped, shown, Options, SHOWN_CHARS};

    #[test]
    fn shown_escapes_control_and_bidi_characters_and_cuts() {
        assert_eq!(shown("a\u{1b}[31mb\u{202e}c"), "a\\u{001b}[31mb\\u{202e}c");
        assert_eq!(shown(&"x".repeat(1000)).chars().count(), SHOWN_CHARS + 1);
        assert_eq!(shown("plain"), "plain");
        assert_eq!(shown("\u{feff}1\u{200b}"), "\\u{feff}1\\u{200b}");
        let long = format!("{}\u{202e}", "y".repeat(1000));
        assert_eq!(escaped(&long).chars().count(), 1000 + 8);
    }

    #[test]
    fn takes_inline_and_separate_values() {
        let args = ["--a=1", "--b", "2", "--c"].map(String::from);
        let mut options = Options::new(args.into_iter());
        let (name, inline) = options.next_option().expect("--a");
        assert_eq!((name.as_str(), inline.as_deref()), ("--a", Some("1")));
        assert_eq!(options.value(&name, inline, "u").as_deref(), Ok("1"));
        let (name, inline) = options.next_option().expect("--b");
        assert_eq!(options.value(&name, inline, "u").as_deref(), Ok("2"));
        let (name, inline) = options.next_option().expect("--c");
        assert_eq!(
            options.value(&name, inline, "usage: x"),
            Err("--c needs a value; usage: x".to_string())
        );
        assert!(options.next_option().is_none());
    }
}
