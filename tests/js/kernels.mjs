// The wasm module in Node for the unit tests: its CPU mirror (Playground.createCpu)
// gives real traces, and layout() the kernels' constants that www/core/layout.js
// holds in the page. (Not a test file.) Needs www/pkg/, which the build writes.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { initLayout } from '../../www/core/layout.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const wasm = await import(path.join(ROOT, 'www', 'pkg', 'compaction_playground.js'));
wasm.initSync({ module: readFileSync(path.join(ROOT, 'www', 'pkg', 'compaction_playground_bg.wasm')) });
initLayout(wasm);

/** A CPU playground holding `flags`. */
export function cpu(flags) {
  const pg = wasm.Playground.createCpu();
  pg.setFlags(new Uint32Array(flags));
  return pg;
}
