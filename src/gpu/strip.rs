//! WGSL without its comments, made at compile time, for the files that no page
//! shows (the per-mesh records' kernels, the payload's write-out, and the subgroup
//! scan, which browsers never get): a page's code view shows every other file as
//! written, and each page downloads this binary (the comments of the segment records
//! and the payload's write-out cost 1.5 KiB gzip, the subgroup scan's 1.1 KiB). The
//! package ships them as written. Without the `segments` feature (the playground's
//! wasm) the per-mesh files are left out altogether.

/// Whether `src[i..]` opens a `//` comment (WGSL has no strings to hide one).
const fn opens_comment(src: &[u8], i: usize) -> bool {
    i + 1 < src.len() && src[i] == b'/' && src[i + 1] == b'/'
}

/// The code of the line starting at `start`: its end before any comment and
/// trailing blanks, and where the next line starts.
const fn code_of_line(src: &[u8], start: usize) -> (usize, usize) {
    let mut i = start;
    while i < src.len() && src[i] != b'\n' && !opens_comment(src, i) {
        i += 1;
    }
    let mut end = i;
    while end > start && (src[end - 1] == b' ' || src[end - 1] == b'\t' || src[end - 1] == b'\r') {
        end -= 1;
    }
    while i < src.len() && src[i] != b'\n' {
        i += 1;
    }
    (end, i + 1)
}

/// Whether `src[start..end]` holds anything but blanks.
const fn has_code(src: &[u8], start: usize, end: usize) -> bool {
    let mut i = start;
    while i < end {
        if src[i] != b' ' && src[i] != b'\t' {
            return true;
        }
        i += 1;
    }
    false
}

/// The length of `src` stripped: each line's code (without comments and trailing
/// blanks) and a newline, lines without code left out.
pub(crate) const fn stripped_len(src: &str) -> usize {
    let src = src.as_bytes();
    let (mut start, mut len) = (0, 0);
    while start < src.len() {
        let (end, next) = code_of_line(src, start);
        if has_code(src, start, end) {
            len += end - start + 1;
        }
        start = next;
    }
    len
}

/// `src` stripped, `N` being its `stripped_len`.
pub(crate) const fn strip<const N: usize>(src: &str) -> [u8; N] {
    let src = src.as_bytes();
    let mut out = [0u8; N];
    let (mut start, mut at) = (0, 0);
    while start < src.len() {
        let (end, next) = code_of_line(src, start);
        if has_code(src, start, end) {
            let mut i = start;
            while i < end {
                out[at] = src[i];
                at += 1;
                i += 1;
            }
            out[at] = b'\n';
            at += 1;
        }
        start = next;
    }
    out
}

/// A file of `shaders/` as `catalogue::File`, its comments stripped at compile time.
macro_rules! stripped_shader_file {
    ($name:literal) => {{
        const SOURCE: &str = include_str!(concat!("../../shaders/", $name, ".wgsl"));
        const LEN: usize = $crate::gpu::strip::stripped_len(SOURCE);
        const BYTES: [u8; LEN] = $crate::gpu::strip::strip::<LEN>(SOURCE);
        File {
            path: concat!("shaders/", $name, ".wgsl"),
            wgsl: match core::str::from_utf8(&BYTES) {
                Ok(text) => text,
                Err(_) => panic!("stripping a comment split a character"),
            },
        }
    }};
}
pub(crate) use stripped_shader_file;

/// A file only a feature's kernels use: stripped where `$on` (the feature's
/// `cfg!`), else empty (that build's `prepare` refuses what would compile it).
macro_rules! optional_shader_file {
    ($on:expr, $name:literal) => {
        if $on {
            $crate::gpu::strip::stripped_shader_file!($name)
        } else {
            File {
                path: concat!("shaders/", $name, ".wgsl"),
                wgsl: "",
            }
        }
    };
}
pub(crate) use optional_shader_file;

/// `src` stripped at run time, as the macro strips it at compile time (tests).
#[cfg(test)]
pub(crate) fn stripped(src: &str) -> String {
    let bytes = src.as_bytes();
    let (mut start, mut out) = (0, Vec::new());
    while start < bytes.len() {
        let (end, next) = code_of_line(bytes, start);
        if has_code(bytes, start, end) {
            out.extend_from_slice(&bytes[start..end]);
            out.push(b'\n');
        }
        start = next;
    }
    assert_eq!(out.len(), stripped_len(src));
    String::from_utf8(out).expect("utf-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_lines_go_code_stays() {
        let src = "// header\n\nfn f() -> u32 { // why\n  return 1u / 2u;   \n}\n  // indented\nlet x = 3;";
        assert_eq!(
            stripped(src),
            "fn f() -> u32 {\n  return 1u / 2u;\n}\nlet x = 3;\n"
        );
        const LEN: usize = stripped_len("a // b\n// c\nd\n");
        assert_eq!(&strip::<LEN>("a // b\n// c\nd\n"), b"a\nd\n");
    }
}
