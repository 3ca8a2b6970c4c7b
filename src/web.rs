//! The whole wasm-bindgen boundary: one class, `Playground`, plus flag helpers.
//! Only plain numbers, strings, objects and `Uint32Array`s cross into JS; every
//! error becomes a JS `Error` with a readable message and a `kind`.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use js_sys::{Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::gpu::draw_instances::{DrawInstances, Grid};
use crate::gpu::readback::Readback;
use crate::trace::{ChainLink, TileSchedule, TileTrace};
use crate::{cpu, flags, output, Compactor, Error, GpuContext, Method, MAX_TRACE_FLAGS};

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

thread_local! {
    /// The page's `onEvent(kind, message)`; wgpu's callbacks must be `Send`, so
    /// they reach it through this (wasm has one thread).
    static ON_EVENT: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

fn emit(kind: &str, message: &str) {
    ON_EVENT.with(|cb| {
        if let Some(cb) = cb.borrow().as_ref() {
            let _ = cb.call2(&JsValue::NULL, &kind.into(), &message.into());
        }
    });
}

fn error_kind(e: &Error) -> &'static str {
    match e {
        Error::NoWebGpu(_) => "no-webgpu",
        Error::NoAdapter(_) => "no-adapter",
        Error::Device(_) => "device",
        Error::TooLarge { .. } => "too-large",
        Error::TraceTooLarge { .. } => "trace-too-large",
        Error::MissingFeature { .. } => "missing-feature",
        Error::Readback(_) | Error::Gpu(_) => "gpu",
        Error::UnknownMethod(..) => "unknown-method",
        Error::NotTiled(_) => "not-tiled",
        Error::Parse(_) => "parse",
    }
}

fn js_error(e: Error) -> JsValue {
    let error = js_sys::Error::new(&e.to_string());
    let _ = Reflect::set(&error, &"kind".into(), &error_kind(&e).into());
    error.into()
}

fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (key, value) in fields {
        let _ = Reflect::set(&obj, &(*key).into(), value);
    }
    obj.into()
}

fn words(values: &[u32]) -> JsValue {
    Uint32Array::from(values).into()
}

struct Canvas {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    draw: DrawInstances,
}

/// An offscreen target for the same `drawIndirect`, whose pixels come back with
/// each run: for browsers that cannot present a WebGPU canvas (headless Chromium
/// on SwiftShader loses its device on the first present).
struct Image {
    texture: wgpu::Texture,
    /// The texture copied row by row; rows padded to COPY_BYTES_PER_ROW_ALIGNMENT.
    pixels: wgpu::Buffer,
    row_bytes: u32,
    draw: DrawInstances,
}

impl Image {
    const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

    fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
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

    /// The read-back rows without their padding: tightly packed RGBA.
    fn unpad(&self, words: &[u32]) -> Vec<u8> {
        let bytes: &[u8] = bytemuck::cast_slice(words);
        let width = self.texture.width() as usize * 4;
        bytes
            .chunks(self.row_bytes as usize)
            .flat_map(|row| &row[..width])
            .copied()
            .collect()
    }
}

struct Gpu {
    context: GpuContext,
    compactor: Compactor,
    flags: RefCell<Option<wgpu::Buffer>>,
    canvas: RefCell<Option<Canvas>>,
    image: RefCell<Option<Rc<Image>>>,
}

struct State {
    /// `None`: no WebGPU; everything runs on the CPU mirror ("CPU reference").
    gpu: Option<Gpu>,
    flags: RefCell<Vec<u32>>,
}

/// Compaction on the page's GPU (or on the CPU mirror), for the playground and
/// for documentation sites that embed it.
#[wasm_bindgen]
pub struct Playground {
    state: Rc<State>,
}

