// A learner's kernel in a link (www/panels/kernel/link.js): round trips, the
// size of the article's kernels packed, and the links refused.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MAX_LINK_CHARS, MAX_SOURCE_BYTES, packSource, unpackSource } from '../../www/panels/kernel/link.js';

test('every shipped kernel, and text outside ASCII, comes back from its link exactly, within a link’s length', async () => {
  for (const name of ['atomic_counter', 'atomic_aggregated', 'scan_block', 'add_offsets', 'scatter']) {
    const text = readFileSync(new URL(`../../shaders/${name}.wgsl`, import.meta.url), 'utf8');
    const code = await packSource(text);
    assert.match(code, /^[A-Za-z0-9_-]+$/, 'base64url, no padding');
    assert.ok(code.length < MAX_LINK_CHARS, `${name}: ${code.length} characters`);
    assert.ok(code.length < text.length, `${name}: packed smaller`);
    assert.equal(await unpackSource(code), text);
  }
  const odd = '// ñandú 𝄞 «»\nfn f() {}\n';
  assert.equal(await unpackSource(await packSource(odd)), odd);
  assert.equal(await unpackSource(await packSource('')), '');
});

test('a malformed link, bytes that are not UTF-8, and a small link that inflates past the cap are refused', async () => {
  await assert.rejects(unpackSource('not base64!'));
  await assert.rejects(unpackSource('AAAA'), 'not deflate');
  const bomb = await packSource('a'.repeat(MAX_SOURCE_BYTES + 1));
  assert.ok(bomb.length < 1000, `${bomb.length}`);
  await assert.rejects(unpackSource(bomb), /more than/);
  // A 1.36 MB link once inflated about 1 GB before it was refused: one longer than any link written is refused unread.
  await assert.rejects(unpackSource('A'.repeat(MAX_LINK_CHARS + 1)), /at most/);
  // The longest bomb a link can carry is refused as it inflates, a piece at a time.
  const biggest = await packSource('a'.repeat(6_000_000));
  assert.ok(biggest.length <= MAX_LINK_CHARS, `${biggest.length}`);
  await assert.rejects(unpackSource(biggest), /more than/);
  const raw = new CompressionStream('deflate-raw');
  const bytes = new Uint8Array(await new Response(new Blob([new Uint8Array([0xff, 0xfe, 0x80])]).stream().pipeThrough(raw)).arrayBuffer());
  const code = Buffer.from(bytes).toString('base64url');
  await assert.rejects(unpackSource(code));
});
