//! Every argument that comes in from JS, checked before it is used: a wrong
//! type is an `Error::Type`, a number out of range an `Error::Range`, too many
//! flags `Error::TooMany`, refused from the length alone before anything is
//! copied into wasm memory. No JS value can make the wasm trap or run its code
//! while a check decides what it is: typed arrays are told and measured by the
//! built-in `%TypedArray%.prototype` getters (which read the array's own slots,
//! whatever `length` or `constructor` an object or a subclass defines, across
//! realms, and never run a Proxy's traps), their words copied once, from a
//! fresh view of exactly that length; what may run JS (an array's elements)
//! runs through `Reflect`, whose exceptions come back as errors instead of
//! unwinding through the wasm.

use js_sys::{Array, Function, Object, Reflect, Uint32Array};
use wasm_bindgen::{JsCast, JsValue};

use crate::Error;
use wgpu_compaction::Method;

type Result<T> = std::result::Result<T, Error>;

/// The built-in getters of `%TypedArray%.prototype` this module reads with.
struct Intrinsics {
    tag: Function,
    length: Function,
    byte_offset: Function,
    buffer: Function,
    is_array: Function,
    canvas_width: Option<Function>,
    signal_aborted: Option<Function>,
}

thread_local! {
    static INTRINSICS: Intrinsics = Intrinsics::new();
}

impl Intrinsics {
    fn new() -> Self {
        let typed =
            Object::get_prototype_of(&Object::get_prototype_of(&Uint32Array::new_with_length(0)));
        let getter = |proto: &Object, name: &JsValue| -> Option<Function> {
            let desc = Reflect::get_own_property_descriptor(proto, name).ok()?;
            Reflect::get(&desc, &"get".into()).ok()?.dyn_into().ok()
        };
        let must =
            |name: &str| getter(&typed, &name.into()).expect("a %TypedArray%.prototype getter");
        let builtin = |class: &str, name: &str| {
            js_sys::global()
                .dyn_into::<Object>()
                .ok()
                .and_then(|g| Reflect::get(&g, &class.into()).ok())
                .and_then(|c| Reflect::get(&c, &"prototype".into()).ok())
                .and_then(|p| p.dyn_into::<Object>().ok())
                .and_then(|p| getter(&p, &name.into()))
        };
        let canvas_width = builtin("HTMLCanvasElement", "width");
        let signal_aborted = builtin("AbortSignal", "aborted");
        let is_array = Reflect::get(&Array::new().constructor(), &"isArray".into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .expect("Array.isArray");
        Self {
            tag: getter(&typed, &js_sys::Symbol::to_string_tag().into())
                .expect("%TypedArray%.prototype[@@toStringTag]"),
            length: must("length"),
            byte_offset: must("byteOffset"),
            buffer: must("buffer"),
            is_array,
            canvas_width,
            signal_aborted,
        }
    }
}

/// Takes the built-in getters now, at the wasm's start, before any page
/// script that runs later can have patched them.
pub fn capture() {
    INTRINSICS.with(|_| ());
}

/// `f` called on `this` with no arguments; a throw is `None`.
fn call(f: &Function, this: &JsValue) -> Option<JsValue> {
    Reflect::apply(f, this, &Array::new()).ok()
}

/// The typed array kind of `value` ("Uint32Array", …) from its own slot, or `None`.
fn typed_array_name(value: &JsValue) -> Option<String> {
    INTRINSICS
        .with(|i| call(&i.tag, value))
        .and_then(|t| t.as_string())
}

/// `Array.isArray`, which sees through Proxies without running them; a revoked
/// one (which makes it throw) is no array.
fn is_array(value: &JsValue) -> bool {
    INTRINSICS.with(|i| {
        Reflect::apply(&i.is_array, &JsValue::UNDEFINED, &Array::of1(value))
            .ok()
            .and_then(|b| b.as_bool())
            .unwrap_or(false)
    })
}

/// What JS calls this value, for messages; read without running any of its code.
fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        return "null".into();
    }
    if is_array(value) {
        return "an array".into();
    }
    if let Some(name) = typed_array_name(value) {
        return format!("a {name}");
    }
    match value.js_typeof().as_string().unwrap_or_default().as_str() {
        "object" => "an object".into(),
        "function" => "a function".into(),
        other => other.into(),
    }
}

