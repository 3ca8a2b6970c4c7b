// Draws the visible objects with one drawIndirect, exactly as the article describes:
// the vertex shader knows only its instance_index and finds its object with one
// access, `visibles[instance_index]`. Objects sit on a grid, one cell per flag,
// each coloured by its place in the draw (`position_colour`): the scan's list,
// in object order, paints a smooth ramp; an atomic method's, noise.
//
// In DRAW_ORDER mode the cell is the instance's place in the draw, not the
// object's: the grid then shows the order the draw submits the objects in,
// coloured by material (`groups` contiguous groups of ceil(flags / groups)
// objects, as a renderer sorts them) and darker with depth (the object index as a front-to-back ramp).

const OBJECT_GRID : u32 = 0u;
const DRAW_ORDER : u32 = 1u;

struct Grid {
  flags  : u32,
  cols   : u32,
  rows   : u32,
  mode   : u32,
  groups : u32,
  _pad0  : u32,
  _pad1  : u32,
  _pad2  : u32,
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

// Instance `instance` of a draw over `n` flags: the hues from red on, stopping
// short of red again (0.85), so that the first and the last drawn differ.
// Mirrored by `position_colour` in playground/src/draw_instances.rs.
fn position_colour(instance : u32, n : u32) -> vec3<f32> {
  return hue(0.85 * f32(instance) / f32(n));
}

@vertex
fn draw_instances_vs(
  @builtin(vertex_index) vertex : u32,
  @builtin(instance_index) instance : u32,
) -> VertexOut {
  let object = visibles[instance];
  let n = max(grid.flags, 1u);
  var corners = array<vec2<f32>, 6>(
    vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
    vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0),
  );
  var place = object;
  var inset = 0.12;
  var color = position_colour(instance, n);
  if (grid.mode == DRAW_ORDER) {
    place = instance;
    inset = 0.0;
    let groups = max(grid.groups, 1u);
    let material = object / ((n + groups - 1u) / groups);
    let depth = f32(object) / f32(n);
    color = hue(f32(material) / f32(groups)) * (1.0 - 0.6 * depth);
  }
  let cell = vec2<f32>(f32(place % grid.cols), f32(place / grid.cols));
  let corner = corners[vertex % 6u] * (1.0 - 2.0 * inset) + inset;
  let uv = (cell + corner) / vec2<f32>(f32(grid.cols), f32(grid.rows));
  var out : VertexOut;
  out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
  out.color = color;
  return out;
}

@fragment
fn draw_instances_fs(in : VertexOut) -> @location(0) vec4<f32> {
  return vec4<f32>(in.color, 1.0);
}
