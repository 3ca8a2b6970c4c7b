//! One file per GPU kernel (pipeline and bindings for `shaders/<kernel>.wgsl`),
//! plus the device context and readback.

pub mod add_offsets;
pub mod atomic_aggregated;
pub mod atomic_counter;
pub mod context;
pub mod copy_vec4;
pub mod draw_instances;
pub mod error_scope;
pub mod indirect_args;
pub mod kernel;
pub mod lookback;
pub mod pack_bits;
pub mod readback;
pub mod scan_block;
pub mod scatter;

pub use context::GpuContext;
pub use kernel::Kernel;
