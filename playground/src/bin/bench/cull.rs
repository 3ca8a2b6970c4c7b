//! `--cull`: a renderer's frustum test (`teaching::frustum`: a bounding sphere an
//! object against six planes) as one-pass culling asks it (`CullDesc`), and as the
//! culling pass it replaces: the same `visible` in a kernel writing one u32 flag an object, four
//! an invocation with one vec4 store, before the compaction reads them.

use wgpu_compaction::teaching::frustum::{self, BOX_PLANES, VISIBLE, VISIBLE_EARLY_EXIT};
use wgpu_compaction::CullDesc;

/// The culling pass of the two-pass reference.
const CULL_FLAGS: &str = "
@group(0) @binding(0) var<storage, read_write> cull_flags : array<vec4<u32>>;

fn flag(object : u32, n : u32) -> u32 {
  return select(0u, 1u, object < n && visible(object));
}

@compute @workgroup_size(256)
fn cull(@builtin(global_invocation_id) id : vec3<u32>,
        @builtin(num_workgroups) groups : vec3<u32>) {
  let v = id.x + id.y * groups.x * 256u;
  let n = arrayLength(&cull_spheres);
  if (4u * v < n) {
    let e = 4u * v;
    cull_flags[v] = vec4<u32>(flag(e, n), flag(e + 1u, n), flag(e + 2u, n), flag(e + 3u, n));
  }
}
";

/// Spheres visible exactly where `flags` are: inside the box, spread along x, or
/// past its far z plane (the last tested, so that both kinds run the whole test).
pub fn spheres(flags: &[u32]) -> Vec<[f32; 4]> {
    (0..flags.len())
        .map(|i| {
            let x = (i % 7) as f32 - 3.0;
            if flags[i] != 0 {
                [x, 0.0, 0.0, 0.25]
            } else {
                [x, 0.0, 10.0, 0.25]
            }
        })
        .collect()
}

/// The planes' uniform and the culling pass's pipeline.
pub struct Cull {
    /// The visibility function's WGSL.
    visible: &'static str,
    planes: wgpu::Buffer,
    pipeline: wgpu::ComputePipeline,
}

impl Cull {
    /// `early`: the function that leaves at the first plane rejecting the sphere.
    pub fn new(device: &wgpu::Device, early: bool) -> Self {
        use wgpu::util::DeviceExt;
        let visible = if early { VISIBLE_EARLY_EXIT } else { VISIBLE };
        let planes = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("bench:cull_planes"),
            contents: bytemuck::cast_slice(&BOX_PLANES),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bench:cull"),
            source: wgpu::ShaderSource::Wgsl(format!("{visible}\n{CULL_FLAGS}").into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("bench:cull"),
            layout: None,
            module: &module,
            entry_point: Some("cull"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self {
            visible,
            planes,
            pipeline,
        }
    }

    /// The renderer's resources at @group(1) for `spheres`.
    pub fn entries<'a>(&'a self, spheres: &'a wgpu::Buffer) -> [wgpu::BindGroupEntry<'a>; 2] {
        frustum::bindings(spheres, &self.planes)
    }

    pub fn desc<'a>(&self, entries: &'a [wgpu::BindGroupEntry<'a>]) -> CullDesc<'a> {
        CullDesc::new(self.visible, entries)
    }

    /// The culling pass's bind groups: the flags it writes, the spheres it reads.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        spheres: &wgpu::Buffer,
        flags: &wgpu::Buffer,
    ) -> [wgpu::BindGroup; 2] {
        let group = |index: u32, entries: &[wgpu::BindGroupEntry]| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("bench:cull"),
                layout: &self.pipeline.get_bind_group_layout(index),
                entries,
            })
        };
        [
            group(
                0,
                &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: flags.as_entire_binding(),
                }],
            ),
            group(1, &self.entries(spheres)),
        ]
    }

    /// The culling pass over `n` objects, four an invocation.
    pub fn dispatch(
        &self,
        pass: &mut wgpu::ComputePass,
        groups: &[wgpu::BindGroup; 2],
        n: u64,
        max_per_dimension: u32,
    ) {
        let (x, y) = crate::copy::grid(n.div_ceil(4 * 256).max(1), max_per_dimension);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &groups[0], &[]);
        pass.set_bind_group(1, &groups[1], &[]);
        pass.dispatch_workgroups(x, y, 1);
    }
}
