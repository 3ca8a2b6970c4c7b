// The view's state and its URL form. The hash holds either the flags themselves
// (`flags=b10.KQI`, packed by the crate's encodeFlags) or, for arrays too big to
// edit cell by cell, the preset that makes them (`preset=random&n=…&density=…&seed=…`),
// plus the method, the stepper's step and the block it shows (or, for the tile
// methods, the first tile of the tile view's window).

export const METHODS = ['atomic', 'aggregated', 'scan', 'lookback', 'lookback-bits', 'tile-atomic'];
export const PRESETS = ['article', 'all', 'none', 'random', 'clustered'];
/** Arrays up to this size are edited as cells; larger ones are a density strip. */
export const MAX_CELLS = 4096;
/** The largest array the page generates or accepts (16 M flags). */
export const MAX_FLAGS = 16 * 1024 * 1024;
export const BLOCK = 256;
export const TILE = 4096;

export const DEFAULT_PRESET = Object.freeze({ name: 'article', n: 10, density: 0.5, seed: 1 });

export function defaultState() {
  return {
    preset: { ...DEFAULT_PRESET },
    flagsCode: null,
    method: 'scan',
    step: null,
    block: 0,
    tile: 0,
  };
}

class HashError extends Error {}

function int(params, key, min, max) {
  const text = params.get(key);
  if (!/^\d+$/.test(text ?? '')) throw new HashError(`\`${key}=${text}\` is not a whole number`);
  const value = Number(text);
  if (value < min || value > max) throw new HashError(`\`${key}=${text}\` is outside ${min}…${max}`);
  return value;
}

/**
 * Parses `location.hash`. Returns `{ state, error }`: on any malformed part the
 * state is the default one and `error` says what was wrong (the page shows it).
 * `decodeFlags` is the crate's decoder (throws on malformed packing).
 */
export function parseHash(hash, decodeFlags) {
  const text = hash.replace(/^#/, '');
  const state = defaultState();
  if (text === '') return { state, flags: null, error: null };
  try {
    const params = new URLSearchParams(text);
    if (params.has('method')) {
      const method = params.get('method');
      if (!METHODS.includes(method)) {
        throw new HashError(`unknown method \`${method}\` (expected ${METHODS.join(', ')})`);
      }
      state.method = method;
    }
    if (params.has('step')) state.step = int(params, 'step', 1, 1000);
    if (params.has('block')) state.block = int(params, 'block', 0, MAX_FLAGS / BLOCK);
    if (params.has('tile')) state.tile = int(params, 'tile', 0, MAX_FLAGS / TILE);
    let flags = null;
    if (params.has('flags')) {
      const code = params.get('flags');
      const n = /^[bw](\d+)\./.exec(code);
      if (n && Number(n[1]) > MAX_FLAGS) {
        throw new HashError(`${n[1]} flags is more than the ${MAX_FLAGS} the page handles`);
      }
      try {
        flags = decodeFlags(code);
      } catch (e) {
        throw new HashError(e.message);
      }
      if (flags.length === 0) throw new HashError('the flags are empty');
      state.preset = null;
      state.flagsCode = code;
    } else if (params.has('preset')) {
      const name = params.get('preset');
      if (!PRESETS.includes(name)) {
        throw new HashError(`unknown preset \`${name}\` (expected ${PRESETS.join(', ')})`);
      }
      const preset = { ...DEFAULT_PRESET, name };
      if (params.has('n')) preset.n = int(params, 'n', 1, MAX_FLAGS);
      if (params.has('seed')) preset.seed = int(params, 'seed', 0, 0xffffffff);
      if (params.has('density')) {
        const d = params.get('density');
        if (!/^(0|1|0?\.\d+|1\.0*)$/.test(d)) throw new HashError(`\`density=${d}\` is not a number in 0…1`);
        preset.density = Number(d);
      }
      state.preset = preset;
    }
    return { state, flags, error: null };
  } catch (e) {
    if (!(e instanceof HashError)) throw e;
    return { state: defaultState(), flags: null, error: e.message };
  }
}

/**
 * The hash for a state. Small arrays carry their flags (so edits survive);
 * large preset arrays carry the preset's parameters.
 */
export function formatHash({ flags, preset, method, step, block, tile }, encodeFlags) {
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
  // URLSearchParams escapes nothing in base64url, `.` or digits.
  return `#${params.toString()}`;
}
