// Which panels show (www/core/panels.js), and the loader's list of tile
// methods against the wasm's layout().

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { PANELS, TILE_METHODS, CARD_CLASS, parsePanels, formatPanels, visiblePanels } from '../../www/core/panels.js';
import { wasm } from './kernels.mjs';

test('TILE_METHODS are the methods whose layout() says usesTiles', () => {
  assert.deepEqual(
    TILE_METHODS,
    wasm
      .layout()
      .methods.filter((m) => m.usesTiles)
      .map((m) => m.name),
  );
});

test('every panel has a card class', () => {
  assert.deepEqual(Object.keys(CARD_CLASS), PANELS);
});

test('panels from the attribute: spaces or commas, unknown names said, nothing means all', () => {
  assert.deepEqual([...parsePanels('scan result').panels], ['scan', 'result']);
  assert.deepEqual([...parsePanels('scan,result').panels], ['scan', 'result']);
  assert.deepEqual(parsePanels('scan nope').unknown, ['nope']);
  assert.equal(parsePanels('').panels.size, PANELS.length);
  assert.equal(parsePanels(null).panels.size, PANELS.length);
  assert.equal(parsePanels('nope').panels.size, PANELS.length, 'nothing known: all');
  assert.equal(formatPanels(new Set(PANELS)), null);
  assert.equal(formatPanels(new Set(['code', 'editor'])), 'editor code');
});

test('scan and tiles share a place when both are asked for; either alone shows whatever the method', () => {
  const both = new Set(['scan', 'tiles']);
  assert.deepEqual([visiblePanels(both, false).scan, visiblePanels(both, false).tiles], [true, false]);
  assert.deepEqual([visiblePanels(both, true).scan, visiblePanels(both, true).tiles], [false, true]);
  assert.equal(visiblePanels(new Set(['tiles']), false).tiles, true);
  assert.equal(visiblePanels(new Set(['scan']), true).scan, true);
});
