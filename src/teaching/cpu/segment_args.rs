//! CPU mirror of `shaders/segment_args.wgsl`: one draw record per segment, from
//! the sorted indices of an order-keeping compaction (`segment_args`) or from the
//! group slots the look-back tiles wrote (`segment_args_grouped`).

use crate::layout::GROUP;
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
    records(live, segments, own, |object| {
        first_slot_at(indices, index_base, object)
    })
}

/// The group slots of the first `live` flags (shaders/group_slots.wgsl): word g
/// is the slot of flag 32·g, the visible flags before it, for every group of the
/// tiles that hold live flags.
pub fn group_slots(visible: impl Fn(u32) -> bool, live: u32) -> Vec<u32> {
    let tile = crate::layout::TILE as u32;
    let groups = live.div_ceil(tile) * (tile / GROUP as u32);
    let mut slot = 0;
    (0..groups)
        .map(|g| {
            let first = g * GROUP as u32;
            let at = slot;
            slot += (first..(first + GROUP as u32).min(live))
                .filter(|&i| visible(i))
                .count() as u32;
            at
        })
        .collect()
}

/// `segment_args_grouped`: the same records from `group_slots` (as
/// [`group_slots`] gives them) and the flags between a group's first flag and
/// each segment's first object; `count` is the number of visible flags.
pub fn segment_args_grouped(
    visible: impl Fn(u32) -> bool,
    group_slots: &[u32],
    live: u32,
    count: u32,
    segments: &[Segment],
    own: DrawArgs,
) -> (Vec<DrawArgs>, u32) {
    records(live, segments, own, |object| {
        if object >= live {
            return count;
        }
        let first = object - object % GROUP as u32;
        group_slots[(object / GROUP as u32) as usize]
            + (first..object).filter(|&i| visible(i)).count() as u32
    })
}

/// Every segment's record, `slot_at` giving the slot of an object before the live length.
fn records(
    live: u32,
    segments: &[Segment],
    own: DrawArgs,
    slot_at: impl Fn(u32) -> u32,
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
            let first = slot_at(start);
            let instances = slot_at(end) - first;
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

/// CPU mirror of `shaders/pack_records.wgsl`: the records with instances first, in
/// mesh order, then empty records; each packed record's mesh (`u32::MAX` past
/// them); the draw count, how many were kept.
pub fn pack_records(records: &[DrawArgs]) -> (Vec<DrawArgs>, Vec<u32>, u32) {
    let kept: Vec<(usize, DrawArgs)> = records
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, r)| r.instance_count() > 0)
        .collect();
    let empty = |r: &DrawArgs| match r {
        DrawArgs::Indexed(_) => DrawArgs::Indexed(Default::default()),
        DrawArgs::NonIndexed(_) => DrawArgs::NonIndexed(Default::default()),
    };
    let mut packed: Vec<DrawArgs> = kept.iter().map(|&(_, r)| r).collect();
    let mut meshes: Vec<u32> = kept.iter().map(|&(s, _)| s as u32).collect();
    packed.extend(records[kept.len()..].iter().map(empty));
    meshes.resize(records.len(), u32::MAX);
    (packed, meshes, kept.len() as u32)
}
