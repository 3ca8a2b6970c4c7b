//! A GPU-driven renderer's frame with `wgpu-compaction`: objects grouped by mesh
//! (one contiguous segment per mesh), a culling pass writes one flag per object,
//! one compaction writes, into the renderer's own buffers, the visible objects'
//! indices, a copy of each one's payload (its position and a check word), and one
//! `DrawIndexedIndirectArgs` per mesh; one `multi_draw_indexed_indirect` (and,
//! where the device has it, one `multi_draw_indexed_indirect_count`) draws them.
//!
//! Then the same frames culled in the compaction's own pass: `lookback` asks the
//! depth test itself (`CullDesc`, no flags written or read), writes into outputs
//! sized for what is drawn (`max_visible`), and packs the records to the meshes
//! with a visible object, for one `multi_draw_indexed_indirect_count` with no
//! empty draw.
//!
//! Each object owns one pixel of three `R32Uint` targets and writes there its
//! index (from the indices), its mesh (from the draw: `first_index` and
//! `base_vertex` of its mesh's record) and its payload's check word: the images
//! read back must hold exactly what the CPU computes, pixel for pixel, and every
//! record must equal the CPU's.
//!
//!   cargo run --release --example multi_draw     (WGPU_BACKEND=vulkan etc. chooses)

use wgpu::util::DeviceExt;
use wgpu_compaction::teaching::cpu;
use wgpu_compaction::{
    CompactionDesc, Compactor, CullDesc, DrawArgs, IndexedIndirectArgs, Method, PayloadDesc,
    Segment, SegmentsDesc,
};

/// Meshes, and the most instances one has.
const MESHES: u32 = 100;
const MOST_INSTANCES: u32 = 10_000;
/// The target's width: object `i` owns pixel `(i % WIDTH, i / WIDTH)`.
const WIDTH: u32 = 1024;
/// Mesh `m`'s one index is `m`, drawn with a base vertex of `BASE_STRIDE · m`.
const BASE_STRIDE: u32 = 1000;
/// Payload words per object: pixel x, pixel y, a check word, 0.
const PAYLOAD_WORDS: u32 = 4;
/// Each frame keeps the objects whose depth lies in `[near, far)`.
const FRAMES: [(f32, f32); 2] = [(0.0, 0.5), (0.45, 0.55)];

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

/// The same test as the compaction's visibility function: its resources in
/// @group(1), named apart from the library's WGSL.
const VISIBLE: &str = "
@group(1) @binding(0) var<storage, read> cull_depth : array<f32>;
@group(1) @binding(1) var<uniform> cull_range : vec4<f32>;

fn visible(object : u32) -> bool {
  let d = cull_depth[object];
  return d >= cull_range.x && d < cull_range.y;
}
";

/// How a frame finds its visible objects.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// A culling pass writes a flag an object; `method` compacts them into outputs
    /// with room for every object, a record per mesh.
    Flags(Method),
    /// `lookback` asks `VISIBLE` in its own pass, into outputs with room for
    /// `MAX_VISIBLE_PERCENT` of the objects, its records packed.
    OnePass,
}

/// The one-pass frames' outputs hold this share of the objects (both frames draw fewer).
const MAX_VISIBLE_PERCENT: u64 = 60;

/// The vertex shader finds its object at `instance_index` (the record's first
/// instance counts from the start of the instance buffer), and its mesh from
/// the vertex index (WIDTH, HEIGHT and the mesh stride are prepended).
const DRAW: &str = "
@group(0) @binding(0) var<storage, read> visibles : array<u32>;
@group(0) @binding(1) var<storage, read> payloads : array<vec4<u32>>;

struct Out {
  @builtin(position) position : vec4<f32>,
  @location(0) @interpolate(flat) marks : vec3<u32>,
}

@vertex
fn object(@builtin(vertex_index) v : u32, @builtin(instance_index) k : u32) -> Out {
  let payload = payloads[k];
  let x = (f32(payload.x) + 0.5) / f32(WIDTH);
  let y = (f32(payload.y) + 0.5) / f32(HEIGHT);
  let mesh = v / (BASE_STRIDE + 1u);
  return Out(vec4<f32>(2.0 * x - 1.0, 1.0 - 2.0 * y, 0.0, 1.0),
             vec3<u32>(visibles[k] + 1u, mesh + 1u, payload.z));
}

