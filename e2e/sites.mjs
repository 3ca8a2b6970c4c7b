// What the site tests (e2e/sites*.test.mjs) share: the generators' installs,
// the recipe's files written from docs/embedding.md, a static server per
// built site, pages opened as a reader would, and what a page is checked for
// (the answer, the host's styles, keys, layout shift). (Not a test file.)

import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { launchBrowser, newLoggedPage, startServer, REPO_ROOT } from './browser.mjs';
import { compact, fnv1a } from './oracle.mjs';
import { READY_MS, ready, idle } from './helpers.mjs';
import { siteFiles } from './docs.mjs';
import { scheduleCases } from '../www/panels/kernel/harness.js';
import { hostStyles, styleDifferences } from './host.mjs';

export const run = promisify(execFile);
/** Where scripts/setup.sh installs the generators. */
export const TOOLS = path.join(REPO_ROOT, 'target', 'docs-tools');
export const ARTICLE = [1, 0, 0, 1, 1, 0, 1, 0, 0, 1];
export const ARTICLE_HASH = fnv1a(compact(ARTICLE));
/** What every recipe's first page shows once it has run on the GPU. */
export const ARTICLE_RESULT = { hash: ARTICLE_HASH, count: 5, backend: 'gpu', method: 'scan' };
/** The most layout shift a recipe's page may have with the element above the fold (issue 39: zero by default). */
export const MAX_SHIFT = 0.01;

/** The browser, a scratch folder and (with `pack`) the packed package of this file's tests. */
export const kit = { browser: null, work: '', tarball: '', servers: [] };

/** Registers the file's set-up and tear-down. */
export function useSites({ pack = false } = {}) {
  before(async () => {
    kit.work = await mkdtemp(path.join(os.tmpdir(), 'compaction-sites-'));
    if (pack) {
      const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', kit.work], { cwd: REPO_ROOT });
      kit.tarball = path.join(kit.work, JSON.parse(stdout.slice(stdout.indexOf('[')))[0].filename);
    }
    kit.browser = await launchBrowser({ webgpu: true });
  });
  after(async () => {
    await kit.browser?.close();
    for (const s of kit.servers) {
      s.server.closeAllConnections();
      await new Promise((r) => s.server.close(r));
    }
    if (kit.work) await rm(kit.work, { recursive: true, force: true });
  });
}

/** Writes the doc's files of `prefix` into `dir`. */
export async function writeSite(prefix, dir) {
  for (const [rel, text] of Object.entries(await siteFiles(prefix))) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
}

/**
 * The site's node_modules as an author's install would have them: the
 * generator's packages from the set-up's install (`tool`, a folder of
 * target/docs-tools), the package from the tarball.
 */
export async function installPackage(dir, tool) {
  const modules = path.join(dir, 'node_modules');
  await mkdir(modules, { recursive: true });
  for (const dep of await readdir(path.join(TOOLS, tool, 'node_modules'))) {
    if (dep !== 'compaction-playground') await symlink(path.join(TOOLS, tool, 'node_modules', dep), path.join(modules, dep));
  }
  await mkdir(path.join(modules, 'compaction-playground'));
  await run('tar', ['-xzf', kit.tarball, '-C', path.join(modules, 'compaction-playground'), '--strip-components=1']);
}

/**
 * The generator's install itself as the site's folder (target/docs-tools/<tool>),
 * for a generator that needs its packages in the site's own node_modules, by
 * their real paths (Astro's build fails on symlinked ones, or hoisted above the
 * site): the package from the tarball put there, the last site's files removed.
 */
export async function siteInTool(tool, leftovers) {
  const dir = path.join(TOOLS, tool);
  for (const f of leftovers) await rm(path.join(dir, f), { recursive: true, force: true });
  const into = path.join(dir, 'node_modules', 'compaction-playground');
  await rm(into, { recursive: true, force: true });
  await mkdir(into);
  await run('tar', ['-xzf', kit.tarball, '-C', into, '--strip-components=1']);
  return dir;
}

/** Serves `root` statically; returns its URL. */
export async function serve(root) {
  const s = await startServer({ port: 0, root });
  kit.servers.push(s);
  return s.url;
}

/** Opens `url`; `block` keeps the loader from loading (the page as it is without the element's code). */
export async function open(url, { block = false, viewport = { width: 1200, height: 900 }, init = null } = {}) {
  const { page, log } = await newLoggedPage(kit.browser);
  page.setDefaultTimeout(READY_MS);
  await page.setViewportSize(viewport);
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  if (block) await page.route(/compaction-playground(\.[\w-]+)?\.js$/, (route) => route.abort());
  if (init) await page.addInitScript(init);
  await page.goto(url);
  return { page, log, fetched };
}

/** The product's files a page fetched (by name): the loader, the chunks, the wasm (the reserve sheet apart: every recipe's page has it). */
export const product = (fetched) =>
  fetched
    .map((p) => path.basename(p))
    .filter((f) => /^(compaction-playground|cp-|compaction_playground)/.test(f))
    .filter((f) => !/^compaction-playground-reserve.*\.css$/.test(f));

export const results = (page) =>
  page.evaluate(() => [...document.querySelectorAll('compaction-playground')].map((e) => ({ hash: e.result?.hash, count: e.result?.count, backend: e.backend, method: e.method })));

/**
 * Waits until every element of the page has its answer from the GPU (not the
 * start's CPU one), and still has it half a second later: a router may put
 * the page in twice (from its cache, then as fetched).
 */
