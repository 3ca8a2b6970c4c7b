// What a documentation author gets without a Rust toolchain: dist/ within its
// size budget, the npm package installed into a project of its own and
// imported, the iframe route (embed.html#<state>), and the full page's
// "Copy embed code", whose snippets reproduce what the page showed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

import { startServer, REPO_ROOT } from './browser.mjs';
import { compact, fnv1a } from './oracle.mjs';
import { READY_MS, TEST_TIMEOUT, ready, idle, results, hashMatching } from './helpers.mjs';
import { DIST } from './site.mjs';
import { GZIP_BUDGET, ELEMENT_FILES, PAGE_FILES } from '../scripts/dist-files.mjs';
import { useBrowser } from './fixture.mjs';

const run = promisify(execFile);
const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'">`;

const ctx = useBrowser({ site: true });

async function newPage(options = {}) {
  const context = await ctx.browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(READY_MS);
  const log = [];
  page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
  page.on('console', (m) => log.push(`[console.${m.type()}] ${m.text()}`));
  return { page, log, close: () => context.close() };
}

/** The frame of the page's iframe once it has loaded embed.html (lazy iframes load a little later). */
async function embedFrame(page) {
  const handle = await page.waitForSelector('iframe');
  await page.waitForFunction((iframe) => iframe.contentWindow?.location.href.includes('embed.html') && iframe.contentDocument?.readyState !== 'loading', handle);
  return handle.contentFrame();
}

/** What an element shows: its state, the panels on screen, its result. */
async function stateOf(target, selector = 'compaction-playground') {
  return target.$eval(selector, (e) => ({
    flags: e.flags,
    method: e.method,
    step: e.step,
    panels: [...e.shadowRoot.querySelectorAll('[data-panel]')].filter((c) => !c.hidden).map((c) => c.dataset.panel),
    theme: e.resolvedTheme,
    count: e.result?.count,
  }));
}