#[wasm_bindgen]
impl Playground {
    /// Opens WebGPU. Rejects with an `Error` whose `kind` is `no-webgpu`,
    /// `no-adapter` or `device`. `onEvent(kind, message)` is called later with
    /// `device-lost` or `uncaptured-error`.
    pub fn create(on_event: Option<js_sys::Function>) -> js_sys::Promise {
        ON_EVENT.with(|cb| *cb.borrow_mut() = on_event);
        future_to_promise(async move {
            let context = GpuContext::new().await.map_err(js_error)?;
            context.device.set_device_lost_callback(|reason, message| {
                emit("device-lost", &format!("{reason:?}: {message}"));
            });
            context.device.on_uncaptured_error(Arc::new(|error| {
                emit("uncaptured-error", &error.to_string())
            }));
            let compactor = Compactor::new(&context.device, &context.queue);
            let gpu = Gpu {
                context,
                compactor,
                flags: RefCell::new(None),
                canvas: RefCell::new(None),
                image: RefCell::new(None),
            };
            Ok(Playground::with(Some(gpu)).into())
        })
    }

    /// The same API on the CPU mirror of the kernels, for browsers without WebGPU.
    #[wasm_bindgen(js_name = createCpu)]
    pub fn create_cpu() -> Playground {
        Playground::with(None)
    }

    fn with(gpu: Option<Gpu>) -> Playground {
        Playground {
            state: Rc::new(State {
                gpu,
                flags: RefCell::new(Vec::new()),
            }),
        }
    }

