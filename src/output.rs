//! What a compaction writes for a draw, and what reading it back gives.

use bytemuck::{Pod, Zeroable};

/// The arguments of a non-indexed indirect draw, laid out as
/// `wgpu::util::DrawIndirectArgs` (and WebGPU's `drawIndirect`) expect them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct IndirectArgs {
    /// Vertices per instance.
    pub vertex_count: u32,
    /// Instances: the number of visible flags, written on the GPU.
    pub instance_count: u32,
    /// The first vertex.
    pub first_vertex: u32,
    /// The first instance.
    pub first_instance: u32,
}

const _: () = assert!(std::mem::size_of::<IndirectArgs>() == 16);

/// The arguments of an indexed indirect draw, laid out as
/// `wgpu::util::DrawIndexedIndirectArgs` (and WebGPU's `drawIndexedIndirect`)
/// expect them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct IndexedIndirectArgs {
    /// Indices per instance.
    pub index_count: u32,
    /// Instances: the number of visible flags, written on the GPU.
    pub instance_count: u32,
    /// The first index.
    pub first_index: u32,
    /// Added to each index.
    pub base_vertex: i32,
    /// The first instance.
    pub first_instance: u32,
}

const _: () = assert!(std::mem::size_of::<IndexedIndirectArgs>() == 20);

/// One mesh's objects and draw, for a segmented compaction
/// ([`crate::CompactionDesc::segments`]): the objects from `first_object` up to
/// the next segment's (the last segment's: up to the live length) are this
/// mesh's instances. `first_object`s must not decrease (a segment that starts
/// before its predecessor's start is empty to it: its predecessor ends where it
/// starts). For a non-indexed compaction, `index_count` and `first_index` are the
/// vertex count and the first vertex, and `base_vertex` is ignored.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Segment {
    /// The segment's first object, counted as the flags are (from the flags' offset).
    pub first_object: u32,
    /// Indices (or vertices) per instance of the mesh.
    pub index_count: u32,
    /// The mesh's first index (or vertex).
    pub first_index: u32,
    /// Added to each index (indexed draws).
    pub base_vertex: i32,
}

const _: () = assert!(std::mem::size_of::<Segment>() == 16);

impl Segment {
    /// Its u32 words on the GPU.
    pub(crate) const WORDS: u64 = 4;
}

/// Which indirect draw a compaction's arguments are for. At `prepare` it says
/// what to write (`instance_count` is ignored: the GPU writes it); read back, it
/// is what the GPU wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawArgs {
    /// For `draw_indirect`: 16 bytes.
    NonIndexed(IndirectArgs),
    /// For `draw_indexed_indirect`: 20 bytes.
    Indexed(IndexedIndirectArgs),
}

/// No draw: non-indexed, all zero (what an empty [`CompactionOutput`] holds).
impl Default for DrawArgs {
    fn default() -> Self {
        DrawArgs::NonIndexed(IndirectArgs::default())
    }
}

impl DrawArgs {
    /// Non-indexed arguments drawing `vertex_count` vertices per instance.
    pub fn vertices(vertex_count: u32) -> Self {
        DrawArgs::NonIndexed(IndirectArgs {
            vertex_count,
            ..IndirectArgs::default()
        })
    }

    /// Indexed arguments drawing `index_count` indices per instance.
    pub fn indexed(index_count: u32) -> Self {
        DrawArgs::Indexed(IndexedIndirectArgs {
            index_count,
            ..IndexedIndirectArgs::default()
        })
    }

    /// The number of instances (the visible flags, once the GPU wrote it).
    pub fn instance_count(&self) -> u32 {
        match self {
            DrawArgs::NonIndexed(args) => args.instance_count,
            DrawArgs::Indexed(args) => args.instance_count,
        }
    }

    /// The bytes of the indirect buffer.
    pub fn bytes(&self) -> &[u8] {
        match self {
            DrawArgs::NonIndexed(args) => bytemuck::bytes_of(args),
            DrawArgs::Indexed(args) => bytemuck::bytes_of(args),
        }
    }

    /// The same kind of arguments read from `words` (4 or 5 of them).
    pub(crate) fn read(&self, words: &[u32]) -> Self {
        fn fill<T: Pod>(args: &mut T, words: &[u32]) {
            if let Ok(read) = bytemuck::try_pod_read_unaligned(bytemuck::cast_slice(words)) {
                *args = read;
            }
        }
        let mut out = *self;
        match &mut out {
            DrawArgs::NonIndexed(args) => fill(args, words),
            DrawArgs::Indexed(args) => fill(args, words),
        }
        out
    }

    /// This draw's arguments with `instance_count` set.
    pub(crate) fn with_instances(mut self, instances: u32) -> Self {
        match &mut self {
            DrawArgs::NonIndexed(args) => args.instance_count = instances,
            DrawArgs::Indexed(args) => args.instance_count = instances,
        }
        self
    }

    /// The indirect buffer's length in words.
    pub(crate) fn words(&self) -> u64 {
        self.bytes().len() as u64 / 4
    }
}

/// The dense list of visible indices, the count and the indirect-draw arguments,
/// all as read back from the GPU (or computed by the CPU mirror). It may gain
/// fields in a minor release: read it, or make one with `default()` and set
/// its fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompactionOutput {
    /// The visible indices: in order for the order-preserving methods.
    pub indices: Vec<u32>,
    /// The count buffer.
    pub count: u32,
    /// The indirect-args buffer.
    pub indirect: DrawArgs,
    /// The live length this compaction was asked for (word 0 of
    /// [`Compaction::live`](crate::Compaction::live)): past the capacity, the
    /// GPU's count (`encode_len_from`) was clamped to the capacity.
    pub requested: u32,
    /// Visible objects past the compaction's `max_visible`, which were not written
    /// (word 1 of the count buffer, [`Compaction::dropped`](crate::Compaction::dropped)); 0 without one.
    pub dropped: u32,
    /// The payload copies, `count · words` u32 (empty without a payload).
    pub payload: Vec<u32>,
    /// One draw record per segment (empty without segments).
    pub segment_args: Vec<DrawArgs>,
    /// One past the last segment with a visible object (0 without segments); with
    /// packed records, how many records were kept.
    pub draw_count: u32,
    /// Packed records only: the mesh each record draws (`u32::MAX` past the draw
    /// count); empty otherwise.
    pub record_meshes: Vec<u32>,
}

impl CompactionOutput {
    /// FNV-1a over the index buffer: equal for bit-identical outputs.
    pub fn hash(&self) -> u32 {
        fnv1a(&self.indices)
    }
}

/// 32-bit FNV-1a over the little-endian bytes of `words`.
pub fn fnv1a(words: &[u32]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in words.iter().flat_map(|w| w.to_le_bytes()) {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}
