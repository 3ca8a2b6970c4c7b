// The reserve sheet measured in a browser (guest.test.mjs in Chromium,
// firefox.test.mjs in Firefox): undefined elements of many attribute sets in
// columns of many widths, each against reserve() at its own width. (Not a test file.)

import assert from 'node:assert/strict';

import { reserve, WIDE } from '../www/loader/reserve.js';
import { parsePanels } from '../www/core/panels.js';

const CASES = [
  ['', 'scan', false],
  ['', 'lookback', false],
  ['editor result scan', 'scan', false],
  ['editor result scan', 'scan', true],
  ['editor result', 'scan', false],
  ['scan tiles code', 'lookback', false],
  ['scan tiles', 'scan', false],
  ['result atomic', 'atomic', false],
  ['tiles', 'tile-atomic', false],
  ['draw order bench', 'scan', false],
  ['editor kernel', 'scan', false],
];
// Columns (em), none within 0.1 em of a width where a height steps (two columns from WIDE rem; the editor's flags
// wrap at 32.8 and 17.55 em).
const WIDTHS = [18.3, 21, 26.7, 31.1, 34.2, 38.9, 43.3, 47.5, 51.7, 55.2, 57.4, 62.9, 68.8, 74, 90];
const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'">`;

/** Writes the page (no loader: the elements stay undefined, sized by the sheet alone) into `site`; returns its URL. */
export async function reserveSheetPage(site) {
  await site.write('docs/guide/reserve-widths.css', WIDTHS.map((w, k) => `.w${k} { width: ${w}em; }`).join('\n'));
  const body = WIDTHS.flatMap((_, c) =>
    CASES.map(
      ([panels, method, quiet], k) =>
        `<div class="w${c}"><compaction-playground id="u${c}-${k}" flags="1001101001" method="${method}"${panels ? ` panels="${panels}"` : ''}${quiet ? ' quiet' : ''}></compaction-playground></div>`,
    ),
  ).join('');
  await site.write(
    'docs/guide/reserve-css.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8">${CSP}<title>reserve</title><link rel="stylesheet" href="../assets/playground/compaction-playground-reserve.css"><link rel="stylesheet" href="reserve-widths.css"></head><body>${body}</body></html>`,
  );
  return site.url('guide/reserve-css.html');
}

/** In the page: each element's id, height and width in em of its font, and WIDE rem in those em. */
export function measureElements() {
  return [...document.querySelectorAll('compaction-playground')].map((e) => {
    const em = parseFloat(getComputedStyle(e).fontSize);
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    const box = e.getBoundingClientRect();
    return { id: e.id, heightEm: box.height / em, widthEm: box.width / em, remEm: rem / em };
  });
}

/** Asserts that every element measured is what reserve() gives at its width; returns the largest difference (em). */
export function assertReserved(measured, engine) {
  assert.equal(measured.length, WIDTHS.length * CASES.length);
  let worst = 0;
  for (const { id, heightEm, widthEm, remEm } of measured) {
    const [panels, method, quiet] = CASES[Number(id.split('-')[1])];
    const set = parsePanels(panels).panels;
    const want = reserve(set, { widthEm, wideEm: WIDE * remEm, method, status: !quiet }).total;
    worst = Math.max(worst, Math.abs(heightEm - want));
    // reserve() rounds each card to 0.01 em; the sheet does not.
    assert.ok(
      Math.abs(heightEm - want) < 0.1,
      `${engine}, ${widthEm.toFixed(2)} em wide, panels="${panels}" method=${method}${quiet ? ' quiet' : ''}: ${heightEm.toFixed(2)} em, reserve() ${want} em`,
    );
  }
  console.log(`${engine}: the reserve sheet against reserve() at ${measured.length} elements: at most ${worst.toFixed(3)} em apart`);
  return worst;
}