    /// `"gpu"` or `"cpu"`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        if self.state.gpu.is_some() {
            "gpu"
        } else {
            "cpu"
        }
        .into()
    }

    #[wasm_bindgen(getter, js_name = adapterName)]
    pub fn adapter_name(&self) -> String {
        match &self.state.gpu {
            Some(gpu) => gpu.context.adapter_name(),
            None => "CPU reference".into(),
        }
    }

    /// The most flags this device can compact in one storage binding.
    #[wasm_bindgen(getter, js_name = maxFlags)]
    pub fn max_flags(&self) -> f64 {
        match &self.state.gpu {
            Some(gpu) => gpu.compactor.max_flags() as f64,
            None => f64::from(u32::MAX),
        }
    }

    #[wasm_bindgen(getter, js_name = maxTraceFlags)]
    pub fn max_trace_flags(&self) -> u32 {
        MAX_TRACE_FLAGS as u32
    }

    /// The method names, in the order the page shows them.
    #[wasm_bindgen(getter)]
    pub fn methods(&self) -> Array {
        Method::ALL
            .iter()
            .map(|m| JsValue::from(m.name()))
            .collect()
    }

    /// Uploads the flags (any nonzero value is visible). Throws `too-large` when
    /// the device cannot bind them; the previous flags stay.
    #[wasm_bindgen(js_name = setFlags)]
    pub fn set_flags(&self, flags: &[u32]) -> Result<(), JsValue> {
        if let Some(gpu) = &self.state.gpu {
            let buffer = gpu.compactor.upload(flags).map_err(js_error)?;
            *gpu.flags.borrow_mut() = Some(buffer);
        }
        *self.state.flags.borrow_mut() = flags.to_vec();
        Ok(())
    }

    /// Draws the visible instances of every later `run` into this canvas with
    /// `drawIndirect`. The page sizes the canvas (by `devicePixelRatio`).
    #[wasm_bindgen(js_name = attachCanvas)]
    pub fn attach_canvas(&self, canvas: web_sys::HtmlCanvasElement) -> Result<(), JsValue> {
        let Some(gpu) = &self.state.gpu else {
            return Err(js_error(Error::NoWebGpu("drawing needs WebGPU".into())));
        };
        let (width, height) = (canvas.width().max(1), canvas.height().max(1));
        let surface = gpu
            .context
            .instance
            .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
            .map_err(|e| js_error(Error::Gpu(e.to_string())))?;
        let mut config = surface
            .get_default_config(&gpu.context.adapter, width, height)
            .ok_or_else(|| js_error(Error::Gpu("the canvas cannot be drawn to".into())))?;
        config.usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        surface.configure(&gpu.context.device, &config);
        let draw = DrawInstances::new(&gpu.context.device, config.format);
        *gpu.canvas.borrow_mut() = Some(Canvas {
            surface,
            config,
            draw,
        });
        *gpu.image.borrow_mut() = None;
        Ok(())
    }

    /// Instead of a canvas: draws the visible instances of every later `run`
    /// into an offscreen `width` × `height` texture and returns its pixels with
    /// the run (`image`: RGBA `Uint8Array`, `imageWidth`, `imageHeight`). The
    /// same `drawIndirect`, for browsers that cannot present a WebGPU canvas.
    #[wasm_bindgen(js_name = attachImage)]
    pub fn attach_image(&self, width: u32, height: u32) -> Result<(), JsValue> {
        let Some(gpu) = &self.state.gpu else {
            return Err(js_error(Error::NoWebGpu("drawing needs WebGPU".into())));
        };
        let max = gpu.context.device.limits().max_texture_dimension_2d;
        let (width, height) = (width.clamp(1, max), height.clamp(1, max));
        *gpu.image.borrow_mut() = Some(Rc::new(Image::new(&gpu.context.device, width, height)));
        *gpu.canvas.borrow_mut() = None;
        Ok(())
    }

    /// Compacts the current flags with `method` (`"atomic"`, `"aggregated"`,
    /// `"scan"`). Resolves to `{ method, indices: Uint32Array, count,
    /// instanceCount, vertexCount, hash, backend }`; `instanceCount` is read
    /// back from the indirect-args buffer the GPU wrote, `hash` is FNV-1a of
    /// the index buffer. Draws into the attached canvas in the same submission.
    pub fn run(&self, method: String) -> js_sys::Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let method: Method = method.parse().map_err(js_error)?;
            let flags = state.flags.borrow().clone();
            let (out, image) = match &state.gpu {
                Some(gpu) => run_gpu(gpu, &flags, method).await,
                None => Ok((
                    cpu::compact(&flags, method, Compactor::DEFAULT_VERTEX_COUNT),
                    None,
                )),
            }
            .map_err(js_error)?;
            let (image, width, height) = match image {
                Some((pixels, width, height)) => (
                    js_sys::Uint8Array::from(&pixels[..]).into(),
                    width.into(),
                    height.into(),
                ),
                None => (JsValue::NULL, JsValue::NULL, JsValue::NULL),
            };
            Ok(object(&[
                ("image", image),
                ("imageWidth", width),
                ("imageHeight", height),
                ("method", method.name().into()),
                ("indices", words(&out.indices)),
                ("count", out.count.into()),
                ("instanceCount", out.indirect.instance_count.into()),
                ("vertexCount", out.indirect.vertex_count.into()),
                ("hash", out.hash().into()),
                (
                    "backend",
                    if state.gpu.is_some() { "gpu" } else { "cpu" }.into(),
                ),
            ]))
        })
    }

    /// Every step of the scan from the real GPU buffers (or the CPU mirror):
    /// `{ flags, levels: [{ input, steps: [Uint32Array × 9], stepOffsets,
    /// blockPrefix, blockSums, offsets, prefix }], prefix, indices, count,
    /// instanceCount, hash, blockSize }`. Throws `trace-too-large` past
    /// `maxTraceFlags`.
    #[wasm_bindgen(js_name = scanTrace)]
    pub fn scan_trace(&self) -> js_sys::Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let flags = state.flags.borrow().clone();
            let trace = match &state.gpu {
                Some(gpu) => gpu.compactor.trace_scan(&flags).await.map_err(js_error)?,
                None => {
                    check_cpu_trace(flags.len())?;
                    cpu::trace_scan(&flags)
                }
            };
            let offsets: Array = (0..cpu::scan_block::STEPS)
                .map(|s| JsValue::from(1u32 << s))
                .collect();
            let levels: Array = trace
                .levels
                .iter()
                .map(|level| {
                    let steps: Array = level.steps.iter().map(|s| words(s)).collect();
                    object(&[
                        ("input", words(&level.input)),
                        ("steps", steps.into()),
                        ("stepOffsets", offsets.clone().into()),
                        ("blockPrefix", words(&level.block_prefix)),
                        ("blockSums", words(&level.block_sums)),
                        ("offsets", words(&level.offsets)),
                        ("prefix", words(&level.prefix)),
                    ])
                })
                .collect();
            Ok(object(&[
                ("flags", words(&trace.flags)),
                ("levels", levels.into()),
                ("prefix", words(trace.prefix())),
                ("indices", words(&trace.indices)),
                ("count", trace.count.into()),
                ("instanceCount", trace.instance_count.into()),
                ("hash", output::fnv1a(&trace.indices).into()),
                ("blockSize", (cpu::scan_block::BLOCK as u32).into()),
            ]))
        })
    }

    /// One run of an atomic method: `{ method, slots: Uint32Array (the slot each
    /// flag's invocation got, 0xFFFFFFFF when invisible), indices, count,
    /// instanceCount, hash }`.
    #[wasm_bindgen(js_name = atomicTrace)]
    pub fn atomic_trace(&self, method: String) -> js_sys::Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let method: Method = method.parse().map_err(js_error)?;
            let flags = state.flags.borrow().clone();
            let trace = match &state.gpu {
                Some(gpu) => gpu
                    .compactor
                    .trace_atomic(&flags, method)
                    .await
                    .map_err(js_error)?,
                None => {
                    check_cpu_trace(flags.len())?;
                    cpu::trace_atomic(&flags, method)
                }
            };
            Ok(object(&[
                ("method", method.name().into()),
                ("slots", words(&trace.slots)),
                ("indices", words(&trace.indices)),
                ("count", trace.count.into()),
                ("instanceCount", trace.instance_count.into()),
                ("hash", output::fnv1a(&trace.indices).into()),
            ]))
        })
    }

    /// One run of a tile method (`lookback`, `lookback-bits`, `tile-atomic`) on
    /// any array it accepts: `{ method, n, tileSize, tiles: { firstFlag, flags,
    /// aggregate, exclusive, inclusive, status } (Uint32Array each; status 0
    /// invalid, 1 aggregate, 2 inclusive; exclusive/inclusive 0xFFFFFFFF for an
    /// empty tile of tile-atomic), chain: { inFlight, stalled (tile or null),
    /// wave, late (1: the stalled tile), start (tiles + 1 offsets into the
    /// links), tile, seen (1 aggregate, 2 inclusive, 3 counted itself), value },
    /// tickets, indices, count, instanceCount, hash, source: { states, chain } }`.
    /// The chain simulates `inFlight` workgroups at once (default 4), with
    /// `stalled`'s workgroup descheduled; see `TileTraceEntry` for the sources.
    #[wasm_bindgen(js_name = tileTrace)]
    pub fn tile_trace(
        &self,
        method: String,
        in_flight: Option<u32>,
        stalled: Option<u32>,
    ) -> js_sys::Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let method: Method = method.parse().map_err(js_error)?;
            let schedule = TileSchedule {
                in_flight: in_flight
                    .unwrap_or(TileSchedule::default().in_flight)
                    .max(1),
                stalled,
            };
            let flags = state.flags.borrow().clone();
            let (trace, states) = match &state.gpu {
                Some(gpu) => (
                    gpu.compactor
                        .trace_tiles_scheduled(&flags, method, &schedule)
                        .await
                        .map_err(js_error)?,
                    "gpu",
                ),
                None => (
                    cpu::trace_tiles(&flags, method, &schedule).map_err(js_error)?,
                    "cpu reference",
                ),
            };
            Ok(tile_trace_object(&trace, method, flags.len(), states))
        })
    }
}

