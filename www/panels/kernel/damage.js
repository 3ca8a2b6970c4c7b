// Where a learner's scan first goes wrong, in the stepper's own steps: the
// trace of their kernel's run (read back from its GPU buffers) against the CPU
// mirror's, step by step in the order the scan stepper numbers them
// (www/panels/scan/steps.js planSteps: per level the load, the eight
// Hillis-Steele steps, inclusive to exclusive, the block sum; the offsets back
// down; the scatter; the count). A verdict names it ("step 12, the block sum:
// yours 1 626, ours 128"), and the shrinker keeps only cases whose stepped run
// shows it. Pure: tests/js/damage.test.mjs.

/**
 * @typedef {{ step: number, kind: string, s?: number, level: number, index: number, yours: number | null, ours: number | null }} Damage
 *   `step` 1-based as the stepper counts; `index` in the level's array (-1: the count); `s` the Hillis-Steele step
 */

/** The first entry where `a` and `b` differ over `b`'s length, or -1. */
function firstDiff(a, b) {
  for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) return i;
  return a.length > b.length ? b.length : -1;
}

/**
 * The first step where `yours` (a trace of the learner's kernel) differs from
 * `ours` (the CPU mirror's of the same flags), or null where every step agrees.
 * @param {any} yours  @param {any} ours  @returns {Damage | null}
 */
export function firstDamage(yours, ours) {
  const levels = ours.levels.length;
  let step = 0;
  /** @returns {Damage | null} */
  const check = (kind, level, a, b, s) => {
    step++;
    const i = firstDiff(a ?? [], b ?? []);
    return i < 0 ? null : { step, kind, s, level, index: i, yours: a?.[i] ?? null, ours: b?.[i] ?? null };
  };
  if (levels === 0) return null;
  for (let level = 0; level < levels; level++) {
    const y = yours.levels[level] ?? { steps: [] };
    const o = ours.levels[level];
    const found =
      check('load', level, y.steps[0], o.steps[0]) ??
      o.stepOffsets.reduce((hit, _, k) => hit ?? check('hs', level, y.steps[k + 1], o.steps[k + 1], k + 1), null) ??
      check('exclusive', level, y.blockPrefix, o.blockPrefix) ??
      check('blocksum', level, y.blockSums, o.blockSums);
    if (found) return found;
  }
  for (let level = levels - 2; level >= 0; level--) {
    const found = check('offsets', level, yours.levels[level]?.prefix, ours.levels[level].prefix);
    if (found) return found;
  }
  const scattered = check('scatter', 0, yours.indices, ours.indices);
  if (scattered) return scattered;
  step++;
  return yours.count === ours.count ? null : { step, kind: 'result', level: 0, index: -1, yours: yours.count, ours: ours.count };
}
