//! Property tests: random sizes (up to 2^22), densities, layouts and flag values,
//! every method on the GPU (Mesa lavapipe in CI) against the CPU oracle. The seed
//! is fixed so CI is repeatable; knobs for long runs:
//!   PROPTEST_CASES=500 COMPACTION_PROPTEST_SEED=7 cargo test --release --test properties
//! The smallest failing case's flags are written to target/failures/ for replay
//! (`compact --flags-format u32le --input …`).

mod common;

use common::{compactor, expected_indices, save_failure};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use wgpu_compaction::teaching::cpu;
use wgpu_compaction::{Compactor, DrawArgs, Method};

const DEFAULT_CASES: u32 = 32;
const DEFAULT_SEED: u64 = 0x5eed_c0de;

#[derive(Clone, Debug)]
struct Case {
    n: usize,
    density: f64,
    clustered: bool,
    /// What a visible flag holds: 1, 2, 0x80000000, or a mix with u32::MAX.
    values: u8,
    seed: u64,
}

fn cases() -> impl Strategy<Value = Case> {
    let n = prop_oneof![
        6 => 0usize..5_000,
        3 => 5_000usize..300_000,
        1 => 300_000usize..=(1 << 22),
    ];
    let density = prop_oneof![1 => Just(0.0), 1 => Just(1.0), 2 => 0.0f64..0.01, 6 => 0.0f64..=1.0];
    (n, density, any::<bool>(), 0u8..4, any::<u64>()).prop_map(
        |(n, density, clustered, values, seed)| Case {
            n,
            density,
            clustered,
            values,
            seed,
        },
    )
}

fn flags_of(case: &Case) -> Vec<u32> {
    let base = if case.clustered {
        wgpu_compaction::teaching::cpu::inputs::clustered(case.n, case.density, 8, case.seed)
    } else {
        common::random(case.n, case.density, case.seed)
    };
    let mut rng = wgpu_compaction::teaching::cpu::inputs::XorShift64::new(case.seed ^ 0xa5a5);
    base.into_iter()
        .map(|f| match (f, case.values) {
            (0, _) => 0,
            (_, 0) => 1,
            (_, 1) => 2,
            (_, 2) => 0x8000_0000,
            _ => [1, 2, 0x8000_0000, u32::MAX][(rng.next_u64() % 4) as usize],
        })
        .collect()
}

fn check(method: Method, flags: &[u32]) -> Result<(), TestCaseError> {
    let got = pollster::block_on(compactor().run(flags, method))
        .map_err(|e| TestCaseError::fail(format!("{method}: {e}")))?;
    let expected = expected_indices(flags);
    let oracle = cpu::compact(
        flags,
        method,
        DrawArgs::vertices(Compactor::DEFAULT_VERTEX_COUNT),
    );
    prop_assert_eq!(got.count as usize, expected.len(), "{}: count", method);
    prop_assert_eq!(
        got.indirect,
        oracle.indirect,
        "{}: indirect arguments",
        method
    );
    if method.preserves_order() {
        prop_assert!(
            got.indices == expected,
            "{}: indices differ (order matters)",
            method
        );
    } else {
        let mut sorted = got.indices.clone();
        sorted.sort_unstable();
        prop_assert!(sorted == expected, "{}: the set of indices differs", method);
    }
    Ok(())
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn every_method_matches_the_cpu_oracle_on_random_inputs() {
    let seed: u64 = env("COMPACTION_PROPTEST_SEED", DEFAULT_SEED);
    let config = Config {
        cases: env("PROPTEST_CASES", DEFAULT_CASES),
        failure_persistence: None,
        ..Config::default()
    };
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let sizes = std::cell::RefCell::new(Vec::new());
    let outcome = runner.run(&cases(), |case| {
        sizes.borrow_mut().push(case.n);
        let flags = flags_of(&case);
        Method::ALL.iter().try_for_each(|&m| check(m, &flags))
    });
    let sizes = sizes.into_inner();
    eprintln!(
        "{} cases (seed {seed:#x}), n from {} to {}, {} flags in all, {} methods each",
        sizes.len(),
        sizes.iter().min().unwrap_or(&0),
        sizes.iter().max().unwrap_or(&0),
        sizes.iter().sum::<usize>(),
        Method::ALL.len()
    );
    match outcome {
        Ok(()) => {}
        Err(TestError::Fail(why, case)) => {
            let path = save_failure(
                &format!("property-n{}-seed{}", case.n, case.seed),
                &flags_of(&case),
            );
            panic!("{why}\nsmallest failing case: {case:?}\nflags saved to {path} (seed {seed})");
        }
        Err(e) => panic!("{e}"),
    }
}
