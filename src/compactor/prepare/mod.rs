//! Setup, once per flags buffer: `prepare` checks what it is given
//! (`refusals.rs`), then builds the buffers and the list of dispatches a
//! compaction records every frame (`builder.rs`), from the renderer's
//! description of it (`desc.rs`).

mod builder;
mod desc;
mod refusals;
#[cfg(feature = "cull")]
mod visible;

pub(super) use builder::live_word;
pub(super) use desc::segment_args_words;
pub use desc::{BufferAt, CompactionDesc, CullDesc, Input, PayloadDesc, SegmentsDesc};

use crate::compactor::{Compaction, Compactor};
use crate::error::Result;
use crate::gpu::catalogue::KernelId;
use crate::gpu::kernel::words;
use crate::gpu::pipelines::Variant;
use crate::output::DrawArgs;
use crate::Method;

use builder::Builder;

impl Compactor {
    /// Allocates the outputs and scratch for compacting the first `len` u32 of
    /// `flags` with `method`, drawing `vertex_count` vertices per instance, and
    /// binds them. Setup: do it once, not per frame. Checks everything it can:
    /// an `Err`, never a panic later.
    pub fn prepare(
        &self,
        flags: &wgpu::Buffer,
        len: u64,
        method: Method,
        vertex_count: u32,
    ) -> Result<Compaction> {
        self.prepare_with(&CompactionDesc {
            draw: DrawArgs::vertices(vertex_count),
            ..CompactionDesc::new(flags, len, method)
        })
    }

    /// `prepare` for [`Method::LookbackBits`] when the flags are already bits:
    /// the first `len` bits of `bits` (bits past `len` are ignored).
    pub fn prepare_bits(
        &self,
        bits: &wgpu::Buffer,
        len: u64,
        vertex_count: u32,
    ) -> Result<Compaction> {
        self.prepare_with(&CompactionDesc {
            input: Input::Bits,
            draw: DrawArgs::vertices(vertex_count),
            ..CompactionDesc::new(bits, len, Method::LookbackBits)
        })
    }

    /// `prepare` with every choice: capacity, offset, bits, indexed arguments,
    /// the caller's output buffers, a payload, segments, labels.
    pub fn prepare_with(&self, desc: &CompactionDesc) -> Result<Compaction> {
        self.prepare_impl(desc, false)
    }

    pub(super) fn prepare_impl(&self, desc: &CompactionDesc, traced: bool) -> Result<Compaction> {
        self.check(desc)?;
        // What wgpu finds wrong (a buffer of another device, a lost device) is an error too.
        crate::gpu::error_scope::scoped_now(&self.device, || self.build(desc, traced))
    }

    fn build(&self, desc: &CompactionDesc, traced: bool) -> Result<Compaction> {
        let mut b = Builder::new(self, desc);
        match desc.method {
            Method::Atomic | Method::Aggregated => b.atomic(),
            Method::Scan => b.scan(traced),
            Method::Lookback | Method::LookbackBits | Method::TileAtomic => b.tiles()?,
            Method::PackedScan => b.packed_scan(),
        }
        // The look-back's last tile and `scan_tiles` write the indirect arguments themselves.
        let own_args = matches!(
            desc.method,
            Method::Lookback | Method::LookbackBits | Method::PackedScan
        );
        if !own_args || desc.capacity == 0 {
            let count = b.out.count.clone();
            let indirect = b.out.indirect.clone();
            let args = indirect.binding(b.out.draw.words());
            b.push(
                KernelId::IndirectArgs,
                Variant::PLAIN,
                &[("count", words(&count, 1)), ("args", args)],
                1,
            );
        }
        b.segment_args();
        Ok(b.out)
    }
}

#[cfg(test)]
mod tests;
