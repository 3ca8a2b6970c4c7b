//! One run on the page's GPU: compaction, the draw into a canvas or an
//! offscreen image, and the readback, in one submission (or in slices, each
//! its own turn, on a software adapter).

use std::rc::Rc;

use super::Gpu;
use crate::draw_instances::{DrawInstances, Grid, OffscreenImage, Pixels};
use crate::web::backend::Draw;
use crate::web::shared::Uploaded;
use crate::web::{PARTIAL_FROM, RESULT_HEAD};
use wgpu_compaction::teaching::{self, scoped, Readback};
use wgpu_compaction::{Compaction, CompactionOutput, Compactor, Method};

pub(in crate::web) struct Canvas {
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub draw: DrawInstances,
}

/// Compacts on the GPU, draws into the canvas or image if one is attached, reads
/// back. A GPU error on the way (an invalid pipeline, a lost buffer) rejects the
/// run with its message instead of returning zeros. It takes its turns on the
/// page's GPU itself: one, or one a slice (`SharedGpu::slice_invocations`), each in its
/// own error scopes. `buffer` holds `flags` on the device (uploaded here when `None`).
pub(super) async fn run_gpu(
    gpu: &Gpu,
    flags: &[u32],
    buffer: Option<wgpu::Buffer>,
    method: Method,
    draw: Draw,
) -> crate::Result<(CompactionOutput, Option<Pixels>)> {
    let shared = &gpu.shared;
    let device = &shared.context.device;
    let per_slice = shared.slice_invocations();
    // One compactor for every slice (a kernel set meanwhile applies to the next run).
    let compactor = gpu.compactor();
    let mut prepared = None;
    let mut buffer = buffer;
    // A large run reads back its count and what the result shows at once; its
    // compaction stays, for the rest on demand (`read_last`).
    let head = match draw {
        Draw::Attached if flags.len() as u64 >= PARTIAL_FROM => RESULT_HEAD,
        _ => u64::MAX,
    };
    let mut turn = shared.lock.lock().await;
    shared.check()?;
    *gpu.last.borrow_mut() = None;
    for k in 0.. {
        let step = Step {
            gpu,
            compactor: &compactor,
            flags,
            method,
            k,
            per_slice,
            head,
        };
        let done = scoped(device, step.run(&mut prepared, &mut buffer, &draw)).await?;
        if let Some(done) = done {
            if done.0.indices.len() < done.0.count as usize {
                if let Some((compaction, _)) = prepared.take() {
                    *gpu.last.borrow_mut() = Some((compaction, done.0.count));
                }
            }
            return Ok(done);
        }
        drop(turn);
        turn = shared.lock.lock().await;
        shared.check()?;
    }
    unreachable!("a compaction has a last slice")
}

/// One turn of a run: slice `k`.
struct Step<'a> {
    gpu: &'a Gpu,
    compactor: &'a Compactor,
    flags: &'a [u32],
    method: Method,
    k: usize,
    per_slice: u64,
    /// The most indices read back with the run.
    head: u64,
}

impl Step<'_> {
    /// Prepares the compaction on the first turn (uploading the flags when
    /// `buffer` is None: destroyed when the run ends, not left to the JS GC),
    /// records slice `k`; after a slice before the last, waits for it (the next
    /// call does not queue behind it) and says None. The last slice goes with
    /// the draw and the readback, in one submission.
    async fn run(
        &self,
        prepared: &mut Option<(Compaction, Option<Uploaded>)>,
        buffer: &mut Option<wgpu::Buffer>,
        draw: &Draw,
    ) -> crate::Result<Option<(CompactionOutput, Option<Pixels>)>> {
        let (gpu, flags, per_slice) = (self.gpu, self.flags, self.per_slice);
        let compactor = self.compactor;
        let device = &gpu.shared.context.device;
        if prepared.is_none() {
            let (buffer, uploaded) = match buffer.take() {
                Some(buffer) => (buffer, None),
                None => {
                    let buffer = compactor.upload(flags)?;
                    (buffer.clone(), Some(Uploaded(buffer)))
                }
            };
            let len = flags.len() as u64;
            let compaction = compactor
                .prepare(&buffer, len, self.method, Compactor::DEFAULT_VERTEX_COUNT)?
                .destroy_on_drop();
            if teaching::probe_buffer(compactor).is_some() {
                // A learner's kernel: every slot starts as UNWRITTEN, so that a slot it never
                // wrote is told apart from one where it wrote index 0.
                let words = compaction.capacity() as usize;
                let fill = vec![teaching::UNWRITTEN; words];
                let (indices, offset) = (compaction.indices(), compaction.indices_offset());
                let queue = &gpu.shared.context.queue;
                queue.write_buffer(indices, offset, bytemuck::cast_slice(&fill));
            }
            *prepared = Some((compaction, uploaded));
        }
        let Some((compaction, _)) = prepared.as_ref() else {
            unreachable!("prepared above")
        };
        let last = compactor.slices(compaction, per_slice) - 1;
        if self.k < last {
            let mut encoder = device.create_command_encoder(&Default::default());
            compactor.encode_slice(&mut encoder, compaction, per_slice, self.k)?;
            let mut done = Readback::default();
            done.copy(device, &mut encoder, compaction.count(), 0, 1);
            gpu.shared.context.queue.submit([encoder.finish()]);
            done.read(device).await?;
            return Ok(None);
        }
        finish_run(
            gpu,
            compactor,
            flags,
            compaction,
            (last, per_slice, self.head),
            draw,
        )
        .await
        .map(Some)
    }
}