struct Targets {
  @location(0) object : u32,
  @location(1) mesh : u32,
  @location(2) check : u32,
}

@fragment
fn mark(in : Out) -> Targets {
  return Targets(in.marks.x, in.marks.y, in.marks.z);
}
";

fn main() {
    match run() {
        Ok(report) => println!("{report}"),
        Err(e) => {
            eprintln!("multi_draw: {e}");
            std::process::exit(1);
        }
    }
}

/// Every order-keeping method, every frame, each draw; `Err` names the first difference.
pub fn run() -> Result<String, String> {
    let (device, queue, with_count) = open_device()?;
    let compactor = Compactor::new(&device, &queue);
    let scene = Scene::new(&device);
    let mut report = vec![format!(
        "{} objects in {MESHES} meshes (0 to {MOST_INSTANCES} instances each)",
        scene.objects
    )];
    let modes = Method::ALL
        .into_iter()
        .filter(|m| m.preserves_order())
        .map(Mode::Flags)
        .chain([Mode::OnePass]);
    for mode in modes {
        let mut drawn = 0;
        let name = match mode {
            Mode::Flags(method) => method.to_string(),
            Mode::OnePass => "lookback culling in its pass".to_string(),
        };
        for (frame, &(near, far)) in FRAMES.iter().enumerate() {
            let out = scene
                .frame(&compactor, mode, near, far, with_count)
                .map_err(|e| format!("{name}: {e}"))?;
            let what = format!("{name}, frame {frame}");
            let visible = scene.visible(near, far);
            let (mut records, mut draw_count) = cpu::segment_args(
                &visible,
                0,
                scene.objects,
                &scene.segments,
                DrawArgs::Indexed(IndexedIndirectArgs::default()),
            );
            if let Mode::OnePass = mode {
                (records, _, draw_count) = cpu::pack_records(&records);
                if out.dropped != 0 {
                    return Err(format!("{what}: {} objects did not fit", out.dropped));
                }
            }
            if out.records != records {
                let at = out.records.iter().zip(&records).position(|(a, b)| a != b);
                return Err(format!("{what}: record {at:?} differs from the CPU's"));
            }
            if out.draw_count != draw_count {
                return Err(format!(
                    "{what}: draw count {} where the CPU has {draw_count}",
                    out.draw_count
                ));
            }
            for (draw, images) in &out.images {
                scene
                    .check(&visible, images)
                    .map_err(|e| format!("{what}, {draw}: {e}"))?;
                drawn += visible.len();
            }
        }
        report.push(format!(
            "{name}: {drawn} instances drawn and checked pixel by pixel over {} frames ({})",
            FRAMES.len(),
            if with_count {
                "multi_draw_indexed_indirect and _count"
            } else {
                "multi_draw_indexed_indirect"
            }
        ));
    }
    Ok(report.join("\n"))
}

/// A device with what the draws need: `INDIRECT_FIRST_INSTANCE` (each mesh's
/// record starts at its own first instance) and, where the adapter has it,
/// `MULTI_DRAW_INDIRECT_COUNT`; and the limits of the look-back with a payload.
fn open_device() -> Result<(wgpu::Device, wgpu::Queue, bool), String> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .map_err(|e| format!("no adapter: {e}"))?;
    if !adapter
        .features()
        .contains(wgpu::Features::INDIRECT_FIRST_INSTANCE)
    {
        return Err("the adapter lacks INDIRECT_FIRST_INSTANCE".into());
    }
    let wanted = wgpu::Features::INDIRECT_FIRST_INSTANCE
        | wgpu::Features::MULTI_DRAW_INDIRECT_COUNT
        | wgpu::Features::SUBGROUP;
    let features = adapter.features() & wanted;
    let mut limits = wgpu::Limits::default();
    for method in Method::ALL {
        limits = limits.or_better_values_from(&Compactor::required_limits(method));
    }
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("multi_draw"),
        required_features: features,
        required_limits: wgpu::Limits {
            max_storage_buffer_binding_size: adapter.limits().max_storage_buffer_binding_size,
            ..limits
        },
        ..Default::default()
    }))
    .map_err(|e| format!("no device: {e}"))?;
    Ok((
        device,
        queue,
        features.contains(wgpu::Features::MULTI_DRAW_INDIRECT_COUNT),
    ))
}

