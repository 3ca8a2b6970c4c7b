// The panels of the playground, one row each: everything else (the cards, the
// module fetched, the words fetched, the loader's reservation, the page's
// embed choices, the build's account of what a page fetches) reads this
// table. Adding a panel is a row here and a folder www/panels/<name>/ holding
// index.js (its `create(context)`); with `words`, its message tables are
// www/i18n/<lang>/<name>.js. tests/js/panels.test.mjs fails when a list of
// panel names is written anywhere else. Pure: no DOM here.

/**
 * One panel:
 * - `name`: as the `panels` attribute lists it; its card's title is the message `card.<name>`.
 * - `card`: its card's class (the two-column layout places flags-card and compact-card side by side, www/loader/base.css).
 * - `lead`: the card has a lead paragraph, the message `card.<name>.lead`.
 * - `words`: the panel has a message table of its own, fetched with it (its keys start with `<name>.`).
 * - `gpu`: the panel shows only on the GPU (the drawIndirect picture).
 * - `stepper`: the scan stepper and the tile view share one place when both are asked for (the tile view for the methods of tiles).
 * - `heights`: its height in em at the reservation's sample widths (www/loader/reserve.js), or at its own `widths`
 *   (a pair of widths a hundredth apart: a step where a line of it wraps); `paired`: beside its pair on a wide container.
 * @typedef {{ name: string, card: string, lead?: boolean, words?: boolean, gpu?: boolean,
 *   stepper?: 'scan' | 'tiles', heights: number[], widths?: number[], paired?: number[] }} PanelRow
 */

/** @type {readonly PanelRow[]} every panel, in page order */
export const PANEL_ROWS = Object.freeze([
  // The editor's rows wrap one by one as its card narrows (measured every em from 18 to 80 in Chromium, the flag grid apart).
  {
    name: 'editor',
    card: 'flags-card',
    lead: true,
    widths: [69, 68.99, 44, 43.99, 41, 40.99, 36, 35.99, 35, 34.99, 30, 29.99, 25, 24.99, 20, 19, 18],
    heights: [22.2, 23.58, 23.58, 26.31, 26.31, 28.38, 28.38, 31.21, 31.21, 32.59, 32.59, 34.59, 34.59, 37.36, 37.36, 40.19, 41.58],
    paired: [23.58, 26.31, 26.57],
  },
  { name: 'result', card: 'compact-card', heights: [30.6, 30.6, 34.2, 37.4, 39.9, 43.2, 54.2, 62.4], paired: [29.94, 34.48, 40.01] },
  { name: 'draw', card: 'draw-card', gpu: true, heights: [31.5, 31.5, 33.4, 32.7, 32.1, 30.2, 31.1, 33.2] },
  { name: 'scan', card: 'stepper-card', lead: true, words: true, stepper: 'scan', heights: [53.6, 55.1, 58.4, 59.4, 64.8, 74.7, 79.1, 86.4] },
  { name: 'tiles', card: 'tiles-card', lead: true, words: true, stepper: 'tiles', heights: [82.2, 86.9, 91.5, 98.8, 104.7, 124.1, 137.1, 155.5] },
  { name: 'atomic', card: 'atomic-card', words: true, heights: [18.5, 18.5, 19.4, 20, 20.6, 27.3, 30.9, 35.3] },
  { name: 'order', card: 'order-card', words: true, heights: [110.4, 113.3, 122.2, 144.9, 148, 178.9, 180.6, 189.3] },
  { name: 'bench', card: 'bench-card', words: true, heights: [21.3, 23.3, 26.4, 26.2, 27.8, 35.3, 41.4, 47.9] },
  { name: 'code', card: 'code-card', heights: [135.4, 136.8, 137.8, 140.6, 144.7, 147.1, 155.7, 166.4] },
  { name: 'course', card: 'course-card', lead: true, words: true, heights: [38.8, 42.6, 48.3, 50.4, 52.6, 63.5, 75.2, 91.4] },
  { name: 'kernel', card: 'kernel-card', lead: true, words: true, heights: [58.8, 60.2, 60.3, 60.9, 63.4, 68.5, 72.6, 72.8] },
]);

