//! A learner's kernel in place of ours (`teaching::KernelOverride`): the shipped
//! text runs exactly as the library does; a wrong kernel's real buffers differ
//! from the CPU mirror's where the bug is; a guarded runaway loop ends with its
//! line in the probe; the compiler's messages land on the learner's line and
//! UTF-16 column; a broken pipeline is an error, never a panic.

mod common;

use common::open_device;
use wgpu_compaction::teaching::{
    self, compile_messages, cpu, kernel_facts, take_probe, KernelOverride, Severity,
};
use wgpu_compaction::{Compactor, DrawArgs, Error, Method};

fn compactor_with(module: &str, wgsl: &str, probed: bool) -> Compactor {
    let (_, device, queue) = open_device(None);
    let kernel = KernelOverride::new(module, wgsl, probed).expect("an overridable kernel");
    Compactor::with_override(&device, &queue, &kernel)
}

fn shipped(module: &str) -> &'static str {
    kernel_facts(module).expect(module).wgsl
}

#[test]
fn the_shipped_text_as_an_override_is_the_library() {
    for module in ["scan_block", "add_offsets", "scatter"] {
        let compactor = compactor_with(module, shipped(module), false);
        for n in [0usize, 1, 10, 257, 4097, 65_537] {
            let flags = common::random(n, 0.5, n as u64 + 3);
            let out = pollster::block_on(compactor.run(&flags, Method::Scan)).expect("run");
            assert_eq!(
                out,
                cpu::compact(&flags, Method::Scan, DrawArgs::vertices(6)),
                "{module} n={n}"
            );
        }
    }
}

#[test]
fn a_wrong_scan_step_shows_in_the_traced_buffers() {
    // Only scan_block's loop broken, one step short: the traced run is the
    // learner's own body (one entry point for the run and its trace), so the
    // trace shows the seven steps it took and no eighth, and each block's total
    // (its last invocation's sum) misses the block's first half.
    let shipped_text = shipped("scan_block");
    let short = shipped_text.replace(
        "for (var offset = 1u; offset < BLOCK; offset = offset << 1u) {",
        "for (var offset = 1u; offset < BLOCK / 2u; offset = offset << 1u) {",
    );
    let changed: Vec<_> = shipped_text
        .lines()
        .zip(short.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed.len(), 1, "the test edits the one loop: {changed:?}");
    let compactor = compactor_with("scan_block", &short, false);
    let flags = [1u32; 200];
    let gpu = pollster::block_on(teaching::trace_scan(&compactor, &flags)).expect("trace");
    let reference = cpu::trace_scan(&flags);
    let level = &gpu.levels[0];
    assert_eq!(
        level.steps[..8],
        reference.levels[0].steps[..8],
        "the load and steps 1-7 agree"
    );
    assert!(
        level.steps[8].iter().all(|&w| w == teaching::UNWRITTEN),
        "no eighth step was recorded"
    );
    assert_ne!(
        level.prefix, reference.levels[0].prefix,
        "the prefix is wrong"
    );
    assert_ne!(gpu.indices, reference.indices);
}

#[test]
fn the_articles_slip_misses_flags_of_two() {
    let slip = shipped("atomic_counter").replace("visible[i] == 0u", "visible[i] != 1u");
    let compactor = compactor_with("atomic_counter", &slip, false);
    let ones = pollster::block_on(compactor.run(&[1, 0, 1], Method::Atomic)).expect("run");
    assert_eq!(ones.count, 2);
    let two = pollster::block_on(compactor.run(&[2], Method::Atomic)).expect("run");
    assert_eq!(
        (
            two.count,
            cpu::compact(&[2], Method::Atomic, DrawArgs::vertices(6)).count
        ),
        (0, 1)
    );
}

/// `atomic_counter` with a loop that never ends, guarded as the page's
/// instrumenter guards it (`www/panels/kernel/instrument.js`): the invocation's
/// budget set at entry from the live length, spent by every iteration.
const RUNAWAY: &str = "@group(0) @binding(0) var<storage, read> visible : array<u32>;
@group(0) @binding(1) var<storage, read_write> indices : array<u32>;
@group(0) @binding(2) var<storage, read_write> counter : atomic<u32>;
@compute @workgroup_size(64)
fn atomic_counter(@builtin(local_invocation_index) li : u32) { _cp_enter0();
  var k = 0u;
  loop { if (_cp_p == 0u) { _cp_trip(7u); break; } _cp_p -= 1u;
    k = k + 1u;
  }
  indices[li] = k;
}
@group(0) @binding(15) var<storage, read_write> _cp_probe : array<atomic<u32>, 8>;
@group(0) @binding(14) var<uniform> _cp_sched : vec4<u32>;
var<private> _cp_p : u32;
fn _cp_limit() -> u32 { let n = live.x; return 4096u + min(4u * min(n, 1u << 24u), 134217728u / max(n, 256u)); }
fn _cp_trip(line : u32) { atomicStore(&_cp_probe[0], 1u); _ = atomicCompareExchangeWeak(&_cp_probe[1], 0u, line); }
fn _cp_enter0() { _ = &visible; _ = &indices; _ = &counter; _ = &live; _ = &_cp_probe; _ = &_cp_sched; _cp_p = _cp_limit(); }";

#[test]
fn a_guarded_runaway_loop_ends_with_its_line() {
    let compactor = compactor_with("atomic_counter", RUNAWAY, true);
    pollster::block_on(compactor.run(&[1u32; 64], Method::Atomic)).expect("the run ends");
    assert_eq!(
        pollster::block_on(take_probe(&compactor)).expect("probe"),
        7
    );
    assert_eq!(
        pollster::block_on(take_probe(&compactor)).expect("probe"),
        0,
        "cleared"
    );
    let plain = compactor_with("atomic_counter", shipped("atomic_counter"), false);
    assert_eq!(pollster::block_on(take_probe(&plain)).expect("probe"), 0);
}

#[test]
fn compiler_messages_land_on_the_learners_line_and_utf16_column() {
    let (_, device, _) = open_device(None);
    // Line 1 holds two-byte and four-byte characters; the error is on line 5.
    let wgsl =
        "// ñandú 𝄞 comment\nfn f() -> u32 {\n  let a = 1u;\n  let b = 2u;\n  return a + ;\n}\n";
    let kernel = KernelOverride::new("add_offsets", wgsl, false).expect("kernel");
    let messages = pollster::block_on(compile_messages(&device, &kernel));
    let error = messages
        .iter()
        .find(|d| d.severity == Severity::Error)
        .expect("an error");
    assert_eq!(error.line, 5, "{messages:?}");
    assert!(error.column >= 10 && error.column <= 14, "{messages:?}");
    let fine = KernelOverride::new("add_offsets", shipped("add_offsets"), false).expect("kernel");
    let clean = pollster::block_on(compile_messages(&device, &fine));
    assert!(
        clean.iter().all(|d| d.severity != Severity::Error),
        "{clean:?}"
    );
}

#[test]
fn a_pipeline_that_cannot_be_built_is_an_error() {
    // No entry point named `scatter`: the module compiles, the pipeline does not.
    let renamed = shipped("scatter").replace("fn scatter(", "fn scatter_all(");
    assert_ne!(renamed, shipped("scatter"));
    let compactor = compactor_with("scatter", &renamed, false);
    let run = pollster::block_on(compactor.run(&[1, 0, 1], Method::Scan));
    assert!(matches!(run, Err(Error::Gpu(_))), "{run:?}");
    assert!(KernelOverride::new("tiles", "", false).is_err());
}
