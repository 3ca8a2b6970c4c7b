//! GPU stream compaction on wgpu: from a buffer of visibility flags (any nonzero
//! value is visible) to the dense list of visible indices, their count and the
//! arguments of an indirect draw, recorded into your own encoder.
//!
//! Seven methods ([`Method`]): the article *Compactar los visibles*' atomic counter
//! (plain and aggregated per workgroup; fast, order varies) and exclusive prefix
//! scan (keeps the order, bit-identical every run), three single-pass ones on
//! tiles of 4096 flags: a decoupled look-back (order kept, one dispatch), the same
//! on one bit per flag, and a tile-atomic (order kept inside a tile); and a
//! reduce-then-scan over bits with no look-back (order kept, the fastest from bits
//! on large arrays).
//!
//! ```no_run
//! # async fn frame(device: &wgpu::Device, queue: &wgpu::Queue, flags: &wgpu::Buffer,
//! #                pass_target: &wgpu::TextureView) -> wgpu_compaction::Result<()> {
//! use wgpu_compaction::{Compactor, CompactionDesc, Method};
//!
//! // Setup, once.
//! let compactor = Compactor::new(device, queue);
//! compactor.warm_up(&[Method::Lookback]);
//! let compaction = compactor.prepare_with(&CompactionDesc::new(flags, 100_000, Method::Lookback))?;
//!
//! // Every frame: culling writes `flags`, then, in the same encoder,
//! let mut encoder = device.create_command_encoder(&Default::default());
//! compactor.encode(&mut encoder, &compaction)?;
//! // ... a render pass that draws `compaction.indirect()` with draw_indirect(…, 0);
//! // its vertex shader reads `visibles[instance_index]` from `compaction.indices()`.
//! queue.submit([encoder.finish()]);
//! # Ok(()) }
//! ```
//!
//! # Requirements
//!
//! - **Features**: none. The look-back kernels use subgroup operations when the
//!   device has `SUBGROUP` and a portable build otherwise.
//! - **Limits**: [`Compactor::required_limits`] gives what each method needs, and
//!   [`Compactor::supports`] / `prepare` check the device against it:
//!
//!   | method | storage buffers per stage | uniform buffers | workgroup storage | invocations |
//!   |---|---|---|---|---|
//!   | `Atomic` | 3 | 1 | 0 B | 64 |
//!   | `Aggregated` | 3 | 1 | 8 B | 64 |
//!   | `Scan` | 3 (4 traced) | 1 | 1 KiB | 256 |
//!   | `Lookback` | 6 | 1 | 4632 B | 128 |
//!   | `LookbackBits` | 6 | 1 | 8 KiB (its packing pass) | 256 |
//!   | `TileAtomic` | 5 | 1 | 4616 B | 128 |
//!   | `PackedScan` | 4 | 1 | 8200 B | 256 |
//!
//!   So the look-back methods need more storage buffers per stage than
//!   `wgpu::Limits::downlevel_defaults()` (4) gives; WebGPU's default (8) is enough.
//!   `PackedScan` keeps the order within the downlevel defaults.
//!   The flags must fit one storage binding (`max_storage_buffer_binding_size`).
//! - **Buffers**: the flags need `STORAGE`, at an offset that is a multiple of
//!   `min_storage_buffer_offset_alignment`; a caller's instance-count target needs
//!   `COPY_DST`; a live-length source (`encode_len_from`) needs `COPY_SRC`. The
//!   compaction's own outputs are `indices()` (`STORAGE | VERTEX | COPY_SRC`),
//!   `count()` and `indirect()` (`STORAGE | INDIRECT | COPY_SRC | COPY_DST`).
//! - **Dependencies**: wgpu with the `wgsl` feature; the backends are yours to choose.
//!
//! Everything a caller can get wrong (usage, sizes, offsets, limits, lengths) is
//! an [`Error`] from `prepare` or `encode_len*`, never a panic.
//!
//! The [`cpu`] module mirrors every kernel on the CPU (the tests' oracle), and
//! [`trace`] reads back every intermediate state of a run, for teaching tools.

#![warn(missing_docs)]

mod compactor;
pub mod cpu;
mod error;
mod gpu;
pub mod layout;
mod method;
mod output;
pub mod sources;
pub mod trace;

pub use compactor::{
    Compaction, CompactionDesc, Compactor, EncodeOptions, Input, Length, PendingOutput,
    LENGTH_SLOTS, MAX_TRACE_FLAGS,
};
pub use error::{Error, Result};
pub use gpu::error_scope::scoped;
pub use gpu::lookback::{LookbackOptions, STAT_WORDS};
pub use gpu::readback::Readback;
pub use method::Method;
pub use output::{fnv1a, CompactionOutput, DrawArgs, IndexedIndirectArgs, IndirectArgs};
pub use sources::{shader_sources, PipelineSource, ShaderSource};

/// The one meaning of a flag in every kernel and mirror: any nonzero value is visible.
pub fn is_visible(flag: u32) -> bool {
    flag != 0
}
