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
 * Each panel's height in em: `[wide, medium, narrow]`, where wide is a container
 * of at least WIDE em, narrow under NARROW em. The editor grows with its rows of
 * flags (`EDITOR_ROW_EM` a row of cells past the first).
 */
export const PANEL_HEIGHTS = {
  editor: [22.5, 22.5, 27],
  result: [22.5, 19, 24],
  draw: [23, 23, 16],
  scan: [50, 50, 56],
  tiles: [47, 47, 58],
  atomic: [22, 22, 26],
  order: [12, 12, 14],
  bench: [14, 14, 17],
  code: [37, 37, 38],
};

/** The editor's cells: one row every EDITOR_ROW_EM, a cell every EDITOR_CELL_EM across. */
export const EDITOR_ROW_EM = 2.75;
export const EDITOR_CELL_EM = 2.75;

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
  const band = wide ? 0 : widthEm >= NARROW ? 1 : 2;
  const both = panels.has('scan') && panels.has('tiles');
  /** @type {{ panel: string, em: number, shared: boolean }[]} */
  const cards = [];
  for (const panel of PANELS) {
    if (!panels.has(panel)) continue;
    let em = PANEL_HEIGHTS[panel][band];
    if (both && (panel === 'scan' || panel === 'tiles')) em = Math.max(PANEL_HEIGHTS.scan[band], PANEL_HEIGHTS.tiles[band]);
    if (panel === 'editor') em += editorRows(n ?? 10, widthEm, wide && panels.has('result')) * EDITOR_ROW_EM;
    cards.push({ panel, em: round(em), shared: both && panel === 'tiles' });
  }
  // Side by side, the editor and the result share a row as tall as the taller.
  const paired = wide && panels.has('editor') && panels.has('result');
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

/** Rows of cells past the first for `n` flags in a card of a `widthEm` container. */
function editorRows(n, widthEm, half) {
  if (!(n > 0) || n > MAX_CELLS) return 0;
  const inner = (half ? (widthEm - GAP_EM) / 2 : widthEm) - 2.75;
  const perRow = Math.max(1, Math.floor(inner / EDITOR_CELL_EM));
  return Math.ceil(n / perRow) - 1;
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
