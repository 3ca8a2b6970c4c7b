// The checker of a learner's kernel: a fixed ladder of cases, smallest first,
// each run on the GPU with the learner's kernel and judged against the CPU
// mirror of ours; the first failure shrunk to a small case that fails the same
// way. Pure: the runs are passed in (tests/js/harness.test.mjs judges fake
// buggy runners with the CPU mirror).

/** Sizes of the ladder: the edges of a workgroup (64), a block (256), a tile (4096), and three scan levels (65 537 > 256²). */
export const LADDER_SIZES = [0, 1, 2, 10, 31, 64, 65, 255, 256, 257, 1000, 4095, 4096, 4097, 8191, 65537];
/** The nonzero values flags take: any nonzero flag is visible. */
export const VALUES = [1, 2, 3, 0x80000000, 0xffffffff];
/** What a learner's index buffer holds before each run (the wasm's layout().unwritten): a slot still holding it was never written. */
export const UNWRITTEN = 0xffffffff;
/** The article's example. */
export const ARTICLE = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1];
export const SEED = 0x5eed;
/** Order-keeping cases at least this long run three times and must agree byte for byte. */
export const REPEAT_FROM = 257;
/** The most runs a shrink takes. */
export const SHRINK_RUNS = 64;

/** The patterns each size of the ladder is run with (about 30 cases in all). */
const PATTERNS = {
  0: ['empty'],
  1: ['zero', 'one', 'value'],
  2: ['last', 'values'],
  10: ['article', 'random-0.5'],
  31: ['ones', 'alternating'],
  64: ['ones', 'random-0.5'],
  65: ['ones', 'last'],
  255: ['random-0.9', 'edges'],
  256: ['ones', 'random-0.5'],
  257: ['ones', 'last', 'random-0.1'],
  1000: ['random-0.5'],
  4095: ['random-0.9'],
  4096: ['ones'],
  4097: ['random-0.5', 'last'],
  8191: ['random-0.1'],
  65537: ['random-0.5', 'ones'],
};

/** A seeded xorshift32: the same ladder on every machine. @param {number} seed */
function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

/**
 * The flags of `pattern` at size `n`.
 * @param {string} pattern  @param {number} n  @param {() => number} rand
 */
export function patternFlags(pattern, n, rand) {
  const flags = new Uint32Array(n);
  const value = () => VALUES[Math.floor(rand() * VALUES.length)];
  if (pattern === 'ones') flags.fill(1);
  else if (pattern === 'one') flags.fill(1);
  else if (pattern === 'value') flags.fill(2);
  else if (pattern === 'values') for (let i = 0; i < n; i++) flags[i] = VALUES[(i + 2) % VALUES.length];
  else if (pattern === 'last') flags[n - 1] = 1;
  else if (pattern === 'alternating') for (let i = 0; i < n; i += 2) flags[i] = 1;
  else if (pattern === 'article') flags.set(ARTICLE.slice(0, n));
  else if (pattern === 'edges') {
    for (const i of [0, 255, 256, n - 1]) if (i < n) flags[i] = value();
  } else if (pattern.startsWith('random-')) {
    const density = Number(pattern.slice(7));
    for (let i = 0; i < n; i++) if (rand() < density) flags[i] = value();
  }
  return flags;
}

/**
 * The cases to run, smallest first: the ladder, or `sizes` (an exercise's
 * `cases`), each with random flags at density 0.5 and all visible.
 * @param {number[] | null} [sizes]  @param {number} [seed]
 * @returns {{ label: string, n: number, pattern: string, flags: Uint32Array }[]}
 */
export function ladder(sizes = null, seed = SEED) {
  const rand = random(seed);
  const plan = sizes ? [...sizes].sort((a, b) => a - b).map((n) => [n, n === 0 ? ['empty'] : ['random-0.5', 'ones']]) : LADDER_SIZES.map((n) => [n, PATTERNS[n]]);
  return plan.flatMap(([n, patterns]) => patterns.map((pattern) => ({ label: `${n} · ${pattern}`, n, pattern, flags: patternFlags(pattern, n, rand) })));
}

/**
 * The orders the workgroups are made to take their ids in, simplest first
 * (measure.js's `_cp_order`): `order` 0 the GPU's own, 1 reversed, 2 `(a·k + b)
 * mod n` (`a` a prime above any dispatch's workgroup count here, so that it is
 * a permutation, and `a·k` stays within a u32); `delayed` the workgroup, in
 * that order, held back before it starts (-1: none).
 * @typedef {{ name: string, order: number, a: number, b: number, delayed: number }} Schedule
 * @type {readonly Schedule[]}
 */
