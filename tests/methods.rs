//! Every article method on the GPU against its CPU mirror, over edge sizes and
//! densities: the scan exactly (order), the atomics as sets with the right count,
//! and the indirect arguments written on the GPU.

mod common;

use common::{compactor, expected_indices, read_words, save_failure, wild_flags, DENSITIES, SIZES};
use wgpu_compaction::teaching::cpu;
use wgpu_compaction::{Compactor, DrawArgs, Method};

fn check(method: Method, flags: &[u32], case: &str) {
    let got = pollster::block_on(compactor().run(flags, method))
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    let oracle = cpu::compact(
        flags,
        method,
        DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
    );
    let expected = expected_indices(flags);
    assert_eq!(
        oracle.indices.len(),
        expected.len(),
        "{case}: CPU mirror count"
    );
    let fail = |what: &str| {
        let path = save_failure(case, flags);
        panic!("{case}: {what} (flags saved to {path})");
    };
    if got.count != oracle.count {
        fail(&format!("count {} != {}", got.count, oracle.count));
    }
    if got.indirect != oracle.indirect {
        fail(&format!(
            "indirect {:?} != {:?}",
            got.indirect, oracle.indirect
        ));
    }
    if method.preserves_order() {
        if got.indices != oracle.indices {
            fail("indices differ from the CPU mirror (order matters)");
        }
    } else {
        let mut sorted = got.indices.clone();
        sorted.sort_unstable();
        if sorted != expected {
            fail("the set of indices differs");
        }
    }
}

fn sweep(method: Method) {
    for &n in &SIZES {
        for &density in &DENSITIES {
            let flags = common::random(n, density, n as u64 ^ density.to_bits());
            check(method, &flags, &format!("{method}-n{n}-d{density}"));
        }
    }
}

#[test]
fn atomic_counter_matches_cpu() {
    sweep(Method::Atomic);
}

#[test]
fn atomic_aggregated_matches_cpu() {
    sweep(Method::Aggregated);
}

#[test]
fn scan_matches_cpu() {
    sweep(Method::Scan);
}

#[test]
fn any_nonzero_flag_is_visible_in_every_method() {
    for method in Method::ALL {
        for &n in &[1usize, 257, 70_000] {
            let flags = wild_flags(n, 0.5, 7 + n as u64);
            check(method, &flags, &format!("{method}-wild-n{n}"));
        }
        let extremes = [2, 0, u32::MAX, 0, 1, 0x8000_0000, 0, 0, 3, 0];
        let out = pollster::block_on(compactor().run(&extremes, method)).expect("runs");
        let mut got = out.indices.clone();
        got.sort_unstable();
        assert_eq!(got, vec![0, 2, 4, 5, 8], "{method}");
        assert_eq!(out.indirect.instance_count(), 5, "{method}");
    }
}

#[test]
fn article_example() {
    for method in Method::ALL {
        let out =
            pollster::block_on(compactor().run(&common::ARTICLE_EXAMPLE, method)).expect("runs");
        let mut got = out.indices.clone();
        if !method.preserves_order() {
            got.sort_unstable();
        }
        assert_eq!(got, vec![0, 3, 4, 6, 9], "{method}");
        assert_eq!(out.count, 5, "{method}");
        assert_eq!(out.indirect.instance_count(), 5, "{method}");
    }
}

#[test]
fn scan_is_bit_identical_over_20_runs() {
    let flags = common::random((1 << 20) + 3, 0.5, 42);
    let first = pollster::block_on(compactor().run(&flags, Method::Scan)).expect("runs");
    for run in 1..20 {
        let again = pollster::block_on(compactor().run(&flags, Method::Scan)).expect("runs");
        assert!(
            again == first,
            "run {run} differs (hash {:08x} vs {:08x})",
            again.hash(),
            first.hash()
        );
    }
}

#[test]
fn prepared_compaction_is_reusable_and_writes_indirect_on_the_gpu() {
    // The renderer path: prepare once, encode twice with new flags in between,
    // and read only the indirect buffer the GPU wrote.
    let compactor = compactor();
    let device = compactor.device();
    let flags_a = common::random(5000, 0.3, 1);
    let flags_b = common::random(5000, 0.7, 2);
    let buffer = compactor.upload(&flags_a).expect("upload");
    let compaction = compactor
        .prepare(&buffer, 5000, Method::Scan, 3)
        .expect("prepare");
    for flags in [&flags_a, &flags_b] {
        let queue = compactor.queue();
        queue.write_buffer(&buffer, 0, bytemuck::cast_slice(flags));
        let mut encoder = device.create_command_encoder(&Default::default());
        compactor.encode(&mut encoder, &compaction).expect("encode");
        queue.submit([encoder.finish()]);
        let words = read_words(compactor, compaction.indirect(), 4);
        let visible = flags.iter().filter(|&&f| f != 0).count() as u32;
        assert_eq!(words, vec![3, visible, 0, 0]);
    }
}

#[test]
fn too_many_flags_is_a_clear_error() {
    let compactor = compactor();
    let max = compactor.max_flags();
    let buffer = compactor.upload(&[1, 0, 1]).expect("upload");
    let err = compactor
        .prepare(&buffer, max + 1, Method::Scan, 6)
        .err()
        .expect("must refuse");
    let message = err.to_string();
    assert!(
        message.contains("max_storage_buffer_binding_size"),
        "{message}"
    );
}

#[test]
fn an_unbindable_flags_buffer_is_refused_before_any_gpu_work() {
    // A flags buffer that cannot be bound as storage: prepare says so, rather than
    // a panic or zeros later.
    let compactor = compactor();
    let buffer = compactor.device().create_buffer(&wgpu::BufferDescriptor {
        label: Some("not storage"),
        size: 1024,
        usage: wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    for method in Method::ALL {
        let err = pollster::block_on(compactor.run_buffer(&buffer, 256, method))
            .expect_err("an unbindable buffer must fail");
        assert!(
            matches!(
                err,
                wgpu_compaction::Error::BufferUsage {
                    buffer: "flags",
                    ..
                }
            ),
            "{method}: {err}"
        );
    }
}
