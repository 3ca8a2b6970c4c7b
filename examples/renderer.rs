//! A renderer's frame with `wgpu-compaction`: a culling pass writes one flag per
//! object, the compaction packs the visible ones, and `draw_indirect` and
//! `draw_indexed_indirect` draw them, all in one encoder, offscreen. Each object
//! that survives culling owns one pixel of an `R32Uint` target and writes its
//! index there; the image read back must hold exactly the objects the CPU keeps.
//!
//! Three draws per frame, one per way to get at the output:
//! - `draw_indirect` with the compaction's 16-byte arguments; the vertex shader
//!   reads `visibles[instance_index]` from the indices as a storage buffer;
//! - `draw_indexed_indirect` with 20-byte arguments; the indices arrive as an
//!   instance-rate vertex attribute (the buffer has `VERTEX` usage);
//! - `draw_indexed_indirect` from the renderer's own argument buffer, into which
//!   the compaction copies `instance_count` (`CompactionDesc::instance_count_to`).
//!
//!   cargo run --release --example renderer     (WGPU_BACKEND=vulkan etc. chooses)

use wgpu::util::DeviceExt;
use wgpu_compaction::{CompactionDesc, Compactor, DrawArgs, IndexedIndirectArgs, Method};

/// Objects, and the target's width: object `i` owns pixel `(i % WIDTH, i / WIDTH)`.
const OBJECTS: u32 = 100_003;
const WIDTH: u32 = 512;
const HEIGHT: u32 = OBJECTS.div_ceil(WIDTH);
/// Each frame keeps the objects whose depth lies in `[near, far)`.
const FRAMES: [(f32, f32); 3] = [(0.0, 0.5), (0.2, 0.3), (0.9, 2.0)];

const CULL: &str = "
@group(0) @binding(0) var<storage, read> depth : array<f32>;
@group(0) @binding(1) var<storage, read_write> flags : array<u32>;
@group(0) @binding(2) var<uniform> range : vec4<f32>;

@compute @workgroup_size(64)
fn cull(@builtin(global_invocation_id) id : vec3<u32>) {
  let i = id.x;
  if (i < arrayLength(&depth)) {
    flags[i] = select(0u, 1u, depth[i] >= range.x && depth[i] < range.y);
  }
}
";

/// The two ways a vertex shader finds its object (WIDTH and HEIGHT are prepended).
const DRAW: &str = "
@group(0) @binding(0) var<storage, read> visibles : array<u32>;

struct Out {
  @builtin(position) position : vec4<f32>,
  @location(0) @interpolate(flat) object : u32,
}

fn at(object : u32) -> Out {
  let x = (f32(object % WIDTH) + 0.5) / f32(WIDTH);
  let y = (f32(object / WIDTH) + 0.5) / f32(HEIGHT);
  return Out(vec4<f32>(2.0 * x - 1.0, 1.0 - 2.0 * y, 0.0, 1.0), object);
}

@vertex
fn from_storage(@builtin(instance_index) k : u32) -> Out {
  return at(visibles[k]);
}

@vertex
fn from_attribute(@location(0) object : u32) -> Out {
  return at(object);
}

@fragment
fn mark(in : Out) -> @location(0) u32 {
  return in.object + 1u;
}
";

fn main() {
    match run() {
        Ok(report) => println!("{report}"),
        Err(e) => {
            eprintln!("renderer: {e}");
            std::process::exit(1);
        }
    }
}

