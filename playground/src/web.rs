//! The whole wasm-bindgen boundary: one class, `Playground`, plus flag helpers
//! and the kernels' layout constants. Only plain numbers, strings, objects and
//! `Uint32Array`s cross into JS; every argument is checked (`args.rs`) and every
//! error becomes a JS `Error` with a readable message and a `kind`.

use std::cell::RefCell;
use std::rc::Rc;

mod args;
mod backend;
mod convert;
mod kernel;
mod shared;
mod timing;
mod tools;

use js_sys::{Array, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::draw_instances::{DrawInstances, OffscreenImage};
use crate::{flags, Error};
use backend::{Backend, Canvas, Cpu, Draw, Gpu};
use convert::{js_error, object};
use shared::{listen, shared_gpu, unlisten};
use wgpu_compaction::teaching::trace::{ChainSeen, TileSchedule, TileStatus};
use wgpu_compaction::teaching::{layout, LookbackOptions, MAX_TRACE_FLAGS};
use wgpu_compaction::Method;

/// The most flags the page, its elements and this API take, whatever the
/// device: past it a call is refused from the length alone. A GPU takes what
/// it binds up to this (2^26: 256 MiB of flags, held once in JS and once in the
/// wasm's memory on their way); the CPU reference, MAX_CPU_FLAGS.
pub const MAX_WEB_FLAGS: u64 = 64 * 1024 * 1024;
/// From this many flags a run on the GPU reads back only its count and its
/// first RESULT_HEAD indices at once, the rest on demand (`readRun`): at 2^24
/// every index read into wasm and JS took 180–200 ms of a Run on an H200, the
/// GPU's share under 1 %.
pub const PARTIAL_FROM: u64 = 1 << 20;
/// The indices a run's result lists at once (the result panel's list).
pub const RESULT_HEAD: u64 = 1024;
/// The most flags the CPU reference takes: past it one run takes seconds and
/// its buffers a quarter of the wasm's memory.
pub const MAX_CPU_FLAGS: u64 = 16 * 1024 * 1024;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    args::capture();
}

/// `Err(js Error)` from a crate error.
fn fail<T>(e: Error) -> Result<T, JsValue> {
    Err(js_error(e))
}

struct State {
    /// Where the kernels run: the page's GPU, or the CPU mirror without WebGPU.
    backend: Backend,
    /// Shared with the calls in flight, which took them when they were made.
    flags: RefCell<Rc<[u32]>>,
}

/// Compaction on the page's GPU (or on the CPU mirror), for the playground and
/// for documentation sites that embed it. Every playground of a page shares
/// one device and its compiled pipelines; their GPU work runs one call at a time.
#[wasm_bindgen]
pub struct Playground {
    state: Rc<State>,
    /// This playground's `onEvent`, registered with the shared device.
    listener: Option<u32>,
}

impl Drop for Playground {
    fn drop(&mut self) {
        if let Some(id) = self.listener {
            unlisten(id);
        }
    }
}

#[wasm_bindgen]
impl Playground {
    /// Opens WebGPU (or joins the device other playgrounds of the page opened).
    /// Rejects with an `Error` whose `kind` is `no-webgpu`, `no-adapter` or
    /// `device`. `onEvent(kind, message)` is called later with `device-lost`
    /// or `uncaptured-error`, for this playground's device only.
    pub fn create(on_event: JsValue) -> js_sys::Promise {
        let on_event = args::callback(&on_event, "onEvent");
        future_to_promise(async move {
            let on_event = on_event.map_err(js_error)?;
            let shared = shared_gpu().await?;
            let listener = on_event.map(|callback| listen(&shared, callback));
            let mut playground = Playground::with(Backend::Gpu(Box::new(Gpu::new(shared))));
            playground.listener = listener;
            Ok(playground.into())
        })
    }

    /// The same API on the CPU mirror of the kernels, for browsers without WebGPU.
    #[wasm_bindgen(js_name = createCpu)]
    pub fn create_cpu() -> Playground {
        Playground::with(Backend::Cpu(Cpu))
    }

    fn with(backend: Backend) -> Playground {
        Playground {
            state: Rc::new(State {
                backend,
                flags: RefCell::new(Rc::from([])),
            }),
            listener: None,
        }
    }