export async function onGpu(page) {
  const answered = () =>
    page.waitForFunction(() => {
      const all = [...document.querySelectorAll('compaction-playground')];
      return all.length > 0 && all.every((e) => e.isReady && e.result?.backend === 'gpu');
    });
  await answered();
  await page.waitForTimeout(500);
  await answered();
}

/**
 * The recipe's exercise page: the starting text (a file named by kernel-src, or
 * the inline script) spliced into the shipped scan_block in place of its step,
 * the rest as shipped, and a check that runs on the GPU and fails on the TODO.
 */
export async function exercise(url) {
  const { page, log } = await open(url, { viewport: { width: 1200, height: 1600 } });
  try {
    await ready(page);
    const source = await page.evaluate(() => document.querySelector('compaction-playground').kernelSource);
    assert.match(source, /fn step\(li : u32, offset : u32\) \{\n {2}\/\/ Read tmp\[li\]/, `${url}: the starting text`);
    assert.match(source, /fn publish\(/, `${url}: the rest of scan_block`);
    const report = await page.evaluate(() => document.querySelector('compaction-playground').check());
    // The exercise's 4 sizes, two patterns each, then the schedule cases every check runs.
    assert.deepEqual([report.verdict, report.total], ['failed', 8 + scheduleCases().length], `${url}: ${JSON.stringify(report)} ${log.join('\n')}`);
  } finally {
    await page.close();
  }
}

/** The host's styles with the element's code blocked and loaded: no difference. */
export async function sameHostStyles(url, started = ready) {
  const bare = await open(url, { block: true });
  const full = await open(url);
  try {
    await bare.page.waitForLoadState('networkidle');
    await started(full.page);
    await idle(full.page);
    const differences = styleDifferences(await bare.page.evaluate(hostStyles), await full.page.evaluate(hostStyles));
    assert.deepEqual(differences, [], `${url}: the host's styles changed`);
    return full;
  } finally {
    await bare.page.close();
  }
}

/**
 * Clicks the page's link whose href ends with `end`, waits for that page
 * (`atThere(page)` runs on it), goes back, and waits for the GPU's answer again.
 * Returns whether the page stayed loaded (a client-side navigation, not a full load).
 */
export async function thereAndBack(page, end, atThere = async () => {}) {
  await page.evaluate(() => {
    window.__stayed = true;
  });
  await page.evaluate((e) => [...document.querySelectorAll('a')].find((a) => a.getAttribute('href')?.endsWith(e)).click(), end);
  await page.waitForFunction((e) => location.pathname.endsWith(e), end);
  await atThere(page);
  await page.goBack();
  await onGpu(page);
  return page.evaluate(() => window.__stayed === true);
}

/** Sets the site's dark theme as its switch does (`set`, run in the page) and waits for the element to follow. */
export async function followsDark(page, set) {
  await page.evaluate(set);
  await page.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'dark');
}

/** Presses `keys` with the focus on `selector` (inside the element), and says whether the page stayed where it was. */
export async function pressInside(page, selector, keys) {
  const before = page.url();
  await page.focus(selector);
  for (const k of keys) await page.keyboard.press(k);
  await page.waitForTimeout(400);
  return page.url() === before;
}

/**
 * Collects the page's layout shifts from its first paint (an init script:
 * before any of the page's own), each marked `ours` when the element can have
 * caused it: a node moved is the element, inside it (a shadow root's nodes are
 * not named), or after it in the page. A site's own shift above or beside it
 * (Starlight's right sidebar, placed once its CSS is in, with the element's
 * code blocked as well) is not the element's.
 */
function recordShifts() {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    const el = document.querySelector('compaction-playground');
    const after = (node) => !node || node === el || el?.contains(node) || (el && !node.contains(el) && el.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING);
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      const sources = e.sources ?? [];
      const nodes = sources.map((s) => `${s.node?.nodeName ?? '(in a shadow root)'}${s.node?.className ? `.${s.node.className}` : ''} ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)}`);
      window.__shifts.push({ value: e.value, at: Math.round(e.startTime), nodes, ours: sources.length === 0 || sources.some((s) => after(s.node)) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * Loads `url` as a reader arrives (a 1200 × 900 window, the element above the
 * fold), waits until every element has its GPU answer and a while more, and
 * asserts that the page's cumulative layout shift is at most MAX_SHIFT.
 * Returns it. Call it once the site has been served once (a cold first load
 * of the server is not what is measured).
 */
export async function assertNoShift(url) {
  const { page, log } = await open(url, { init: recordShifts });
  try {
    // The first element's answer (a later one may be a poster that waits for its Run).
    await page.waitForFunction(() => document.querySelector('compaction-playground')?.result?.backend === 'gpu');
    await idle(page);
    await page.waitForTimeout(500);
    const top = await page.$eval('compaction-playground', (e) => e.getBoundingClientRect().top);
    assert.ok(top < 900, `${url}: the element is below the fold (top ${top}), so the test measures nothing`);
    const shifts = await page.evaluate(() => window.__shifts);
    const sum = (list) => list.reduce((total, s) => total + s.value, 0);
    const cls = sum(shifts.filter((s) => s.ours));
    const site = shifts.filter((s) => !s.ours);
    console.log(`${url}: cumulative layout shift ${cls.toFixed(4)}${site.length ? ` (and the site's own, above or beside the element: ${sum(site).toFixed(4)})` : ''}`);
    assert.ok(cls <= MAX_SHIFT, `${url}: cumulative layout shift ${cls.toFixed(4)} > ${MAX_SHIFT}: ${JSON.stringify(shifts)}\n${log.join('\n')}`);
    return cls;
  } finally {
    await page.close();
  }
}
