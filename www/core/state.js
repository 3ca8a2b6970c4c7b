// The view's state and its URL form. The hash holds either the flags themselves
// (`flags=b10.KQI`, packed by the crate's encodeFlags) or, for arrays too big to
// edit cell by cell, the preset that makes them (`preset=random&n=…&density=…&seed=…`),
// plus the method, the stepper's step and the block it shows (or, for the tile
// methods, the first tile of the tile view's window). The iframe route
// (embed.html) adds `panels`, `theme` and `lang`. Also the element's `flags` and
// `preset` attributes, which take the same forms.

import { layout, methodNames } from './layout.js';

/** Arrays up to this size are edited as cells; larger ones are a density strip. */
export const MAX_CELLS = 4096;
/** Past this many flags, a link or an attribute asks the visitor before anything is made or computed (docs/embedding.md). */
export const ASK_ABOVE = 1 << 22;
/** Hash keys that belong to the embedding, not to the playground's state. */
export const EMBED_KEYS = ['panels', 'theme', 'lang', 'origin'];

/** @typedef {{ name: string, n: number, density: number, seed: number }} Preset */

/** @type {Readonly<Preset>} */
export const DEFAULT_PRESET = Object.freeze({ name: 'article', n: 10, density: 0.5, seed: 1 });

export function defaultState() {
  return {
    preset: { ...DEFAULT_PRESET },
    flagsCode: null,
    method: 'scan',
    step: null,
    block: 0,
    tile: 0,
    /** A learner's kernel carried by a link: `{ module, src }` (src: link.js's packed text, or null). */
    kernel: null,
    embed: {},
  };
}

/** A malformed hash or attribute: `detail` is `{ key, params }` of a `hash.<key>` message (www/messages/). */
export class HashError extends Error {
  constructor(key, params = {}) {
    super(key);
    this.detail = { key, params };
  }
}

function int(params, key, min, max) {
  return whole(key, params.get(key), min, max);
}

function whole(key, text, min, max) {
  if (!/^\d+$/.test(text ?? '')) throw new HashError('notWhole', { key, text: String(text) });
  const value = Number(text);
  if (value < min || value > max) throw new HashError('outside', { key, text, min, max });
  return value;
}

/** A preset from its name and optional n, density, seed (text, or null for the default). */
function presetFrom(name, n, density, seed) {
  if (!layout.presets.includes(name)) throw new HashError('unknownPreset', { name, presets: layout.presets.join(', ') });
  const preset = { ...DEFAULT_PRESET, name };
  if (n !== null && n !== undefined) preset.n = whole('n', n, 1, layout.maxFlags);
  if (seed !== null && seed !== undefined) preset.seed = whole('seed', seed, 0, 0xffffffff);
  if (density !== null && density !== undefined) {
    if (!/^(0|1|0?\.\d+|1\.0*)$/.test(density)) throw new HashError('badDensity', { density });
    preset.density = Number(density);
  }
  return preset;
}

/**
 * The element's `preset` attribute: `name [n [density [seed]]]`, e.g.
 * `random 100000 0.5 1`. Throws a HashError saying what is wrong.
 */
export function parsePresetAttribute(text) {
  const [name, n = null, density = null, seed = null, ...rest] = String(text).trim().split(/\s+/);
  if (rest.length) throw new HashError('tooManyParts', { text });
  return presetFrom(name, n, density, seed);
}

/** The `preset` attribute for a preset. */
export function formatPresetAttribute({ name, n, density, seed }) {
  return name === 'article' ? 'article' : `${name} ${n} ${density} ${seed}`;
}

/**
 * The element's `flags` attribute: what the text box takes (`1001`, `1,0,0,1`)
 * or the packed form of a link (`b10.KQI`). Throws with the parser's message.
 */
export function parseFlagsAttribute(text, wasm) {
  const code = String(text).trim();
  // Both refuse more than layout.maxFlags, from the length alone.
  const flags = /^[bw]\d+\./.test(code) ? wasm.decodeFlags(code) : wasm.parseFlags(code);
  if (flags.length === 0) throw new HashError('empty');
  return flags;
}

/** Every key a hash may hold; others are named as ignored. */
const HASH_KEYS = ['flags', 'preset', 'n', 'density', 'seed', 'method', 'step', 'block', 'tile', 'kernel', 'src', ...EMBED_KEYS];

/**
 * The most parts (`key=value`, between `&`) of a hash that are read: every key
 * that means something fits several times over, and a crafted link of a
 * million empty or unknown keys costs no more than this many.
 */
export const MAX_HASH_PARTS = 64;

/**
 * `hash` (with or without its `#`) as URLSearchParams of its first
 * MAX_HASH_PARTS parts, and `rest`: the text past them ('' when none).
 * @param {string} hash
 */
export function hashParams(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  let at = 0;
  let parts = 0;
  while (parts < MAX_HASH_PARTS) {
    const end = text.indexOf('&', at);
    parts++;
    if (end < 0) return { params: new URLSearchParams(text), rest: '' };
    at = end + 1;
  }
  return { params: new URLSearchParams(text.slice(0, at - 1)), rest: text.slice(at) };
}

