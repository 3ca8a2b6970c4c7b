// The course: the article's kernels in the order a learner meets them, from
// the atomic counter to the recursion of the scan's offsets and the scatter,
// each one function (or a whole kernel) to write in the shipped module, the
// rest read-only. Its words (title, statement, concept, what is checked,
// hints) are the course table's (www/i18n/<lang>/course.js), its starting text
// the shipped kernel with those bodies left as a TODO (exercise.js), its
// solution the shipped functions themselves: nothing here can drift from the
// library. Pure: tests/js/course.test.mjs.

/**
 * @typedef {{ id: string, module: import('../../../types/compaction-playground').KernelName,
 *   editable: string[], check: 'exact' | 'unordered', hints: string[] }} Exercise
 *   `hints`: the failure kinds this exercise has hints of its own for (the others: the course's, by kind)
 */

/** @type {readonly Exercise[]} in order */
export const EXERCISES = Object.freeze([
  { id: 'counter', module: 'atomic_counter', editable: ['atomic_counter'], check: 'unordered', hints: ['missing', 'extra', 'duplicate', 'out-of-range'] },
  { id: 'aggregated', module: 'atomic_aggregated', editable: ['atomic_aggregated'], check: 'unordered', hints: ['duplicate', 'missing', 'count', 'compile-error'] },
  { id: 'step', module: 'scan_block', editable: ['step'], check: 'exact', hints: ['order', 'missing', 'nondeterministic'] },
  { id: 'steps', module: 'scan_block', editable: ['scan_block'], check: 'exact', hints: ['order', 'missing', 'hung'] },
  { id: 'load', module: 'scan_block', editable: ['load'], check: 'exact', hints: ['order', 'missing', 'count'] },
  { id: 'exclusive', module: 'scan_block', editable: ['publish'], check: 'exact', hints: ['order', 'missing', 'count'] },
  { id: 'offsets', module: 'add_offsets', editable: ['add_offsets'], check: 'exact', hints: ['order', 'schedule', 'missing'] },
  { id: 'scatter', module: 'scatter', editable: ['kept', 'scatter'], check: 'exact', hints: ['past-count', 'extra', 'unwritten'] },
]);

/** The failure kinds a hint is keyed to, and the hints' levels: a nudge, the concept, nearly the line. */
export const HINT_KINDS = ['missing', 'extra', 'duplicate', 'order', 'count', 'out-of-range', 'unwritten', 'past-count', 'nondeterministic', 'schedule', 'hung', 'compile-error'];
export const HINT_LEVELS = 3;
/** Failed checks after which the learner may ask for our solution (it is open at once after a pass). */
export const SOLUTION_AFTER = 3;

/** @param {string} id */
export const exerciseById = (id) => EXERCISES.find((e) => e.id === id) ?? null;

/**
 * The failure kind a check's report is of, for its hints: the failure for a
 * wrong output, `hung` and `compile-error` (a pipeline's error too); null for
 * a pass or a report with nothing to hint at.
 * @param {{ verdict: string, failure?: string } | null} report
 */
export function failureKind(report) {
  if (!report) return null;
  if (report.verdict === 'failed') return report.failure && HINT_KINDS.includes(report.failure) ? report.failure : null;
  if (report.verdict === 'hung') return 'hung';
  if (report.verdict === 'compile-error' || report.verdict === 'pipeline-error') return 'compile-error';
  return null;
}

/**
 * The hint to show next for `kind`, after `used` of its levels were shown:
 * `{ kind, level, key }` (the exercise's own message where it has one for the
 * kind, else the course's), or null once all three were.
 * @param {Exercise} exercise  @param {string} kind  @param {number} used
 */
export function nextHint(exercise, kind, used) {
  if (used >= HINT_LEVELS) return null;
  const level = used + 1;
  const own = exercise.hints.includes(kind);
  return { kind, level, key: own ? `course.${exercise.id}.hint.${kind}.${level}` : `course.hint.${kind}.${level}` };
}