fn tile_trace_object(trace: &TileTrace, method: Method, n: usize, states: &str) -> JsValue {
    let tiles = &trace.tiles;
    let chains = &trace.chains;
    let links: Vec<ChainLink> = chains.iter().flat_map(|c| c.links.clone()).collect();
    let start: Vec<u32> = std::iter::once(0)
        .chain(chains.iter().scan(0, |end, c| {
            *end += c.links.len() as u32;
            Some(*end)
        }))
        .collect();
    let stalled = trace.schedule.stalled.map_or(JsValue::NULL, JsValue::from);
    object(&[
        ("method", method.name().into()),
        ("n", (n as u32).into()),
        ("tileSize", trace.tile_size.into()),
        (
            "tiles",
            object(&[
                ("firstFlag", column(tiles, |t| t.first_flag)),
                ("flags", column(tiles, |t| t.flags)),
                ("aggregate", column(tiles, |t| t.aggregate)),
                ("exclusive", column(tiles, |t| t.exclusive)),
                ("inclusive", column(tiles, |t| t.inclusive)),
                ("status", column(tiles, |t| t.status as u32)),
            ]),
        ),
        (
            "chain",
            object(&[
                ("inFlight", trace.schedule.in_flight.into()),
                ("stalled", stalled),
                ("wave", column(chains, |c| c.wave)),
                ("late", column(chains, |c| u32::from(c.stalled))),
                ("start", words(&start)),
                ("tile", column(&links, |l| l.tile)),
                ("seen", column(&links, |l| l.seen as u32)),
                ("value", column(&links, |l| l.value)),
            ]),
        ),
        ("tickets", trace.tickets.into()),
        ("indices", words(&trace.indices)),
        ("count", trace.count.into()),
        ("instanceCount", trace.instance_count.into()),
        ("hash", output::fnv1a(&trace.indices).into()),
        (
            "source",
            object(&[
                ("states", states.into()),
                ("chain", "cpu simulation".into()),
            ]),
        ),
    ])
}

