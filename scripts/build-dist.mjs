#!/usr/bin/env node
// dist/: what a documentation site copies or installs, from www/ and the wasm
// package that scripts/build-web.sh wrote to www/pkg/.
//
//   compaction-playground.js   the loader, all a page without a playground downloads: defines the element
//   cp-mount.js, cp-engine.js  the playground and the kernels' loader, fetched when an element is about to be seen
//   cp-<name>-<hash>.js        their chunks: one per panel, one per language, the wasm-bindgen glue, shared code
//   compaction_playground_bg.wasm  the kernels, optimised with binaryen's wasm-opt
//   compaction-playground-reserve.css  optional host-page rule: the element's size before any script ran
//   compaction-playground.d.ts the element's and the JS API's types
//   index.html, page.css, page.js  the full page
//   embed.html, embed.css, embed.js  the iframe route (embed.html#<state>)
//
// The element's styles are inside its modules (CSS text, adopted as
// constructable sheets), so no bundler sees a stylesheet to put on the site.
// Every URL inside is relative (import.meta.url), so dist/ works copied under
// any sub-path of any static host. Prints every file's gzip size and what a
// page fetches for each panel, and fails past the budgets.
//
//   node scripts/build-dist.mjs [--out DIR] [--no-wasm-opt]

import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

import * as esbuild from 'esbuild-wasm';

import { COURSE_BUDGET, EDITING_BUDGET, GZIP_BUDGET, LOADER_BUDGET, PANEL_BUDGET, ELEMENT_FILES, PAGE_FILES, fetchedFor, fetchedWhileEditing } from './dist-files.mjs';
import { reserveCss } from '../www/loader/reserve-css.js';
import { PANELS, COURSE, COURSE_KERNEL } from '../www/core/panels.js';

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
const WASM_OPT = !process.argv.includes('--no-wasm-opt');

async function exists(p) {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/** Replaces each `from` in `text`, failing if one is missing (the sources moved). */
function rewrite(text, pairs, file) {
  for (const [from, to] of pairs) {
    if (!text.includes(from)) die(`${file} no longer contains ${JSON.stringify(from)}; update scripts/build-dist.mjs`);
    text = text.split(from).join(to);
  }
  return text;
}

/** Imports of other built files stay imports, of the file's name in dist/ (`{ 'www/…/x.js': './x.js' }`). */
function builtAs(map) {
  return {
    name: 'built-as',
    setup(build) {
      build.onResolve({ filter: /\.js$/ }, (args) => {
        if (!args.importer) return undefined;
        const target = path.relative(ROOT, path.resolve(args.resolveDir, args.path));
        return map[target] ? { path: map[target], external: true } : undefined;
      });
    },
  };
}

const COMMON = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  // The element's styles: CSS text in its modules, adopted as constructable sheets.
  loader: { '.css': 'text' },
  logLevel: 'warning',
  metafile: true,
};

/** The element's CSS text minified as it is inlined (its comments are for the sources, not for every reader's download). */
const minifiedCss = {
  name: 'minified-css',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async (args) => {
      const { code } = await esbuild.transform(await fs.readFile(args.path, 'utf8'), { loader: 'css', minify: true });
      return { contents: code, loader: 'text' };
    });
  },
};

async function build(options) {
  const result = await esbuild.build({ ...COMMON, ...options, plugins: [minifiedCss, ...(options.plugins ?? [])] });
  if (result.errors.length) die(`esbuild failed for ${JSON.stringify(options.entryPoints)}`);
  return result.metafile;
}