/// Every method, every frame, three draws each; `Err` names the first difference.
pub fn run() -> Result<String, String> {
    let (device, queue) = open_device()?;
    let compactor = Compactor::new(&device, &queue);
    compactor.warm_up(&Method::ALL);
    let scene = Scene::new(&device);
    let mut report = Vec::new();
    for method in Method::ALL {
        if let Err(e) = compactor.supports(method) {
            report.push(format!("{method}: skipped ({e})"));
            continue;
        }
        let mut drawn = 0;
        for (frame, &(near, far)) in FRAMES.iter().enumerate() {
            let images = scene
                .frame(&compactor, method, near, far)
                .map_err(|e| format!("{method}: {e}"))?;
            let expected = scene.visible(near, far);
            for (draw, image) in ["draw_indirect", "draw_indexed_indirect", "own arguments"]
                .iter()
                .zip(&images)
            {
                let got: Vec<u32> = image.iter().filter(|&&p| p != 0).map(|&p| p - 1).collect();
                let mut got_sorted = got.clone();
                got_sorted.sort_unstable();
                if got_sorted != expected {
                    return Err(format!(
                        "{method}, frame {frame}, {draw}: drew {} objects, the CPU keeps {}",
                        got.len(),
                        expected.len()
                    ));
                }
                // Each object's own pixel, and no other.
                if let Some(i) = image
                    .iter()
                    .enumerate()
                    .position(|(i, &p)| p != 0 && p - 1 != i as u32)
                {
                    return Err(format!(
                        "{method}, frame {frame}, {draw}: pixel {i} holds object {}",
                        image[i] - 1
                    ));
                }
                drawn += got.len();
            }
        }
        report.push(format!(
            "{method}: {drawn} instances drawn and checked over {} frames",
            FRAMES.len()
        ));
    }
    Ok(report.join("\n"))
}

fn open_device() -> Result<(wgpu::Device, wgpu::Queue), String> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .map_err(|e| format!("no adapter: {e}"))?;
    // The look-back needs more than the downlevel limits: ask for what it needs.
    let limits = Compactor::required_limits(Method::Lookback).using_resolution(adapter.limits());
    pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("renderer"),
        required_limits: wgpu::Limits {
            max_storage_buffer_binding_size: adapter.limits().max_storage_buffer_binding_size,
            ..limits
        },
        ..Default::default()
    }))
    .map_err(|e| format!("no device: {e}"))
}

/// The objects, their depths, the culling and drawing pipelines and the targets.
struct Scene {
    device: wgpu::Device,
    depth: Vec<f32>,
    depth_buffer: wgpu::Buffer,
    flags: wgpu::Buffer,
    cull: wgpu::ComputePipeline,
    from_storage: wgpu::RenderPipeline,
    from_attribute: wgpu::RenderPipeline,
    quad_index: wgpu::Buffer,
}

