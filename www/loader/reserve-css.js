// The host-page stylesheet, compaction-playground-reserve.css (written by
// scripts/build-dist.mjs): reserve()'s size for elements not yet defined, from
// their own width. Before any script has run nothing has measured the element,
// but a percentage of padding is a share of its width: each panel's share of
// the height, a function of that width made of straight pieces and steps, is
// fitted from reserve() itself and written with percentages, so the stylesheet
// reserves what the loader will at any width, in any docs column. Build-time
// only: the loader does not import it.

import { COURSE, COURSE_KERNEL, PANEL_ROWS, PANELS, TILE_METHODS } from '../core/panels.js';
import { reserve, STATUS_EM, GAP_EM, WIDE } from './reserve.js';

/**
 * A height in em as a function of a width W in em: `base`, plus `k · (at − W)`
 * for each ramp where W < at, plus `jump` for each step where W < at.
 * @typedef {{ base: number, ramps: { at: number, k: number }[], steps: { at: number, jump: number }[] }} WidthFn
 */

/** Where the fit looks (em): narrower than any docs column, wider than any page. */
const FIT = { lo: 8, hi: 160, sample: 1 / 64 };
/** More pieces than this is a curve, not a table of heights: a stylesheet of it would be large and slow to lay out. */
const MAX_PIECES = 48;

/** `f` at the width `w` (em). @param {WidthFn} f  @param {number} w */
export function widthFnAt(f, w) {
  let y = f.base;
  for (const r of f.ramps) if (w < r.at) y += r.k * (r.at - w);
  for (const s of f.steps) if (w < s.at) y += s.jump;
  return y;
}

/**
 * The WidthFn that is `g` over FIT's widths, for a `g` made of straight pieces
 * and steps at least a thousandth of an em apart (reserve()'s are). Walks from
 * the widest width down; where `g` leaves the pieces found so far, finds the
 * point by bisection and adds a step (where `g` jumps) and a ramp (where its
 * slope changes). Throws where the result is not `g`, or takes more than MAX_PIECES.
 * @param {(w: number) => number} g
 * @returns {WidthFn}
 */
export function fitWidthFn(g) {
  /** @type {WidthFn} */
  const f = { base: g(FIT.hi), ramps: [], steps: [] };
  const near = (w) => Math.abs(widthFnAt(f, w) - g(w)) < 1e-6;
  // The slope of g just left of `t` (no other change within 2e-3 em), and f's there.
  const slopeOfG = (t) => (g(t - 1e-3) - g(t - 2e-3)) / 1e-3;
  const slopeOfF = (t) => -f.ramps.reduce((sum, r) => sum + (r.at >= t ? r.k : 0), 0);
  const sHi = slopeOfG(FIT.hi);
  if (Math.abs(sHi) > 1e-9) f.ramps.push({ at: FIT.hi, k: -sHi });
  for (let w = FIT.hi; w > FIT.lo; ) {
    const x = w - FIT.sample;
    if (near(x)) {
      w = x;
      continue;
    }
    // g leaves f somewhere in [x, w): the last width where it still agrees.
    let [off, on] = [x, w];
    for (let k = 0; k < 60 && on - off > 1e-12; k++) {
      const mid = (off + on) / 2;
      if (near(mid)) on = mid;
      else off = mid;
    }
    // The line g follows left of there, and where it meets f's: a bend there, or else a step.
    const s = slopeOfG(on);
    const bend = s - slopeOfF(on);
    const lineAt = (/** @type {number} */ w) => g(on - 1e-3) + s * (w - (on - 1e-3));
    const meet = Math.abs(bend) > 1e-9 ? on + (lineAt(on) - widthFnAt(f, on)) / -bend : Infinity;
    if (Math.abs(meet - on) < 1e-3) {
      f.ramps.push({ at: meet, k: -bend });
    } else {
      f.steps.push({ at: on, jump: lineAt(on) - widthFnAt(f, on) });
      if (Math.abs(bend) > 1e-9) f.ramps.push({ at: on, k: -bend });
    }
    w = on;
    if (f.ramps.length + f.steps.length > MAX_PIECES) throw new Error(`reserve-css: reserve() is no set of straight pieces (past ${MAX_PIECES} at ${on.toFixed(3)} em)`);
  }
  for (let w = FIT.lo; w < FIT.hi; w += FIT.sample / 3) {
    if (f.steps.some((s) => Math.abs(s.at - w) < 1e-3)) continue;
    if (Math.abs(widthFnAt(f, w) - g(w)) > 1e-4) throw new Error(`reserve-css: the fit misses reserve() at ${w.toFixed(3)} em (${widthFnAt(f, w)} for ${g(w)})`);
  }
  return f;
}

