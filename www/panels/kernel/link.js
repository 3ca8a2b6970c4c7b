// A learner's kernel in a link: its text deflated (the browser's
// CompressionStream, deflate-raw) and written in base64url, the `src` key of
// the hash beside `kernel`. A link is written only while it stays short enough
// to share (MAX_LINK_CHARS); a source arriving by link is refused past
// MAX_SOURCE_BYTES inflated, however small its packed form. Pure:
// tests/js/link.test.mjs.

/** The longest `src` a link carries; past it the panel offers a .wgsl download instead. */
export const MAX_LINK_CHARS = 8000;
/** The longest source taken from a link, inflated (the wasm takes no more either). */
export const MAX_SOURCE_BYTES = 64 * 1024;

/** @param {Uint8Array} bytes */
function base64url(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** @param {string} code */
function unbase64url(code) {
  if (!/^[A-Za-z0-9_-]*$/.test(code)) throw new Error('not base64url');
  const text = atob(code.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** @param {Uint8Array<ArrayBuffer>} bytes  @param {CompressionStream | DecompressionStream} stream */
async function through(bytes, stream) {
  const piped = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/** `text` as a link's `src`. @param {string} text */
export async function packSource(text) {
  return base64url(await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

/**
 * The text of a link's `src`; throws on a malformed one or one that inflates past MAX_SOURCE_BYTES
 * (read as it inflates: a small link cannot make the page hold a large text).
 * @param {string} code
 */
export async function unpackSource(code) {
  const bytes = unbase64url(code);
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_SOURCE_BYTES) {
      await reader.cancel();
      throw new Error(`more than ${MAX_SOURCE_BYTES} bytes`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(all);
}
