//! The benchmark's references, `playground/shaders/copy_vec4.wgsl`: the cheapest kernel that
//! reads N words and writes N words, the floor a method is measured against; and
//! (`--fixed`) a tile kernel's grid doing nothing, or only taking tickets.

const SOURCE: &str = include_str!("../../../shaders/copy_vec4.wgsl");
const WORKGROUP_SIZE: u64 = 256;

/// `playground/shaders/copy_vec4.wgsl`, every reference's entry points.
fn module(device: &wgpu::Device) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("copy_vec4"),
        source: wgpu::ShaderSource::Wgsl(SOURCE.into()),
    })
}

pub struct CopyVec4 {
    pipeline: wgpu::ComputePipeline,
}

impl CopyVec4 {
    pub fn new(device: &wgpu::Device) -> Self {
        let module = module(device);
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
        let (x, y) = grid(vec4s.div_ceil(WORKGROUP_SIZE), max_per_dimension);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(x, y, 1);
    }
}

/// `groups` workgroups as a 2-D grid past the per-dimension limit (the shaders
/// linearise the id back).
pub fn grid(groups: u64, max_per_dimension: u32) -> (u32, u32) {
    let max = u64::from(max_per_dimension.max(1));
    let y = groups.div_ceil(max);
    let x = groups.div_ceil(y.max(1));
    (x as u32, y as u32)
}

/// Workgroups of the look-back kernels' grid: one per 4096 flags.
const TILE: u64 = 4096;

/// `--fixed`: `empty_tiles` and `ticket_tiles`, the fixed cost of a tile kernel.
pub struct FixedCost {
    pipelines: [wgpu::ComputePipeline; 2],
    binds: [wgpu::BindGroup; 2],
    _tickets: wgpu::Buffer,
}

impl FixedCost {
    /// The row names, in `dispatch` order.
    pub const ROWS: [&'static str; 2] = ["empty_tiles", "ticket_tiles"];

    pub fn new(device: &wgpu::Device) -> Self {
        let module = module(device);
        let tickets = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bench:tickets"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let make = |entry: &str| {
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            });
            let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(entry),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &[wgpu::BindGroupEntry {
                    binding: 2,
                    resource: tickets.as_entire_binding(),
                }],
            });
            (pipeline, bind)
        };
        let (empty, empty_bind) = make(Self::ROWS[0]);
        let (ticket, ticket_bind) = make(Self::ROWS[1]);
        Self {
            pipelines: [empty, ticket],
            binds: [empty_bind, ticket_bind],
            _tickets: tickets,
        }
    }

    /// Row `which` (`ROWS` order) for `n` flags: one workgroup per tile, on a 2-D
    /// grid past the per-dimension limit.
    pub fn dispatch(
        &self,
        pass: &mut wgpu::ComputePass,
        which: usize,
        n: u64,
        max_per_dimension: u32,
    ) {
        let (x, y) = grid(n.div_ceil(TILE).max(1), max_per_dimension);
        pass.set_pipeline(&self.pipelines[which]);
        pass.set_bind_group(0, &self.binds[which], &[]);
        pass.dispatch_workgroups(x, y, 1);
    }
}

/// The rows every method is measured against: the copy, and `--fixed`'s.
pub struct References {
    pub copy: CopyVec4,
    pub fixed: Option<FixedCost>,
    /// `--cull`: the culling pass and its planes.
    pub cull: Option<crate::cull::Cull>,
}
