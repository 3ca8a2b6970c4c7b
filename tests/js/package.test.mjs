// The npm package's manifest as bundlers read it: a stylesheet a docs site
// imports for its side effect (`import 'compaction-playground/reserve.css'`)
// must be listed in `sideEffects`, or webpack (Docusaurus' production build)
// drops the import and the element's reserved size with it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));

test('every stylesheet the package exports is a side effect, as is every module that defines the element', () => {
  const targets = Object.values(manifest.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
  const sheets = targets.filter((t) => t.endsWith('.css'));
  assert.ok(sheets.length > 0, 'the package exports its reserve stylesheet');
  for (const sheet of sheets) assert.ok(manifest.sideEffects.includes(sheet), `${sheet} is not in sideEffects`);
  assert.ok(manifest.sideEffects.includes(manifest.exports['.'].default), 'the loader defines the element');
});
