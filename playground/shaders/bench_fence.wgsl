// The benchmark's fence between runs, so that runs submitted back to back never
// overlap: every run starts with this one invocation writing the same word, and
// wgpu orders two writes of one buffer with a barrier, which waits for all the work
// before it. Back to back, the GPU keeps its clocks up as it does in a frame.

@group(0) @binding(0) var<storage, read_write> serial : array<u32>;

@compute @workgroup_size(1)
fn bench_fence() {
  serial[0] = serial[0] + 1u;
}
