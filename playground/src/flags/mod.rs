//! Flag arrays: the one meaning of a flag, parsing (read.rs), presets and URL
//! packing. Pure Rust: nothing here knows about the GPU.

mod read;

pub use read::{parse, parse_bits, parse_list, parse_text, parse_u32le, printable, FlagReader};

use crate::error::{Error, Result};

pub use wgpu_compaction::is_visible;
pub use wgpu_compaction::teaching::cpu::inputs::{clustered, random, XorShift64};

/// The article's example: `1 0 0 1 1 0 1 0 0 1` compacts to `0 3 4 6 9`.
pub const ARTICLE_EXAMPLE: [u32; 10] = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1];

/// The presets of the page, its links and attributes, each made by [`preset`].
pub const PRESETS: [&str; 5] = ["article", "all", "none", "random", "clustered"];

/// The flags of preset `name`: `article` (its ten), `all` or `none` (`n` of
/// them), `random` or `clustered` (runs of about 8) of `n` at a density, from
/// a seed; `density` and `seed` are asked only by the presets that take them.
pub fn preset(
    name: &str,
    n: usize,
    density: impl FnOnce() -> Result<f64>,
    seed: impl FnOnce() -> Result<u64>,
) -> Result<Vec<u32>> {
    Ok(match name {
        "article" => ARTICLE_EXAMPLE.to_vec(),
        "all" => vec![1; n],
        "none" => vec![0; n],
        "random" => random(n, density()?, seed()?),
        "clustered" => clustered(n, density()?, 8, seed()?),
        other => {
            return Err(Error::Parse(format!(
                "unknown preset `{}`; expected {}",
                printable(other),
                PRESETS.join(", ")
            )))
        }
    })
}

/// How flags are written in a file or a text box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagsFormat {
    /// Decimal u32 values separated by whitespace or commas.
    List,
    /// Characters `0` and `1`; whitespace is ignored.
    Bits,
    /// Raw little-endian u32 words.
    U32Le,
}

impl std::str::FromStr for FlagsFormat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "list" => Ok(Self::List),
            "bits" => Ok(Self::Bits),
            "u32le" => Ok(Self::U32Le),
            other => Err(Error::Parse(format!(
                "unknown flags format `{other}`; expected list, bits or u32le"
            ))),
        }
    }
}

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..=chunk.len() {
            out.push(BASE64URL[((v >> (18 - 6 * k)) & 63) as usize] as char);
        }
    }
    out
}

fn base64url_decode(text: &str) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (k, c) in text.bytes().enumerate() {
        let v = BASE64URL.iter().position(|&b| b == c).ok_or_else(|| {
            Error::Parse(format!(
                "character {} of the packed flags is not base64url",
                k + 1
            ))
        })?;
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// Packs flags for a URL: `b<n>.<bits>` when every flag is 0 or 1 (one bit each,
/// least significant first), `w<n>.<words>` otherwise (little-endian u32), both base64url.
pub fn encode_url(flags: &[u32]) -> String {
    if flags.iter().all(|&f| f <= 1) {
        let mut bytes = vec![0u8; flags.len().div_ceil(8)];
        for (i, _) in flags.iter().enumerate().filter(|(_, &f)| f == 1) {
            bytes[i / 8] |= 1 << (i % 8);
        }
        format!("b{}.{}", flags.len(), base64url_encode(&bytes))
    } else {
        let bytes: Vec<u8> = flags.iter().flat_map(|f| f.to_le_bytes()).collect();
        format!("w{}.{}", flags.len(), base64url_encode(&bytes))
    }
}

/// The inverse of `encode_url`, for at most `max` flags; any malformed text
/// is an error, never a panic, and a length past `max` is refused before
/// anything is decoded.
pub fn decode_url(text: &str, max: u64) -> Result<Vec<u32>> {
    let bad = |why: &str| Error::Parse(format!("the flags in the URL are malformed: {why}"));
    let (kind, rest) = text.split_at_checked(1).ok_or_else(|| bad("empty"))?;
    let (n, packed) = rest
        .split_once('.')
        .ok_or_else(|| bad("no `.` after the length"))?;
    if !n.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("the length is not a number"));
    }
    let n: u64 = n.parse().map_err(|_| bad("the length is too large"))?;
    if n > max {
        return Err(Error::TooMany { n: Some(n), max });
    }
    let n = n as usize;
    let bytes = base64url_decode(packed)?;
    match kind {
        "b" if bytes.len() == n.div_ceil(8) => Ok((0..n)
            .map(|i| u32::from(bytes[i / 8] >> (i % 8) & 1))
            .collect()),
        "w" if Some(bytes.len()) == n.checked_mul(4) => parse_u32le(&bytes),
        "b" | "w" => Err(bad("the length does not match the packed data")),
        _ => Err(bad("it must start with `b` or `w`")),
    }
}
