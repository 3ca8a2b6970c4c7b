//! The public `Compactor` (`create.rs`: its pipelines, the device's limits),
//! per-array `Compaction`s prepared once (`prepare.rs`; `compaction.rs`: what a
//! renderer reads of one), recorded into a caller's encoder every frame
//! (`record.rs`, `slices.rs`) and read back (`results.rs`; `run` does all of it
//! for tests and tools). Rustdoc lists a type's methods file by file in the
//! order of the file names: these are named so that it reads create, prepare,
//! record, results, as a renderer uses them.

mod check;
mod compaction;
mod create;
mod grow;
pub(crate) mod limits;
mod prepare;
mod record;
mod results;
mod slices;
pub(crate) mod trace;

pub use grow::{Dropped, DroppedReadback};
pub use prepare::{BufferAt, CompactionDesc, CullDesc, Input, PayloadDesc, SegmentsDesc};
pub use record::{EncodeOptions, Length};
pub use results::PendingOutput;

use std::sync::Arc;

use crate::gpu::kernel::{words_at, Kernel};
use crate::gpu::pipelines::Pipelines;
use crate::output::DrawArgs;
use crate::Method;

/// The lengths one buffer of a compaction holds for `encode_len`: each call takes
/// the next slot, and a fresh buffer follows the last (the one it replaces lives
/// on until the work that reads it is done), so any number of `encode_len` in one
/// submission each compact their own length.
pub const LENGTH_SLOTS: u32 = 64;

/// One recorded dispatch: a pipeline, its bindings, how many invocations.
struct Dispatch {
    kernel: Arc<Kernel>,
    bind_group: wgpu::BindGroup,
    /// The renderer's resources at @group(1), for a culled tile kernel.
    cull_group: Option<wgpu::BindGroup>,
    invocations: u64,
    /// The scan's block scans: the recursion level (for traces).
    scan_level: Option<usize>,
}

/// An output range: a buffer of the compaction's own (from offset 0), or a range
/// of the caller's.
#[derive(Clone)]
struct Output {
    buffer: wgpu::Buffer,
    offset: u64,
    own: bool,
}

impl Dispatch {
    fn groups(&self) -> crate::gpu::kernel::Groups<'_> {
        (&self.bind_group, self.cull_group.as_ref())
    }
}

impl Output {
    fn own(buffer: wgpu::Buffer) -> Self {
        Self {
            buffer,
            offset: 0,
            own: true,
        }
    }

    fn yours((buffer, offset): BufferAt) -> Self {
        Self {
            buffer: buffer.clone(),
            offset,
            own: false,
        }
    }

    /// Its first `words` u32, as a binding.
    fn binding(&self, words: u64) -> wgpu::BufferBinding<'_> {
        words_at(&self.buffer, self.offset, words)
    }

    fn at(&self) -> BufferAt<'_> {
        (&self.buffer, self.offset)
    }
}

/// The dense copies of the visible objects' payloads.
struct PayloadOut {
    words: u32,
    out: Output,
}

/// The per-segment draw records, then the draw count.
struct SegmentsOut {
    count: u32,
    args: Output,
    /// The renderer's segments (for `Compactor::check_segments`).
    source: (wgpu::Buffer, u64),
    /// Packed records: the unpacked ones (`segment_args` writes them here) and
    /// each packed record's mesh.
    packed: Option<PackedRecords>,
}

/// The buffers of packed segment records (`SegmentsDesc::packed`).
#[derive(Clone)]
struct PackedRecords {
    unpacked: wgpu::Buffer,
    meshes: wgpu::Buffer,
    /// Each mesh's place among the kept records.
    places: wgpu::Buffer,
}

/// The buffers of one level of the recursive scan.
struct ScanLevel {
    len: u64,
    prefix: wgpu::Buffer,
    /// `None` at the top level, whose single block sum goes to the count buffer.
    block_sums: Option<wgpu::Buffer>,
    /// `(STEPS + 1)` snapshots of every block, for traced compactions only.
    trace: Option<wgpu::Buffer>,
}

/// One flags buffer prepared for one method: outputs, scratch and bind groups.
/// Record it with [`Compactor::encode`] every frame.
pub struct Compaction {
    method: Method,
    label: Option<String>,
    capacity: u64,
    /// The visible objects the indices and copies hold (`max_visible`, else the capacity).
    out_capacity: u64,
    input: Input,
    indices: Output,
    count: wgpu::Buffer,
    indirect: Output,
    draw: DrawArgs,
    /// The live length (a uniform the kernels read).
    live: wgpu::Buffer,
    instance_count_to: Option<(wgpu::Buffer, u64)>,
    payload: Option<PayloadOut>,
    segments: Option<SegmentsOut>,
    levels: Vec<ScanLevel>,
    /// `LENGTH_SLOTS` words: each `encode_len`'s length, copied into `live` in the
    /// encoder; replaced when its slots are all taken.
    lengths: std::sync::Mutex<wgpu::Buffer>,
    next_length: std::sync::atomic::AtomicU32,
    /// The look-back's ticket counter and tile states; they carry over from run to
    /// run (the state codes alternate), so they live as long as the compaction.
    tile_states: Option<wgpu::Buffer>,
    /// Tiles of `TILE` flags each tile state covers (two for large bits arrays).
    subtiles: u32,
    /// `PackedScan`'s tile counts, scanned in place into each tile's first slot.
    tile_counts: Option<wgpu::Buffer>,
    /// `LookbackBits` or `PackedScan` prepared from u32 flags: the bits the pass
    /// packs them into.
    packed_bits: Option<wgpu::Buffer>,
    dispatches: Vec<Dispatch>,
    /// Made by the library for one call (`run`, a trace, a benchmark): its buffers are destroyed with it.
    destroy_on_drop: bool,
    /// The `Compactor` that prepared it (its id), and its device.
    compactor: u64,
    device: wgpu::Device,
    /// A slice left a first workgroup in live.z (`encode_slice`): `encode` clears it first.
    slice_base: std::sync::atomic::AtomicBool,
}

impl Drop for Compaction {
    fn drop(&mut self) {
        if self.destroy_on_drop {
            self.destroy_buffers();
        }
    }
}

/// A buffer the library made for one call (an upload inside `run`, a trace):
/// destroyed when dropped, whichever way the call ends.
pub(crate) struct ScratchBuffer(pub wgpu::Buffer);

impl std::ops::Deref for ScratchBuffer {
    type Target = wgpu::Buffer;
    fn deref(&self) -> &wgpu::Buffer {
        &self.0
    }
}

impl Drop for ScratchBuffer {
    fn drop(&mut self) {
        self.0.destroy();
    }
}

/// The compaction methods on one device: their pipelines, compiled on first
/// use (or by [`Compactor::warm_up`]). Cheap to keep; one per device.
pub struct Compactor {
    /// Which Compactor this is: its compactions carry it, so that another one refuses them.
    id: u64,
    device: wgpu::Device,
    queue: wgpu::Queue,
    max_workgroups_per_dimension: u32,
    pipelines: Pipelines,
    /// Bound as the vec4 view of inputs shorter than one vec4 (never read).
    empty_vec4: wgpu::Buffer,
}
