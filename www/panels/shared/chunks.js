// The text of the downloads, made a chunk at a time: a file of 16 M rows is
// never one string, nor one array per row (export.js turns the chunks into
// Blobs between which the page goes on).

/** Rows (or array elements) a chunk holds. */
const CHUNK = 16_384;

const isList = (v) => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
const number = (x) => (Number.isFinite(x) ? String(x) : 'null');

/**
 * `value` as JSON.stringify(value, typed arrays as arrays, 2) writes it, in
 * chunks: a list of numbers (typed or not) CHUNK elements at a time.
 * @returns {Generator<string>}
 */
export function* jsonChunks(value, indent = '') {
  if (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') value = value.toJSON();
  if (isList(value)) {
    if (value.length === 0) return yield '[]';
    const inner = `${indent}  `;
    const sep = `,\n${inner}`;
    if (ArrayBuffer.isView(value) || value.every((v) => typeof v === 'number')) {
      for (let i = 0; i < value.length; i += CHUNK) {
        const piece = Array.from(value.subarray ? value.subarray(i, i + CHUNK) : value.slice(i, i + CHUNK), number);
        yield (i === 0 ? `[\n${inner}` : sep) + piece.join(sep);
      }
    } else {
      for (let i = 0; i < value.length; i++) {
        yield i === 0 ? `[\n${inner}` : sep;
        const v = value[i];
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') yield 'null';
        else yield* jsonChunks(v, inner);
      }
    }
    return yield `\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined && typeof value[k] !== 'function' && typeof value[k] !== 'symbol');
    if (keys.length === 0) return yield '{}';
    const inner = `${indent}  `;
    for (const [i, k] of keys.entries()) {
      yield `${i === 0 ? '{' : ','}\n${inner}${JSON.stringify(k)}: `;
      yield* jsonChunks(value[k], inner);
    }
    return yield `\n${indent}}`;
  }
  yield JSON.stringify(value) ?? 'null';
}

/** JSON with typed arrays as plain arrays, as one string (small values). */
export function toJson(value) {
  return `${Array.from(jsonChunks(value)).join('')}\n`;
}

/** A CSV file: `header`, then `row(i)` (one line, no newline) for i < count, in chunks. */
export function* csvChunks(header, count, row) {
  yield `${header.join(',')}\n`;
  for (let i = 0; i < count; i += CHUNK) {
    const end = Math.min(count, i + CHUNK);
    let text = '';
    for (let k = i; k < end; k++) text += `${row(k)}\n`;
    yield text;
  }
}
