//! Render pipeline for `playground/shaders/draw_instances.wgsl`: one `draw_indirect` of the
//! visible instances from a compaction's index and indirect-args buffers.

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

/// RGBA pixels, width, height of an image drawn offscreen, read back.
pub type Pixels = (Vec<u8>, u32, u32);

pub const SOURCE: &str = include_str!("../shaders/draw_instances.wgsl");

/// Mirrors `Grid` in the shader.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Grid {
    pub flags: u32,
    pub cols: u32,
    pub rows: u32,
    /// `OBJECT_GRID` or `DRAW_ORDER`.
    pub mode: u32,
    /// Materials, in `DRAW_ORDER` mode.
    pub groups: u32,
    pub _pad: [u32; 3],
}

const _: () = assert!(std::mem::size_of::<Grid>() == 32);

/// Each object at its own cell (the gaps are the invisible flags), coloured by
/// its place in the draw ([`position_colour`]).
pub const OBJECT_GRID: u32 = 0;
/// Each instance at its place in the draw, coloured by material and depth.
pub const DRAW_ORDER: u32 = 1;

/// The shader's `position_colour`: the RGB (0–1) of instance `instance` of a
/// draw over `flags` flags in `OBJECT_GRID` mode (the tests' oracle).
pub fn position_colour(instance: u32, flags: u32) -> [f32; 3] {
    let t = 0.85 * instance as f32 / flags.max(1) as f32;
    [0.0f32, 2.0, 4.0].map(|k| 0.55 + 0.4 * (std::f32::consts::TAU * (t + k / 6.0)).cos())
}

impl Grid {
    /// Square-ish cells filling a `width` × `height` target, one per flag.
    pub fn fit(flags: u32, width: u32, height: u32) -> Self {
        let n = f64::from(flags.max(1));
        let aspect = f64::from(width.max(1)) / f64::from(height.max(1));
        let cols = ((n * aspect).sqrt().ceil() as u32).clamp(1, flags.max(1));
        let rows = flags.max(1).div_ceil(cols);
        Self {
            flags,
            cols,
            rows,
            ..Self::default()
        }
    }

    /// Cells for `instances` draws (the visible flags of `flags`), in draw
    /// order: instance i at cell i, coloured by which of `groups` materials its
    /// object belongs to.
    pub fn draw_order(flags: u32, instances: u32, groups: u32, width: u32, height: u32) -> Self {
        Self {
            flags,
            mode: DRAW_ORDER,
            groups,
            ..Self::fit(instances.max(1), width, height)
        }
    }
}

pub struct DrawInstances {
    pipeline: wgpu::RenderPipeline,
}

impl DrawInstances {
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("draw_instances"),
            source: wgpu::ShaderSource::Wgsl(SOURCE.into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("draw_instances"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("draw_instances_vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("draw_instances_fs"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        Self { pipeline }
    }

    /// Clears `target` and draws `indirect`'s instances, object `indices[i]` for
    /// instance `i`, on a grid of `grid.flags` cells.
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        indices: &wgpu::Buffer,
        indirect: &wgpu::Buffer,
        grid: Grid,
    ) {
        let grid = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("draw_instances:grid"),
            contents: bytemuck::bytes_of(&grid),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("draw_instances"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: indices.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: grid.as_entire_binding(),
                },
            ],
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("draw_instances"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.draw_indirect(indirect, 0);
    }
}

/// An offscreen target for the same `draw_indirect`, whose pixels are copied to
/// a buffer for readback: for browsers that cannot present a WebGPU canvas
/// (headless Chromium on SwiftShader loses its device on the first present),
/// and for native tests of the draw.
pub struct OffscreenImage {
    texture: wgpu::Texture,
    /// The texture copied row by row; rows padded to COPY_BYTES_PER_ROW_ALIGNMENT.
    pixels: wgpu::Buffer,
    row_bytes: u32,
    draw: DrawInstances,
}

impl OffscreenImage {
    pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("draw_instances:image"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: Self::FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let row_bytes = (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let pixels = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("draw_instances:pixels"),
            size: u64::from(row_bytes) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Self {
            texture,
            pixels,
            row_bytes,
            draw: DrawInstances::new(device, Self::FORMAT),
        }
    }

    pub fn width(&self) -> u32 {
        self.texture.width()
    }

    pub fn height(&self) -> u32 {
        self.texture.height()
    }

    /// The padded pixel rows, filled by `encode`.
    pub fn pixels(&self) -> &wgpu::Buffer {
        &self.pixels
    }

    /// Draws `indirect`'s instances on `grid` (made for this image's size, e.g.
    /// `Grid::fit(flags, image.width(), image.height())`) and copies the image
    /// into `pixels()`.
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        indices: &wgpu::Buffer,
        indirect: &wgpu::Buffer,
        grid: Grid,
    ) {
        let view = self.texture.create_view(&Default::default());
        let size = self.texture.size();
        self.draw
            .encode(device, encoder, &view, indices, indirect, grid);
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.pixels,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.row_bytes),
                    rows_per_image: Some(size.height),
                },
            },
            size,
        );
    }

    /// The read-back rows without their padding: tightly packed RGBA.
    pub fn unpad(&self, words: &[u32]) -> Vec<u8> {
        let bytes: &[u8] = bytemuck::cast_slice(words);
        let width = self.width() as usize * 4;
        bytes
            .chunks(self.row_bytes as usize)
            .flat_map(|row| &row[..width])
            .copied()
            .collect()
    }
}
