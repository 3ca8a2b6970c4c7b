//! What every compaction method produces, on the CPU side.

use bytemuck::{Pod, Zeroable};

/// The arguments of a non-indexed indirect draw, laid out exactly as
/// `wgpu::util::DrawIndirectArgs` (and WebGPU's `drawIndirect`) expect them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct IndirectArgs {
    pub vertex_count: u32,
    pub instance_count: u32,
    pub first_vertex: u32,
    pub first_instance: u32,
}

const _: () = assert!(std::mem::size_of::<IndirectArgs>() == 16);

/// The dense list of visible indices, its length and the indirect-draw arguments,
/// all as read back from the GPU (or computed by the CPU mirror).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompactionOutput {
    pub indices: Vec<u32>,
    pub count: u32,
    pub indirect: IndirectArgs,
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
