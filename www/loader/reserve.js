// How tall each panel is, before its code has arrived: the loader reserves the
// element's size from this table (no layout shift while it loads), the
// playground keeps each card at least this tall, "Copy embed code" sizes its
// iframe with it, and the build writes the host-page rule of
// compaction-playground-reserve.css from it. Heights are in em of the
// element's font, for the article's ten flags, measured in Chromium at the
// three widths below (e2e/reserve.test.mjs checks them against the real thing).
// Pure: no DOM here.

import { PANELS } from '../core/panels.js';
import { MAX_CELLS } from '../core/state.js';

/** Container widths (in em) where the layout changes: two columns from WIDE, compact cards under NARROW. */
export const WIDE = 56;
export const NARROW = 40;

/** The status line: one row, always the same height (progress overlays it). */
export const STATUS_EM = 2.5;
/** The gap between two cards (`.pg { gap }`). */
export const GAP_EM = 1;

/**
 * Each panel's height in em: `[wide, medium, narrow]` by the width of its
 * card (a card under NARROW em is narrow; side by side, the editor and the
 * result are half as wide as the element). Measured for the article's flags
 * with the scan (the tile view with the look-back); the order panel after its
 * run. The editor's is without its grid of flags (editorGrid).
 */
export const PANEL_HEIGHTS = {
  editor: [22.25, 23.75, 21.75],
  result: [30, 33, 33.5],
  draw: [29, 29, 28],
  scan: [53, 56, 55],
  tiles: [82, 89, 89.5],
  atomic: [16, 16, 15],
  order: [111, 115, 114.5],
  bench: [18, 22.5, 22],
  code: [129, 130.5, 130],
};

/** The flag grid (www/panels/editor/styles.css): cells and gaps of up to 64 flags, of more, its height cap; the strip past MAX_CELLS. */
const GRID = { cell: 2.75, across: 0.3, down: 1.2, pad: 1.25, denseCell: 1.25, denseGap: 0.125, densePad: 0.5, max: 24, strip: 7.5 };

/** The flag grid's height in em for `n` flags in a card `cardEm` wide (its padding `padEm` each side). */
export function editorGrid(n, cardEm, padEm) {
  if (n > MAX_CELLS) return GRID.strip;
  const inner = cardEm - 2 * padEm - 1.1;
  const dense = n > 64;
  const cell = dense ? GRID.denseCell : GRID.cell;
  const across = dense ? GRID.denseGap : GRID.across;
  const down = dense ? GRID.denseGap : GRID.down;
  const perRow = Math.max(1, Math.floor((inner + across) / (cell + across)));
  const rows = Math.ceil(Math.max(1, n) / perRow);
  return Math.min(GRID.max, rows * (cell + down) - down) + (dense ? GRID.densePad : GRID.pad);
}

/**
 * The reservation for an element showing `panels` (a Set of names) in a
 * container `widthEm` wide (in em of its font; `wideEm`: where two columns
 * start, 56rem in those em), for `n` flags (unknown: the article's 10):
 * `{ status, cards: [{ panel, em, shared }], total }` in em. `scan` and
 * `tiles` share one place when both are asked for (the method picks which
 * shows): both get the taller height, and the second is `shared`.
 * @param {Set<string>} panels
 * @param {{ widthEm: number, wideEm?: number, n?: number | null, status?: boolean }} options
 */
export function reserve(panels, { widthEm, wideEm = WIDE, n = 10, status = true }) {
  const wide = widthEm >= wideEm;
  const paired = wide && panels.has('editor') && panels.has('result');
  const both = panels.has('scan') && panels.has('tiles');
  const bandOf = (cardEm) => (cardEm >= WIDE ? 0 : cardEm >= NARROW ? 1 : 2);
  /** @type {{ panel: string, em: number, shared: boolean }[]} */
  const cards = [];
  for (const panel of PANELS) {
    if (!panels.has(panel)) continue;
    const cardEm = paired && (panel === 'editor' || panel === 'result') ? (widthEm - GAP_EM) / 2 : widthEm;
    const band = wide && !paired ? 0 : bandOf(cardEm);
    let em = PANEL_HEIGHTS[panel][band];
    if (both && (panel === 'scan' || panel === 'tiles')) em = Math.max(PANEL_HEIGHTS.scan[band], PANEL_HEIGHTS.tiles[band]);
    if (panel === 'editor') em += editorGrid(n ?? 10, cardEm, cardEm < NARROW ? 0.75 : 1.25);
    cards.push({ panel, em: round(em), shared: both && panel === 'tiles' });
  }
  // Side by side, the editor and the result share a row as tall as the taller.
  const editor = cards.find((c) => c.panel === 'editor');
  const result = cards.find((c) => c.panel === 'result');
  if (paired && editor && result) {
    editor.em = result.em = Math.max(editor.em, result.em);
    result.shared = true;
  }
  const placed = cards.filter((c) => !c.shared);
  const statusEm = status ? STATUS_EM : 0;
  const gaps = GAP_EM * Math.max(0, placed.length - (status ? 0 : 1));
  return { status: statusEm, cards, total: round(statusEm + gaps + placed.reduce((sum, c) => sum + c.em, 0)) };
}

const round = (x) => Math.round(x * 100) / 100;

/** The number of flags an element's attributes make, as far as can be told without the wasm (null: unknown). */
export function flagCount(flags, preset) {
  if (flags !== null && flags !== undefined) {
    const text = String(flags).trim();
    const packed = /^[bw](\d+)\./.exec(text);
    if (packed) return Number(packed[1]);
    const list = text.split(/[\s,]+/).filter(Boolean);
    return list.length === 1 && /^[01]+$/.test(list[0]) ? list[0].length : list.length;
  }
  if (preset) {
    const [name, n] = String(preset).trim().split(/\s+/);
    return name === 'article' ? 10 : Number(n) || 10;
  }
  return 10;
}

/**
 * The host-page stylesheet (compaction-playground-reserve.css): the same
 * reservation before the loader has run, for the common `panels` values. A
 * site that paints before its scripts run includes it; it styles nothing but
 * undefined `<compaction-playground>` elements.
 */
export function reserveCss(widthEm = WIDE) {
  const rule = (selector, set) => `${selector} {\n  display: block;\n  min-height: ${reserve(set, { widthEm }).total}em;\n}`;
  const rules = [rule('compaction-playground:not(:defined)', new Set(PANELS))];
  for (const p of PANELS) rules.push(rule(`compaction-playground[panels="${p}"]:not(:defined)`, new Set([p])));
  return `/* compaction-playground-reserve.css: written by scripts/build-dist.mjs from www/loader/reserve.js. */\n${rules.join('\n')}\n`;
}
