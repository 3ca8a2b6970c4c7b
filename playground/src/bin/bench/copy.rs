//! The benchmark's reference, `shaders/copy_vec4.wgsl`: the cheapest kernel that
//! reads N words and writes N words, the floor a method is measured against.

const SOURCE: &str = include_str!("../../../../shaders/copy_vec4.wgsl");
const WORKGROUP_SIZE: u64 = 256;

pub struct CopyVec4 {
    pipeline: wgpu::ComputePipeline,
}

impl CopyVec4 {
    pub fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("copy_vec4"),
            source: wgpu::ShaderSource::Wgsl(SOURCE.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("copy_vec4"),
            layout: None,
            module: &module,
            entry_point: Some("copy_vec4"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { pipeline }
    }

    /// A copy of `src` into a new buffer of the same `vec4s`: its bind group, and
    /// the destination (kept alive with it).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        src: &wgpu::Buffer,
        vec4s: u64,
    ) -> (wgpu::BindGroup, wgpu::Buffer) {
        let dst = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bench:copy"),
            size: vec4s * 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let range = |buffer| wgpu::BufferBinding {
            buffer,
            offset: 0,
            size: std::num::NonZeroU64::new(vec4s * 16),
        };
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("copy_vec4"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(range(src)),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Buffer(range(&dst)),
                },
            ],
        });
        (bind, dst)
    }

    /// Enough workgroups for `vec4s` invocations, on a 2-D grid past the
    /// per-dimension limit (the shader linearises the id back).
    pub fn dispatch(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        vec4s: u64,
        max_per_dimension: u32,
    ) {
        let groups = vec4s.div_ceil(WORKGROUP_SIZE);
        let max = u64::from(max_per_dimension.max(1));
        let y = groups.div_ceil(max);
        let x = groups.div_ceil(y.max(1));
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(x as u32, y as u32, 1);
    }
}
