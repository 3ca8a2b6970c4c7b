//! The GPU side: the catalogue of kernels (each kernel's WGSL and facts, once),
//! their pipelines, and what the compactor shares: the buffer helpers, readback
//! and error scopes.

pub(crate) mod catalogue;
pub mod error_scope;
pub(crate) mod kernel;
pub(crate) mod options;
pub(crate) mod pipelines;
pub mod readback;
mod strip;

#[cfg(test)]
mod tests;
