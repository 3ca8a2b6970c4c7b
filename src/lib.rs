//! GPU stream compaction: from a buffer of visibility flags (any nonzero value is
//! visible) to the dense list of visible indices, its count and indirect-draw
//! arguments, by the three methods of the article "Compactar los visibles".
//!
//! - [`Compactor`] creates the pipelines; [`Compactor::prepare`] binds one flags
//!   buffer; [`Compactor::encode`] records the work into your encoder.
//! - [`Compactor::run`] does it all and reads the result back.
//! - [`cpu`] mirrors every kernel on the CPU: the tests' oracle and the page's
//!   fallback without WebGPU.

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod compactor;
pub mod cpu;
pub mod error;
pub mod flags;
pub mod gpu;
pub mod output;
pub mod trace;
#[cfg(target_arch = "wasm32")]
mod web;

pub use compactor::{Compaction, Compactor, Method, MAX_TRACE_FLAGS};
pub use error::{Error, Result};
pub use gpu::lookback::LookbackOptions;
pub use gpu::GpuContext;
pub use output::{CompactionOutput, IndirectArgs};
pub use trace::{
    AtomicTrace, ChainLink, ChainSeen, ScanLevelTrace, ScanTrace, TileChain, TileSchedule,
    TileStatus, TileTrace, TileTraceEntry, NO_SLOT,
};
