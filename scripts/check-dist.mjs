#!/usr/bin/env node
// `npm pack` runs this first (prepack): the package is dist/, so refuse to pack
// a dist/ that is missing or older than what it is built from. `npm run build` makes it.

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ELEMENT_FILES, PAGE_FILES } from './dist-files.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = [...ELEMENT_FILES, ...PAGE_FILES];

async function newest(dir) {
  let t = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? await newest(p) : (await fs.stat(p)).mtimeMs);
  }
  return t;
}

let built = Infinity;
for (const f of DIST) {
  const stat = await fs.stat(path.join(ROOT, 'dist', f)).catch(() => null);
  if (!stat) {
    console.error(`check-dist: dist/${f} is missing: run \`npm run build\` before \`npm pack\``);
    process.exit(1);
  }
  built = Math.min(built, stat.mtimeMs);
}
const sources = Math.max(await newest(path.join(ROOT, 'www')), (await fs.stat(path.join(ROOT, 'index.html'))).mtimeMs);
if (sources > built) {
  console.error('check-dist: www/ or index.html changed after dist/ was built: run `npm run build` before `npm pack`');
  process.exit(1);
}
console.log('check-dist: dist/ is complete and up to date');
