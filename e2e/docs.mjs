// The files of docs/embedding.md: every fenced block preceded by a
// `<!-- file: path[, path …] -->` line is a file a docs author writes, and the
// site tests build their sites from exactly these (so that the doc and the
// tests cannot drift). Also the fetched sizes the doc quotes. (Not a test file.)

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { REPO_ROOT } from './browser.mjs';

export const EMBEDDING = path.join(REPO_ROOT, 'docs', 'embedding.md');

/** `{ [path]: text }` of every marked block. */
export async function docFiles() {
  const text = await readFile(EMBEDDING, 'utf8');
  const files = {};
  const re = /^<!-- file: ([^>]+?) -->\n```[^\n]*\n([\s\S]*?)^```$/gm;
  for (const m of text.matchAll(re)) for (const p of m[1].split(',').map((s) => s.trim())) files[p] = m[2];
  return files;
}

/** The files of one site (`prefix/`), keyed by their path inside it. */
export async function siteFiles(prefix) {
  const files = await docFiles();
  const mine = Object.entries(files).filter(([p]) => p.startsWith(`${prefix}/`));
  if (!mine.length) throw new Error(`docs/embedding.md has no file of ${prefix}/`);
  return Object.fromEntries(mine.map(([p, text]) => [p.slice(prefix.length + 1), text]));
}

/** The sizes table: `[{ what, kib }]`, `what` the row's words (`panels="scan"`, `no element`, `every panel`). */
export async function quotedSizes() {
  const text = await readFile(EMBEDDING, 'utf8');
  const at = text.indexOf('<!-- sizes:');
  if (at < 0) throw new Error('docs/embedding.md has no sizes table');
  const rows = [];
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (!line.startsWith('|')) {
      if (rows.length) break;
      continue;
    }
    const m = /^\| (.+?) \| ([\d.]+) KiB \|$/.exec(line);
    if (m) rows.push({ what: m[1], kib: Number(m[2]) });
  }
  return rows;
}
