//! Shared set-up for the native GPU tests: one device (Mesa lavapipe in CI,
//! `WGPU_BACKEND` chooses) and one Compactor for the whole test binary, plus
//! seeded inputs. The library never picks an adapter: the tests do, as a
//! renderer would.
#![allow(dead_code)]

use std::sync::OnceLock;

use wgpu_compaction::teaching::cpu::inputs::XorShift64;
use wgpu_compaction::Compactor;

/// The article's example: `1 0 0 1 1 0 1 0 0 1` compacts to `0 3 4 6 9`.
pub const ARTICLE_EXAMPLE: [u32; 10] = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1];

/// An adapter and a device with the adapter's limits and, where it has them,
/// SUBGROUP and TIMESTAMP_QUERY; `limits` overrides the limits.
pub fn open_device(limits: Option<wgpu::Limits>) -> (wgpu::Adapter, wgpu::Device, wgpu::Queue) {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .unwrap_or_else(|e| panic!("the GPU tests need an adapter (Mesa lavapipe in CI): {e}"));
    let wanted = wgpu::Features::SUBGROUP | wgpu::Features::TIMESTAMP_QUERY;
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("tests"),
        required_features: adapter.features() & wanted,
        required_limits: limits.unwrap_or_else(|| adapter.limits()),
        ..Default::default()
    }))
    .unwrap_or_else(|e| panic!("no device: {e}"));
    (adapter, device, queue)
}

pub fn compactor() -> &'static Compactor {
    static GPU: OnceLock<Compactor> = OnceLock::new();
    GPU.get_or_init(|| {
        let (adapter, device, queue) = open_device(None);
        eprintln!("adapter: {:?}", adapter.get_info().name);
        Compactor::new(&device, &queue)
    })
}

/// Seeded flags, each visible with probability `density`.
pub fn random(n: usize, density: f64, seed: u64) -> Vec<u32> {
    wgpu_compaction::teaching::cpu::inputs::random(n, density, seed)
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
    let mut rng = XorShift64::new(seed);
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

/// The first `words` u32 of `buffer` (which needs COPY_SRC), read back.
pub fn read_words(compactor: &Compactor, buffer: &wgpu::Buffer, words: u64) -> Vec<u32> {
    let device = compactor.device();
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("tests:readback"),
        size: words.max(1) * 4,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, words * 4);
    compactor.queue().submit([encoder.finish()]);
    staging
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let view = staging.slice(..).get_mapped_range().expect("mapped");
    bytemuck::cast_slice::<u8, u32>(&view)[..words as usize].to_vec()
}

/// One encode of `compaction` at live length `len`, read back.
pub fn run_on(
    compactor: &Compactor,
    compaction: &wgpu_compaction::Compaction,
    len: u64,
) -> wgpu_compaction::CompactionOutput {
    let device = compactor.device();
    let mut encoder = device.create_command_encoder(&Default::default());
    compactor
        .encode_len(&mut encoder, compaction, len)
        .expect("encode");
    let pending = compaction.read_output(device, &mut encoder).expect("read");
    compactor.queue().submit([encoder.finish()]);
    pollster::block_on(pending.read(device)).expect("readback")
}

/// A buffer of the shared device holding `bytes` (one zero word for none:
/// bindings are never empty), `COPY_SRC` added to `usage`.
pub fn upload_bytes(bytes: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    compactor()
        .device()
        .create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("tests"),
            contents: if bytes.is_empty() { &[0; 4] } else { bytes },
            usage: usage | wgpu::BufferUsages::COPY_SRC,
        })
}
