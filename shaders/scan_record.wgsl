// The traced scan's record (shaders/scan_block.wgsl calls it after the load and
// after each step): every block's `tmp`, one snapshot after another, for the
// playground's stepper. Snapshots past the buffer's STEPS + 1 are dropped, so a
// loop that runs longer than ours cannot write past it.
@group(0) @binding(3) var<storage, read_write> trace : array<u32>;

fn record(snapshot : u32, i : u32, li : u32) {
  let padded = arrayLength(&trace) / (STEPS + 1u);
  if (i < padded && snapshot <= STEPS) {
    trace[snapshot * padded + i] = tmp[li];
  }
}