test('dist/ holds the element, its styles, the optimised wasm, the full page and embed.html, within the gzip budget', async () => {
  const files = (await readdir(DIST)).sort();
  for (const f of [...ELEMENT_FILES, ...PAGE_FILES]) assert.ok(files.includes(f), `dist/${f}`);
  let total = 0;
  for (const f of files) total += gzipSync(await readFile(path.join(DIST, f)), { level: 9 }).length;
  console.log(`dist/: ${files.length} files, ${(total / 1024).toFixed(1)} KiB gzip (budget ${(GZIP_BUDGET / 1024).toFixed(0)} KiB)`);
  assert.ok(total <= GZIP_BUDGET, `${total} bytes gzip > ${GZIP_BUDGET}`);
  // wasm-opt ran: smaller than what wasm-bindgen wrote.
  const [raw, opt] = await Promise.all([readFile(path.join(REPO_ROOT, 'www', 'pkg', 'compaction_playground_bg.wasm')), readFile(path.join(DIST, 'compaction_playground_bg.wasm'))]);
  assert.ok(opt.length < raw.length * 0.8, `optimised wasm ${opt.length} vs ${raw.length}`);
  // Only relative URLs: it works under any sub-path.
  for (const f of ['index.html', 'embed.html']) {
    assert.doesNotMatch(await readFile(path.join(DIST, f), 'utf8'), /(src|href)="\/(?!\/)/, `${f} has a root-relative URL`);
  }
});

test('npm pack gives a package that a docs project installs and imports as `compaction-playground`', { timeout: TEST_TIMEOUT }, async () => {
  const work = await mkdtemp(path.join(os.tmpdir(), 'compaction-pack-'));
  let server;
  let opened;
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: REPO_ROOT });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('[')));
    const names = packed.files.map((f) => f.path).sort();
    for (const f of ELEMENT_FILES) assert.ok(names.includes(`dist/${f}`), `the package has dist/${f}`);
    assert.ok(names.includes('docs/embedding.md') && names.includes('package.json'));
    assert.deepEqual(
      names.filter((n) => /^(src|www|e2e|scripts|shaders|tests)\//.test(n)),
      [],
      'only what a docs site needs',
    );

    const project = path.join(work, 'docs-site');
    await mkdir(project);
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'docs-site', version: '1.0.0', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--offline', path.join(work, packed.filename)], { cwd: project });
    // Node resolves the bare name and the subpaths through the package's exports.
    const require = createRequire(path.join(project, 'package.json'));
    const entry = require.resolve('compaction-playground');
    assert.equal(path.relative(project, entry), path.join('node_modules', 'compaction-playground', 'dist', 'compaction-playground.js'));
    for (const sub of ['compaction-playground/embed.html', 'compaction-playground/reserve.css', 'compaction-playground/package.json']) require.resolve(sub);
    // No stylesheet of the element's for a bundler to take as the site's: its styles are in its modules.
    assert.deepEqual(
      names.filter((n) => n.endsWith('.css') && !/^dist\/(page|embed|compaction-playground-reserve)\.css$/.test(n)),
      [],
    );
    // The package's types, as a TypeScript site sees them through `exports`: right uses compile, a wrong one does not.
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', target: 'es2022', lib: ['es2022', 'dom'], types: [] }, include: ['consumer.ts'] };
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    await writeFile(
      path.join(project, 'consumer.ts'),
      `import { kernels, type ResultDetail, type Method } from 'compaction-playground';
const el = document.createElement('compaction-playground');
el.method = 'lookback';
el.panels = 'scan result';
el.addEventListener('result', (e) => { const r: ResultDetail = e.detail; console.log(r.count + r.instanceCount, r.backend === 'gpu'); });
el.addEventListener('step', (e) => console.log(e.detail.view, e.detail.step));
await el.ready;
const count: number | undefined = el.result?.count;
const { Playground, layout } = await kernels();
const pg = await Playground.create((kind, message) => console.log(kind, message));
pg.setFlags(new Uint32Array([1, 0, 1]));
const m: Method = layout().methods[0].name;
const run = await pg.run(m);
const indices: Uint32Array = run.indices;
console.log(count, indices.length);
`,
    );
    await run(process.execPath, [tsc, '-p', project]);
    await writeFile(
      path.join(project, 'consumer.ts'),
      `import 'compaction-playground';\nconst el = document.createElement('compaction-playground');\nconst wrong: string = el.result!.count;\nconsole.log(wrong);\n`,
    );
    const refused = await run(process.execPath, [tsc, '-p', project]).then(
      () => null,
      (e) => e.stdout,
    );
    assert.match(refused ?? '', /consumer\.ts.*TS2322/, 'a wrong use of the types is an error');
    // A static site's server-side render imports it without a DOM: nothing breaks.
    const module = await import(entry);
    assert.equal(typeof module.kernels, 'function');

    // The browser imports it by that name (an import map, as a bundler-less docs site would).
    const url = `/${path.relative(project, entry).split(path.sep).join('/')}`;
    await writeFile(
      path.join(project, 'index.html'),
      `<!doctype html><title>docs</title>
<script type="importmap">{ "imports": { "compaction-playground": "${url}" } }</script>
<script type="module">import { kernels } from 'compaction-playground'; window.imported = typeof kernels;</script>
<compaction-playground flags="1011001" method="scan" panels="result"></compaction-playground>`,
    );
    server = await startServer({ port: 0, root: project });
    opened = await newPage();
    await opened.page.goto(server.url);
    await ready(opened.page).catch((e) => {
      throw new Error(`${e.message}\n${opened.log.join('\n')}`);
    });
    assert.equal(await opened.page.evaluate(() => window.imported), 'function');
    const r = await results(opened.page);
    assert.equal(r.backend, 'gpu', opened.log.join('\n'));
    assert.deepEqual(r.indices, compact([1, 0, 1, 1, 0, 0, 1]));
  } finally {
    await opened?.close();
    if (server) {
      server.server.closeAllConnections();
      await new Promise((r) => server.server.close(r));
    }
    await rm(work, { recursive: true, force: true });
  }
});

