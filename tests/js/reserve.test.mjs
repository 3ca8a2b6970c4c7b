// The reservation table (www/loader/reserve.js): what the element reserves
// before its code arrives, the host-page rule, and the iframe's height.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { reserve, editorGrid, flagCount, heightAt, SAMPLE_WIDTHS, PAIRED_WIDTHS, STATUS_EM, GAP_EM, WIDE } from '../../www/loader/reserve.js';
import { reserveCss, fitWidthFn, widthFnAt, widthFnCss } from '../../www/loader/reserve-css.js';
import { PANELS, PANEL_ROWS } from '../../www/core/panels.js';
import { frameHeight, embedSnippets } from '../../www/page/embed-code.js';

test('every panel has a height at every sampled width, and the total is the status, the gaps and the cards', () => {
  for (const row of PANEL_ROWS) {
    assert.equal(row.heights.length, (row.widths ?? SAMPLE_WIDTHS).length, row.name);
    if (row.widths)
      assert.ok(
        row.widths.every((w, k) => k === 0 || w < row.widths[k - 1]),
        `${row.name}: widths widest first`,
      );
    if (row.paired) assert.equal(row.paired.length, PAIRED_WIDTHS.length, row.name);
    for (const w of [20, 32.5, 40, 47.5, 60, 68.8, 100]) assert.ok(heightAt(row.heights, w) > 0, `${row.name} at ${w} em`);
  }
  for (const p of PANELS) {
    const r = reserve(new Set([p]), { widthEm: 50 });
    assert.equal(r.cards.length, 1);
    assert.equal(r.total, Math.round((STATUS_EM + GAP_EM + r.cards[0].em) * 100) / 100, p);
  }
});

test('side by side, the editor and the result share one row; scan and tiles share one place, picked by the method', () => {
  const pair = reserve(new Set(['editor', 'result']), { widthEm: 70, wideEm: WIDE });
  const [editor, result] = pair.cards;
  assert.equal(editor.em, result.em);
  assert.equal(result.shared, true);
  assert.equal(pair.total, Math.round((STATUS_EM + GAP_EM + editor.em) * 100) / 100);
  const stacked = reserve(new Set(['editor', 'result']), { widthEm: 50 });
  assert.equal(stacked.cards.filter((c) => c.shared).length, 0);
  const scan = reserve(new Set(['scan', 'tiles']), { widthEm: 50, method: 'scan' });
  const tiles = reserve(new Set(['scan', 'tiles']), { widthEm: 50, method: 'lookback' });
  assert.deepEqual(
    scan.cards.map((c) => [c.panel, c.shared]),
    [
      ['scan', false],
      ['tiles', true],
    ],
  );
  assert.deepEqual(
    tiles.cards.map((c) => [c.panel, c.shared]),
    [
      ['scan', true],
      ['tiles', false],
    ],
  );
  assert.ok(tiles.total > scan.total, 'the tile view is the taller');
  const quiet = reserve(new Set(['scan']), { widthEm: 50, status: false });
  assert.equal(quiet.total, quiet.cards[0].em);
});

test('the editor grows with its rows of flags, up to its scrolling cap, and a density strip past 4096', () => {
  const card = 40;
  assert.equal(editorGrid(1, card, 1.25), editorGrid(10, card, 1.25));
  assert.ok(editorGrid(64, card, 1.25) > editorGrid(10, card, 1.25));
  assert.ok(editorGrid(65, card, 1.25) < editorGrid(64, card, 1.25), 'dense cells from 65 flags');
  assert.ok(editorGrid(2000, card, 1.25) <= 24 + 1.25);
  assert.equal(editorGrid(5000, card, 1.25), editorGrid(1 << 20, card, 1.25));
});

test('flagCount reads the attributes as far as they tell', () => {
  assert.equal(flagCount('1001101001', null), 10);
  assert.equal(flagCount('1,0,2', null), 3);
  assert.equal(flagCount('1 0 0 1', null), 4);
  assert.equal(flagCount('b300.AAAA', null), 300);
  assert.equal(flagCount(null, 'random 100000 0.5 1'), 100000);
  assert.equal(flagCount(null, 'article'), 10);
  assert.equal(flagCount(null, null), 10);
});

