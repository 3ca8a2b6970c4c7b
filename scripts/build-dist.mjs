#!/usr/bin/env node
// dist/: what a documentation site copies or installs, from www/ and the wasm
// package that scripts/build-web.sh wrote to www/pkg/.
//
//   compaction-playground.js    one ES module: defines <compaction-playground>, exports kernels()
//   compaction-playground.css   the element's styles (loaded into its shadow root)
//   compaction_playground_bg.wasm  the kernels, optimised with binaryen's wasm-opt
//   index.html, page.css, page.js  the full page
//   embed.html, embed.css          the iframe route (embed.html#<state>)
//
// Every URL inside is relative (resolved from import.meta.url), so dist/ works
// copied under any sub-path of any static host. Prints the gzip size of
// everything and fails past the budget.
//
//   node scripts/build-dist.mjs [--out DIR]

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

import * as esbuild from 'esbuild-wasm';

import { STYLE_FILES } from '../www/styles.js';
import { GZIP_BUDGET, ELEMENT_FILES, PAGE_FILES } from './dist-files.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WWW = path.join(ROOT, 'www');
const PKG = path.join(WWW, 'pkg');
const WASM = 'compaction_playground_bg.wasm';

const log = (msg) => console.log(`build-dist: ${msg}`);
const die = (msg) => {
  console.error(`build-dist: ERROR: ${msg}`);
  process.exit(1);
};

const argOut = process.argv.indexOf('--out');
const OUT = argOut > 0 ? path.resolve(process.argv[argOut + 1]) : path.join(ROOT, 'dist');

async function exists(p) {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/** Replaces each `from` in `text` once, failing if one is missing (the sources moved). */
function rewrite(text, pairs, file) {
  for (const [from, to] of pairs) {
    if (!text.includes(from)) die(`${file} no longer contains ${JSON.stringify(from)}; update scripts/build-dist.mjs`);
    text = text.replace(from, to);
  }
  return text;
}

/** The bundle asks for one stylesheet, the concatenation of www/css/*. */
const bundledStyles = {
  name: 'bundled-styles',
  setup(build) {
    build.onLoad({ filter: /[\\/]www[\\/]styles\.js$/ }, () => ({
      contents: `export const STYLE_FILES = ['compaction-playground.css'];
export function styleUrls() { return [new URL('./compaction-playground.css', import.meta.url).href]; }`,
      loader: 'js',
    }));
  },
};

async function bundle(entry, outfile, plugins = []) {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    outfile,
    plugins,
    logLevel: 'warning',
  });
  if (result.errors.length) die(`esbuild failed for ${entry}`);
}

async function optimiseWasm(input, output) {
  const wasmOpt = path.join(ROOT, 'node_modules', '.bin', 'wasm-opt');
  if (!(await exists(wasmOpt))) die('node_modules/.bin/wasm-opt missing: run `npm ci` (binaryen is a devDependency)');
  const t0 = Date.now();
  // -Oz: size first; the kernels run on the GPU, this is the glue around them.
  // Features are detected from the module's target_features section.
  await promisify(execFile)(wasmOpt, ['-Oz', '--strip-debug', '--strip-producers', input, '-o', output], { maxBuffer: 1 << 24 });
  const [a, b] = await Promise.all([fs.stat(input), fs.stat(output)]);
  log(`wasm-opt -Oz: ${kib(a.size)} -> ${kib(b.size)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  const t0 = Date.now();
  for (const f of ['compaction_playground.js', WASM]) {
    if (!(await exists(path.join(PKG, f)))) die(`www/pkg/${f} missing: run scripts/build-web.sh first`);
  }
  await fs.rm(OUT, { recursive: true, force: true });
  await fs.mkdir(OUT, { recursive: true });

  await bundle(path.join(WWW, 'element.js'), path.join(OUT, 'compaction-playground.js'), [bundledStyles]);
  await bundle(path.join(WWW, 'page.js'), path.join(OUT, 'page.js'));
  log('bundled www/element.js -> compaction-playground.js, www/page.js -> page.js');

  const css = await Promise.all(STYLE_FILES.map((f) => fs.readFile(path.join(WWW, f), 'utf8')));
  await fs.writeFile(path.join(OUT, 'compaction-playground.css'), css.join('\n'));
  for (const f of ['page.css', 'embed.css']) await fs.copyFile(path.join(WWW, f), path.join(OUT, f));

  const index = await fs.readFile(path.join(ROOT, 'index.html'), 'utf8');
  await fs.writeFile(
    path.join(OUT, 'index.html'),
    rewrite(
      index,
      [
        ['href="www/page.css"', 'href="page.css"'],
        ['<link rel="modulepreload" href="www/pkg/compaction_playground.js">', `<link rel="preload" href="${WASM}" as="fetch" type="application/wasm" crossorigin>`],
        ['src="www/element.js"', 'src="compaction-playground.js"'],
        ['src="www/page.js"', 'src="page.js"'],
      ],
      'index.html',
    ),
  );
  const embed = await fs.readFile(path.join(WWW, 'embed.html'), 'utf8');
  await fs.writeFile(path.join(OUT, 'embed.html'), rewrite(embed, [['src="element.js"', 'src="compaction-playground.js"']], 'www/embed.html'));

  await optimiseWasm(path.join(PKG, WASM), path.join(OUT, WASM));

  const written = (await fs.readdir(OUT)).sort();
  const missing = [...ELEMENT_FILES, ...PAGE_FILES].filter((f) => !written.includes(f));
  if (missing.length) die(`dist/ lacks ${missing.join(', ')}`);
  let total = 0;
  const rows = [];
  for (const f of written) {
    const data = await fs.readFile(path.join(OUT, f));
    const gz = gzipSync(data, { level: 9 }).length;
    total += gz;
    rows.push(`  ${f.padEnd(34)} ${kib(data.length).padStart(11)}  gzip ${kib(gz).padStart(10)}`);
  }
  console.log(rows.join('\n'));
  log(`dist/ is ${kib(total)} gzip (budget ${kib(GZIP_BUDGET)}), built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (total > GZIP_BUDGET) die(`dist/ is over its gzip budget by ${kib(total - GZIP_BUDGET)}`);
}

await main();