export const SCHEDULES = Object.freeze([
  { name: 'reversed', order: 1, a: 1, b: 0, delayed: -1 },
  { name: 'strided', order: 2, a: 40_503, b: 0, delayed: -1 },
  { name: 'shuffled', order: 2, a: 1_299_709, b: 77, delayed: -1 },
  { name: 'first-delayed', order: 0, a: 1, b: 0, delayed: 0 },
  { name: 'last-delayed', order: 1, a: 1, b: 0, delayed: 0 },
]);
/** The GPU's own order: what a learner's kernel runs in but for the schedule cases. */
export const IN_ORDER = Object.freeze({ name: 'in-order', order: 0, a: 1, b: 0, delayed: -1 });
/** The sizes the schedules are tried at: a few blocks, and many. */
export const SCHEDULE_SIZES = [1000, 20_000];

/**
 * The schedule cases, after the ladder: each schedule at each size, random flags (density 0.5).
 * @param {number} [seed]
 */
export function scheduleCases(seed = SEED + 1) {
  const rand = random(seed);
  return SCHEDULES.flatMap((schedule) => SCHEDULE_SIZES.map((n) => ({ label: `${n} · ${schedule.name}`, n, pattern: 'random-0.5', flags: patternFlags('random-0.5', n, rand), schedule })));
}

/**
 * @typedef {{ indices: Uint32Array | number[], count: number, instanceCount: number, hash?: number, writtenPast?: number }} Output
 *   `writtenPast`: the first slot past the count the run wrote (-1 or absent: none)
 * @typedef {'count' | 'missing' | 'extra' | 'duplicate' | 'order' | 'out-of-range' | 'unwritten' | 'past-count' | 'nondeterministic' | 'schedule'} FailureClass
 * @typedef {{ failure: FailureClass, at: number, index: number }} Mismatch
 */

/**
 * How `got` differs from `expected` on `flags`, or null. `exact`: the same
 * indices in the same order; `unordered`: every visible index once, nothing
 * else; neither writes a slot past the count. `at` is the first position of the output that shows it, `index` the
 * object it concerns.
 * @param {Uint32Array} flags  @param {Output} expected  @param {Output} got  @param {'exact' | 'unordered'} mode
 * @returns {Mismatch | null}
 */
export function compare(flags, expected, got, mode) {
  const n = flags.length;
  const out = Array.from(got.indices);
  const want = Array.from(expected.indices);
  // A slot still holding what the buffer was filled with: no invocation wrote it (not "index 0").
  for (let i = 0; i < out.length; i++) if (out[i] === UNWRITTEN) return { failure: 'unwritten', at: i, index: -1 };
  for (let i = 0; i < out.length; i++) if (out[i] >= n) return { failure: 'out-of-range', at: i, index: out[i] };
  const seen = new Set();
  for (let i = 0; i < out.length; i++) {
    if (seen.has(out[i])) return { failure: 'duplicate', at: i, index: out[i] };
    seen.add(out[i]);
  }
  for (let i = 0; i < out.length; i++) if (flags[out[i]] === 0) return { failure: 'extra', at: i, index: out[i] };
  const missing = want.find((v) => !seen.has(v));
  if (missing !== undefined) return { failure: 'missing', at: Math.min(out.length, want.indexOf(missing)), index: missing };
  if (got.count !== expected.count || got.instanceCount !== expected.instanceCount) return { failure: 'count', at: out.length, index: -1 };
  if ((got.writtenPast ?? -1) >= 0) return { failure: 'past-count', at: /** @type {number} */ (got.writtenPast), index: -1 };
  if (mode === 'exact') {
    const i = want.findIndex((v, k) => out[k] !== v);
    if (i >= 0) return { failure: 'order', at: i, index: out[i] };
  }
  return null;
}