/// One field of every item, as a `Uint32Array`.
fn column<T>(items: &[T], field: impl Fn(&T) -> u32) -> JsValue {
    words(&items.iter().map(field).collect::<Vec<u32>>())
}

fn check_cpu_trace(len: usize) -> Result<(), JsValue> {
    if len > MAX_TRACE_FLAGS {
        return Err(js_error(Error::TraceTooLarge {
            n: len,
            max: MAX_TRACE_FLAGS,
        }));
    }
    Ok(())
}

/// RGBA pixels, width, height of an attached `Image` after a run.
type Pixels = (Vec<u8>, u32, u32);

/// Compacts on the GPU, draws into the canvas or image if one is attached, reads back.
/// A GPU error on the way (an invalid pipeline, a lost buffer) rejects the run
/// with its message instead of returning zeros.
async fn run_gpu(
    gpu: &Gpu,
    flags: &[u32],
    method: Method,
) -> crate::Result<(output::CompactionOutput, Option<Pixels>)> {
    crate::gpu::error_scope::scoped(&gpu.context.device, run_gpu_unscoped(gpu, flags, method)).await
}

async fn run_gpu_unscoped(
    gpu: &Gpu,
    flags: &[u32],
    method: Method,
) -> crate::Result<(output::CompactionOutput, Option<Pixels>)> {
    let buffer = match gpu.flags.borrow().clone() {
        Some(buffer) => buffer,
        None => gpu.compactor.upload(flags)?,
    };
    let len = flags.len() as u64;
    let compactor = &gpu.compactor;
    let device = &gpu.context.device;
    let compaction = compactor.prepare(&buffer, len, method, Compactor::DEFAULT_VERTEX_COUNT)?;
    let mut encoder = device.create_command_encoder(&Default::default());
    compactor.encode(&mut encoder, &compaction);
    let frame = draw(gpu, &mut encoder, &compaction, len as u32);
    let mut readback = Readback::default();
    readback.copy(device, &mut encoder, compaction.indices(), 0, len);
    readback.copy(device, &mut encoder, compaction.indirect(), 0, 4);
    // Cloned, not borrowed: no RefCell borrow may live across the await below.
    let image = gpu.image.borrow().clone();
    if let Some(image) = &image {
        draw_image(
            gpu,
            image,
            &mut encoder,
            &compaction,
            len as u32,
            &mut readback,
        );
    }
    gpu.context.queue.submit([encoder.finish()]);
    if let Some(frame) = frame {
        gpu.context.queue.present(frame);
    }
    let read = readback.read(device).await?;
    let indirect: output::IndirectArgs =
        bytemuck::pod_read_unaligned(bytemuck::cast_slice(&read[1]));
    let mut indices = read[0].clone();
    indices.truncate(indirect.instance_count as usize);
    let pixels = image.as_ref().map(|image| {
        let texture = &image.texture;
        (image.unpad(&read[2]), texture.width(), texture.height())
    });
    Ok((
        output::CompactionOutput {
            count: indices.len() as u32,
            indices,
            indirect,
        },
        pixels,
    ))
}