    /// `"gpu"` or `"cpu"`.
    #[wasm_bindgen(getter)]
    pub fn backend(&self) -> String {
        self.state.backend.name().into()
    }

    #[wasm_bindgen(getter, js_name = adapterName)]
    pub fn adapter_name(&self) -> String {
        self.state.backend.adapter_name()
    }

    /// The most flags this playground takes: `MAX_WEB_FLAGS`, or fewer where
    /// the device binds fewer.
    #[wasm_bindgen(getter, js_name = maxFlags)]
    pub fn max_flags(&self) -> f64 {
        self.limit() as f64
    }

    fn limit(&self) -> u64 {
        self.state.backend.max_flags().min(MAX_WEB_FLAGS)
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

    /// Uploads the flags (a `Uint32Array` or an array of whole numbers; any
    /// nonzero value is visible). Throws `type`, or `too-large` past `maxFlags`;
    /// the previous flags stay. Calls made before keep the flags they were made with.
    #[wasm_bindgen(js_name = setFlags)]
    pub fn set_flags(&self, flags: JsValue) -> Result<(), JsValue> {
        let flags = args::flags(&flags, self.limit()).map_err(js_error)?;
        self.state.backend.upload(&flags).map_err(js_error)?;
        *self.state.flags.borrow_mut() = Rc::from(flags);
        Ok(())
    }

    /// Draws the visible instances of every later `run` into this canvas with
    /// `drawIndirect`. The page sizes the canvas (by `devicePixelRatio`).
    #[wasm_bindgen(js_name = attachCanvas)]
    pub fn attach_canvas(&self, canvas: JsValue) -> Result<(), JsValue> {
        let canvas = args::canvas(&canvas).map_err(js_error)?;
        let gpu = self.drawing()?;
        let context = &gpu.shared.context;
        let (width, height) = (canvas.width().max(1), canvas.height().max(1));
        let surface = context
            .instance
            .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
            .map_err(|e| {
                js_error(Error::Compaction(wgpu_compaction::Error::Gpu(
                    e.to_string(),
                )))
            })?;
        let mut config = surface
            .get_default_config(&context.adapter, width, height)
            .ok_or_else(|| {
                js_error(Error::Compaction(wgpu_compaction::Error::Gpu(
                    "the canvas cannot be drawn to".into(),
                )))
            })?;
        config.usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
        surface.configure(&context.device, &config);
        let draw = DrawInstances::new(&context.device, config.format);
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
    pub fn attach_image(&self, width: JsValue, height: JsValue) -> Result<(), JsValue> {
        let gpu = self.drawing()?;
        let device = &gpu.shared.context.device;
        let max = u64::from(device.limits().max_texture_dimension_2d);
        let (width, height) = args::image_size(&width, &height, max).map_err(js_error)?;
        let image = OffscreenImage::new(device, width, height);
        *gpu.image.borrow_mut() = Some(Rc::new(image));
        *gpu.canvas.borrow_mut() = None;
        Ok(())
    }

    fn drawing(&self) -> Result<&Gpu, JsValue> {
        self.state.backend.gpu().map_err(js_error)
    }

    /// Compacts the current flags with `method` (`"atomic"`, `"aggregated"`,
    /// `"scan"`, …). Resolves to `{ method, indices: Uint32Array, count,
    /// instanceCount, vertexCount, hash, backend }`; `instanceCount` is read
    /// back from the indirect-args buffer the GPU wrote, `hash` is FNV-1a of
    /// the index buffer. Draws into the attached canvas in the same submission.
    pub fn run(&self, method: JsValue) -> js_sys::Promise {
        let state = self.state.clone();
        let input = state.backend.input(state.flags.borrow().clone());
        let method = args::method(&method);
        future_to_promise(async move {
            let method = method.map_err(js_error)?;
            let run = state.backend.run(input, method, Draw::Attached).await;
            let (out, image) = run.map_err(js_error)?;
            Ok(convert::run_object(
                method,
                &out,
                image,
                state.backend.name(),
            ))
        })
    }

    /// The rest of the last run, where it came back in part (`partial`: a run of
    /// 2^20 flags or more lists its first 1 024 indices at once): `{ indices (all
    /// of them), hash }` read from its GPU buffers, kept since; null where the
    /// last run came back whole.
    #[wasm_bindgen(js_name = readRun)]
    pub fn read_run(&self) -> js_sys::Promise {
        let state = self.state.clone();
        future_to_promise(async move {
            let Ok(gpu) = state.backend.gpu() else {
                return Ok(JsValue::NULL);
            };
            let out = gpu.read_last().await.map_err(js_error)?;
            Ok(out.map_or(JsValue::NULL, |out| {
                object(&[
                    (
                        "indices",
                        js_sys::Uint32Array::from(&out.indices[..]).into(),
                    ),
                    ("hash", out.hash().into()),
                ])
            }))
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
        let flags = state.flags.borrow().clone();
        future_to_promise(async move {
            let trace = state.backend.trace_scan(&flags).await.map_err(js_error)?;
            Ok(convert::scan_trace_object(&trace))
        })
    }

    /// One run of an atomic method: `{ method, slots: Uint32Array (the slot each
    /// flag's invocation got, 0xFFFFFFFF when invisible), indices, count,
    /// instanceCount, hash }`.
    #[wasm_bindgen(js_name = atomicTrace)]
    pub fn atomic_trace(&self, method: JsValue) -> js_sys::Promise {
        let state = self.state.clone();
        let flags = state.flags.borrow().clone();
        let method = args::method(&method);
        future_to_promise(async move {
            let method = method.map_err(js_error)?;
            let trace = state.backend.trace_atomic(&flags, method).await;
            let trace = trace.map_err(js_error)?;
            Ok(convert::atomic_trace_object(method, &trace))
        })
    }

    /// One run of `packed-scan`, kernel by kernel: `{ bits (the packed flags,
    /// 32 to a word), tileCounts (each tile's visible flags, read between the
    /// packing and the scan), tileSlots (where each tile's run starts), indices,
    /// count, instanceCount, hash, tileSize }`, Uint32Arrays.
    #[wasm_bindgen(js_name = packedTrace)]
    pub fn packed_trace(&self) -> js_sys::Promise {
        let state = self.state.clone();
        let flags = state.flags.borrow().clone();
        future_to_promise(async move {
            let trace = state.backend.trace_packed(&flags).await.map_err(js_error)?;
            Ok(convert::packed_trace_object(&trace))
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
        method: JsValue,
        in_flight: JsValue,
        stalled: JsValue,
    ) -> js_sys::Promise {
        let state = self.state.clone();
        let flags = state.flags.borrow().clone();
        let method = args::method(&method);
        let tiles = flags.len().div_ceil(layout::TILE).max(1) as u64;
        let schedule = (|| -> crate::Result<TileSchedule> {
            let in_flight = args::optional_whole(&in_flight, "inFlight", 1, MAX_IN_FLIGHT)?;
            let stalled = args::optional_whole(&stalled, "stalled", 0, tiles - 1)?;
            Ok(TileSchedule {
                in_flight: in_flight.map_or(TileSchedule::default().in_flight, |n| n as u32),
                stalled: stalled.map(|t| t as u32),
            })
        })();
        future_to_promise(async move {
            let method = method.map_err(js_error)?;
            let schedule = schedule.map_err(js_error)?;
            let traced = state.backend.trace_tiles(&flags, method, &schedule).await;
            let (trace, states) = traced.map_err(js_error)?;
            Ok(convert::tile_trace_object(
                &trace,
                method,
                flags.len(),
                states,
            ))
        })
    }
}

/// The most workgroups a tile trace simulates at once.
const MAX_IN_FLIGHT: u64 = 64;

/// The kernels' layout, so that the page never copies a constant:
/// `{ block, tile, atomicWorkgroup, noSlot, spinLimit, maxTraceFlags, maxFlags,
/// tileStatus (names by code), chainSeen (names by code, from 1), presets,
/// methods: [{ name, preservesOrder, usesTiles }] }`.
#[wasm_bindgen]
pub fn layout() -> JsValue {
    let methods: Array = Method::ALL
        .iter()
        .map(|m| {
            object(&[
                ("name", m.name().into()),
                ("preservesOrder", m.preserves_order().into()),
                ("usesTiles", m.uses_tiles().into()),
            ])
        })
        .collect();
    object(&[
        ("block", (layout::BLOCK as u32).into()),
        ("tile", (layout::TILE as u32).into()),
        ("atomicWorkgroup", (layout::ATOMIC_WORKGROUP as u32).into()),
        ("tileStatus", names(TileStatus::ALL.map(TileStatus::name))),
        ("chainSeen", names(ChainSeen::ALL.map(ChainSeen::name))),
        ("presets", names(flags::PRESETS)),
        ("noSlot", layout::NO_SLOT.into()),
        ("spinLimit", LookbackOptions::default().spin_limit.into()),
        ("maxTraceFlags", (MAX_TRACE_FLAGS as u32).into()),
        ("maxKernelBytes", (kernel::MAX_KERNEL_BYTES as u32).into()),
        ("resultHead", (RESULT_HEAD as u32).into()),
        ("unwritten", wgpu_compaction::teaching::UNWRITTEN.into()),
        ("maxFlags", (MAX_WEB_FLAGS as f64).into()),
        ("methods", methods.into()),
    ])
}

fn names<const N: usize>(names: [&str; N]) -> JsValue {
    names
        .iter()
        .map(|&n| JsValue::from(n))
        .collect::<Array>()
        .into()
}

/// Parses what a person types or pastes: `1,0,0,1`, `1 0 2` or `1001`. Throws
/// `parse` with the token number on bad input, `too-large` past `MAX_WEB_FLAGS`.
#[wasm_bindgen(js_name = parseFlags)]
pub fn parse_flags(text: JsValue) -> Result<Uint32Array, JsValue> {
    let text = args::string(&text, "the text").map_err(js_error)?;
    let flags = flags::parse_text(&text, MAX_WEB_FLAGS).map_err(js_error)?;
    Ok(Uint32Array::from(&flags[..]))
}

/// Packs flags for a URL (see `flags::encode_url`).
#[wasm_bindgen(js_name = encodeFlags)]
pub fn encode_flags(flags: JsValue) -> Result<String, JsValue> {
    let flags = args::flags(&flags, MAX_WEB_FLAGS).map_err(js_error)?;
    Ok(flags::encode_url(&flags))
}

/// Unpacks `encodeFlags`' text; throws `parse` on anything malformed.
#[wasm_bindgen(js_name = decodeFlags)]
pub fn decode_flags(text: JsValue) -> Result<Uint32Array, JsValue> {
    let text = args::string(&text, "the packed flags").map_err(js_error)?;
    let flags = flags::decode_url(&text, MAX_WEB_FLAGS).map_err(js_error)?;
    Ok(Uint32Array::from(&flags[..]))
}

/// Preset flag arrays: `article`, `all`, `none`, `random` (density, seed) and
/// `clustered` (density, seed; runs of about 8). Sizes past `MAX_WEB_FLAGS`
/// are refused before anything is made.
#[wasm_bindgen(js_name = presetFlags)]
pub fn preset_flags(
    name: JsValue,
    n: JsValue,
    density: JsValue,
    seed: JsValue,
) -> Result<Uint32Array, JsValue> {
    let name = args::string(&name, "the preset").map_err(js_error)?;
    let n = args::whole(&n, "the size", 0, u64::MAX >> 12).map_err(js_error)?;
    if n > MAX_WEB_FLAGS {
        return fail(Error::TooMany {
            n: Some(n),
            max: MAX_WEB_FLAGS,
        });
    }
    let n = n as usize;
    let density = || args::number(&density, "the density", 0.0, 1.0);
    let seed = || args::whole(&seed, "the seed", 0, u64::from(u32::MAX));
    let flags = flags::preset(&name, n, density, seed).map_err(js_error)?;
    Ok(Uint32Array::from(&flags[..]))
}

/// FNV-1a of a buffer's words, as `run` reports it.
#[wasm_bindgen(js_name = hashWords)]
pub fn hash_words(words: JsValue) -> Result<u32, JsValue> {
    let words = args::flags(&words, MAX_WEB_FLAGS).map_err(js_error)?;
    Ok(wgpu_compaction::fnv1a(&words))
}