impl Scene {
    fn new(device: &wgpu::Device) -> Self {
        // Depths from a fixed hash: the same scene every run.
        let depth: Vec<f32> = (0..OBJECTS)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 8) as f32 / (1u32 << 24) as f32)
            .collect();
        let depth_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("renderer:depth"),
            contents: bytemuck::cast_slice(&depth),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let flags = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("renderer:flags"),
            size: u64::from(OBJECTS) * 4,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let module = |label, source: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let cull_module = module("renderer:cull", CULL);
        let cull = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("renderer:cull"),
            layout: None,
            module: &cull_module,
            entry_point: Some("cull"),
            compilation_options: Default::default(),
            cache: None,
        });
        let draw_module = module(
            "renderer:draw",
            &format!("const WIDTH : u32 = {WIDTH}u;\nconst HEIGHT : u32 = {HEIGHT}u;\n{DRAW}"),
        );
        let pipeline = |entry, buffers: &[Option<wgpu::VertexBufferLayout>]| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(entry),
                layout: None,
                vertex: wgpu::VertexState {
                    module: &draw_module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::PointList,
                    ..Default::default()
                },
                depth_stencil: None,
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &draw_module,
                    entry_point: Some("mark"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::TextureFormat::R32Uint.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let from_storage = pipeline("from_storage", &[]);
        let instance_attribute = wgpu::VertexBufferLayout {
            array_stride: 4,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![0 => Uint32],
        };
        let from_attribute = pipeline("from_attribute", &[Some(instance_attribute)]);
        let quad_index = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("renderer:index"),
            contents: bytemuck::cast_slice(&[0u32]),
            usage: wgpu::BufferUsages::INDEX,
        });
        Self {
            device: device.clone(),
            depth,
            depth_buffer,
            flags,
            cull,
            from_storage,
            from_attribute,
            quad_index,
        }
    }

    /// What the CPU keeps for `[near, far)`, ascending.
    fn visible(&self, near: f32, far: f32) -> Vec<u32> {
        (0..OBJECTS)
            .filter(|&i| (near..far).contains(&self.depth[i as usize]))
            .collect()
    }

    /// One frame: cull, compact, three draws, in one encoder; the three images.
    fn frame(
        &self,
        compactor: &Compactor,
        method: Method,
        near: f32,
        far: f32,
    ) -> wgpu_compaction::Result<Vec<Vec<u32>>> {
        let device = &self.device;
        // Setup a renderer does once; here per frame, to run every method.
        let own_args = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("renderer:own args"),
            contents: bytemuck::bytes_of(&IndexedIndirectArgs {
                index_count: 1,
                ..Default::default()
            }),
            usage: wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
        });
        let capacity = u64::from(OBJECTS);
        let plain = compactor.prepare_with(
            &CompactionDesc::new(&self.flags, capacity, method)
                .with_label("renderer:plain")
                .with_draw(DrawArgs::vertices(1)),
        )?;
        let indexed = compactor.prepare_with(
            &CompactionDesc::new(&self.flags, capacity, method)
                .with_label("renderer:indexed")
                .with_draw(DrawArgs::indexed(1))
                .with_instance_count_to((&own_args, 4)),
        )?;
        let range = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("renderer:range"),
            contents: bytemuck::cast_slice(&[near, far, 0.0, 0.0]),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let cull_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("renderer:cull"),
            layout: &self.cull.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.depth_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.flags.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: range.as_entire_binding(),
                },
            ],
        });
        let storage_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("renderer:visibles"),
            layout: &self.from_storage.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: plain.indices().as_entire_binding(),
            }],
        });
        let targets: Vec<wgpu::Texture> = (0..3).map(|_| self.target()).collect();

        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.cull);
            pass.set_bind_group(0, &cull_group, &[]);
            pass.dispatch_workgroups(OBJECTS.div_ceil(64), 1, 1);
        }
        compactor.encode(&mut encoder, &plain)?;
        compactor.encode(&mut encoder, &indexed)?;
        for (k, target) in targets.iter().enumerate() {
            let view = target.create_view(&Default::default());
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("renderer:draw"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            if k == 0 {
                pass.set_pipeline(&self.from_storage);
                pass.set_bind_group(0, &storage_group, &[]);
                pass.draw_indirect(plain.indirect(), 0);
            } else {
                pass.set_pipeline(&self.from_attribute);
                pass.set_vertex_buffer(0, indexed.indices().slice(..));
                pass.set_index_buffer(self.quad_index.slice(..), wgpu::IndexFormat::Uint32);
                let args = if k == 1 {
                    indexed.indirect()
                } else {
                    &own_args
                };
                pass.draw_indexed_indirect(args, 0);
            }
        }
        let row_bytes = (WIDTH * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let pixels: Vec<wgpu::Buffer> = targets
            .iter()
            .map(|target| {
                let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("renderer:pixels"),
                    size: u64::from(row_bytes * HEIGHT),
                    usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                    mapped_at_creation: false,
                });
                encoder.copy_texture_to_buffer(
                    target.as_image_copy(),
                    wgpu::TexelCopyBufferInfo {
                        buffer: &buffer,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: 0,
                            bytes_per_row: Some(row_bytes),
                            rows_per_image: Some(HEIGHT),
                        },
                    },
                    target.size(),
                );
                buffer
            })
            .collect();
        compactor.queue().submit([encoder.finish()]);
        Ok(pixels
            .iter()
            .map(|buffer| read_image(device, buffer, row_bytes))
            .collect())
    }

    fn target(&self) -> wgpu::Texture {
        self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("renderer:target"),
            size: wgpu::Extent3d {
                width: WIDTH,
                height: HEIGHT,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Uint,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        })
    }
}

/// The first `OBJECTS` pixels of a read-back `R32Uint` image, row by row.
fn read_image(device: &wgpu::Device, buffer: &wgpu::Buffer, row_bytes: u32) -> Vec<u32> {
    buffer.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    let Ok(view) = buffer.slice(..).get_mapped_range() else {
        return Vec::new();
    };
    let words: &[u32] = bytemuck::cast_slice(&view);
    let row = (row_bytes / 4) as usize;
    let mut image: Vec<u32> = words
        .chunks(row)
        .flat_map(|r| &r[..WIDTH as usize])
        .copied()
        .collect();
    image.truncate(OBJECTS as usize);
    image
}
