//! CPU mirror of `shaders/segment_args.wgsl`: one draw record per segment, from
//! the sorted indices of an order-keeping compaction.

use crate::output::{DrawArgs, Segment};

/// The visible objects before object `object` among the sorted `indices` (each
/// with `index_base` added): the first slot whose object is at or past it.
fn first_slot_at(indices: &[u32], index_base: u32, object: u32) -> u32 {
    indices.partition_point(|&i| i.wrapping_sub(index_base) < object) as u32
}

/// The records (`own`'s kind, its first instance added to each segment's) and the
/// draw count (one past the last segment with a visible object), for `indices`
/// compacted from the first `live` flags.
pub fn segment_args(
    indices: &[u32],
    index_base: u32,
    live: u32,
    segments: &[Segment],
    own: DrawArgs,
) -> (Vec<DrawArgs>, u32) {
    let mut draw_count = 0;
    let records = segments
        .iter()
        .enumerate()
        .map(|(s, segment)| {
            let start = segment.first_object.min(live);
            let end = segments
                .get(s + 1)
                .map_or(live, |next| next.first_object.clamp(start, live));
            let first = first_slot_at(indices, index_base, start);
            let instances = first_slot_at(indices, index_base, end) - first;
            if instances > 0 {
                draw_count = s as u32 + 1;
            }
            match own {
                DrawArgs::Indexed(args) => DrawArgs::Indexed(crate::IndexedIndirectArgs {
                    index_count: segment.index_count,
                    instance_count: instances,
                    first_index: segment.first_index,
                    base_vertex: segment.base_vertex,
                    first_instance: args.first_instance.wrapping_add(first),
                }),
                DrawArgs::NonIndexed(args) => DrawArgs::NonIndexed(crate::IndirectArgs {
                    vertex_count: segment.index_count,
                    instance_count: instances,
                    first_vertex: segment.first_index,
                    first_instance: args.first_instance.wrapping_add(first),
                }),
            }
        })
        .collect();
    (records, draw_count)
}
