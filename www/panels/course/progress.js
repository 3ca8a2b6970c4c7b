// A learner's progress through the course, kept in the browser: per exercise,
// whether it is solved, the checks made, the hints shown (by failure kind) and
// whether our solution was seen, in localStorage under a key of the page's
// (`course`), read again before each change so that two elements (or two
// pages) of one course add to each other. Where storage is refused (a
// sandboxed frame, a private mode that throws), the course works the same and
// keeps nothing (`persistent` false: the panel says so). Exported and imported
// as a JSON file, checked on the way in. No account, no server. Pure but for
// the storage it is given: tests/js/course.test.mjs.

import { EXERCISES, HINT_KINDS, HINT_LEVELS } from './exercises.js';

export const PROGRESS_VERSION = 1;
/** The largest progress file taken (a course's is a few hundred bytes). */
export const MAX_PROGRESS_BYTES = 64 * 1024;
/** Where a course's progress lives in localStorage. @param {string} course */
export const storageKey = (course) => `compaction-playground:course:${course}`;

/**
 * @typedef {{ solved: boolean, attempts: number, hintsUsed: number, solutionSeen: boolean, hints: Record<string, number> }} ExerciseProgress
 *   `hints`: levels shown of each failure kind's hints
 * @typedef {{ version: number, exercises: Record<string, ExerciseProgress> }} Progress
 */

/** @returns {ExerciseProgress} */
export const blankEntry = () => ({ solved: false, attempts: 0, hintsUsed: 0, solutionSeen: false, hints: {} });

/**
 * `value` as progress, or null where it is not one: only known exercises and
 * kinds, whole counts in range, booleans; anything else refused.
 * @param {unknown} value @returns {Progress | null}
 */
export function validProgress(value) {
  if (!value || typeof value !== 'object' || /** @type {any} */ (value).version !== PROGRESS_VERSION) return null;
  const given = /** @type {any} */ (value).exercises;
  if (!given || typeof given !== 'object' || Array.isArray(given)) return null;
  /** @type {Progress} */
  const out = { version: PROGRESS_VERSION, exercises: {} };
  const count = (n, max) => Number.isInteger(n) && n >= 0 && n <= max;
  for (const [id, e] of Object.entries(given)) {
    if (!EXERCISES.some((x) => x.id === id) || !e || typeof e !== 'object') return null;
    const hints = e.hints ?? {};
    if (typeof hints !== 'object' || Array.isArray(hints)) return null;
    if (typeof e.solved !== 'boolean' || typeof e.solutionSeen !== 'boolean' || !count(e.attempts, 1e9) || !count(e.hintsUsed, 1e9)) return null;
    for (const [kind, used] of Object.entries(hints)) if (!HINT_KINDS.includes(kind) || !count(used, HINT_LEVELS)) return null;
    out.exercises[id] = { solved: e.solved, attempts: e.attempts, hintsUsed: e.hintsUsed, solutionSeen: e.solutionSeen, hints: { ...hints } };
  }
  return out;
}

/** The page's localStorage, or null where touching it throws (a sandboxed frame). */
function pageStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export class ProgressStore {
  /** @param {string} course  @param {Storage | null} [storage] */
  constructor(course, storage = pageStorage()) {
    this.key = storageKey(course);
    this.storage = storage;
    /** Whether what is recorded outlives the page (storage answered a write). */
    this.persistent = this.probe();
    /** @type {Progress} */
    this.progress = this.read() ?? { version: PROGRESS_VERSION, exercises: {} };
  }

  probe() {
    if (!this.storage) return false;
    try {
      const probe = `${this.key}:probe`;
      this.storage.setItem(probe, '1');
      this.storage.removeItem(probe);
      return true;
    } catch {
      return false;
    }
  }

  /** @returns {Progress | null} */
  read() {
    if (!this.persistent) return null;
    try {
      const text = this.storage?.getItem(this.key);
      return text && text.length <= MAX_PROGRESS_BYTES ? validProgress(JSON.parse(text)) : null;
    } catch {
      return null;
    }
  }

  write() {
    if (!this.persistent) return;
    try {
      this.storage?.setItem(this.key, JSON.stringify(this.progress));
    } catch {
      // Full or refused since: kept in this page from now on.
      this.persistent = false;
    }
  }

  /** One exercise's progress (a blank one where it has none). @param {string} id  @returns {ExerciseProgress} */
  entry(id) {
    return { ...blankEntry(), ...this.progress.exercises[id] };
  }

  /**
   * Changes one exercise's progress: what storage holds now (another element
   * or page may have written), then `change`, written back.
   * @param {string} id  @param {(e: ExerciseProgress) => void} change
   */
  update(id, change) {
    this.progress = this.read() ?? this.progress;
    const e = this.entry(id);
    change(e);
    e.hintsUsed = Object.values(e.hints).reduce((a, b) => a + b, 0);
    this.progress.exercises[id] = e;
    this.write();
    return e;
  }

  /** The progress as a file's text. */
  exportJson() {
    return `${JSON.stringify(this.progress, null, 1)}\n`;
  }

  /** A file's text in place of the progress; throws (`.kind` 'progress') where it is no progress of this course. @param {string} text */
  importJson(text) {
    let parsed = null;
    try {
      parsed = text.length <= MAX_PROGRESS_BYTES ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const valid = validProgress(parsed);
    if (!valid) throw Object.assign(new Error('not a progress file of this course'), { kind: 'progress' });
    this.progress = valid;
    this.write();
  }

  reset() {
    this.progress = { version: PROGRESS_VERSION, exercises: {} };
    this.write();
  }
}
