//! One file per GPU kernel (pipeline and bindings for `shaders/<kernel>.wgsl`),
//! plus what they share: the pipeline helper, readback and error scopes.

pub(crate) mod add_offsets;
pub(crate) mod atomic_aggregated;
pub(crate) mod atomic_counter;
pub mod error_scope;
pub(crate) mod indirect_args;
pub(crate) mod kernel;
pub(crate) mod lookback;
pub(crate) mod pack_bits;
pub mod readback;
pub(crate) mod scan_block;
pub(crate) mod scan_tiles;
pub(crate) mod scatter;
pub(crate) mod tile_counts;

#[cfg(test)]
mod tests;
