//! The playground, CLI and benchmark of `wgpu-compaction`: what is not the
//! library. The browser page's wasm boundary (`web`, wasm32 only), the device
//! set-up (`context`), flag parsing, presets and URL packing (`flags`), the
//! drawIndirect of the visible instances (`draw_instances`), the command-line
//! options (`cli`), and this crate's errors.

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod context;
pub mod draw_instances;
pub mod error;
pub mod flags;
#[cfg(target_arch = "wasm32")]
mod web;

pub use context::GpuContext;
pub use error::{Error, Result};
