// Writes the count into the indirect-draw arguments on the GPU, so a renderer
// can draw the visible instances without reading anything back.
// `args` is DrawIndirectArgs: vertex_count, instance_count, first_vertex,
// first_instance; only instance_count changes from frame to frame.

@group(0) @binding(0) var<storage, read>       count : array<u32>;
@group(0) @binding(1) var<storage, read_write> args  : array<u32, 4>;

@compute @workgroup_size(1)
fn indirect_args() {
  args[1] = count[0];
}