const num = (/** @type {number} */ x) => String(Math.round(x * 1e5) / 1e5);
/** ` + term(x)` or ` - term(|x|)`, for a term of a sum. @param {number} x  @param {(x: number) => string} term */
const signed = (x, term) => (x < 0 ? ` - ${term(-x)}` : ` + ${term(x)}`);

/** `f` as CSS, W the width of the box whose percentages it is in (`100%`). @param {WidthFn} f */
export function widthFnCss(f) {
  const terms = [
    ...f.ramps.map((r) => signed(r.k, (k) => `${num(k)} * max(0em, ${num(r.at)}em - 100%)`)),
    // A step as a ramp a millionth of an em wide.
    ...f.steps.map((s) => signed(s.jump, (j) => `clamp(0em, (${num(s.at)}em - 100%) * 1000000, ${num(j)}em)`)),
  ];
  return terms.length ? `calc(${num(f.base)}em${terms.join('')})` : `${num(f.base)}em`;
}

/** `wide` where the element is at least WIDE rem wide (two columns), `narrow` below: each a length of at most 1000em. */
function byColumns(wide, narrow) {
  const past = `clamp(0em, (100% - ${WIDE}rem) * 1000000, 1000em)`;
  return `max(min(${wide}, ${past}), min(${narrow}, 1000em - ${past}))`;
}

/** The custom property holding `panel`'s share of an undefined element's height. */
const share = (panel) => `--cp-r-${panel}`;

/**
 * The stylesheet. Each panel's share (its card and a gap) is a custom
 * property, zero unless `panels` lists it (or is absent: every panel); a float
 * as tall as their sum holds the element open (a padding's percentage is of
 * the element's width). The pairs share a row or a place as reserve() has
 * them; `method` and `quiet` as attributes say. It styles nothing but
 * undefined `<compaction-playground>` elements.
 */
export function reserveCss() {
  const el = (more = '') => `compaction-playground${more}:not(:defined)`;
  const decl = (/** @type {[string, string][]} */ pairs) => pairs.map(([p, css]) => `  ${share(p)}: ${css};`).join('\n');
  const fit = (/** @type {Set<string>} */ panels, /** @type {number} */ wideEm) => widthFnCss(fitWidthFn((w) => reserve(panels, { widthEm: w, wideEm, status: false, exact: true }).total + GAP_EM));
  const alone = Object.fromEntries(PANELS.map((p) => [p, fit(new Set([p]), Infinity)]));
  const tiled = `:is(${TILE_METHODS.map((m) => `[method="${m}"]`).join(', ')})`;
  const pairRows = PANEL_ROWS.filter((r) => r.paired).map((r) => r.name);
  const [first, second] = pairRows;
  const pairs = new Set(pairRows);
  const [scan, tiles] = PANEL_ROWS.filter((r) => r.stepper).map((r) => r.name);
  return [
    '/* compaction-playground-reserve.css: written by scripts/build-dist.mjs from www/loader/reserve-css.js. */',
    `${el()} {\n  display: flow-root;\n  --cp-r-status: ${STATUS_EM}em;\n${decl(PANELS.map((p) => [p, p === tiles || p === COURSE ? '0em' : alone[p]]))}\n}`,
    `${el()}::before {\n  content: "";\n  float: left;\n  padding-top: calc(var(--cp-r-status)${PANELS.map((p) => ` + var(${share(p)})`).join('')});\n}`,
    // (As specific as the rules of each panel after it, which win: `:where` adds nothing.)
    `${el(`[panels]:not(:where([panels=""]))`)} {\n${decl(PANELS.map((p) => [p, '0em']))}\n}`,
    ...PANELS.filter((p) => p !== COURSE).map((p) => `${el(`[panels~="${p}"]`)} {\n${decl([[p, alone[p]]])}\n}`),
    // The course shows where the element has a course attribute, and brings the kernel panel with it.
    `${el('[course]')} {\n${decl([
      [COURSE, alone[COURSE]],
      [COURSE_KERNEL, alone[COURSE_KERNEL]],
    ])}\n}`,
    // The pair: side by side from WIDE rem, as tall as the taller; stacked below.
    `${el(':not([panels])')}, ${el(`[panels~="${first}"][panels~="${second}"]`)} {\n${decl([
      [first, byColumns(fit(pairs, 0), fit(pairs, Infinity))],
      [second, '0em'],
    ])}\n}`,
    // The two steppers asked for together take one place: the tile view's for the methods of tiles.
    `${el(`[panels~="${scan}"][panels~="${tiles}"]`)} {\n${decl([[tiles, '0em']])}\n}`,
    `${el(`${tiled}:not([panels])`)}, ${el(`${tiled}[panels~="${scan}"][panels~="${tiles}"]`)} {\n${decl([
      [scan, '0em'],
      [tiles, alone[tiles]],
    ])}\n}`,
    `${el('[quiet]')} {\n  --cp-r-status: ${-GAP_EM}em;\n}`,
    '',
  ].join('\n');
}
