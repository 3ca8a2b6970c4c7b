//! Reading flags from text or bytes, in pieces: a file, stdin, a text box.
//! One reader for every format, which stops at the first bad token and as soon
//! as there are more flags than the caller can compact, so that nothing past
//! that is ever buffered (`--input /dev/zero` fails at once).

use super::FlagsFormat;
use crate::error::{BadToken, Error, Result};

/// A u32 has at most this many significant decimal digits.
const U32_DIGITS: usize = 10;
/// A token longer than this is refused as it is read, whatever it holds.
const LONGEST_TOKEN: usize = 64;
/// How much of a bad token an error message shows.
const SHOWN: usize = 24;

/// Flags read piece by piece: `push` each piece, then `finish`.
pub struct FlagReader {
    format: FlagsFormat,
    max: u64,
    flags: Vec<u32>,
    /// `List`: the token being read (its digits), and whether one is open.
    token: String,
    /// Bytes carried to the next piece: an incomplete UTF-8 character or u32 word.
    carry: Vec<u8>,
    /// Bytes consumed so far, for messages.
    consumed: u64,
}

impl FlagReader {
    /// A reader that refuses more than `max` flags.
    pub fn new(format: FlagsFormat, max: u64) -> Self {
        Self {
            format,
            max,
            flags: Vec::new(),
            token: String::new(),
            carry: Vec::new(),
            consumed: 0,
        }
    }

    /// Reads the next piece of the input.
    pub fn push(&mut self, piece: &[u8]) -> Result<()> {
        let mut bytes = std::mem::take(&mut self.carry);
        bytes.extend_from_slice(piece);
        if self.format == FlagsFormat::U32Le {
            let whole = bytes.len() / 4 * 4;
            for w in bytes[..whole].chunks_exact(4) {
                self.add(u32::from_le_bytes([w[0], w[1], w[2], w[3]]))?;
            }
            self.consumed += whole as u64;
            self.carry = bytes[whole..].to_vec();
            return Ok(());
        }
        let (text, rest) = match std::str::from_utf8(&bytes) {
            Ok(text) => (text, &[][..]),
            // An incomplete character at the end of the piece: wait for the rest.
            Err(e) if e.error_len().is_none() => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                (std::str::from_utf8(valid).unwrap_or_default(), rest)
            }
            Err(e) => {
                return Err(Error::Parse(format!(
                    "byte {}: the input is not UTF-8 text",
                    self.consumed + e.valid_up_to() as u64 + 1
                )))
            }
        };
        // A byte-order mark opening the text (an editor on Windows writes one) is not a flag.
        let body = match text.strip_prefix('\u{feff}') {
            Some(body) if self.consumed == 0 => body,
            _ => text,
        };
        for c in body.chars() {
            self.char(c)?;
        }
        self.consumed += text.len() as u64;
        self.carry = rest.to_vec();
        Ok(())
    }

    /// The flags, once the input has ended.
    pub fn finish(mut self) -> Result<Vec<u32>> {
        match self.format {
            FlagsFormat::U32Le if !self.carry.is_empty() => {
                let bytes = self.consumed + self.carry.len() as u64;
                Err(Error::Parse(format!(
                    "token {}: {bytes} bytes is not a whole number of 4-byte u32 words",
                    bytes / 4 + 1
                )))
            }
            _ if !self.carry.is_empty() => Err(Error::Parse(format!(
                "byte {}: the input is not UTF-8 text",
                self.consumed + 1
            ))),
            _ => {
                self.end_token()?;
                Ok(self.flags)
            }
        }
    }

    fn char(&mut self, c: char) -> Result<()> {
        let separator = c.is_whitespace() || (c == ',' && self.format == FlagsFormat::List);
        match self.format {
            FlagsFormat::Bits if separator => Ok(()),
            FlagsFormat::Bits => match c {
                '0' | '1' => self.add(u32::from(c == '1')),
                other => Err(self.bad(&other.to_string(), BadToken::NotBit)),
            },
            _ if separator => self.end_token(),
            _ => {
                self.token.push(c);
                let significant = self.token.trim_start_matches('0');
                if !c.is_ascii_digit() {
                    Err(self.bad(&self.token, BadToken::NotDecimal))
                } else if significant.len() > U32_DIGITS
                    || (significant.len() == U32_DIGITS && significant.parse::<u32>().is_err())
                {
                    Err(self.bad(&self.token, BadToken::TooLarge))
                } else if self.token.len() > LONGEST_TOKEN {
                    Err(self.bad(&self.token, BadToken::TooLong))
                } else {
                    Ok(())
                }
            }
        }
    }

    fn end_token(&mut self) -> Result<()> {
        if self.token.is_empty() {
            return Ok(());
        }
        let value = self.token.parse::<u32>().map_err(|_| {
            let token = self.token.clone();
            self.bad(&token, BadToken::NotDecimal)
        })?;
        self.token.clear();
        self.add(value)
    }

    fn add(&mut self, flag: u32) -> Result<()> {
        if self.flags.len() as u64 >= self.max {
            return Err(Error::TooMany {
                n: None,
                max: self.max,
            });
        }
        self.flags.push(flag);
        Ok(())
    }

    /// The token being read is no flag, for `why`.
    fn bad(&self, text: &str, why: BadToken) -> Error {
        Error::BadToken {
            at: self.flags.len() as u64,
            token: printable(text),
            why,
        }
    }
}

/// `text` for a message: at most `SHOWN` characters, control characters escaped.
pub fn printable(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(SHOWN)
        .flat_map(|c| {
            if c.is_control() {
                c.escape_debug().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect();
    if text.chars().count() > SHOWN {
        out.push('…');
    }
    out
}

/// All of `bytes` in `format`, refusing more than `max` flags.
pub fn parse(bytes: &[u8], format: FlagsFormat, max: u64) -> Result<Vec<u32>> {
    let mut reader = FlagReader::new(format, max);
    reader.push(bytes)?;
    reader.finish()
}

/// Decimal u32 values separated by whitespace and/or commas, e.g. `1,0,0,1` or `1 0 2`.
pub fn parse_list(text: &str) -> Result<Vec<u32>> {
    parse(text.as_bytes(), FlagsFormat::List, u64::MAX)
}

/// Characters `0` and `1`, whitespace ignored, e.g. `1001 1010 01`.
pub fn parse_bits(text: &str) -> Result<Vec<u32>> {
    parse(text.as_bytes(), FlagsFormat::Bits, u64::MAX)
}

pub fn parse_u32le(bytes: &[u8]) -> Result<Vec<u32>> {
    parse(bytes, FlagsFormat::U32Le, u64::MAX)
}

/// What a person pastes, at most `max` flags: a list when it has separators
/// (`1,0,0,1`, `1 0 2`), otherwise a run of bits (`1001`).
pub fn parse_text(text: &str, max: u64) -> Result<Vec<u32>> {
    let trimmed = text.trim();
    let has_separators = trimmed.contains(|c: char| c == ',' || c.is_whitespace());
    let bits =
        !has_separators && trimmed.len() > 1 && trimmed.bytes().all(|b| b == b'0' || b == b'1');
    let format = if bits {
        FlagsFormat::Bits
    } else {
        FlagsFormat::List
    };
    parse(trimmed.as_bytes(), format, max)
}