/// One frame's results: the records and draw count read back, and per draw the
/// three images.
struct Frame {
    records: Vec<DrawArgs>,
    draw_count: u32,
    /// Visible objects past the outputs' room.
    dropped: u32,
    images: Vec<(&'static str, [Vec<u32>; 3])>,
}

/// The objects, their meshes and depths, the renderer's buffers and pipelines.
struct Scene {
    device: wgpu::Device,
    objects: u32,
    height: u32,
    depth: Vec<f32>,
    /// Each object's mesh.
    mesh_of: Vec<u32>,
    segments: Vec<Segment>,
    depth_buffer: wgpu::Buffer,
    flags: wgpu::Buffer,
    payload_source: wgpu::Buffer,
    segment_buffer: wgpu::Buffer,
    index_buffer: wgpu::Buffer,
    cull: wgpu::ComputePipeline,
    draw: wgpu::RenderPipeline,
}

/// A fixed hash: the same scene every run.
fn hash(i: u32) -> u32 {
    let mut x = i.wrapping_mul(0x9E37_79B9) ^ 0x5bd1_e995;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2c1b_3c6d);
    x ^ (x >> 12)
}

impl Scene {
    fn new(device: &wgpu::Device) -> Self {
        // Mesh m has 0 to MOST_INSTANCES instances; a few have none, one has the most.
        let counts: Vec<u32> = (0..MESHES)
            .map(|m| match m {
                7 => MOST_INSTANCES,
                _ if m % 9 == 4 => 0,
                _ => hash(m) % (MOST_INSTANCES + 1),
            })
            .collect();
        let mut segments = Vec::new();
        let mut mesh_of = Vec::new();
        for (m, &count) in counts.iter().enumerate() {
            segments.push(Segment {
                first_object: mesh_of.len() as u32,
                index_count: 1,
                first_index: m as u32,
                base_vertex: (BASE_STRIDE * m as u32) as i32,
            });
            mesh_of.extend(std::iter::repeat_n(m as u32, count as usize));
        }
        let objects = mesh_of.len() as u32;
        let height = objects.div_ceil(WIDTH);
        let depth: Vec<f32> = (0..objects)
            .map(|i| (hash(i) >> 8) as f32 / (1u32 << 24) as f32)
            .collect();
        let payload: Vec<u32> = (0..objects)
            .flat_map(|i| [i % WIDTH, i / WIDTH, check_word(i), 0])
            .collect();
        let init = |label, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE;
        let depth_buffer = init("multi_draw:depth", bytemuck::cast_slice(&depth), storage);
        let flags = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("multi_draw:flags"),
            size: u64::from(objects) * 4,
            usage: storage,
            mapped_at_creation: false,
        });
        let payload_source = init(
            "multi_draw:payload",
            bytemuck::cast_slice(&payload),
            storage,
        );
        let segment_buffer = init(
            "multi_draw:segments",
            bytemuck::cast_slice(&segments),
            storage,
        );
        let indices: Vec<u32> = (0..MESHES).collect();
        let index_buffer = init(
            "multi_draw:index",
            bytemuck::cast_slice(&indices),
            wgpu::BufferUsages::INDEX,
        );
        let module = |label, source: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let cull_module = module("multi_draw:cull", CULL);
        let cull = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("multi_draw:cull"),
            layout: None,
            module: &cull_module,
            entry_point: Some("cull"),
            compilation_options: Default::default(),
            cache: None,
        });
        let draw_module = module(
            "multi_draw:draw",
            &format!(
                "const WIDTH : u32 = {WIDTH}u;\nconst HEIGHT : u32 = {height}u;\n\
                 const BASE_STRIDE : u32 = {BASE_STRIDE}u;\n{DRAW}"
            ),
        );
        let target = Some(wgpu::ColorTargetState::from(wgpu::TextureFormat::R32Uint));
        let draw = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("multi_draw:draw"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &draw_module,
                entry_point: Some("object"),
                compilation_options: Default::default(),
                buffers: &[],
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
                targets: &[target.clone(), target.clone(), target],
            }),
            multiview_mask: None,
            cache: None,
        });
        Self {
            device: device.clone(),
            objects,
            height,
            depth,
            mesh_of,
            segments,
            depth_buffer,
            flags,
            payload_source,
            segment_buffer,
            index_buffer,
            cull,
            draw,
        }
    }

    /// What the CPU keeps for `[near, far)`, ascending.
    fn visible(&self, near: f32, far: f32) -> Vec<u32> {
        (0..self.objects)
            .filter(|&i| (near..far).contains(&self.depth[i as usize]))
            .collect()
    }

    /// Every pixel: a visible object's own pixel holds its index, its mesh and its
    /// check word; every other pixel is empty.
    fn check(&self, visible: &[u32], images: &[Vec<u32>; 3]) -> Result<(), String> {
        let mut want = [
            vec![0; self.objects as usize],
            vec![0; self.objects as usize],
            vec![0; self.objects as usize],
        ];
        for &i in visible {
            want[0][i as usize] = i + 1;
            want[1][i as usize] = self.mesh_of[i as usize] + 1;
            want[2][i as usize] = check_word(i);
        }
        for (k, what) in ["object", "mesh", "payload"].iter().enumerate() {
            if let Some(p) = (0..self.objects as usize).find(|&p| images[k][p] != want[k][p]) {
                return Err(format!(
                    "{what} image: pixel {p} holds {}, the CPU has {}",
                    images[k][p], want[k][p]
                ));
            }
        }
        Ok(())
    }

    /// One frame: cull, compact per mesh into the renderer's buffers, the draws,
    /// all in one encoder; then the records and images read back.
    fn frame(
        &self,
        compactor: &Compactor,
        mode: Mode,
        near: f32,
        far: f32,
        with_count: bool,
    ) -> wgpu_compaction::Result<Frame> {
        let device = &self.device;
        let capacity = u64::from(self.objects);
        // Room for every object, or for what the one-pass frames draw.
        let room = match mode {
            Mode::Flags(_) => capacity,
            Mode::OnePass => capacity * MAX_VISIBLE_PERCENT / 100,
        };
        // The renderer's own outputs (setup a renderer does once; here per frame,
        // to run every method).
        let storage = wgpu::BufferUsages::STORAGE;
        let output = |label, bytes: u64, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage: storage | wgpu::BufferUsages::COPY_SRC | usage,
                mapped_at_creation: false,
            })
        };
        let instances = output(
            "multi_draw:instances",
            room * 4,
            wgpu::BufferUsages::empty(),
        );
        let payloads = output(
            "multi_draw:payloads",
            room * 4 * u64::from(PAYLOAD_WORDS),
            wgpu::BufferUsages::empty(),
        );
        let args = output(
            "multi_draw:args",
            20 * u64::from(MESHES) + 4,
            wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
        );
        let range = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("multi_draw:range"),
            contents: bytemuck::cast_slice(&[near, far, 0.0, 0.0]),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let cull_resources = entries(&[&self.depth_buffer, &range]);
        let (desc, packed) = match mode {
            Mode::Flags(method) => (CompactionDesc::new(&self.flags, capacity, method), false),
            Mode::OnePass => (
                compactor
                    .culled(CullDesc::new(VISIBLE, &cull_resources), capacity)
                    .with_max_visible(room),
                true,
            ),
        };
        let compaction = compactor
            .prepare_with(
                &desc
                    .with_label("multi_draw")
                    .with_draw(DrawArgs::indexed(1))
                    .with_indices_to((&instances, 0))
                    .with_payload(
                        PayloadDesc::new((&self.payload_source, 0), PAYLOAD_WORDS)
                            .with_to((&payloads, 0)),
                    )
                    .with_segments(
                        SegmentsDesc::new((&self.segment_buffer, 0), MESHES)
                            .with_args_to((&args, 0))
                            .with_packed(packed),
                    ),
            )?
            .destroy_on_drop();
        let cull_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("multi_draw:cull"),
            layout: &self.cull.get_bind_group_layout(0),
            entries: &entries(&[&self.depth_buffer, &self.flags, &range]),
        });
        let draw_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("multi_draw:draw"),
            layout: &self.draw.get_bind_group_layout(0),
            entries: &entries(&[&instances, &payloads]),
        });
        let draws: Vec<&'static str> = if with_count {
            vec![
                "multi_draw_indexed_indirect",
                "multi_draw_indexed_indirect_count",
            ]
        } else {
            vec!["multi_draw_indexed_indirect"]
        };
        let targets: Vec<[wgpu::Texture; 3]> = draws
            .iter()
            .map(|_| [self.target(), self.target(), self.target()])
            .collect();

        let mut encoder = device.create_command_encoder(&Default::default());
        if let Mode::Flags(_) = mode {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.cull);
            pass.set_bind_group(0, &cull_group, &[]);
            pass.dispatch_workgroups(self.objects.div_ceil(64), 1, 1);
        }
        compactor.encode(&mut encoder, &compaction)?;
        let (records, records_offset) = compaction.segment_args().expect("segments");
        let (count_buffer, count_offset) = compaction.draw_count().expect("segments");
        for (k, set) in targets.iter().enumerate() {
            let views: Vec<wgpu::TextureView> = set
                .iter()
                .map(|t| t.create_view(&Default::default()))
                .collect();
            let attachments: Vec<Option<wgpu::RenderPassColorAttachment>> = views
                .iter()
                .map(|view| {
                    Some(wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                            store: wgpu::StoreOp::Store,
                        },
                    })
                })
                .collect();
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("multi_draw:draw"),
                color_attachments: &attachments,
                ..Default::default()
            });
            pass.set_pipeline(&self.draw);
            pass.set_bind_group(0, &draw_group, &[]);
            pass.set_index_buffer(self.index_buffer.slice(..), wgpu::IndexFormat::Uint32);
            if k == 0 {
                pass.multi_draw_indexed_indirect(records, records_offset, MESHES);
            } else {
                pass.multi_draw_indexed_indirect_count(
                    records,
                    records_offset,
                    count_buffer,
                    count_offset,
                    MESHES,
                );
            }
        }
        let pending = compaction.read_output(device, &mut encoder)?;
        let row_bytes = (WIDTH * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let pixels: Vec<Vec<wgpu::Buffer>> = targets
            .iter()
            .map(|set| {
                set.iter()
                    .map(|target| self.copy_image(&mut encoder, target, row_bytes))
                    .collect()
            })
            .collect();
        compactor.queue().submit([encoder.finish()]);
        let out = pollster::block_on(pending.read(device))?;
        let images = draws
            .into_iter()
            .zip(&pixels)
            .map(|(draw, set)| {
                let read = |k: usize| read_image(device, &set[k], row_bytes, self.objects);
                (draw, [read(0), read(1), read(2)])
            })
            .collect();
        Ok(Frame {
            records: out.segment_args,
            draw_count: out.draw_count,
            dropped: out.dropped,
            images,
        })
    }

    fn target(&self) -> wgpu::Texture {
        self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("multi_draw:target"),
            size: wgpu::Extent3d {
                width: WIDTH,
                height: self.height,
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

    fn copy_image(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::Texture,
        row_bytes: u32,
    ) -> wgpu::Buffer {
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("multi_draw:pixels"),
            size: u64::from(row_bytes * self.height),
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
                    rows_per_image: Some(self.height),
                },
            },
            target.size(),
        );
        buffer
    }
}

/// Each buffer bound to its position's binding number.
fn entries<'a>(buffers: &[&'a wgpu::Buffer]) -> Vec<wgpu::BindGroupEntry<'a>> {
    (0..)
        .zip(buffers)
        .map(|(binding, b)| wgpu::BindGroupEntry {
            binding,
            resource: b.as_entire_binding(),
        })
        .collect()
}

/// Object `i`'s payload check word: neither its index nor 0.
fn check_word(i: u32) -> u32 {
    hash(i ^ 0xA5A5_A5A5) | 1
}

/// The first `pixels` pixels of a read-back `R32Uint` image, row by row.
fn read_image(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    row_bytes: u32,
    pixels: u32,
) -> Vec<u32> {
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
    image.truncate(pixels as usize);
    image
}