/// The last slice (or the whole compaction), the draw and the readback, in one submission.
async fn finish_run(
    gpu: &Gpu,
    compactor: &Compactor,
    flags: &[u32],
    compaction: &Compaction,
    (last, per_slice, head): (usize, u64, u64),
    draw: &Draw,
) -> crate::Result<(CompactionOutput, Option<Pixels>)> {
    let device = &gpu.shared.context.device;
    let mut encoder = device.create_command_encoder(&Default::default());
    compactor.encode_slice(&mut encoder, compaction, per_slice, last)?;
    let n = flags.len() as u32;
    let (frame, image) = match draw {
        // Cloned, not borrowed: no RefCell borrow may live across the awaits below.
        Draw::Attached => (
            draw_canvas(gpu, &mut encoder, compaction, n),
            gpu.image.borrow().clone().map(|i| {
                let grid = Grid::fit(n, i.width(), i.height());
                (i, grid)
            }),
        ),
        &Draw::Order {
            width,
            height,
            groups,
        } => {
            let image = Rc::new(OffscreenImage::new(device, width, height));
            let visible = flags
                .iter()
                .filter(|&&f| wgpu_compaction::is_visible(f))
                .count();
            let grid = Grid::draw_order(n, visible as u32, groups, image.width(), image.height());
            (None, Some((image, grid)))
        }
    };
    let output = compaction.read_output_head(device, &mut encoder, head)?;
    let mut pixels = Readback::default();
    let image_at = image.as_ref().map(|(image, grid)| {
        let (indices, indirect) = (compaction.indices(), compaction.indirect());
        image.encode(device, &mut encoder, indices, indirect, *grid);
        let words = image.pixels().size() / 4;
        pixels.copy(device, &mut encoder, image.pixels(), 0, words)
    });
    // A learner's instrumented kernel: its probe read and cleared in the same
    // submission, and the whole of its index buffer, to see a write past the count.
    let probe_at = teaching::probe_buffer(compactor).map(|probe| {
        let at = pixels.copy(device, &mut encoder, probe, 0, teaching::PROBE_WORDS);
        encoder.clear_buffer(probe, 0, None);
        let (indices, offset) = (compaction.indices(), compaction.indices_offset());
        let all = pixels.copy_at(device, &mut encoder, indices, offset, compaction.capacity());
        (at, all)
    });
    let queue = &gpu.shared.context.queue;
    queue.submit([encoder.finish()]);
    if let Some(frame) = frame {
        queue.present(frame);
    }
    let output = output.read(device).await?;
    let read = pixels.read(device).await?;
    if let Some((at, all)) = probe_at {
        gpu.probe_line.set(teaching::probe_line(&read[at]));
        if let Some(costs) = read[at].get(teaching::PROBE_COSTS) {
            gpu.costs.replace(costs.to_vec());
        }
        // Every slot started UNWRITTEN: a word past the count that is not is a write past it.
        let past = read[all]
            .iter()
            .skip(output.count as usize)
            .position(|&w| w != teaching::UNWRITTEN);
        gpu.written_past
            .set(past.map_or(-1.0, |k| (k as u64 + u64::from(output.count)) as f64));
    }
    let pixels = image
        .as_ref()
        .zip(image_at)
        .map(|((image, _), at)| (image.unpad(&read[at]), image.width(), image.height()));
    Ok((output, pixels))
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

/// All the indices of the last large run (its first RESULT_HEAD came back with
/// it): `count` words read from its compaction, kept since; None where the
/// last run came back whole.
pub(super) async fn read_last(gpu: &Gpu) -> crate::Result<Option<CompactionOutput>> {
    let _turn = gpu.shared.lock.lock().await;
    gpu.shared.check()?;
    let device = &gpu.shared.context.device;
    let pending = {
        let last = gpu.last.borrow();
        let Some((compaction, count)) = last.as_ref() else {
            return Ok(None);
        };
        let mut encoder = device.create_command_encoder(&Default::default());
        let pending = compaction.read_output_head(device, &mut encoder, u64::from(*count))?;
        gpu.shared.context.queue.submit([encoder.finish()]);
        pending
    };
    Ok(Some(pending.read(device).await?))
}