/**
 * Parses `location.hash`. Returns `{ state, flags, error, ignored }`: on any
 * malformed part the state is the default one and `error` is `{ key, params }`
 * of the `hash.<key>` message saying what was wrong (the page shows it).
 * `ignored`: `[{ part, why: 'unknown' | 'noPreset' }]`. A hash that names neither flags nor a preset has
 * `state.preset === null` and `flags === null`: the flags shown stay. `ignored`
 * lists the parts that mean nothing here. `decodeFlags` is the crate's decoder
 * (throws on malformed packing).
 */
export function parseHash(hash, decodeFlags) {
  const state = defaultState();
  const { params, rest } = hashParams(hash);
  if (params.size === 0 && !rest) return { state, flags: null, error: null, ignored: [] };
  const ignored = [];
  // Past MAX_HASH_PARTS nothing is read: said once, with where it starts.
  if (rest) ignored.push({ part: `${rest.slice(0, 60)}…`, why: 'unknown' });
  try {
    for (const [key, value] of params) {
      if (!HASH_KEYS.includes(key)) ignored.push({ part: value ? `${key}=${value}` : key, why: 'unknown' });
    }
    if (!params.has('preset')) {
      for (const key of ['n', 'density', 'seed']) if (params.has(key)) ignored.push({ part: `${key}=${params.get(key)}`, why: 'noPreset' });
    }
    if (params.has('method')) {
      const method = params.get('method');
      if (!methodNames().includes(method)) throw new HashError('unknownMethod', { method, methods: methodNames().join(', ') });
      state.method = method;
    }
    if (params.has('step')) state.step = int(params, 'step', 1, 1000);
    if (params.has('block')) state.block = int(params, 'block', 0, layout.maxFlags / layout.block);
    if (params.has('tile')) state.tile = int(params, 'tile', 0, layout.maxFlags / layout.tile);
    for (const key of EMBED_KEYS) if (params.has(key)) state.embed[key] = params.get(key);
    // The kernel panel reads its module and unpacks the text (asynchronously: www/panels/kernel/link.js).
    if (params.has('kernel')) state.kernel = { module: params.get('kernel'), src: params.get('src') };
    else if (params.has('src')) ignored.push({ part: 'src=…', why: 'unknown' });
    let flags = null;
    if (params.has('flags')) {
      const code = params.get('flags');
      try {
        flags = decodeFlags(code);
      } catch (e) {
        throw new HashError('decode', { error: e.message });
      }
      if (flags.length === 0) throw new HashError('empty');
      state.preset = null;
      state.flagsCode = code;
    } else if (params.has('preset')) {
      const name = params.get('preset');
      if (!layout.presets.includes(name)) throw new HashError('unknownPreset', { name, presets: layout.presets.join(', ') });
      state.preset = presetFrom(name, params.get('n'), params.get('density'), params.get('seed'));
    } else {
      state.preset = null;
    }
    return { state, flags, error: null, ignored };
  } catch (e) {
    if (!(e instanceof HashError)) throw e;
    return { state: defaultState(), flags: null, error: e.detail, ignored };
  }
}

/** The message for a hash's ignored parts in `t`'s language, or null. */
export function ignoredMessage(ignored, t) {
  if (!ignored.length) return null;
  const shown = ignored.slice(0, 5).map(({ part, why }) => {
    const quoted = `“${part.length > 60 ? `${part.slice(0, 60)}…` : part}”`;
    return why === 'noPreset' ? t('hash.withoutPreset', { part: quoted }) : quoted;
  });
  const more = ignored.length > 5 ? t('hash.more', { more: ignored.length - 5 }) : '';
  return t('hash.ignored', { parts: shown.join(', '), more });
}

/**
 * The hash for a state. Small arrays carry their flags (so edits survive);
 * large preset arrays carry the preset's parameters.
 */
export function formatHash({ flags, preset, method, step, block, tile, kernel = null, embed = {} }, encodeFlags) {
  const params = new URLSearchParams();
  if (preset && flags.length > MAX_CELLS) {
    params.set('preset', preset.name);
    params.set('n', String(preset.n));
    if (preset.name === 'random' || preset.name === 'clustered') {
      params.set('density', String(preset.density));
      params.set('seed', String(preset.seed));
    }
  } else {
    params.set('flags', encodeFlags(flags));
  }
  params.set('method', method);
  if (step) params.set('step', String(step));
  if (block) params.set('block', String(block));
  if (tile) params.set('tile', String(tile));
  if (kernel) {
    params.set('kernel', kernel.module);
    if (kernel.src) params.set('src', kernel.src);
  }
  for (const key of EMBED_KEYS) if (embed[key]) params.set(key, embed[key]);
  // URLSearchParams escapes nothing in base64url, `.` or digits.
  return `#${params.toString()}`;
}

/** Flags as the text box shows them: `1001101001`, or `1,0,2` when some are not 0/1. */
export function flagsText(flags) {
  let binary = true;
  for (const f of flags) if (f > 1) binary = false;
  return binary ? Array.from(flags).join('') : Array.from(flags).join(',');
}

/** How many flags `{ flags }` or `{ preset }` asks for, when past ASK_ABOVE; else 0. */
/** @param {{ flags?: Uint32Array | null, preset?: { n: number } | null }} wanted */
export function tooBig({ flags, preset }) {
  const n = flags?.length ?? preset?.n ?? 0;
  return n > ASK_ABOVE ? n : 0;
}
