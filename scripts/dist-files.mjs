// What dist/ holds, how big it may be, and what a page fetches from it: used
// by the build (scripts/build-dist.mjs), by `npm pack`'s check and by the tests.

import { tablesFor } from '../www/i18n/tables.js';
import { builtFirst } from '../www/core/panels.js';

/** The gzip budget of all of dist/ (level 9), in bytes. */
export const GZIP_BUDGET = 600 * 1024;
/**
 * The loader: what every page of a site with the site-wide include pays. 8.5
 * KiB since issue 47: the reservation of every panel at eight widths from a
 * phone to a wide page (three before, measured in a sans-serif: on a phone in
 * a serif theme a stepper grew 20 em once loaded), +0.2 KiB.
 */
export const LOADER_BUDGET = 8.5 * 1024;
/**
 * One element showing one panel: everything it fetches, wasm included (150 KiB
 * of it). 204 since issue 25: the tile view, the largest panel, came to 200.5
 * with the accessibility (roving tab stops, announcements, print) and the
 * boundary's checks, after the element's CSS was minified to make room; 206
 * since runs are recorded in slices on software adapters (+2.1 KiB of wasm);
 * 208 with the library's checked encodes (Result, ties, length slots: +0.9 KiB);
 * 212 with issue 23's renderer capabilities, which the same wasm carries (the
 * caller's buffers, payload and per-mesh kernels, aliasing checks, the kernel
 * catalogue: +6.6 KiB of wasm), after the message tables were split per panel
 * (www/i18n/tables.js: a one-panel page no longer fetches the other panels'
 * words, 2.6 to 5.5 KiB): the tile view at 210.6 with issue 24's two-tile states.
 * 214 with the seams of issue 34: the wasm boundary's one backend (+0.6 KiB of
 * wasm, its calls boxed: inlined into every promise it was +2.1), the panels'
 * rows and typed context (+0.6 in the playground's chunk, +0.2 in the loader);
 * the tile view at 212.6. 216, the ceiling issue 35 sets for a page showing
 * one panel, with issue 39's guest fixes in the loader (a poster that follows
 * its attributes, a hidden host's element waiting, bounded links: +0.3) and
 * the offscreen image's one cap (+0.1 of wasm): the tile view at 214.1; at
 * 209.1 with issue 35's kernel boundary (+4.4 KiB of wasm) once the wasm
 * formatted no float (-9.8: numbers in messages are written by JS). 218 with
 * issue 47's truthful stepping: the scan's one body for its run and its trace
 * (the record files), slots and snapshots filled UNWRITTEN, the kernel facts'
 * appended files, every call on an engine holding a learner's kernel watched,
 * whose run the result says (+1.1 KiB, after the stepping room moved to a
 * chunk of its own, fetched with the first Step through it): the scan's
 * stepper at 216.6. 220 with issue 48's page on a real GPU: a large run
 * reads back its count and first indices at once and the rest on demand
 * (readRun, the kept compaction), a whole dispatch on its own grid in a slice,
 * the benchmark's density and why it used the wall clock, any global with
 * navigator.gpu (+1.9 KiB of wasm, +0.5 of the playground's chunk): the scan's
 * stepper at 219.0. 224 with issue 49's course: the schedule uniform and
 * the counts of a learner's run in the wasm (setSchedule, kernelCosts), the
 * kernel panel's schedule cases and costs (measure.js), the first damage of a
 * stepped run (damage.js): the kernel panel alone at 222.3, the scan's stepper
 * at 221.0; the course's own chunk only where an element has a course.
 * 228 with issue 47's captured built-ins: the glue reaches every property,
 * method and global through www/core/captured.js (scripts/harden-glue.mjs),
 * so that no page script patched later is handed the wasm's GPU objects or
 * memory (+2.9 KiB): the kernel panel alone at 225.2.
 */
export const PANEL_BUDGET = 228 * 1024;
/** An element with a course: the course's panel and the kernel panel it brings (issue 49: 240.6 KiB). */
export const COURSE_BUDGET = 244 * 1024;
/** A page showing the kernel panel while its editor (CodeMirror, fetched on the first Edit) is open. */
export const EDITING_BUDGET = 330 * 1024;

/** The files a documentation site needs: the loader, the playground's entries, the wasm, the iframe route. */
export const ELEMENT_FILES = [
  'compaction-playground.js',
  'cp-mount.js',
  'cp-engine.js',
  'compaction_playground_bg.wasm',
  'compaction-playground-reserve.css',
  'compaction-playground.d.ts',
  'embed.html',
  'embed.css',
  'embed.js',
];

/** The full page, beside them. */
export const PAGE_FILES = ['index.html', 'page.css', 'page.js'];

/** The modules whose chunks a page fetches, as esbuild names their entry points. */
export const MODULE = {
  mount: 'www/playground/mount.js',
  engine: 'www/core/engine.js',
  glue: 'www/pkg/compaction_playground.js',
  /** A message table of a language: `core`, or a panel's own (www/i18n/tables.js). */
  messages: (lang, table = 'core') => `www/i18n/${lang}/${table}.js`,
  panel: (panel) => `www/panels/${panel}/index.js`,
  /** The kernel panel's editor, its own chunk. */
  editor: 'www/panels/kernel/editor.js',
};

/**
 * The files of dist/ a page with one element showing `panels` fetches, in
 * `lang`, on the GPU with a method of the scan (the scan stepper, not the tile
 * view, when both are asked for). `graph`: target/dist-graph.json, the build's
 * `{ files: { name: [static imports] }, entries: { module: name } }`.
 */
export function fetchedFor(graph, panels, lang = 'en') {
  const wanted = new Set(['compaction-playground.js', 'compaction_playground_bg.wasm']);
  const add = (file) => {
    if (!file || wanted.has(file)) return;
    wanted.add(file);
    for (const dep of graph.files[file] ?? []) add(dep);
  };
  add(graph.entries[MODULE.mount]);
  add(graph.entries[MODULE.engine]);
  add(graph.entries[MODULE.glue]);
  const built = builtFirst(panels);
  for (const table of tablesFor(built)) add(graph.entries[MODULE.messages(lang, table)]);
  for (const p of built) add(graph.entries[MODULE.panel(p)]);
  return [...wanted];
}

/** `fetchedFor(graph, panels, lang)` once the kernel panel's editor is open too. */
export function fetchedWhileEditing(graph, panels = ['kernel'], lang = 'en') {
  const files = new Set(fetchedFor(graph, panels, lang));
  const add = (file) => {
    if (!file || files.has(file)) return;
    files.add(file);
    for (const dep of graph.files[file] ?? []) add(dep);
  };
  add(graph.entries[MODULE.editor]);
  return [...files];
}
