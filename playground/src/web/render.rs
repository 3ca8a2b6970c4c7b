//! The page's GPU state, and one run: compaction, the draw into a canvas or an
//! offscreen image, and the readback, in one submission.

use std::cell::RefCell;
use std::rc::Rc;

use super::shared::SharedGpu;
use crate::draw_instances::{DrawInstances, Grid, OffscreenImage};
use wgpu_compaction::{scoped, Compaction, CompactionOutput, Compactor, Method, Readback};

pub(super) struct Canvas {
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub draw: DrawInstances,
}

/// One playground's GPU side: its own flags and drawing, on the page's shared device.
pub(super) struct Gpu {
    pub shared: Rc<SharedGpu>,
    pub flags: RefCell<Option<wgpu::Buffer>>,
    pub canvas: RefCell<Option<Canvas>>,
    pub image: RefCell<Option<Rc<OffscreenImage>>>,
}

impl Gpu {
    pub fn new(shared: Rc<SharedGpu>) -> Self {
        Self {
            shared,
            flags: RefCell::new(None),
            canvas: RefCell::new(None),
            image: RefCell::new(None),
        }
    }
}

/// RGBA pixels, width, height of an attached image after a run.
pub(super) type Pixels = (Vec<u8>, u32, u32);

/// Where a run draws its instances.
pub(super) enum Draw {
    /// Into the playground's attached canvas or image, each object at its cell.
    Attached,
    /// Into `image` only, each instance at its place in the draw (`Grid::draw_order`).
    Order {
        image: Rc<OffscreenImage>,
        groups: u32,
    },
}

/// Compacts on the GPU, draws into the canvas or image if one is attached, reads
/// back. A GPU error on the way (an invalid pipeline, a lost buffer) rejects the
/// run with its message instead of returning zeros.
/// `buffer` holds `flags` on the device (uploaded here when `None`).
pub(super) async fn run_gpu(
    gpu: &Gpu,
    flags: &[u32],
    buffer: Option<wgpu::Buffer>,
    method: Method,
    draw: Draw,
) -> crate::Result<(CompactionOutput, Option<Pixels>)> {
    let device = &gpu.shared.context.device;
    scoped(device, run_gpu_unscoped(gpu, flags, buffer, method, draw)).await
}

async fn run_gpu_unscoped(
    gpu: &Gpu,
    flags: &[u32],
    buffer: Option<wgpu::Buffer>,
    method: Method,
    draw: Draw,
) -> crate::Result<(CompactionOutput, Option<Pixels>)> {
    let compactor = &gpu.shared.compactor;
    let device = &gpu.shared.context.device;
    // (Uploaded here: destroyed when the run ends, not left to the JS GC.)
    let (buffer, _uploaded) = match buffer {
        Some(buffer) => (buffer, None),
        None => {
            let buffer = compactor.upload(flags)?;
            (buffer.clone(), Some(Uploaded(buffer)))
        }
    };
    let len = flags.len() as u64;
    let compaction = compactor
        .prepare(&buffer, len, method, Compactor::DEFAULT_VERTEX_COUNT)?
        .destroy_on_drop();
    let mut encoder = device.create_command_encoder(&Default::default());
    compactor.encode(&mut encoder, &compaction);
    let n = len as u32;
    let (frame, image) = match draw {
        // Cloned, not borrowed: no RefCell borrow may live across the awaits below.
        Draw::Attached => (
            draw_canvas(gpu, &mut encoder, &compaction, n),
            gpu.image.borrow().clone().map(|i| {
                let grid = Grid::fit(n, i.width(), i.height());
                (i, grid)
            }),
        ),
        Draw::Order { image, groups } => {
            let visible = flags
                .iter()
                .filter(|&&f| wgpu_compaction::is_visible(f))
                .count();
            let grid = Grid::draw_order(n, visible as u32, groups, image.width(), image.height());
            (None, Some((image, grid)))
        }
    };
    let output = compaction.read_output(device, &mut encoder);
    let mut pixels = Readback::default();
    if let Some((image, grid)) = &image {
        let (indices, indirect) = (compaction.indices(), compaction.indirect());
        image.encode(device, &mut encoder, indices, indirect, *grid);
        let words = image.pixels().size() / 4;
        pixels.copy(device, &mut encoder, image.pixels(), 0, words);
    }
    let queue = &gpu.shared.context.queue;
    queue.submit([encoder.finish()]);
    if let Some(frame) = frame {
        queue.present(frame);
    }
    let output = output.read(device).await?;
    let read = pixels.read(device).await?;
    let pixels = image
        .as_ref()
        .map(|(image, _)| (image.unpad(&read[0]), image.width(), image.height()));
    Ok((output, pixels))
}

/// Flags uploaded for one call: destroyed when it ends, however it ends (in a
/// browser, wgpu leaves a dropped buffer to the JS GC).
pub(super) struct Uploaded(pub wgpu::Buffer);

impl Drop for Uploaded {
    fn drop(&mut self) {
        self.0.destroy();
    }
}

fn draw_canvas(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    compaction: &Compaction,
    flags: u32,
) -> Option<wgpu::SurfaceTexture> {
    let canvas = gpu.canvas.borrow();
    let canvas = canvas.as_ref()?;
    let frame = match canvas.surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(frame)
        | wgpu::CurrentSurfaceTexture::Suboptimal(frame) => frame,
        _ => return None,
    };
    let view = frame.texture.create_view(&Default::default());
    let grid = Grid::fit(flags, canvas.config.width, canvas.config.height);
    canvas.draw.encode(
        &gpu.shared.context.device,
        encoder,
        &view,
        compaction.indices(),
        compaction.indirect(),
        grid,
    );
    Some(frame)
}