pub fn string(value: &JsValue, what: &str) -> Result<String> {
    value
        .as_string()
        .ok_or_else(|| Error::Type(format!("{what} must be a string, not {}", type_of(value))))
}

pub fn method(value: &JsValue) -> Result<Method> {
    Ok(string(value, "the method")?.parse()?)
}

/// A number as JS writes it (Rust's float formatting would add kilobytes to every page's wasm).
fn shown(n: f64) -> String {
    js_sys::Number::from(n)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// A whole number in `min..=max`.
pub fn whole(value: &JsValue, what: &str, min: u64, max: u64) -> Result<u64> {
    let n = value
        .as_f64()
        .ok_or_else(|| Error::Type(format!("{what} must be a number, not {}", type_of(value))))?;
    if !(n.is_finite() && n.fract() == 0.0 && n >= min as f64 && n <= max as f64) {
        return Err(Error::Range(format!(
            "{what} must be a whole number from {min} to {max}, not {}",
            shown(n)
        )));
    }
    Ok(n as u64)
}

/// `None` for `undefined` or `null`, else a whole number in `min..=max`.
pub fn optional_whole(value: &JsValue, what: &str, min: u64, max: u64) -> Result<Option<u64>> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        whole(value, what, min, max).map(Some)
    }
}

/// A finite number in `min..=max`.
pub fn number(value: &JsValue, what: &str, min: f64, max: f64) -> Result<f64> {
    let n = value
        .as_f64()
        .ok_or_else(|| Error::Type(format!("{what} must be a number, not {}", type_of(value))))?;
    if !(n.is_finite() && n >= min && n <= max) {
        return Err(Error::Range(format!(
            "{what} must be a number from {} to {}, not {}",
            shown(min),
            shown(max),
            shown(n)
        )));
    }
    Ok(n)
}

/// Flags: a `Uint32Array` (of any realm, a subclass too), or an array of whole
/// numbers from 0 to 2^32 − 1, at most `max` of them.
pub fn flags(value: &JsValue, max: u64) -> Result<Vec<u32>> {
    let too_many = |n: u64| Error::TooMany { n: Some(n), max };
    match typed_array_name(value).as_deref() {
        Some("Uint32Array") => return typed_words(value, max),
        Some(other) => {
            return Err(Error::Type(format!(
                "the flags must be a Uint32Array or an array of whole numbers, not a {other}"
            )))
        }
        None => {}
    }
    if is_array(value) {
        let element = |key: &JsValue, what: &str| {
            Reflect::get(value, key).map_err(|_| Error::Type(format!("{what} could not be read")))
        };
        let length = element(&"length".into(), "the array's length")?;
        let n = whole(&length, "the array's length", 0, u64::from(u32::MAX))?;
        if n > max {
            return Err(too_many(n));
        }
        return (0..n as u32)
            .map(|i| {
                let v = element(&JsValue::from(i), &format!("flag {i}"))?;
                whole(&v, &format!("flag {i}"), 0, u64::from(u32::MAX)).map(|f| f as u32)
            })
            .collect();
    }
    let hint = if value.is_string() {
        " (for text such as \"1001\", call parseFlags first)"
    } else {
        ""
    };
    Err(Error::Type(format!(
        "the flags must be a Uint32Array or an array of whole numbers, not {}{hint}",
        type_of(value)
    )))
}

