// Draws the visible objects with one drawIndirect, exactly as the article describes:
// the vertex shader knows only its instance_index and finds its object with one
// access, `visibles[instance_index]`. Objects sit on a grid, one cell per flag.

struct Grid {
  flags : u32,
  cols  : u32,
  rows  : u32,
  _pad  : u32,
}

@group(0) @binding(0) var<storage, read> visibles : array<u32>;
@group(0) @binding(1) var<uniform>       grid     : Grid;

struct VertexOut {
  @builtin(position) position : vec4<f32>,
  @location(0)       color    : vec3<f32>,
}

fn hue(t : f32) -> vec3<f32> {
  let k = vec3<f32>(0.0, 2.0, 4.0) / 6.0;
  return 0.55 + 0.4 * cos(6.2831853 * (t + k));
}

@vertex
fn draw_instances_vs(
  @builtin(vertex_index) vertex : u32,
  @builtin(instance_index) instance : u32,
) -> VertexOut {
  let object = visibles[instance];
  var corners = array<vec2<f32>, 6>(
    vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
    vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0),
  );
  let cell = vec2<f32>(f32(object % grid.cols), f32(object / grid.cols));
  let inset = 0.12;
  let corner = corners[vertex % 6u] * (1.0 - 2.0 * inset) + inset;
  let uv = (cell + corner) / vec2<f32>(f32(grid.cols), f32(grid.rows));
  var out : VertexOut;
  out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
  out.color = hue(f32(object) / f32(max(grid.flags, 1u)));
  return out;
}

@fragment
fn draw_instances_fs(in : VertexOut) -> @location(0) vec4<f32> {
  return vec4<f32>(in.color, 1.0);
}
