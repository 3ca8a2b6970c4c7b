//! The crate's one error type. `web.rs` turns it into a `JsError` with the same message.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    #[error("WebGPU is not available in this browser: {0}")]
    NoWebGpu(String),
    #[error("no GPU adapter was found: {0}")]
    NoAdapter(String),
    #[error("could not open the GPU device: {0}")]
    Device(String),
    #[error(
        "{n} flags need {bytes} bytes in one storage binding, but this device allows at most \
         {limit} bytes (max_storage_buffer_binding_size), i.e. {max_flags} flags"
    )]
    TooLarge {
        n: u64,
        bytes: u64,
        limit: u64,
        max_flags: u64,
    },
    #[error("{}", too_many(*.n, *.max))]
    TooMany { n: Option<u64>, max: u64 },
    #[error(
        "a trace is for arrays a person can read: at most {max} flags, but there are {n}; \
         run the method without a trace instead"
    )]
    TraceTooLarge { n: usize, max: usize },
    #[error(
        "the method `{0}` does not run on tiles; tile traces are for lookback, lookback-bits \
         and tile-atomic"
    )]
    NotTiled(&'static str),
    #[error("the method `{method}` needs the adapter feature {feature}, which this GPU lacks")]
    MissingFeature {
        method: &'static str,
        feature: &'static str,
    },
    #[error("the GPU device was lost ({0}); open a new one to go on")]
    DeviceLost(String),
    #[error("reading the result back from the GPU failed: {0}")]
    Readback(String),
    #[error("the GPU reported an error: {0}")]
    Gpu(String),
    #[error("unknown method `{0}`; expected one of: {1}")]
    UnknownMethod(String, String),
    #[error("{0}")]
    Parse(String),
    /// A JS argument of the wrong type (the wasm boundary checks every one).
    #[error("{0}")]
    Type(String),
    /// A JS number outside what the call takes.
    #[error("{0}")]
    Range(String),
}

pub type Result<T> = std::result::Result<T, Error>;

fn too_many(n: Option<u64>, max: u64) -> String {
    match n {
        Some(n) => format!("{n} flags is more than the {max} that can be compacted here"),
        None => format!("more than {max} flags: that is the most that can be compacted here"),
    }
}