/** A length the stylesheet writes, at an element `w` em wide (rem = em): its calc(), max(), min() and clamp() in JS. */
function cssAt(css, w) {
  const js = css
    .replace(/100%/g, `(${w})`)
    .replace(/(\d)r?em\b/g, '$1')
    .replace(/\bcalc\(/g, '(')
    .replace(/\b(max|min)\(/g, 'Math.$1(')
    .replace(/\bclamp\(/g, 'clamp(');
  return Function('clamp', `return ${js};`)((lo, x, hi) => Math.min(Math.max(lo, x), hi));
}

test('the host-page rule: each panel alone and the pair, evaluated at 400 widths, is what reserve() gives there', () => {
  const css = reserveCss();
  assert.doesNotMatch(css, /NaN|undefined|Infinity/);
  const value = (selector, panel) => {
    const rule = new RegExp(`${selector.replace(/[[\]()~"=]/g, (c) => `\\${c}`)}:not\\(:defined\\) \\{\\n([^}]*)\\}`).exec(css);
    assert.ok(rule, selector);
    return /** @type {RegExpExecArray} */ (new RegExp(`--cp-r-${panel}: ([^;]+);`).exec(rule[1]))[1];
  };
  const widths = Array.from({ length: 400 }, (_, k) => 12 + k * 0.2137);
  // Away from the widths where a height steps (two columns, the editor's flags wrapping).
  const clear = (w) => [WIDE, 32.8, 17.55, 14.5].every((t) => Math.abs(w - t) > 0.05);
  // (The course's share is written for a course attribute, which brings the kernel panel.)
  const courseKernel = value('compaction-playground[course]', 'kernel');
  const courseOwn = value('compaction-playground[course]', 'course');
  for (const w of widths.filter(clear)) {
    const want = reserve(new Set(['course', 'kernel']), { widthEm: w, status: false }).total + GAP_EM;
    assert.ok(Math.abs(cssAt(courseKernel, w) + cssAt(courseOwn, w) - want) < 0.03, `the course at ${w} em`);
  }
  for (const p of PANELS.filter((q) => q !== 'course')) {
    const written = value(`compaction-playground[panels~="${p}"]`, p);
    for (const w of widths.filter(clear)) {
      const want = reserve(new Set([p]), { widthEm: w, status: false }).total + GAP_EM;
      assert.ok(Math.abs(cssAt(written, w) - want) < 0.02, `${p} at ${w} em: ${cssAt(written, w)}, reserve() ${want}`);
    }
  }
  const pair = new Set(['editor', 'result']);
  const written = value('compaction-playground[panels~="editor"][panels~="result"]', 'editor');
  for (const w of widths.filter(clear)) {
    const want = reserve(pair, { widthEm: w, status: false }).total + GAP_EM;
    assert.ok(Math.abs(cssAt(written, w) - want) < 0.03, `the pair at ${w} em: ${cssAt(written, w)}, reserve() ${want}`);
  }
});

test('fitWidthFn finds the pieces and steps of a height, and refuses what it cannot write', () => {
  const g = (w) => (w >= 50 ? 10 : 10 + 0.5 * (50 - w)) + (w < 30 ? 3 : 0);
  const f = fitWidthFn(g);
  assert.equal(f.ramps.length, 1);
  assert.equal(f.steps.length, 1);
  assert.ok(Math.abs(f.ramps[0].at - 50) < 1e-6 && Math.abs(f.ramps[0].k - 0.5) < 1e-6);
  assert.ok(Math.abs(f.steps[0].at - 30) < 1e-6 && Math.abs(f.steps[0].jump - 3) < 1e-6);
  for (const w of [10, 29, 31, 49, 60]) assert.ok(Math.abs(widthFnAt(f, w) - g(w)) < 1e-6, `at ${w}`);
  assert.match(widthFnCss(f), /^calc\(10em \+ 0\.5 \* max\(0em, 50em - 100%\) \+ clamp\(0em, \(30em - 100%\) \* 1000000, 3em\)\)$/);
  // A curve is no set of straight pieces.
  assert.throws(() => fitWidthFn((w) => 1000 / w), /no set of straight pieces/);
});

test('"Copy embed code": a whole-number iframe height for every panel alone, the default set and all panels', () => {
  const el = {
    constructor: { moduleUrl: 'https://docs.example/assets/playground/compaction-playground.js' },
    flags: '1001101001',
    method: 'scan',
    step: 3,
    stateHash: 'flags=b10.WQI&method=scan&step=3',
    result: { n: 10 },
  };
  const heights = [];
  // (The course's embed code carries a course attribute; "all" is every panel but the course.)
  for (const panels of [...PANELS, '', PANELS.filter((p) => p !== 'course').join(' ')]) {
    const { element, iframe } = embedSnippets(el, panels);
    const height = Number(/height="([^"]+)"/.exec(iframe)[1]);
    assert.ok(Number.isInteger(height) && height > 100, `${panels || '(default)'}: height ${height}`);
    assert.match(element, /<script type="module" src="https:\/\/docs\.example\/assets\/playground\/compaction-playground\.js"><\/script>/);
    assert.match(iframe, /src="https:\/\/docs\.example\/assets\/playground\/embed\.html#flags=b10\.WQI&amp;method=scan&amp;step=3/);
    heights.push(height);
  }
  assert.equal(heights.at(-1), frameHeight(new Set(PANELS.filter((p) => p !== 'course')), 10));
  assert.equal(heights.at(-2), heights.at(-1), 'no panels named: all of them');
});