test('examples/plain-html works as written, with dist/ copied next to it', { timeout: TEST_TIMEOUT }, async () => {
  const example = path.join(REPO_ROOT, 'examples', 'plain-html');
  for (const f of await readdir(example)) await ctx.site.write(`docs/${f}`, await readFile(path.join(example, f), 'utf8'));
  await cp(DIST, path.join(ctx.site.dir, 'docs', 'playground'), { recursive: true });
  const { page, log, close } = await newPage();
  try {
    await page.goto(ctx.site.url('index.html'));
    await ready(page);
    await page.waitForFunction(() => /found 5 visible \(instanceCount 5/.test(document.getElementById('said').textContent));
    // Themed through its hooks only: --cp-accent reached the checked method, ::part(panel) the panels.
    const styled = await page.$eval('#demo', (e) => ({
      accent: getComputedStyle(e.shadowRoot.querySelector('.method:has(input:checked)')).borderColor,
      shadow: getComputedStyle(e.shadowRoot.querySelector('[data-panel="result"]')).boxShadow,
    }));
    assert.equal(styled.accent, 'rgb(138, 28, 74)');
    assert.match(styled.shadow, /rgba\(0, 0, 0, 0\.15\)/);
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await close();
  }
});

test('the iframe route: embed.html#<state> shows that state with the panels and theme asked for', { timeout: TEST_TIMEOUT }, async () => {
  const hash = 'flags=b10.WQI&method=lookback&step=3&panels=result%20tiles&theme=dark';
  const src = `${ctx.site.assetsUrl}embed.html#${hash}`;
  await ctx.site.write(
    'docs/guide/iframe.html',
    `<!doctype html><html lang="en"><head>${CSP}<title>iframe</title></head><body><h1>Docs</h1><iframe src="${src}" title="playground" width="900" height="900"></iframe></body></html>`,
  );
  const { page, log, close } = await newPage();
  try {
    await page.goto(ctx.site.url('guide/iframe.html'));
    const frame = await embedFrame(page);
    await ready(frame);
    const state = await stateOf(frame);
    assert.deepEqual(state, { flags: '1001101001', method: 'lookback', step: 3, panels: ['result', 'tiles'], theme: 'dark', count: 5 }, log.join('\n'));
    assert.equal((await results(frame)).hash, fnv1a([0, 3, 4, 6, 9]));
    // The route keeps its hash (panels and theme included) as the visitor steps.
    await frame.click('[data-testid="tiles-step-forward"]');
    await idle(frame);
    const kept = new URLSearchParams((await hashMatching(frame, /[#&]step=4(&|$)/)).slice(1));
    assert.deepEqual([kept.get('method'), kept.get('step'), kept.get('panels'), kept.get('theme')], ['lookback', '4', 'result tiles', 'dark']);
    assert.equal(page.url(), ctx.site.url('guide/iframe.html'), 'the host page URL is untouched');
  } finally {
    await close();
  }
});

test('"Copy embed code" on the full page gives an element and an iframe that reproduce its state', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log, close } = await newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    await page.goto(`${ctx.site.assetsUrl}index.html`);
    await ready(page);
    await page.fill('[data-testid="flag-text"]', '1 0 1 1 0 0 1 0 1');
    await page.click('[data-testid="flag-text-apply"]');
    await idle(page);
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    await page.click('[data-testid="tiles-step-forward"]');
    await page.click('[data-testid="tiles-step-forward"]');
    // Every panel but the result and the tile view unchecked.
    for (const box of await page.$$('.embed-panels input:not([value="result"]):not([value="tiles"])')) await box.uncheck();
    await page.click('[data-testid="copy-embed"]');
    await page.waitForFunction(() => /Copied/.test(document.querySelector('[data-testid="embed-status"]').textContent));
    const element = await page.inputValue('[data-testid="embed-element"]');
    const iframe = await page.inputValue('[data-testid="embed-iframe"]');
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(clipboard.includes(element) && clipboard.includes(iframe), 'both snippets were copied');
    const expected = { flags: '101100101', method: 'lookback', step: 3, panels: ['result', 'tiles'], count: 5 };

    // The element snippet, pasted into a docs page of the site.
    await ctx.site.write('docs/guide/pasted.html', `<!doctype html><html lang="en"><head>${CSP}<title>pasted</title></head><body><h1>Docs</h1>\n${element}\n</body></html>`);
    const pasted = await newPage();
    try {
      await pasted.page.goto(ctx.site.url('guide/pasted.html'));
      await ready(pasted.page);
      const { theme, ...state } = await stateOf(pasted.page);
      assert.deepEqual(state, expected, pasted.log.join('\n'));
      assert.ok(['light', 'dark'].includes(theme));
    } finally {
      await pasted.close();
    }
    // The iframe snippet.
    await ctx.site.write('docs/guide/framed.html', `<!doctype html><html lang="en"><head>${CSP}<title>framed</title></head><body>\n${iframe}\n</body></html>`);
    const framed = await newPage();
    try {
      await framed.page.goto(ctx.site.url('guide/framed.html'));
      const frame = await embedFrame(framed.page);
      await ready(frame);
      const { theme, ...state } = await stateOf(frame);
      assert.deepEqual(state, expected, framed.log.join('\n'));
    } finally {
      await framed.close();
    }
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await close();
  }
});
