// Independent JavaScript computations the browser tests compare the page with.
// Written from the article, not from the crate: a plain loop for the compaction,
// Hillis-Steele on padded 256-element blocks, FNV-1a, and the xorshift64 preset
// generator. (Not a test file: `node --test` only runs *.test.mjs.)

export const BLOCK = 256;

/** The indices of the visible (nonzero) flags, in order. */
export function compact(flags) {
  const out = [];
  flags.forEach((f, i) => {
    if (f !== 0) out.push(i);
  });
  return out;
}

/** Exclusive prefix sum of the 0/1 visibility of `flags` (or of raw values). */
export function exclusiveScan(values, clampToOne = true) {
  let sum = 0;
  return values.map((v) => {
    const here = sum;
    sum += clampToOne ? (v !== 0 ? 1 : 0) : v;
    return here;
  });
}

/**
 * `tmp` of one block after the load and after each Hillis-Steele step with
 * offsets 1, 2, … 128: 9 arrays of BLOCK values (zeros past the input).
 */
export function hillisSteele(blockValues) {
  let tmp = Array.from({ length: BLOCK }, (_, li) => blockValues[li] ?? 0);
  const states = [tmp];
  for (let offset = 1; offset < BLOCK; offset *= 2) {
    const read = tmp;
    tmp = read.map((v, li) => (li >= offset ? v + read[li - offset] : v));
    states.push(tmp);
  }
  return states;
}

/** Per level: the values scanned, the step states (trimmed to the input), block sums. */
export function scanLevels(flags) {
  const levels = [];
  let input = flags.slice();
  let level = 0;
  while (input.length > 0) {
    const loaded = level === 0 ? input.map((f) => (f !== 0 ? 1 : 0)) : input.slice();
    const blocks = Math.ceil(loaded.length / BLOCK);
    const steps = Array.from({ length: 9 }, () => []);
    const blockSums = [];
    const blockPrefix = [];
    for (let b = 0; b < blocks; b++) {
      const part = loaded.slice(b * BLOCK, (b + 1) * BLOCK);
      const states = hillisSteele(part);
      states.forEach((s, k) => {
        steps[k].push(...s.slice(0, part.length));
      });
      blockSums.push(states[8][BLOCK - 1]);
      part.forEach((v, li) => {
        blockPrefix.push(states[8][li] - v);
      });
    }
    levels.push({ input, loaded, steps, blockSums, blockPrefix });
    if (loaded.length <= BLOCK) break;
    input = blockSums;
    level++;
  }
  // Offsets back down: each level's block b gets the exclusive scan of its block sums.
  for (let l = levels.length - 1; l >= 0; l--) {
    const lv = levels[l];
    if (l === levels.length - 1) {
      lv.offsets = [];
      lv.prefix = lv.blockPrefix.slice();
    } else {
      lv.offsets = levels[l + 1].prefix;
      lv.prefix = lv.blockPrefix.map((p, i) => p + lv.offsets[Math.floor(i / BLOCK)]);
    }
  }
  return levels;
}

/** 32-bit FNV-1a over the little-endian bytes of u32 words. */
export function fnv1a(words) {
  let hash = 0x811c9dc5;
  for (const w of words) {
    for (let k = 0; k < 4; k++) {
      hash ^= (w >>> (8 * k)) & 0xff;
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
  }
  return hash >>> 0;
}

/** The `random` preset: xorshift64 seeded with 0x9E3779B97F4A7C15 ^ seed, top 53 bits. */
export function randomFlags(n, density, seed) {
  const mask = (1n << 64n) - 1n;
  let s = 0x9e3779b97f4a7c15n ^ BigInt(seed);
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    s ^= (s << 13n) & mask;
    s ^= s >> 7n;
    s ^= (s << 17n) & mask;
    const unit = Number(s >> 11n) / 2 ** 53;
    out[i] = unit < density ? 1 : 0;
  }
  return out;
}

/** A seeded 0/1 array for tests (mulberry32), independent of the crate. */
export function testFlags(n, density, seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: n }, () => (next() < density ? 1 : 0));
}

/** The order scene's material of `object`: groups of ceil(n / groups) consecutive objects. */
export function material(object, n, groups) {
  return Math.floor(object / Math.ceil(n / groups));
}

/** Adjacent draws of different materials, counted directly. */
export function materialChanges(order, n, groups) {
  let changes = 0;
  for (let k = 1; k < order.length; k++) if (material(order[k], n, groups) !== material(order[k - 1], n, groups)) changes++;
  return changes;
}

/** Pairs drawn out of front-to-back order, by brute force (O(n²)). */
export function depthInversions(order) {
  let count = 0;
  for (let a = 0; a < order.length; a++) for (let b = a + 1; b < order.length; b++) if (order[a] > order[b]) count++;
  return count;
}
