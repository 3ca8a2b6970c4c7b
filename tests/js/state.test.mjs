// The view's state and its URL form (www/core/state.js), with the wasm's
// packing of flags.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { wasm } from './kernels.mjs';
import { parseHash, formatHash, parsePresetAttribute, formatPresetAttribute, parseFlagsAttribute, flagsText, MAX_CELLS, MAX_HASH_PARTS, hashParams } from '../../www/core/state.js';

const encode = (f) => wasm.encodeFlags(f);
const decode = (c) => wasm.decodeFlags(c);

test('a state round-trips through the hash, embedding keys included', () => {
  const flags = new Uint32Array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]);
  const hash = formatHash({ flags, preset: null, method: 'lookback', step: 3, block: 0, tile: 2, embed: { panels: 'scan tiles', theme: 'dark', lang: 'es' } }, encode);
  const { state, flags: back, error, ignored } = parseHash(hash, decode);
  assert.equal(error, null);
  assert.deepEqual(ignored, []);
  assert.deepEqual([...back], [...flags]);
  assert.deepEqual([state.method, state.step, state.tile], ['lookback', 3, 2]);
  assert.deepEqual(state.embed, { panels: 'scan tiles', theme: 'dark', lang: 'es' });
});

test('large arrays made by a preset keep the preset in the hash, not the flags', () => {
  const preset = { name: 'random', n: 100_000, density: 0.5, seed: 7 };
  const flags = wasm.presetFlags('random', preset.n, preset.density, preset.seed);
  const hash = formatHash({ flags, preset, method: 'scan', step: null, block: 0, tile: 0 }, encode);
  assert.match(hash, /preset=random&n=100000&density=0\.5&seed=7/);
  assert.ok(flags.length > MAX_CELLS);
  assert.deepEqual(parseHash(hash, decode).state.preset, preset);
});

test('a malformed hash says what is wrong and keeps the default state; unknown parts are named', () => {
  assert.equal(parseHash('#method=nope', decode).error.key, 'unknownMethod');
  assert.equal(parseHash('#flags=b10.%%%', decode).error.key, 'decode');
  assert.equal(parseHash('#step=x', decode).error.key, 'notWhole');
  assert.deepEqual(parseHash('#method=scan&foo=1&n=5', decode).ignored, [
    { part: 'foo=1', why: 'unknown' },
    { part: 'n=5', why: 'noPreset' },
  ]);
});

test('the preset and flags attributes', () => {
  assert.deepEqual(parsePresetAttribute('random 1000 0.25 3'), { name: 'random', n: 1000, density: 0.25, seed: 3 });
  assert.equal(formatPresetAttribute({ name: 'random', n: 1000, density: 0.25, seed: 3 }), 'random 1000 0.25 3');
  assert.equal(formatPresetAttribute({ name: 'article', n: 10, density: 0.5, seed: 1 }), 'article');
  assert.throws(() => parsePresetAttribute('nope'));
  assert.throws(() => parsePresetAttribute('random 10 0.5 1 extra'));
  assert.deepEqual([...parseFlagsAttribute('1 0 2', wasm)], [1, 0, 2]);
  assert.deepEqual([...parseFlagsAttribute(encode(new Uint32Array([1, 1, 0])), wasm)], [1, 1, 0]);
  assert.equal(flagsText(new Uint32Array([1, 0, 1])), '101');
  assert.equal(flagsText(new Uint32Array([1, 0, 2])), '1,0,2');
});

test('embed.html posts to its parent’s origin: the hash names it, else the browser, else the referrer, else nobody', async () => {
  const { parentOrigin } = await import('../../www/embed/origin.js');
  assert.equal(parentOrigin('https://docs.example', ['https://other.example'], 'https://third.example/page'), 'https://docs.example');
  assert.equal(parentOrigin(null, ['https://docs.example'], ''), 'https://docs.example');
  assert.equal(parentOrigin(null, undefined, 'https://docs.example/guide/page.html'), 'https://docs.example');
  assert.equal(parentOrigin(null, undefined, ''), null);
  assert.equal(parentOrigin('not a url', undefined, ''), null);
  assert.equal(parentOrigin(null, ['null'], 'file:///x.html'), null, 'an opaque origin names nobody');
});

test('a crafted hash of a million unknown or empty keys is read only as far as MAX_HASH_PARTS, its rest said once', () => {
  const read = (code) => parseFlagsAttribute(code, wasm);
  for (const unit of ['x=1&', '&', 'a&']) {
    const hash = `#method=atomic&${unit.repeat(500_000)}`;
    const { state, ignored, error } = parseHash(hash, read);
    assert.equal(error, null);
    assert.equal(state.method, 'atomic', 'what comes first is read');
    assert.ok(ignored.length <= MAX_HASH_PARTS + 1, `${unit}: ${ignored.length} parts looked at`);
    assert.ok(ignored[0].part.endsWith('…'), 'the rest is said once, cut, first');
  }
  const { params, rest } = hashParams(`#${'k=v&'.repeat(MAX_HASH_PARTS - 1)}flags=1011`);
  assert.equal(rest, '', 'a link of MAX_HASH_PARTS parts is read whole');
  assert.equal(params.get('flags'), '1011');
});

test('a learner’s kernel in the hash: read as it is written, kept by formatHash; a src without its kernel is ignored, said', () => {
  const { state, error, ignored } = parseHash('#flags=b10.WQI&method=scan&kernel=scan_block&src=abc_-', (code) => wasm.decodeFlags(code));
  assert.equal(error, null);
  assert.deepEqual(state.kernel, { module: 'scan_block', src: 'abc_-' });
  assert.deepEqual(ignored, []);
  const hash = formatHash({ flags: new Uint32Array([1, 0, 1]), preset: null, method: 'scan', step: null, block: 0, tile: 0, kernel: state.kernel }, (f) => wasm.encodeFlags(f));
  assert.match(hash, /&kernel=scan_block&src=abc_-/);
  assert.doesNotMatch(
    formatHash({ flags: new Uint32Array([1]), preset: null, method: 'scan', step: null, block: 0, tile: 0 }, (f) => wasm.encodeFlags(f)),
    /kernel|src/,
  );
  const alone = parseHash('#flags=b10.WQI&src=abc', (code) => wasm.decodeFlags(code));
  assert.equal(alone.state.kernel, null);
  assert.deepEqual(alone.ignored, [{ part: 'src=…', why: 'unknown' }]);
});
