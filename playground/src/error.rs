//! The playground's errors: the library's, and what only the playground meets
//! (no WebGPU, text to parse, JS arguments). `web.rs` turns each into a JS
//! `Error` with the same message and a `kind`.

use thiserror::Error;

/// Everything the playground, the CLI and the page can fail with.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// The library refused or the GPU failed.
    #[error(transparent)]
    Compaction(#[from] wgpu_compaction::Error),
    #[error("WebGPU is not available in this browser: {0}")]
    NoWebGpu(String),
    #[error("no GPU adapter was found: {0}")]
    NoAdapter(String),
    #[error("could not open the GPU device: {0}")]
    Device(String),
    #[error("the GPU device was lost ({0}); open a new one to go on")]
    DeviceLost(String),
    #[error("{}", too_many(*.n, *.max))]
    TooMany { n: Option<u64>, max: u64 },
    #[error("{0}")]
    Parse(String),
    /// A token of typed or pasted flags that is no flag: `at` is its place
    /// among the flags (from 0, as the page's grid counts), `token` as it was
    /// typed (made printable). The message counts tokens from 1, as the CLI's
    /// users read them; the page says it in its own language from the fields.
    #[error("token {} (`{token}`) {}", .at + 1, .why.english())]
    BadToken {
        at: u64,
        token: String,
        why: BadToken,
    },
    /// A JS argument of the wrong type (the wasm boundary checks every one).
    #[error("{0}")]
    Type(String),
    /// A JS number outside what the call takes.
    #[error("{0}")]
    Range(String),
    /// The call's `AbortSignal` fired (checked between its slices of work).
    #[error("aborted: {0}")]
    Aborted(String),
}

pub type Result<T> = std::result::Result<T, Error>;

fn too_many(n: Option<u64>, max: u64) -> String {
    match n {
        Some(n) => format!("{n} flags is more than the {max} that can be compacted here"),
        None => format!("more than {max} flags: that is the most that can be compacted here"),
    }
}

/// What is wrong with a token of flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadToken {
    /// A list's token with a character that is no decimal digit.
    NotDecimal,
    /// A bits token other than 0 or 1.
    NotBit,
    /// More than u32::MAX.
    TooLarge,
    /// Longer (in leading zeros) than any u32 is written.
    TooLong,
}

impl BadToken {
    /// The code the page's messages are keyed by (`editor.token.<code>`).
    pub fn code(self) -> &'static str {
        match self {
            Self::NotDecimal => "not-decimal",
            Self::NotBit => "not-bit",
            Self::TooLarge => "too-large",
            Self::TooLong => "too-long",
        }
    }

    fn english(self) -> &'static str {
        match self {
            Self::NotDecimal => "is not a decimal u32",
            Self::NotBit => "is not 0 or 1",
            Self::TooLarge => "is larger than 4294967295",
            Self::TooLong => "is longer than any u32 is written",
        }
    }
}
