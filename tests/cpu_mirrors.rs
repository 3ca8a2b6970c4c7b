//! The CPU mirrors are the oracle, so they are checked against plain
//! computations here, independently of the GPU.

mod common;

use wgpu_compaction::teaching::cpu;
use wgpu_compaction::{DrawArgs, Method};

fn plain(flags: &[u32]) -> Vec<u32> {
    (0..flags.len() as u32)
        .filter(|&i| flags[i as usize] != 0)
        .collect()
}

#[test]
fn every_mirror_compacts() {
    for n in [0usize, 1, 63, 64, 65, 256, 257, 65_537, 70_000] {
        let f = common::random(n, 0.4, n as u64);
        assert_eq!(cpu::atomic_counter(&f), plain(&f), "n={n}");
        assert_eq!(cpu::atomic_aggregated(&f), plain(&f), "n={n}");
        assert_eq!(cpu::trace_scan(&f).indices, plain(&f), "n={n}");
        for method in Method::ALL {
            let mut got = cpu::compact(&f, method, DrawArgs::vertices(6)).indices;
            got.sort_unstable();
            assert_eq!(got, plain(&f), "{method} n={n}");
        }
    }
}

#[test]
fn aggregated_keeps_each_workgroup_contiguous_in_any_schedule() {
    let f = common::random(64 * 5 + 7, 0.5, 1);
    let out = cpu::atomic_aggregated::atomic_aggregated_scheduled(&f, [3, 0, 5, 1, 4, 2]);
    let mut sorted = out.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, plain(&f));
    // Group 3's indices come first, in order.
    let group3: Vec<u32> = plain(&f).into_iter().filter(|i| i / 64 == 3).collect();
    assert_eq!(&out[..group3.len()], &group3[..]);
}

#[test]
fn scan_levels_recurse_until_one_block() {
    assert_eq!(cpu::scan_level_lengths(0), Vec::<usize>::new());
    assert_eq!(cpu::scan_level_lengths(256), vec![256]);
    assert_eq!(cpu::scan_level_lengths(257), vec![257, 2]);
    assert_eq!(cpu::scan_level_lengths(100_000), vec![100_000, 391, 2]);
    assert_eq!(cpu::scan_level_lengths(1 << 24), vec![1 << 24, 65_536, 256]);
    assert_eq!(
        cpu::scan_level_lengths((1 << 24) + 1),
        vec![(1 << 24) + 1, 65_537, 257, 2]
    );
}

#[test]
fn the_article_example_step_by_step() {
    let trace = cpu::trace_scan(&common::ARTICLE_EXAMPLE);
    // flag:      1 0 0 1 1 0 1 0 0 1
    // exclusive: 0 1 1 1 2 3 3 4 4 4   total = 5
    assert_eq!(trace.prefix(), &[0, 1, 1, 1, 2, 3, 3, 4, 4, 4]);
    assert_eq!(trace.count, 5);
    assert_eq!(trace.indices, vec![0, 3, 4, 6, 9]);
    assert_eq!(trace.levels[0].steps[1], vec![1, 1, 0, 1, 2, 1, 1, 1, 0, 1]);
}

/// `segment_args_grouped` (the group slots and the flags after them) gives the
/// records that the search over the indices gives, for every live length.
#[test]
fn grouped_segment_records_are_the_searched_ones() {
    for (k, n) in [0u32, 1, 31, 32, 33, 4096, 4097, 20_000]
        .into_iter()
        .enumerate()
    {
        let flags = common::random(n as usize, [0.5, 0.05, 1.0, 0.0][k % 4], 7 + k as u64);
        let starts = [0, 1, 31, 32, 33, 100, 4095, 4096, 4100, 19_999, 25_000];
        let segments: Vec<wgpu_compaction::Segment> = starts
            .iter()
            .map(|&first_object| wgpu_compaction::Segment {
                first_object,
                index_count: 3,
                first_index: 0,
                base_vertex: 0,
            })
            .collect();
        for live in [n, n / 2, n.saturating_sub(1)] {
            let indices = plain(&flags[..live as usize]);
            let visible = |i: u32| flags[i as usize] != 0;
            let slots = cpu::group_slots(visible, live);
            assert_eq!(
                slots.len() as u32,
                live.div_ceil(4096) * 128,
                "n {n} live {live}"
            );
            for (g, &slot) in slots.iter().enumerate() {
                let first = (g as u32 * 32).min(live);
                assert_eq!(slot, indices.partition_point(|&i| i < first) as u32);
            }
            for own in [DrawArgs::vertices(3), DrawArgs::indexed(3)] {
                let searched = cpu::segment_args(&indices, 0, live, &segments, own);
                let grouped = cpu::segment_args_grouped(
                    visible,
                    &slots,
                    live,
                    indices.len() as u32,
                    &segments,
                    own,
                );
                assert_eq!(grouped, searched, "n {n} live {live}");
                assert!(searched.1 > 0 || indices.is_empty(), "n {n} live {live}");
            }
        }
    }
}