/** Every panel's name, in page order. */
export const PANELS = PANEL_ROWS.map((r) => r.name);

/** @param {string} name */
export const panelRow = (name) => PANEL_ROWS.find((r) => r.name === name);

/** The panels with a message table of their own. */
export const PANELS_WITH_WORDS = PANEL_ROWS.filter((r) => r.words).map((r) => r.name);

const STEPPER = (/** @type {'scan' | 'tiles'} */ kind) => /** @type {PanelRow} */ (PANEL_ROWS.find((r) => r.stepper === kind)).name;
/** The scan stepper's and the tile view's panels: one place when both are asked for. */
export const SCAN_STEPPER = STEPPER('scan');
export const TILE_VIEW = STEPPER('tiles');

/**
 * The methods that show the tile view instead of the scan stepper. The wasm's
 * layout() says it too (`usesTiles`), but the loader reserves an element's
 * size before the wasm is there; tests/js/panels.test.mjs checks the two agree.
 */
export const TILE_METHODS = ['lookback', 'lookback-bits', 'tile-atomic'];

/** The course's panel: shown only where the element has a `course` attribute (the progress key), then with the kernel panel. */
export const COURSE = 'course';
export const COURSE_KERNEL = 'kernel';

/**
 * `panels` as written in the attribute or the hash: names separated by spaces
 * or commas. Empty or missing: every panel. `course`: whether the element has
 * a `course` attribute, which adds the course and the kernel panel; without
 * it the course never shows. Returns `{ panels: Set, unknown: [] }`.
 * @param {unknown} text  @param {boolean} [course]
 */
export function parsePanels(text, course = false) {
  const names = String(text ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  const unknown = names.filter((n) => !PANELS.includes(n));
  const known = new Set(names.filter((n) => PANELS.includes(n)));
  const panels = known.size ? known : new Set(PANELS);
  if (course) {
    panels.add(COURSE);
    panels.add(COURSE_KERNEL);
  } else panels.delete(COURSE);
  return { panels: panels.size ? panels : new Set(PANELS.filter((p) => p !== COURSE)), unknown };
}

/** The attribute form: `null` when every panel shows. @param {Set<string>} panels */
export function formatPanels(panels) {
  // (The course comes from the element's course attribute, not from the list.)
  const list = PANELS.filter((p) => p !== COURSE && panels.has(p));
  return list.length === PANELS.length - 1 ? null : list.join(' ');
}

/**
 * Which of two panels asked for takes a shared place: with both steppers
 * asked for, the one `tileMethod` picks; otherwise null (nothing shared).
 * @param {Set<string>} panels  @param {boolean} tileMethod
 */
export function sharedStepper(panels, tileMethod) {
  if (!(panels.has(SCAN_STEPPER) && panels.has(TILE_VIEW))) return null;
  return tileMethod ? { shown: TILE_VIEW, hidden: SCAN_STEPPER } : { shown: SCAN_STEPPER, hidden: TILE_VIEW };
}

/**
 * What shows for `panels` with a method: the scan stepper and the tile view
 * share a place when both are wanted (the tile view for the single-pass
 * methods); either one alone shows whatever the method.
 * @param {Set<string>} panels  @param {boolean} tileMethod
 * @returns {Record<string, boolean>}
 */
export function visiblePanels(panels, tileMethod) {
  const shared = sharedStepper(panels, tileMethod);
  return Object.fromEntries(PANELS.map((p) => [p, panels.has(p) && p !== shared?.hidden]));
}

/**
 * The panels a page builds for `panels` (an array) before any method is known:
 * of the two steppers, the scan's (what the build's size account assumes).
 * @param {string[]} panels
 */
export function builtFirst(panels) {
  const shared = sharedStepper(new Set(panels), false);
  return panels.filter((p) => p !== shared?.hidden);
}
