//! Every argument that comes in from JS, checked before it is used: a wrong
//! type is an `Error::Type`, a number out of range an `Error::Range`, too many
//! flags `Error::TooMany`, refused from the length alone before anything is
//! copied into wasm memory. No JS value can make the wasm trap.

use js_sys::{Array, Uint32Array};
use wasm_bindgen::{JsCast, JsValue};

use crate::Error;
use wgpu_compaction::Method;

type Result<T> = std::result::Result<T, Error>;

/// What JS calls this value, for messages.
fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        "null".into()
    } else if Array::is_array(value) {
        "an array".into()
    } else if let Some(name) = value
        .dyn_ref::<js_sys::Object>()
        .map(|o| o.constructor().name())
        .filter(|_| value.is_object())
    {
        format!("a {}", String::from(name))
    } else {
        value.js_typeof().as_string().unwrap_or_default()
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

/// A whole number in `min..=max`.
pub fn whole(value: &JsValue, what: &str, min: u64, max: u64) -> Result<u64> {
    let n = value
        .as_f64()
        .ok_or_else(|| Error::Type(format!("{what} must be a number, not {}", type_of(value))))?;
    if !(n.is_finite() && n.fract() == 0.0 && n >= min as f64 && n <= max as f64) {
        return Err(Error::Range(format!(
            "{what} must be a whole number from {min} to {max}, not {n}"
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
            "{what} must be a number from {min} to {max}, not {n}"
        )));
    }
    Ok(n)
}

/// Flags: a `Uint32Array`, or an array of whole numbers from 0 to 2^32 − 1,
/// at most `max` of them.
pub fn flags(value: &JsValue, max: u64) -> Result<Vec<u32>> {
    let too_many = |n: u32| Error::TooMany {
        n: Some(u64::from(n)),
        max,
    };
    if let Some(words) = value.dyn_ref::<Uint32Array>() {
        if u64::from(words.length()) > max {
            return Err(too_many(words.length()));
        }
        return Ok(words.to_vec());
    }
    if let Some(array) = value.dyn_ref::<Array>() {
        if u64::from(array.length()) > max {
            return Err(too_many(array.length()));
        }
        return array
            .iter()
            .enumerate()
            .map(|(i, v)| whole(&v, &format!("flag {i}"), 0, u64::from(u32::MAX)).map(|f| f as u32))
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

/// `undefined`/`null`, or a function.
pub fn callback(value: &JsValue, what: &str) -> Result<Option<js_sys::Function>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value
        .dyn_ref::<js_sys::Function>()
        .cloned()
        .map(Some)
        .ok_or_else(|| Error::Type(format!("{what} must be a function, not {}", type_of(value))))
}

pub fn canvas(value: &JsValue) -> Result<web_sys::HtmlCanvasElement> {
    value
        .dyn_ref::<web_sys::HtmlCanvasElement>()
        .cloned()
        .ok_or_else(|| {
            Error::Type(format!(
                "the canvas must be an HTMLCanvasElement, not {}",
                type_of(value)
            ))
        })
}
