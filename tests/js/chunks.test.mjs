// The downloads' text a chunk at a time (www/panels/shared/chunks.js): exactly
// what JSON.stringify(value, typed arrays as arrays, 2) writes, and CSV rows,
// with no chunk holding more than a bounded number of elements.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { csvChunks, jsonChunks, toJson } from '../../www/panels/shared/chunks.js';

const reference = (v) => JSON.stringify(v, (_, x) => (ArrayBuffer.isView(x) ? Array.from(x) : x), 2);

test('jsonChunks writes what JSON.stringify writes', () => {
  const values = [
    { n: 3, preset: null, flags: new Uint32Array([1, 0, 7]) },
    { method: 'scan', indices: new Uint32Array(0), ms: 1.5, nan: Number.NaN, gone: undefined, f: () => 1, nested: { a: [], b: {}, c: [1, 'x', null, undefined, { d: -0 }] } },
    [{ a: 1 }, { b: new Float32Array([0.5, Number.POSITIVE_INFINITY]) }],
    'text "quoted" \u202e',
    42,
    null,
    { date: new Date(0), list: [[1, 2], [3]] },
  ];
  for (const v of values) assert.equal(Array.from(jsonChunks(v)).join(''), reference(v));
  assert.equal(toJson(values[0]), `${reference(values[0])}\n`);
});

test('a large array comes out in bounded chunks, and the text is exact', () => {
  const flags = new Uint32Array(100_003).map((_, i) => i % 3);
  const chunks = Array.from(jsonChunks({ flags }));
  assert.ok(chunks.length > 5, `${chunks.length} chunks`);
  assert.ok(Math.max(...chunks.map((c) => c.length)) < 200_000, 'no chunk holds the whole array');
  assert.equal(chunks.join(''), reference({ flags }));

  const rows = Array.from(csvChunks(['i', 'flag'], flags.length, (i) => `${i},${flags[i]}`));
  assert.ok(rows.length > 5);
  const lines = rows.join('').split('\n');
  assert.equal(lines[0], 'i,flag');
  assert.equal(lines.length, flags.length + 2);
  assert.equal(lines[100_003], '100002,0');
  assert.equal(lines.at(-1), '');
});
