// How tall each panel is, before its code has arrived: the loader reserves the
// element's size from this table (no layout shift while it loads), the
// playground keeps each card at least this tall, "Copy embed code" sizes its
// iframe with it, and the build fits the host-page rule of
// compaction-playground-reserve.css to it (reserve-css.js). Heights are in em of the
// element's font, for the article's ten flags, measured in Chromium at the
// three widths below (e2e/guest.test.mjs checks them against the real thing).
// Pure: no DOM here.

import { PANEL_ROWS, TILE_METHODS, sharedStepper, panelRow } from '../core/panels.js';
import { MAX_CELLS } from '../core/state.js';

/** Container widths (in em) where the layout changes: two columns from WIDE, compact cards under NARROW. */
export const WIDE = 56;
export const NARROW = 40;

/** What a card gets beyond its measured height: another font may wrap a line more (em, and a share). */
export const MARGIN = { em: 0.75, share: 0.03 };

/** The status line: one row, always the same height (progress overlays it). */
export const STATUS_EM = 2.5;
/** The gap between two cards (`.pg { gap }`). */
export const GAP_EM = 1;

/** The card widths (em) the heights are given at, from a wide page down to a phone. */
export const SAMPLE_WIDTHS = [68.8, 56, 47.5, 40, 32.5, 26, 22, 18];

/**
 * Each panel's height in em at SAMPLE_WIDTHS is its row's `heights`
 * (www/core/panels.js), measured by e2e/reserve-content.test.mjs
 * (RESERVE_TABLE=1 prints them): the panel alone, its width swept in half
 * ems, in a host theme of a wide serif (Georgia), for the article's flags,
 * the order panel after its run. Each sample is the most the card takes on
 * either side of it, so that the straight line drawn between two samples
 * stays above the content; below the narrowest, its slope goes on. The
 * editor's own `widths` follow its rows' wraps (its flag grid apart,
 * editorGrid); a host's font that wraps more still has MARGIN.
 *
 * Side by side (a container of at least 56rem), the editor and the result
 * keep the wide layout's padding at half the width: their rows' `paired`,
 * measured apart at these card widths.
 */
export const PAIRED_WIDTHS = [55.75, 43.25, 33.9];

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
 * `tiles` share one place when both are asked for: `method` picks which
 * shows, and the other is `shared` (it takes the same place when shown).
 * @param {Set<string>} panels
 * (`exact`: unrounded, for the host-page stylesheet's fit, www/loader/reserve-css.js.)
 * @param {{ widthEm: number, wideEm?: number, n?: number | null, method?: string, status?: boolean, exact?: boolean }} options
 */
export function reserve(panels, { widthEm, wideEm = WIDE, n = 10, method = 'scan', status = true, exact = false }) {
  const fix = exact ? (/** @type {number} */ x) => x : round;
  const wide = widthEm >= wideEm;
  const pair = PANEL_ROWS.filter((r) => r.paired && panels.has(r.name));
  const paired = wide && pair.length === 2;
  const shared = sharedStepper(panels, TILE_METHODS.includes(method));
  /** @type {{ panel: string, em: number, shared: boolean }[]} */
  const cards = [];
  for (const row of PANEL_ROWS) {
    const panel = row.name;
    if (!panels.has(panel)) continue;
    const half = paired && pair.includes(row);
    const cardEm = half ? (widthEm - GAP_EM) / 2 : widthEm;
    // Two steppers asked for take one place, as tall as the one the method shows.
    const sized = shared && row.stepper ? /** @type {import('../core/panels.js').PanelRow} */ (panelRow(shared.shown)) : row;
    let em = half && sized.paired ? heightAt(sized.paired, cardEm, PAIRED_WIDTHS) : heightAt(sized.heights, cardEm, sized.widths);
    if (sized.name === 'editor') em += editorGrid(n ?? 10, cardEm, cardEm < NARROW && !half ? 0.75 : 1.25);
    cards.push({ panel, em: fix(em * (1 + MARGIN.share) + MARGIN.em), shared: panel === shared?.hidden });
  }
  // Side by side, the pair shares a row as tall as the taller.
  if (paired) {
    const [first, second] = pair.map((r) => /** @type {{ em: number, shared: boolean }} */ (cards.find((c) => c.panel === r.name)));
    first.em = second.em = Math.max(first.em, second.em);
    second.shared = true;
  }
  const placed = cards.filter((c) => !c.shared);
  const statusEm = status ? STATUS_EM : 0;
  const gaps = GAP_EM * Math.max(0, placed.length - (status ? 0 : 1));
  return { status: statusEm, cards, total: fix(statusEm + gaps + placed.reduce((sum, c) => sum + c.em, 0)) };
}

/** A panel's measured `heights` (at widths `w`, widest first) for a card `cardEm` wide: a straight line between the samples, the narrowest's slope below them. */
/** @param {number[]} h  @param {number} cardEm  @param {number[]} [w] */
export function heightAt(h, cardEm, w = SAMPLE_WIDTHS) {
  if (cardEm >= w[0]) return h[0];
  let k = 0;
  while (k < w.length - 2 && cardEm < w[k + 1]) k++;
  const slope = (h[k + 1] - h[k]) / (w[k + 1] - w[k]);
  return Math.max(Math.min(h[k], h[k + 1]), h[k] + slope * (cardEm - w[k]));
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
