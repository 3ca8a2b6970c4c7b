//! The whole wasm-bindgen boundary: one class, `Playground`, plus flag helpers.
//! Only plain numbers, strings, objects and `Uint32Array`s cross into JS; every
//! error becomes a JS `Error` with a readable message and a `kind`.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

mod convert;
mod render;

use js_sys::{Array, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::gpu::draw_instances::{DrawInstances, OffscreenImage};
use crate::trace::TileSchedule;
use crate::{cpu, flags, output, Compactor, Error, GpuContext, Method, MAX_TRACE_FLAGS};
use convert::js_error;
use render::{run_gpu, Canvas, Gpu};

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
        *gpu.image.borrow_mut() = Some(Rc::new(OffscreenImage::new(
            &gpu.context.device,
            width,
            height,
        )));
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
            let backend = if state.gpu.is_some() { "gpu" } else { "cpu" };
            Ok(convert::run_object(method, &out, image, backend))
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
            Ok(convert::scan_trace_object(&trace))
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
            Ok(convert::atomic_trace_object(method, &trace))
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
            Ok(convert::tile_trace_object(
                &trace,
                method,
                flags.len(),
                states,
            ))
        })
    }
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
