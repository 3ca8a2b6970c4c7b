// The reservation table (www/loader/reserve.js): what the element reserves
// before its code arrives, the host-page rule, and the iframe's height.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { reserve, editorGrid, flagCount, reserveCss, heightAt, SAMPLE_WIDTHS, PAIRED_WIDTHS, STATUS_EM, GAP_EM, WIDE } from '../../www/loader/reserve.js';
import { PANELS, PANEL_ROWS } from '../../www/core/panels.js';
import { frameHeight, embedSnippets } from '../../www/page/embed-code.js';

const all = new Set(PANELS);

test('every panel has a height at every sampled width, and the total is the status, the gaps and the cards', () => {
  for (const row of PANEL_ROWS) {
    assert.equal(row.heights.length, SAMPLE_WIDTHS.length, row.name);
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

test('the host-page rule covers every panel alone and all of them, at three widths', () => {
  const css = reserveCss();
  for (const p of PANELS) assert.match(css, new RegExp(`compaction-playground\\[panels~="${p}"\\]:not\\(:defined\\) \\{\\n  --cp-r-${p}: [\\d.]+em;`));
  assert.equal((css.match(/compaction-playground:not\(:defined\) \{/g) ?? []).length, 3);
  assert.match(css, /@media \(max-width: 40em\)/);
  assert.doesNotMatch(css, /NaN|undefined/);
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
  for (const panels of [...PANELS, '', PANELS.join(' ')]) {
    const { element, iframe } = embedSnippets(el, panels);
    const height = Number(/height="([^"]+)"/.exec(iframe)[1]);
    assert.ok(Number.isInteger(height) && height > 100, `${panels || '(default)'}: height ${height}`);
    assert.match(element, /<script type="module" src="https:\/\/docs\.example\/assets\/playground\/compaction-playground\.js"><\/script>/);
    assert.match(iframe, /src="https:\/\/docs\.example\/assets\/playground\/embed\.html#flags=b10\.WQI&amp;method=scan&amp;step=3/);
    heights.push(height);
  }
  assert.equal(heights.at(-1), frameHeight(all, 10));
  assert.equal(heights.at(-2), heights.at(-1), 'no panels named: all of them');
});
