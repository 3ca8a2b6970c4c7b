// A learner's kernel in a link: its text deflated (the browser's
// CompressionStream, deflate-raw) and written in base64url, the `src` key of
// the hash beside `kernel`. A link is written only while it stays short enough
// to share (MAX_LINK_CHARS); a `src` longer than that is refused unread, and a
// source arriving by link is refused past MAX_SOURCE_BYTES as it inflates (the
// packed bytes are fed a kibibyte at a time, so no piece inflates past about a
// mebibyte). `readBounded` reads any byte stream so (kernel-src's too). Pure:
// tests/js/link.test.mjs.

import { MAX_SOURCE_BYTES } from './instrument.js';

export { MAX_SOURCE_BYTES };
/** The longest `src` a link carries; past it the panel offers a .wgsl download instead. */
export const MAX_LINK_CHARS = 8000;
/** The packed bytes given to the inflater at a time. */
const PIECE = 1024;

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
 * The text of a link's `src`; throws on a malformed one, one longer than a
 * link this page writes, or one that inflates past MAX_SOURCE_BYTES.
 * @param {string} code
 */
export async function unpackSource(code) {
  if (code.length > MAX_LINK_CHARS) throw new Error(`a link's kernel of ${code.length} characters: at most ${MAX_LINK_CHARS}`);
  const bytes = unbase64url(code);
  let at = 0;
  const packed = new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.slice(at, at + PIECE));
      at += PIECE;
    },
  });
  return readBounded(packed.pipeThrough(new DecompressionStream('deflate-raw')), MAX_SOURCE_BYTES);
}

/**
 * The UTF-8 text of a byte stream, read as it arrives and cancelled at the
 * first piece past `limit` bytes (throws `more than … bytes`).
 * @param {ReadableStream<Uint8Array>} stream  @param {number} limit
 */
export async function readBounded(stream, limit) {
  const reader = stream.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`more than ${limit} bytes`);
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
