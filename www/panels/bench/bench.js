// The benchmark panel's model: the sizes it runs, how many compactions go
// between two timestamps, what a measurement row says, the chart's log axes
// and the downloadable table. Pure: no DOM here.

/** Sizes 2^10 … 2^26, up to `max` (what this device binds, at most the page's limit). */
export function benchSizes(max, from = 10, to = 26) {
  const sizes = [];
  for (let k = from; k <= to && 2 ** k <= max; k++) sizes.push(2 ** k);
  return sizes;
}

/** The densities on offer: half the flags visible, a tenth (a culled scene), a fiftieth. */
export const DENSITIES = [0.5, 0.1, 0.02];

/** Nanoseconds of work between two timestamps: far above any browser's quantum (Chrome: 100 µs). */
export const TARGET_NS = 20e6;
export const MAX_REPS = 1024;
export const SAMPLES = 5;

/** Compactions per measurement so that one measurement lasts about TARGET_NS (`per`: ns of one, from a first call). */
export function repsFor(perNs, resolutionNs = 0) {
  const target = Math.max(TARGET_NS, 200 * (resolutionNs ?? 0));
  return Math.max(1, Math.min(MAX_REPS, Math.ceil(target / Math.max(perNs, 1))));
}

export function median(values) {
  const sorted = Array.from(values).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A table row from Playground.benchmark()'s result (u32 flags: 4N read, 4K written). */
export function benchRow(r, compileMs) {
  const medianNs = median(r.samplesNs);
  const bytes = 4 * r.n + 4 * r.count;
  return {
    method: r.method,
    n: r.n,
    density: r.density,
    count: r.count,
    medianUs: medianNs / 1e3,
    minUs: Math.min(...r.samplesNs) / 1e3,
    gbps: bytes / medianNs,
    timer: r.timer,
    wallBecause: r.wallBecause ?? null,
    reps: r.reps,
    samples: r.samplesNs.length,
    resolutionNs: r.resolutionNs,
    check: r.check,
    compileMs,
  };
}

const COLUMNS = ['method', 'n', 'density', 'count', 'medianUs', 'minUs', 'gbps', 'timer', 'reps', 'samples', 'resolutionNs', 'check', 'compileMs'];
const CSV_NAMES = ['method', 'n', 'density', 'count', 'median_us', 'min_us', 'gb_s', 'timer', 'reps', 'samples', 'resolution_ns', 'check', 'compile_ms'];

/** The table as CSV, one row per method and size. */
export function benchCsv(rows) {
  const cell = (v) => (v === null || v === undefined ? '' : typeof v === 'number' ? String(Number(v.toPrecision(6))) : String(v));
  return `${[CSV_NAMES.join(','), ...rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(','))].join('\n')}\n`;
}

/** Ticks of a log axis over [lo, hi]: powers of `base`, with 2 and 5 between powers of ten when few. */
export function logTicks(lo, hi, base = 10) {
  const ticks = [];
  const start = Math.floor(Math.log(lo) / Math.log(base));
  const end = Math.ceil(Math.log(hi) / Math.log(base));
  for (let e = start; e <= end; e++) {
    const p = base ** e;
    const steps = base === 10 && end - start <= 2 ? [1, 2, 5] : [1];
    for (const m of steps) if (p * m >= lo * 0.999 && p * m <= hi * 1.001) ticks.push(p * m);
  }
  return ticks;
}

/** [lo, hi] padded out to whole log steps, never empty. */
export function logRange(values) {
  const finite = values.filter((v) => v > 0 && Number.isFinite(v));
  if (!finite.length) return [1, 10];
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (hi / lo < 2) {
    lo /= 1.5;
    hi *= 1.5;
  }
  return [lo / 1.1, hi * 1.1];
}
