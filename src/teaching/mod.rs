//! For teaching tools, tests and measurement, apart from what a renderer needs:
//! the CPU mirror of every kernel ([`cpu`], the tests' oracle and a page's
//! fallback without WebGPU), every intermediate GPU state of a small run
//! ([`trace_scan`], [`trace_atomic`], [`trace_packed`], [`trace_tiles`] and
//! their [`trace`] types),
//! the WGSL of every kernel as it is compiled ([`shader_sources`]), the kernels'
//! sizes ([`layout`]), readbacks and error scopes, the build knobs of the
//! single-pass kernels ([`LookbackOptions`], for `Compactor::with_options`), and
//! a frustum test for one-pass culling (`frustum`, with the `cull` feature).
//!
//! Outside the crate's semver promise: the playground changes this module with
//! it, and any release may change it (`scripts/public-api.mjs` lists it by name
//! only). A renderer needs none of it.

pub mod cpu;
#[cfg(feature = "cull")]
pub mod frustum;
mod kernel;
mod sources;
pub mod trace;

pub use crate::compactor::trace::{
    check_trace_len, trace_atomic, trace_packed, trace_scan, trace_tiles, MAX_TRACE_FLAGS,
};
pub use crate::gpu::error_scope::scoped;
pub use crate::gpu::options::{LookbackOptions, STAT_WORDS};
pub use crate::gpu::readback::Readback;
pub use crate::layout::UNWRITTEN;
pub use kernel::{
    compile_messages, kernel_facts, probe_buffer, probe_line, set_schedule, take_probe,
    utf16_place, Diagnostic, KernelFacts, KernelOverride, Severity, IN_ORDER, OVERRIDABLE,
    PROBE_COSTS, PROBE_WORDS, SCHEDULE_WORDS,
};
pub use sources::{shader_sources, PipelineSource, ShaderSource};

/// The kernels' sizes, as the WGSL has them.
pub mod layout {
    pub use crate::layout::{
        ATOMIC_WORKGROUP, BLOCK, NO_SLOT, STEPS, TILE, TILE_MAX_FLAGS, WIDE_BITS_SUBTILES,
    };
}