/**
 * @typedef {{
 *   verdict: 'passed' | 'failed' | 'compile-error' | 'pipeline-error' | 'hung' | 'unavailable' | 'failedToRun' | 'compiled' | 'superseded',
 *   failure?: string, passed: number, total: number, case?: string, line?: number, message?: string,
 *   from?: number, to?: number, n?: number, schedule?: Schedule | null, costs?: object,
 *   diagnostics: object[],
 *   counterexample?: { flags: number[], expected: number[], got: number[], gotCount: number, expectedCount: number, at: number, index: number,
 *     shrunkFrom: number, runs: number, damage?: import('./damage.js').Damage | null, schedule?: Schedule | null, cause?: string },
 * }} KernelReport
 * @typedef {{
 *   run(flags: Uint32Array): Promise<Output>,
 *   reference(flags: Uint32Array): Output | Promise<Output>,
 *   probe(): Promise<number>,
 *   damage?(flags: Uint32Array): Promise<import('./damage.js').Damage | null>,
 *   schedule?(schedule: Schedule): Promise<void>,
 * }} Runner
 *   `damage`: where a stepped run of the flags first differs from ours (a scan kernel's trace; null where it
 *   agrees or cannot be traced)
 */

/**
 * Runs the cases in order, stopping at the first failure, and shrinks it.
 * A loop that ran away ends the check (`hung`, its line): it is never run again.
 * @param {Runner} runner
 * @param {{ cases: ReturnType<typeof ladder>, mode: 'exact' | 'unordered', shrinkMs?: number,
 *   onCase?: (k: number, total: number, label: string) => void, signal?: AbortSignal }} options
 * @returns {Promise<KernelReport>}
 */
export async function check(runner, options) {
  try {
    return await checkCases(runner, options);
  } finally {
    // The GPU's own order again, for what runs the kernel next.
    await runner.schedule?.(IN_ORDER);
  }
}

/** @param {Runner} runner  @param {Parameters<typeof check>[1]} options  @returns {Promise<KernelReport>} */
async function checkCases(runner, { cases: ladderCases, mode, shrinkMs = 3000, onCase, signal }) {
  // After the ladder, the schedules, where the runner can set one: a kernel right only in the GPU's own order fails there.
  const cases = runner.schedule ? [...ladderCases, ...scheduleCases()] : ladderCases;
  const total = cases.length;
  // The sizes run, for the verdict: the ones of these cases, not the default ladder's.
  const sizes = cases.map((c) => c.n);
  const range = { from: sizes.length ? Math.min(...sizes) : 0, to: sizes.length ? Math.max(...sizes) : 0 };
  let passed = 0;
  for (const [k, c] of cases.entries()) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    onCase?.(k, total, c.label);
    if ('schedule' in c) await runner.schedule?.(/** @type {any} */ (c).schedule);
    const schedule = 'schedule' in c ? /** @type {Schedule} */ (c.schedule) : null;
    const judged = await judge(runner, c.flags, mode);
    if (judged.hung) return { verdict: 'hung', line: Math.max(judged.hung, 0), n: c.n, passed, total, case: c.label, diagnostics: [], schedule };
    if (judged.error) return { verdict: 'pipeline-error', message: judged.error, passed, total, case: c.label, diagnostics: [] };
    let mismatch = judged.mismatch;
    if (!mismatch && mode === 'exact' && c.n >= REPEAT_FROM) mismatch = await repeatable(runner, c.flags, judged.got);
    if (mismatch) {
      // Where the failing case's stepped run shows the damage, the shrunk one must show it too.
      const shown = runner.damage ? await runner.damage(c.flags).catch(() => null) : null;
      const shrinking = { deadline: Date.now() + shrinkMs, signal, damaged: Boolean(shown) };
      // (Under a schedule, the case shrinks with that schedule kept: the fewest workgroups that still fail in it.)
      const failing = mismatch.failure === 'nondeterministic' ? null : await shrink(runner, c.flags, mismatch.failure, mode, shrinking);
      const flags = failing?.flags ?? c.flags;
      const last = failing?.judged ?? judged;
      const expected = await runner.reference(flags);
      const damage = failing && shown ? await runner.damage?.(flags).catch(() => null) : shown;
      return {
        verdict: 'failed',
        // Right in the GPU's own order (the ladder passed), wrong in another: a kernel that counts on the schedule.
        failure: schedule ? 'schedule' : mismatch.failure,
        passed,
        total,
        case: c.label,
        diagnostics: [],
        counterexample: {
          flags: Array.from(flags),
          expected: Array.from(expected.indices),
          got: Array.from(last.got?.indices ?? []),
          gotCount: last.got?.count ?? 0,
          expectedCount: expected.count,
          damage: damage ?? null,
          at: (failing?.judged.mismatch ?? mismatch).at,
          index: (failing?.judged.mismatch ?? mismatch).index,
          shrunkFrom: c.flags.length,
          runs: failing?.runs ?? 0,
          schedule,
          cause: mismatch.failure,
        },
      };
    }
    passed++;
  }
  return { verdict: 'passed', passed, total, ...range, diagnostics: [] };
}

