// Which panels show (www/core/panels.js), and the loader's list of tile
// methods against the wasm's layout().

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { PANELS, PANEL_ROWS, TILE_METHODS, parsePanels, formatPanels, visiblePanels, builtFirst } from '../../www/core/panels.js';
import { wasm } from './kernels.mjs';
import { PAGE_MESSAGES } from '../../www/page/page-messages.js';

test('TILE_METHODS are the methods whose layout() says usesTiles', () => {
  assert.deepEqual(
    TILE_METHODS,
    wasm
      .layout()
      .methods.filter((m) => m.usesTiles)
      .map((m) => m.name),
  );
});

const ROOT = path.join(import.meta.dirname, '..', '..');

test('every panel is one row: a card class of its own, a folder with index.js, its words where it says so', async () => {
  assert.equal(new Set(PANEL_ROWS.map((r) => r.card)).size, PANEL_ROWS.length);
  const folders = (await readdir(path.join(ROOT, 'www', 'panels'), { withFileTypes: true })).filter((d) => d.isDirectory() && d.name !== 'shared').map((d) => d.name);
  assert.deepEqual(folders.sort(), [...PANELS].sort(), 'www/panels/ holds a folder a row (and shared/)');
  for (const row of PANEL_ROWS) {
    await readFile(path.join(ROOT, 'www', 'panels', row.name, 'index.js'));
    for (const lang of ['en', 'es']) {
      const has = await readFile(path.join(ROOT, 'www', 'i18n', lang, `${row.name}.js`)).then(
        () => true,
        () => false,
      );
      assert.equal(has, Boolean(row.words), `www/i18n/${lang}/${row.name}.js against the row's words`);
      assert.ok(PAGE_MESSAGES[lang][`panel.${row.name}`], `the full page's embed choice of ${row.name} in ${lang}`);
    }
  }
});

/** Every file of the tree that the page, the build and the types read. */
async function sources() {
  const files = [];
  for (const dir of ['www', 'scripts', 'types']) {
    for (const f of await readdir(path.join(ROOT, dir), { recursive: true })) {
      if (/\.(js|mjs|ts|html|css)$/.test(f) && !f.includes('node_modules') && !f.startsWith('pkg')) files.push(path.join(dir, f));
    }
  }
  return [...files, 'index.html'];
}

test('no list of panels is written anywhere but www/core/panels.js (the types mirror it, checked here)', async () => {
  const quoted = new RegExp(`['"](${PANELS.join('|')})['"]`, 'g');
  const keyed = new RegExp(`^\\s*(${PANELS.join('|')}):`, 'gm');
  for (const file of await sources()) {
    if (file === path.join('www', 'core', 'panels.js')) continue;
    const text = await readFile(path.join(ROOT, file), 'utf8');
    if (file === path.join('types', 'compaction-playground.d.ts')) {
      const union = /export type Panel = ([^;]+);/.exec(text)?.[1] ?? '';
      assert.deepEqual(
        union.split('|').map((s) => s.trim().replace(/'/g, '')),
        PANELS,
        'the type Panel lists PANELS, in order',
      );
      continue;
    }
    // A list: half the panels' names in one file, three or more on one line, or as keys of one object.
    const all = new Set([...text.matchAll(quoted)].map((m) => m[1]));
    assert.ok(all.size < PANELS.length / 2, `${file} names ${[...all].join(', ')}`);
    for (const line of text.split('\n')) {
      const names = new Set([...line.matchAll(quoted)].map((m) => m[1]));
      assert.ok(names.size < 3, `${file} lists panels: ${line.trim()}`);
    }
    if (file.startsWith(path.join('www', 'i18n')) || file.includes('page-messages')) continue; // words, not lists
    const keys = new Set([...text.matchAll(keyed)].map((m) => m[1]));
    assert.ok(keys.size < 3, `${file} has an object keyed by panels: ${[...keys].join(', ')}`);
  }
});

test('the two steppers: a page builds the scan stepper first when both are asked for', () => {
  assert.deepEqual(builtFirst(['scan', 'tiles', 'code']), ['scan', 'code']);
  assert.deepEqual(builtFirst(['tiles']), ['tiles']);
});

test('panels from the attribute: spaces or commas, unknown names said, nothing means all', () => {
  assert.deepEqual([...parsePanels('scan result').panels], ['scan', 'result']);
  assert.deepEqual([...parsePanels('scan,result').panels], ['scan', 'result']);
  assert.deepEqual(parsePanels('scan nope').unknown, ['nope']);
  // Every panel but the course, which a `course` attribute brings, with the kernel panel.
  assert.equal(parsePanels('').panels.size, PANELS.length - 1);
  assert.equal(parsePanels(null).panels.has('course'), false);
  assert.equal(parsePanels('nope').panels.size, PANELS.length - 1, 'nothing known: all');
  assert.equal(parsePanels('course').panels.has('course'), false, 'no course without its attribute');
  assert.deepEqual([...parsePanels('result', true).panels], ['result', 'course', 'kernel']);
  assert.equal(parsePanels('', true).panels.size, PANELS.length);
  assert.equal(formatPanels(new Set(PANELS)), null);
  assert.equal(formatPanels(new Set(PANELS.filter((p) => p !== 'course'))), null);
  assert.equal(formatPanels(new Set(['code', 'editor'])), 'editor code');
});

test('scan and tiles share a place when both are asked for; either alone shows whatever the method', () => {
  const both = new Set(['scan', 'tiles']);
  assert.deepEqual([visiblePanels(both, false).scan, visiblePanels(both, false).tiles], [true, false]);
  assert.deepEqual([visiblePanels(both, true).scan, visiblePanels(both, true).tiles], [false, true]);
  assert.equal(visiblePanels(new Set(['tiles']), false).tiles, true);
  assert.equal(visiblePanels(new Set(['scan']), true).scan, true);
});
