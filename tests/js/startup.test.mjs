// Where a playground starts (www/playground/startup.js): a previous
// connection's state, then the link's, then the attributes', with what is
// said about each; run with the real wasm's flag parser and a translator that
// shows its keys.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { startState, attributeState } from '../../www/playground/startup.js';
import { parseHash, parseFlagsAttribute } from '../../www/core/state.js';
import { wasm } from './kernels.mjs';

const t = (key, params = {}) => `${key}${Object.keys(params).length ? JSON.stringify(params) : ''}`;
const attrs = (over = {}) => ({ flags: null, preset: null, method: null, step: null, ...over });
const link = (hash) => ({ ...parseHash(hash, (code) => parseFlagsAttribute(code, wasm)), hash });
const start = (given) => startState({ restore: null, link: null, attributes: attrs(), t, wasm, ...given });

test('nothing given: the article, the scan, no step, nothing said', () => {
  const s = start({});
  assert.equal(s.flags, null);
  assert.equal(s.state.preset.name, 'article');
  assert.equal(s.state.method, 'scan');
  assert.equal(s.state.step, null);
  assert.deepEqual(s.alerts, []);
  assert.equal(s.holdUrl, false);
});

test('the attributes: flags before preset, a method, a step; a bad one said, the rest kept', () => {
  const s = start({ attributes: attrs({ flags: '1 0 1', preset: 'all 5', method: 'lookback', step: '3' }) });
  assert.deepEqual([...s.flags], [1, 0, 1]);
  assert.equal(s.state.method, 'lookback');
  assert.equal(s.state.step, 3);
  const bad = start({ attributes: attrs({ preset: 'all 5', method: 'nope', step: 'x' }) });
  assert.equal(bad.flags, null);
  assert.equal(bad.state.preset.name, 'all');
  assert.equal(bad.state.method, 'scan');
  assert.equal(bad.state.step, null);
  assert.equal(bad.alerts.length, 1);
  assert.equal(bad.alerts[0].kind, 'attributes');
  assert.match(bad.alerts[0].message, /app\.unknownMethod.*app\.badStep/);
});

test('the link outranks the attributes; a link naming no flags takes the attributes’ flags', () => {
  const withFlags = start({ link: link('#flags=110&method=atomic&step=2'), attributes: attrs({ flags: '0 0 0 1', method: 'scan' }) });
  assert.deepEqual([...withFlags.flags], [1, 1, 0]);
  assert.equal(withFlags.state.method, 'atomic');
  assert.equal(withFlags.state.step, 2);
  const noFlags = start({ link: link('#method=aggregated'), attributes: attrs({ flags: '0 0 0 1', method: 'scan' }) });
  assert.deepEqual([...noFlags.flags], [0, 0, 0, 1]);
  assert.equal(noFlags.state.method, 'aggregated');
  const panels = start({ link: link('#method=scan&panels=scan%20code') });
  assert.equal(panels.panels, 'scan code');
});

test('a malformed link is said and held in the address bar; the attributes show', () => {
  const s = start({ link: link('#method=nope'), attributes: attrs({ flags: '1 1' }) });
  assert.deepEqual([...s.flags], [1, 1]);
  assert.equal(s.holdUrl, true);
  assert.deepEqual(
    s.alerts.map((a) => a.kind),
    ['hash'],
  );
  assert.match(s.alerts[0].message, /^app\.hashMalformed/);
  const ignored = start({ link: link('#method=scan&what=1') });
  assert.equal(ignored.holdUrl, true, 'a part not understood keeps the link until the visitor edits');
  assert.match(ignored.alerts[0].message, /hash\.ignored/);
});

test('a previous connection outranks the link and the attributes; parts set while away are the attributes’ again', () => {
  const restore = { flags: new Uint32Array([0, 1]), preset: null, method: 'lookback', step: 4 };
  const s = start({ restore, link: link('#flags=111&method=atomic'), attributes: attrs({ flags: '1', method: 'scan' }) });
  assert.deepEqual([...s.flags], [0, 1]);
  assert.equal(s.state.method, 'lookback');
  assert.equal(s.state.step, 4);
  const flagsAgain = start({ restore: { ...restore, flags: undefined, preset: undefined }, attributes: attrs({ flags: '1 0 0 1' }) });
  assert.deepEqual([...flagsAgain.flags], [1, 0, 0, 1]);
  assert.equal(flagsAgain.state.method, 'lookback', 'the rest of the snapshot stays');
  const methodAgain = start({ restore: { ...restore, method: undefined }, attributes: attrs({ method: 'atomic' }) });
  assert.equal(methodAgain.state.method, 'atomic');
  assert.deepEqual([...methodAgain.flags], [0, 1]);
  const presetKept = start({ restore: { flags: new Uint32Array(8), preset: { name: 'none', n: 8, density: 0.5, seed: 1 }, method: 'scan', step: null } });
  assert.equal(presetKept.flags, null, 'a preset is made again, not copied');
  assert.equal(presetKept.state.preset.name, 'none');
});

test('attributeState reads the attributes alone', () => {
  const s = attributeState(attrs({ preset: 'random 100 0.5 7' }), { t, wasm });
  assert.deepEqual(s.state.preset, { name: 'random', n: 100, density: 0.5, seed: 7 });
  assert.equal(s.error, null);
});