async function optimiseWasm(input, output) {
  if (!WASM_OPT) {
    await fs.copyFile(input, output);
    return;
  }
  const wasmOpt = path.join(ROOT, 'node_modules', '.bin', 'wasm-opt');
  if (!(await exists(wasmOpt))) die('node_modules/.bin/wasm-opt missing: run `npm ci` (binaryen is a devDependency)');
  const t0 = Date.now();
  // -Oz: size first; the kernels run on the GPU, this is the glue around them.
  // Features are detected from the module's target_features section.
  // Flattened and re-relooped before -Oz: 0.5 % smaller gzip than -Oz alone (a panel's budget is 200 KiB, the wasm 146).
  await promisify(execFile)(wasmOpt, ['--flatten', '--rereloop', '-Oz', '-Oz', '--strip-debug', '--strip-producers', input, '-o', output], { maxBuffer: 1 << 24 });
  const [a, b] = await Promise.all([fs.stat(input), fs.stat(output)]);
  log(`wasm-opt -Oz: ${kib(a.size)} -> ${kib(b.size)} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

/**
 * The chunk graph of the playground's build: for each output file, the files
 * it imports statically, and which output holds each panel and language.
 */
function graphOf(metafile) {
  const files = {};
  const entries = {};
  for (const [out, info] of Object.entries(metafile.outputs)) {
    if (!out.endsWith('.js')) continue;
    const name = path.basename(out);
    files[name] = info.imports.filter((i) => i.kind === 'import-statement').map((i) => path.basename(i.path));
    if (info.entryPoint) entries[info.entryPoint] = name;
  }
  return { files, entries };
}

async function main() {
  const t0 = Date.now();
  for (const f of ['compaction_playground.js', WASM]) {
    if (!(await exists(path.join(PKG, f)))) die(`www/pkg/${f} missing: run scripts/build-web.sh first`);
  }
  await fs.rm(OUT, { recursive: true, force: true });
  await fs.mkdir(OUT, { recursive: true });

  // The loader, one file on its own: what every page of a docs site pays.
  await build({
    entryPoints: { 'compaction-playground': path.join(WWW, 'loader', 'loader.js') },
    outdir: OUT,
    plugins: [builtAs({ 'www/playground/mount.js': './cp-mount.js', 'www/core/engine.js': './cp-engine.js' })],
  });
  // The playground, fetched once an element is about to be seen, split into a
  // chunk per panel and per language; the flat layout keeps the wasm beside
  // every chunk (new URL('./compaction_playground_bg.wasm', import.meta.url)).
  const playground = await build({
    entryPoints: { 'cp-mount': path.join(WWW, 'playground', 'mount.js'), 'cp-engine': path.join(WWW, 'core', 'engine.js') },
    outdir: OUT,
    splitting: true,
    chunkNames: 'cp-[name]-[hash]',
  });
  // The full page's and the iframe route's own scripts.
  await build({ entryPoints: { page: path.join(WWW, 'page', 'page.js') }, outdir: OUT });
  await build({ entryPoints: { embed: path.join(WWW, 'embed', 'embed.js') }, outdir: OUT, plugins: [builtAs({ 'www/loader/loader.js': './compaction-playground.js' })] });
  log('bundled the loader, the playground (a chunk per panel and language), page.js and embed.js');

  for (const f of ['page/page.css', 'embed/embed.css', 'embed/embed.html']) await fs.copyFile(path.join(WWW, f), path.join(OUT, path.basename(f)));
  await fs.copyFile(path.join(ROOT, 'types', 'compaction-playground.d.ts'), path.join(OUT, 'compaction-playground.d.ts'));
  await fs.writeFile(path.join(OUT, 'compaction-playground-reserve.css'), reserveCss());
  const index = await fs.readFile(path.join(ROOT, 'index.html'), 'utf8');
  await fs.writeFile(path.join(OUT, 'index.html'), rewrite(index, [['"dist/', '"']], 'index.html'));

  await optimiseWasm(path.join(PKG, WASM), path.join(OUT, WASM));

  const written = (await fs.readdir(OUT)).sort();
  const missing = [...ELEMENT_FILES, ...PAGE_FILES].filter((f) => !written.includes(f));
  if (missing.length) die(`dist/ lacks ${missing.join(', ')}`);
  const gzip = {};
  let total = 0;
  const rows = [];
  for (const f of written) {
    const data = await fs.readFile(path.join(OUT, f));
    gzip[f] = gzipSync(data, { level: 9 }).length;
    total += gzip[f];
    rows.push(`  ${f.padEnd(36)} ${kib(data.length).padStart(11)}  gzip ${kib(gzip[f]).padStart(10)}`);
  }
  console.log(rows.join('\n'));

  // What a page fetches (gzip, level 9): the docs quote these lines (docs/embedding.md), a test measures them.
  const graph = graphOf(playground);
  await fs.mkdir(path.join(ROOT, 'target'), { recursive: true });
  await fs.writeFile(path.join(ROOT, 'target', 'dist-graph.json'), `${JSON.stringify(graph, null, 2)}\n`);
  const sum = (files) => files.reduce((s, f) => s + gzip[f], 0);
  const lines = [['a page with no element (the loader)', sum(['compaction-playground.js']), LOADER_BUDGET]];
  // The course is no value of `panels`: an element with a course attribute shows it, and the kernel panel with it.
  const listed = PANELS.filter((p) => p !== COURSE);
  for (const p of listed) lines.push([`one element, panels="${p}"`, sum(fetchedFor(graph, [p])), PANEL_BUDGET]);
  lines.push(['one element, panels="kernel", editing', sum(fetchedWhileEditing(graph)), EDITING_BUDGET]);
  lines.push(['one element with a course (and its kernel panel)', sum(fetchedFor(graph, [COURSE, COURSE_KERNEL])), COURSE_BUDGET]);
  lines.push(['one element, every panel', sum(fetchedFor(graph, listed)), null]);
  console.log('what a page fetches, gzip:');
  for (const [what, bytes, budget] of lines) console.log(`  ${what.padEnd(40)} ${kib(bytes).padStart(10)}${budget ? ` (budget ${kib(budget)})` : ''}`);
  log(`dist/ is ${kib(total)} gzip (budget ${kib(GZIP_BUDGET)}), built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (total > GZIP_BUDGET) die(`dist/ is over its gzip budget by ${kib(total - GZIP_BUDGET)}`);
  // (--no-wasm-opt is for quick rebuilds while working on the pages: its wasm is not what ships.)
  if (WASM_OPT) for (const [what, bytes, budget] of lines) if (budget && bytes > budget) die(`${what}: ${kib(bytes)} is over its budget of ${kib(budget)}`);
}

await main();
