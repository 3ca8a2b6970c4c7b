//! A visibility function for one-pass culling (`CullDesc`), shared by the tests
//! and the benchmark: a bounding sphere an object (`vec4<f32>`: centre, radius)
//! against six planes (`vec4<f32>`: normal, distance; inside where
//! `dot(n, c) + d >= -r` for every plane), the CPU's answer beside it.

/// The test as a renderer writes it, without a branch: the nearest plane's
/// distance against the radius (a tile then issues its objects' loads together).
/// Its resources: the spheres at `@group(1) @binding(0)`, the planes (a uniform
/// `array<vec4<f32>, 6>`) at `@binding(1)`.
pub const VISIBLE: &str = "
@group(1) @binding(0) var<storage, read> cull_spheres : array<vec4<f32>>;
@group(1) @binding(1) var<uniform> cull_planes : array<vec4<f32>, 6>;

fn visible(object : u32) -> bool {
  let s = cull_spheres[object];
  var nearest = dot(cull_planes[0].xyz, s.xyz) + cull_planes[0].w;
  for (var p = 1u; p < 6u; p = p + 1u) {
    nearest = min(nearest, dot(cull_planes[p].xyz, s.xyz) + cull_planes[p].w);
  }
  return nearest >= -s.w;
}
";

/// The same test leaving at the first plane that rejects the sphere: branches
/// between the objects' loads keep them from being issued together
/// (BENCHMARKS.md v32).
pub const VISIBLE_EARLY_EXIT: &str = "
@group(1) @binding(0) var<storage, read> cull_spheres : array<vec4<f32>>;
@group(1) @binding(1) var<uniform> cull_planes : array<vec4<f32>, 6>;

fn visible(object : u32) -> bool {
  let s = cull_spheres[object];
  for (var p = 0u; p < 6u; p = p + 1u) {
    let plane = cull_planes[p];
    if (dot(plane.xyz, s.xyz) + plane.w < -s.w) {
      return false;
    }
  }
  return true;
}
";

/// The box `|x|, |y|, |z| <= 3.5` as six planes. Spheres with whole-number
/// centres and radii of a power of two keep every distance exact, so that the
/// CPU's answer is the GPU's.
pub const BOX_PLANES: [[f32; 4]; 6] = [
    [1.0, 0.0, 0.0, 3.5],
    [-1.0, 0.0, 0.0, 3.5],
    [0.0, 1.0, 0.0, 3.5],
    [0.0, -1.0, 0.0, 3.5],
    [0.0, 0.0, 1.0, 3.5],
    [0.0, 0.0, -1.0, 3.5],
];

/// The CPU's test: whether `sphere` is inside every plane.
pub fn inside(sphere: [f32; 4], planes: &[[f32; 4]; 6]) -> bool {
    planes
        .iter()
        .all(|p| p[0] * sphere[0] + p[1] * sphere[1] + p[2] * sphere[2] + p[3] >= -sphere[3])
}

/// The functions' resources: `spheres` at binding 0, `planes` at 1.
pub fn bindings<'a>(
    spheres: &'a wgpu::Buffer,
    planes: &'a wgpu::Buffer,
) -> [wgpu::BindGroupEntry<'a>; 2] {
    [
        wgpu::BindGroupEntry {
            binding: 0,
            resource: spheres.as_entire_binding(),
        },
        wgpu::BindGroupEntry {
            binding: 1,
            resource: planes.as_entire_binding(),
        },
    ]
}