/// A `Uint32Array`'s words, measured once by the built-in getters and copied
/// from a fresh view of exactly that many (a detached array has none).
fn typed_words(value: &JsValue, max: u64) -> Result<Vec<u32>> {
    let (length, offset, buffer) = INTRINSICS.with(|i| {
        (
            call(&i.length, value).and_then(|v| v.as_f64()),
            call(&i.byte_offset, value).and_then(|v| v.as_f64()),
            call(&i.buffer, value),
        )
    });
    let unreadable = || Error::Type("the flags' Uint32Array could not be read".into());
    let (Some(length), Some(offset), Some(buffer)) = (length, offset, buffer) else {
        return Err(unreadable());
    };
    let length = length as u64;
    if length > max {
        return Err(Error::TooMany {
            n: Some(length),
            max,
        });
    }
    if length == 0 {
        return Ok(Vec::new());
    }
    // A view of our own: its `length` is the slot's, whatever the caller's array defines.
    let view = Reflect::construct(
        &Uint32Array::new_with_length(0).constructor(),
        &Array::of3(
            &buffer,
            &JsValue::from(offset),
            &JsValue::from(length as f64),
        ),
    )
    .map_err(|_| unreadable())?
    .unchecked_into::<Uint32Array>();
    let mut words = vec![0u32; length as usize];
    view.copy_to(&mut words);
    Ok(words)
}

/// `undefined`/`null`, or a function (`typeof`, which runs nothing).
pub fn callback(value: &JsValue, what: &str) -> Result<Option<Function>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if value.is_function() {
        return Ok(Some(value.clone().unchecked_into()));
    }
    Err(Error::Type(format!(
        "{what} must be a function, not {}",
        type_of(value)
    )))
}

/// An `HTMLCanvasElement`, told by its built-in `width` getter (a brand check:
/// anything else, a Proxy of a canvas too, makes it throw, and runs nothing).
pub fn canvas(value: &JsValue) -> Result<web_sys::HtmlCanvasElement> {
    let is_canvas = INTRINSICS.with(|i| {
        i.canvas_width
            .as_ref()
            .is_some_and(|width| call(width, value).is_some_and(|w| w.as_f64().is_some()))
    });
    if is_canvas {
        return Ok(value.clone().unchecked_into());
    }
    Err(Error::Type(format!(
        "the canvas must be an HTMLCanvasElement, not {}",
        type_of(value)
    )))
}

/// `undefined`/`null`, or an `AbortSignal` (told by its built-in `aborted` getter).
pub fn abort_signal(value: &JsValue) -> Result<Option<JsValue>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if aborted(value).is_some() {
        return Ok(Some(value.clone()));
    }
    Err(Error::Type(format!(
        "the signal must be an AbortSignal, not {}",
        type_of(value)
    )))
}

/// Whether `signal` has fired (`None`: it is no AbortSignal); runs none of its code.
pub fn aborted(signal: &JsValue) -> Option<bool> {
    INTRINSICS.with(|i| {
        i.signal_aborted
            .as_ref()
            .and_then(|get| call(get, signal))
            .and_then(|v| v.as_bool())
    })
}

/// The most pixels an image drawn offscreen has (`attachImage`, `drawOrder`):
/// 64 MiB of RGBA, read back into wasm memory, which never shrinks (8192 ×
/// 8192 kept 513 MiB for the page's life).
pub(super) const MAX_IMAGE_PIXELS: u64 = 4096 * 4096;

/// An image's width and height: whole, from 1 to `max_side`, at most
/// `MAX_IMAGE_PIXELS` together.
pub(super) fn image_size(width: &JsValue, height: &JsValue, max_side: u64) -> Result<(u32, u32)> {
    let width = whole(width, "the width", 1, max_side)? as u32;
    let height = whole(height, "the height", 1, max_side)? as u32;
    if u64::from(width) * u64::from(height) > MAX_IMAGE_PIXELS {
        return Err(Error::Range(format!(
            "an image of {width} × {height} pixels is more than the {MAX_IMAGE_PIXELS} (4096 × 4096) drawn offscreen"
        )));
    }
    Ok((width, height))
}