/// Draws into the offscreen image and queues its pixels as readback slot 2.
fn draw_image(
    gpu: &Gpu,
    image: &Image,
    encoder: &mut wgpu::CommandEncoder,
    compaction: &crate::Compaction,
    flags: u32,
    readback: &mut Readback,
) {
    let device = &gpu.context.device;
    let view = image.texture.create_view(&Default::default());
    let size = image.texture.size();
    let grid = Grid::fit(flags, size.width, size.height);
    image.draw.encode(
        device,
        encoder,
        &view,
        compaction.indices(),
        compaction.indirect(),
        grid,
    );
    encoder.copy_texture_to_buffer(
        image.texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &image.pixels,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(image.row_bytes),
                rows_per_image: Some(size.height),
            },
        },
        size,
    );
    let words = image.pixels.size() / 4;
    readback.copy(device, encoder, &image.pixels, 0, words);
}

fn draw(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    compaction: &crate::Compaction,
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
        &gpu.context.device,
        encoder,
        &view,
        compaction.indices(),
        compaction.indirect(),
        grid,
    );
    Some(frame)
}

/// Parses what a person types or pastes: `1,0,0,1`, `1 0 2` or `1001`. Throws
/// with the token number on bad input.
#[wasm_bindgen(js_name = parseFlags)]
pub fn parse_flags(text: &str) -> Result<Uint32Array, JsValue> {
    let flags = flags::parse_text(text).map_err(js_error)?;
    Ok(Uint32Array::from(&flags[..]))
}

/// Packs flags for a URL (see `flags::encode_url`).
#[wasm_bindgen(js_name = encodeFlags)]
pub fn encode_flags(flags: &[u32]) -> String {
    flags::encode_url(flags)
}

/// Unpacks `encodeFlags`' text; throws `parse` on anything malformed.
#[wasm_bindgen(js_name = decodeFlags)]
pub fn decode_flags(text: &str) -> Result<Uint32Array, JsValue> {
    let flags = flags::decode_url(text).map_err(js_error)?;
    Ok(Uint32Array::from(&flags[..]))
}

/// Preset flag arrays: `article`, `all`, `none`, `random` (density, seed) and
/// `clustered` (density, seed; runs of about 8).
#[wasm_bindgen(js_name = presetFlags)]
pub fn preset_flags(name: &str, n: u32, density: f64, seed: u32) -> Result<Uint32Array, JsValue> {
    let n = n as usize;
    let flags = match name {
        "article" => flags::ARTICLE_EXAMPLE.to_vec(),
        "all" => vec![1; n],
        "none" => vec![0; n],
        "random" => flags::random(n, density, u64::from(seed)),
        "clustered" => flags::clustered(n, density, 8, u64::from(seed)),
        other => {
            return Err(js_error(Error::Parse(format!(
                "unknown preset `{other}`; expected article, all, none, random or clustered"
            ))))
        }
    };
    Ok(Uint32Array::from(&flags[..]))
}

/// FNV-1a of a buffer's words, as `run` reports it.
#[wasm_bindgen(js_name = hashWords)]
pub fn hash_words(words: &[u32]) -> u32 {
    output::fnv1a(words)
}