/**
 * One run judged: a runaway loop's line, an error of the run, or the mismatch (null when right).
 * @param {Runner} runner  @param {Uint32Array} flags  @param {'exact' | 'unordered'} mode
 * @returns {Promise<{ hung?: number, error?: string, got?: Output, mismatch?: Mismatch | null }>}
 */
async function judge(runner, flags, mode) {
  let got;
  try {
    got = await runner.run(flags);
  } catch (e) {
    // The watchdog gave the device up: nothing more can be read from it.
    if (e?.kind === 'watchdog') return { hung: -1 };
    const hung = await runner.probe().catch(() => 0);
    if (hung) return { hung };
    return { error: e?.message ?? String(e) };
  }
  const hung = await runner.probe();
  if (hung) return { hung };
  return { got, mismatch: compare(flags, await runner.reference(flags), got, mode) };
}

/** Two more runs of an order-keeping kernel: the same bytes each time, or `nondeterministic`. */
async function repeatable(runner, flags, first) {
  for (let k = 0; k < 2; k++) {
    const again = await runner.run(flags);
    const i = Array.from(first.indices).findIndex((v, j) => again.indices[j] !== v);
    if (i >= 0 || again.count !== first.count) return { failure: /** @type {FailureClass} */ ('nondeterministic'), at: Math.max(i, 0), index: first.indices[Math.max(i, 0)] ?? -1 };
  }
  return null;
}

/**
 * A smaller case failing in the same class (delta debugging: drop chunks of
 * flags, halving the chunk until none can go, then make the values plain 1s
 * and drop visible flags one at a time), within `budget` runs and `deadline`.
 * A 1-minimal case, not a guaranteed minimum. `damaged`: a candidate counts only
 * if its stepped run also shows where it goes wrong (`runner.damage`), so that
 * stepping the case shows the fault (a race that shrinks to a case whose trace
 * runs clean teaches nothing).
 * @param {Runner} runner  @param {Uint32Array} flags  @param {FailureClass} failure  @param {'exact' | 'unordered'} mode
 * @param {{ budget?: number, deadline?: number, signal?: AbortSignal, damaged?: boolean }} [options]
 */
export async function shrink(runner, flags, failure, mode, { budget = SHRINK_RUNS, deadline = Infinity, signal, damaged = false } = {}) {
  let keep = flags;
  let keptJudged = null;
  let runs = 0;
  const room = () => runs < budget && Date.now() < deadline && !signal?.aborted;
  /** @param {Uint32Array} candidate */
  const fails = async (candidate) => {
    runs++;
    const judged = await judge(runner, candidate, mode);
    if (judged.mismatch?.failure !== failure) return false;
    if (damaged && !(await runner.damage?.(candidate).catch(() => null))) return false;
    keep = candidate;
    keptJudged = judged;
    return true;
  };
  let parts = 2;
  while (keep.length > 1 && room()) {
    const size = Math.ceil(keep.length / parts);
    let dropped = false;
    for (let start = 0; start < keep.length && room(); start += size) {
      const candidate = new Uint32Array(keep.length - Math.min(size, keep.length - start));
      candidate.set(keep.subarray(0, start));
      candidate.set(keep.subarray(start + size), start);
      if (await fails(candidate)) {
        parts = Math.max(parts - 1, 2);
        dropped = true;
        break;
      }
    }
    if (!dropped) {
      if (parts >= keep.length) break;
      parts = Math.min(keep.length, parts * 2);
    }
  }
  for (let i = 0; i < keep.length && room(); i++) {
    if (keep[i] === 0 || keep[i] === 1) continue;
    const candidate = keep.slice();
    candidate[i] = 1;
    await fails(candidate);
  }
  for (let i = 0; i < keep.length && keep.length <= 64 && room(); i++) {
    if (keep[i] === 0) continue;
    const candidate = keep.slice();
    candidate[i] = 0;
    await fails(candidate);
  }
  if (!keptJudged) keptJudged = await judge(runner, keep, mode);
  return { flags: keep, judged: keptJudged, runs };
}
