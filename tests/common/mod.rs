//! Shared set-up for the native GPU tests: one device (Mesa lavapipe in CI) and
//! one Compactor for the whole test binary, plus seeded inputs.
#![allow(dead_code)]

use std::sync::OnceLock;

use compaction_playground::{flags, Compactor, GpuContext};

pub fn compactor() -> &'static Compactor {
    static GPU: OnceLock<(GpuContext, Compactor)> = OnceLock::new();
    &GPU.get_or_init(|| {
        let context = pollster::block_on(GpuContext::new())
            .unwrap_or_else(|e| panic!("the GPU tests need an adapter (Mesa lavapipe in CI): {e}"));
        eprintln!("adapter: {}", context.adapter_name());
        let compactor = Compactor::new(&context.device, &context.queue);
        (context, compactor)
    })
    .1
}

/// Edge sizes: empty, one, around a workgroup of 64 and a block of 256, the
/// dispatch-limit crossing (65 535 workgroups of 64) and three scan levels.
pub const SIZES: [usize; 12] = [
    0,
    1,
    63,
    64,
    65,
    255,
    256,
    257,
    65_536,
    65_535 * 64 + 1,
    (1 << 20) + 3,
    1 << 24,
];

pub const DENSITIES: [f64; 4] = [0.0, 0.001, 0.5, 1.0];

/// Seeded flags with values other than 0 and 1 among the visible ones.
pub fn wild_flags(n: usize, density: f64, seed: u64) -> Vec<u32> {
    let mut rng = flags::XorShift64::new(seed);
    (0..n)
        .map(|_| {
            if rng.next_unit() < density {
                [1, 2, 3, 255, 0x8000_0000, u32::MAX][(rng.next_u64() % 6) as usize]
            } else {
                0
            }
        })
        .collect()
}

/// Writes a failing case's flags to `target/failures/<name>.u32le` for replay
/// with `compact --flags-format u32le --input ...`.
pub fn save_failure(name: &str, flags: &[u32]) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/failures");
    let path = dir.join(format!("{name}.u32le"));
    let bytes: Vec<u8> = flags.iter().flat_map(|f| f.to_le_bytes()).collect();
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(&path, bytes);
    path.display().to_string()
}

/// The visible indices, computed the plainest way, independent of the mirrors.
pub fn expected_indices(flags: &[u32]) -> Vec<u32> {
    (0..flags.len() as u32)
        .filter(|&i| flags[i as usize] != 0)
        .collect()
}
