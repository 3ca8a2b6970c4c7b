// How long play shows a step (both steppers' StepControls). Pure: no DOM here.

/**
 * Playing at 1×, a step stays up as long as its text takes to read (about 240
 * words a minute), never less than MIN_STEP_MS: a one-second beat left a
 * 90-word step unread.
 */
export const MS_PER_WORD = 250;
const MIN_STEP_MS = 1500;

/** How long play shows a step of `text` at `speed`. */
export function stepMs(text, speed) {
  const words = String(text).split(/\s+/).filter(Boolean).length;
  return Math.max(MIN_STEP_MS, words * MS_PER_WORD) / speed;
}
