//! Rust values to the plain JS objects and errors the page receives.

use js_sys::{Array, Object, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use crate::Error;
use wgpu_compaction::teaching::layout;
use wgpu_compaction::teaching::trace::{AtomicTrace, ChainLink, PackedTrace, ScanTrace, TileTrace};
use wgpu_compaction::{fnv1a, CompactionOutput, DrawArgs, Error as Compaction, Method};

pub(super) fn error_kind(e: &Error) -> &'static str {
    match e {
        Error::NoWebGpu(_) => "no-webgpu",
        Error::NoAdapter(_) => "no-adapter",
        Error::Device(_) => "device",
        Error::DeviceLost(_) => "device-lost",
        Error::TooMany { .. } => "too-large",
        Error::Parse(_) | Error::BadToken { .. } => "parse",
        Error::Type(_) => "type",
        Error::Range(_) => "range",
        Error::Aborted(_) => "aborted",
        Error::Compaction(e) => match e {
            Compaction::TooLarge { .. } => "too-large",
            Compaction::TraceTooLarge { .. } => "trace-too-large",
            Compaction::UnknownMethod(_) => "unknown-method",
            Compaction::UnknownKernel(_) => "unknown-kernel",
            Compaction::NotTiled(_) => "not-tiled",
            Compaction::LengthTooLarge { .. } => "range",
            Compaction::Limit { .. } => "limit",
            Compaction::BufferUsage { .. }
            | Compaction::BufferTooSmall { .. }
            | Compaction::Misaligned { .. }
            | Compaction::Unsupported { .. }
            | Compaction::PayloadWords { .. }
            | Compaction::BindingTooLarge { .. }
            | Compaction::Aliased { .. }
            | Compaction::IndexOverflow { .. }
            | Compaction::MaxVisible { .. }
            | Compaction::SegmentsOutOfOrder { .. }
            | Compaction::SegmentPastObjects { .. } => "usage",
            _ => "gpu",
        },
    }
}

pub(super) fn js_error(e: impl Into<Error>) -> JsValue {
    let e = e.into();
    let error = js_sys::Error::new(&e.to_string());
    let _ = Reflect::set(&error, &"kind".into(), &error_kind(&e).into());
    // The page words a bad token in its own language from these.
    if let Error::BadToken { at, token, why } = &e {
        let _ = Reflect::set(&error, &"at".into(), &(*at as f64).into());
        let _ = Reflect::set(&error, &"token".into(), &token.as_str().into());
        let _ = Reflect::set(&error, &"why".into(), &why.code().into());
    }
    error.into()
}

/// Vertices (or indices) per instance of a run's indirect arguments.
fn vertex_count(args: &DrawArgs) -> u32 {
    match args {
        DrawArgs::NonIndexed(args) => args.vertex_count,
        DrawArgs::Indexed(args) => args.index_count,
    }
}

pub(super) fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (key, value) in fields {
        let _ = Reflect::set(&obj, &(*key).into(), value);
    }
    obj.into()
}

pub(super) fn words(values: &[u32]) -> JsValue {
    Uint32Array::from(values).into()
}

/// `run`'s result: `image` and its size are null without an attached image.
pub(super) fn run_object(
    method: Method,
    out: &CompactionOutput,
    image: Option<crate::draw_instances::Pixels>,
    backend: &str,
) -> JsValue {
    let partial = out.indices.len() < out.count as usize;
    let (image, width, height) = match image {
        Some((pixels, width, height)) => (
            js_sys::Uint8Array::from(&pixels[..]).into(),
            width.into(),
            height.into(),
        ),
        None => (JsValue::NULL, JsValue::NULL, JsValue::NULL),
    };
    object(&[
        ("image", image),
        ("imageWidth", width),
        ("imageHeight", height),
        ("method", method.name().into()),
        ("indices", words(&out.indices)),
        ("count", out.count.into()),
        ("instanceCount", out.indirect.instance_count().into()),
        ("vertexCount", vertex_count(&out.indirect).into()),
        // A run that came back in part (its first indices): its hash with the rest (`readRun`).
        ("partial", partial.into()),
        (
            "hash",
            if partial {
                JsValue::NULL
            } else {
                out.hash().into()
            },
        ),
        ("backend", backend.into()),
    ])
}

pub(super) fn scan_trace_object(trace: &ScanTrace) -> JsValue {
    let offsets: Array = (0..layout::STEPS)
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
    object(&[
        ("flags", words(&trace.flags)),
        ("levels", levels.into()),
        ("prefix", words(trace.prefix())),
        ("indices", words(&trace.indices)),
        ("count", trace.count.into()),
        ("instanceCount", trace.instance_count.into()),
        ("hash", fnv1a(&trace.indices).into()),
        ("blockSize", (layout::BLOCK as u32).into()),
    ])
}

pub(super) fn atomic_trace_object(method: Method, trace: &AtomicTrace) -> JsValue {
    object(&[
        ("method", method.name().into()),
        ("slots", words(&trace.slots)),
        ("indices", words(&trace.indices)),
        ("count", trace.count.into()),
        ("instanceCount", trace.instance_count.into()),
        ("hash", fnv1a(&trace.indices).into()),
    ])
}

pub(super) fn packed_trace_object(trace: &PackedTrace) -> JsValue {
    object(&[
        ("bits", words(&trace.bits)),
        ("tileCounts", words(&trace.tile_counts)),
        ("tileSlots", words(&trace.tile_slots)),
        ("indices", words(&trace.indices)),
        ("count", trace.count.into()),
        ("instanceCount", trace.instance_count.into()),
        ("hash", fnv1a(&trace.indices).into()),
        ("tileSize", (layout::TILE as u32).into()),
    ])
}

pub(super) fn tile_trace_object(
    trace: &TileTrace,
    method: Method,
    n: usize,
    states: &str,
) -> JsValue {
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
        ("hash", fnv1a(&trace.indices).into()),
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
