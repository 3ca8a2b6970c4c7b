// The recipes of docs/embedding.md, as a docs author follows them: real MkDocs
// Material, VitePress (build and dev) and mdBook sites, and a plain HTML one,
// built from the very files of that page (e2e/docs.mjs), with the packed
// package or dist/, then checked in Chromium: the right answer, the site's
// styles unchanged, the site's own key bindings untouched by keys used inside
// the element, a page without an element paying the loader alone, client-side
// navigation, the site's dark switch, the iframe sized by its content, and each
// recipe's exercise (its starting text from a file, or inline in plain HTML),
// and no layout shift on a page with the element above the fold. The other
// generators: e2e/sites-js.test.mjs (Docusaurus, Starlight) and
// e2e/sites-py.test.mjs (Zensical, Sphinx). The generators are installed by
// scripts/setup.sh (target/docs-tools/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

import { TEST_TIMEOUT, ready } from './helpers.mjs';
import { siteFiles } from './docs.mjs';
import { DIST } from './site.mjs';
import {
  ARTICLE_HASH,
  ARTICLE_RESULT,
  TOOLS,
  assertNoShift,
  exercise,
  installPackage,
  kit,
  onGpu,
  open,
  pressInside,
  product,
  results,
  run,
  sameHostStyles,
  serve,
  useSites,
  writeSite,
} from './sites.mjs';

const MKDOCS = path.join(TOOLS, 'venv', 'bin', 'mkdocs');
const MDBOOK = process.env.MDBOOK ?? path.join(TOOLS, 'bin', 'mdbook');
const VITEPRESS = path.join(TOOLS, 'vitepress');
/** A terminal colour code. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

useSites({ pack: true });

test('MkDocs Material: the recipe builds, the element answers, and the site keeps its styles, keys, instant navigation and palette', { timeout: TEST_TIMEOUT }, async () => {
  const dir = path.join(kit.work, 'mkdocs');
  await writeSite('mkdocs', dir);
  await cp(DIST, path.join(dir, 'docs', 'assets', 'playground'), { recursive: true });
  await run(MKDOCS, ['build', '--strict', '-q', '-d', 'site'], { cwd: dir, env: { ...process.env, NO_MKDOCS_2_WARNING: '1' } });
  const url = await serve(path.join(dir, 'site'));
  await exercise(`${url}exercise/`);
  await assertNoShift(url);

  // A page without a playground: the loader and nothing more.
  const culling = await open(`${url}culling/`);
  await culling.page.waitForLoadState('networkidle');
  assert.deepEqual(product(culling.fetched), ['compaction-playground.js']);
  // Material's own keys work from the page: `p` goes to the previous page.
  await culling.page.locator('article h1').click();
  await culling.page.keyboard.press('p');
  await culling.page.waitForURL(`${url}`);
  await culling.page.close();

  const { page, log } = await sameHostStyles(url);
  try {
    assert.deepEqual(await results(page), [ARTICLE_RESULT], log.join('\n'));
    // Inside the element, `p` plays the stepper, `n` and `/` go into the flags box: Material neither pages nor searches.
    assert.ok(await pressInside(page, 'compaction-playground >> [data-testid="step-forward"]', ['p', 'p']), 'p inside the element changed page');
    assert.ok(await pressInside(page, 'compaction-playground >> [data-testid="flag-text"]', ['n', '.', '/', 's']), 'keys typed in the element reached Material');
    assert.equal(await page.evaluate(() => document.activeElement?.localName), 'compaction-playground', 'the search did not take the focus');
    // The iframe of the recipe, sized by its content.
    await page.waitForFunction(() => Number(document.querySelector('iframe[data-compaction-playground]').height) !== 600);
    // The palette switch: the element follows.
    await page.click('label[for="__palette_1"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'dark');
    // Instant navigation there and back: one definition, the element again with its answer.
    // (Material's sidebar link, clicked as a reader would; its instant loading takes over.)
    await page.evaluate(() => document.querySelector('a.md-nav__link[href$="culling/"]').click());
    await page.waitForFunction(() => location.pathname.endsWith('/culling/'));
    await page.goBack();
    // The element put back by the router: ready, and its result the GPU's (not the start's CPU answer),
    // still so half a second later (a router may put the page in twice).
    await onGpu(page);
    assert.deepEqual(await results(page), [ARTICLE_RESULT]);
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await page.close();
  }
});

/** A free port on the loopback. */
function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

test('VitePress: `vitepress build` and `vitepress dev` with the package installed; no style, key or search of the site disturbed', { timeout: TEST_TIMEOUT }, async () => {
  const dir = path.join(kit.work, 'vitepress');
  await writeSite('vitepress', dir);
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'docs', private: true, type: 'module' }));
  // VitePress itself from the set-up's install; the package from the tarball, as an author installs it.
  await installPackage(dir, 'vitepress');
  const vitepress = path.join(VITEPRESS, 'node_modules', 'vitepress', 'bin', 'vitepress.js');
  await run(process.execPath, [vitepress, 'build', 'docs'], { cwd: dir });
  const built = path.join(dir, 'docs', '.vitepress', 'dist');
  // The site's stylesheet is its own: nothing of the element's went into it but the author's mapping.
  const url = await serve(built);
  await exercise(`${url}exercise.html`);
  await assertNoShift(url);

  const culling = await open(`${url}culling.html`);
  await culling.page.waitForLoadState('networkidle');
  // The loader is inside the site's own bundle here: a page without an element fetches no chunk of the playground and no wasm.
  const extra = culling.fetched.map((p) => path.basename(p)).filter((f) => /^cp-|\.wasm$/.test(f));
  assert.deepEqual(extra, [], 'a page without an element fetched the playground');
  await culling.page.close();

  const { page, log } = await sameHostStyles(url);
  try {
    assert.deepEqual(await results(page), [ARTICLE_RESULT], log.join('\n'));
    // `/` in the flags box stays there: VitePress' search does not open.
    assert.ok(await pressInside(page, 'compaction-playground >> [data-testid="flag-text"]', ['/', 'k']));
    assert.equal(await page.locator('.VPLocalSearchBox').count(), 0, 'the site search opened');
    // From the page, `/` opens it: the binding exists.
    await page.locator('h1').first().click();
    await page.keyboard.press('/');
    await page.waitForSelector('.VPLocalSearchBox');
    await page.keyboard.press('Escape');
    // Client-side navigation there and back.
    await page.locator('main').getByRole('link', { name: 'culling', exact: true }).click();
    await page.waitForFunction(() => location.pathname.includes('culling'));
    await page.goBack();
    // The element put back by the router: ready, and its result the GPU's (not the start's CPU answer),
    // still so half a second later (a router may put the page in twice).
    await onGpu(page);
    assert.deepEqual(await results(page), [ARTICLE_RESULT]);
    // The dark switch (in the menu at this width): what it does, <html class="dark">.
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await page.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'dark');
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await page.close();
  }

  // The dev server, with the recipe's one line of Vite config.
  const port = await freePort();
  const dev = spawn(process.execPath, [vitepress, 'dev', 'docs', '--port', String(port), '--strictPort'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  try {
    await new Promise((resolve, reject) => {
      let said = '';
      const timer = setTimeout(() => reject(new Error(`vitepress dev did not start: ${said}`)), 60_000);
      const hear = (d) => {
        // (Without the colours VitePress puts around the port.)
        said += String(d).replace(ANSI, '');
        if (said.includes(`:${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      dev.stdout.on('data', hear);
      dev.stderr.on('data', hear);
    });
    const { page: devPage, log: devLog } = await open(`http://localhost:${port}/`);
    try {
      await ready(devPage);
      assert.deepEqual(await results(devPage), [ARTICLE_RESULT], devLog.join('\n'));
    } finally {
      await devPage.close();
    }
  } finally {
    dev.kill();
  }
});

test('mdBook: the loader found from the book’s root in a nested chapter; arrows inside the element do not turn the page', { timeout: TEST_TIMEOUT }, async () => {
  const dir = path.join(kit.work, 'mdbook');
  await writeSite('mdbook', dir);
  await cp(DIST, path.join(dir, 'src', 'playground'), { recursive: true });
  await run(MDBOOK, ['build'], { cwd: dir });
  const url = await serve(path.join(dir, 'book'));
  await exercise(`${url}exercise.html`);
  await assertNoShift(`${url}compaction.html`);
  await assertNoShift(`${url}scan/scan.html`);

  const culling = await open(`${url}culling.html`);
  await culling.page.waitForLoadState('networkidle');
  assert.deepEqual(product(culling.fetched), ['compaction-playground.js']);
  // mdBook turns pages with the arrows, from the page.
  await culling.page.locator('main h1').click();
  await culling.page.keyboard.press('ArrowLeft');
  await culling.page.waitForURL(/scan\/scan\.html$/);
  await culling.page.close();

  const { page, log } = await sameHostStyles(`${url}scan/scan.html`);
  try {
    assert.deepEqual(await results(page), [ARTICLE_RESULT], log.join('\n'));
    assert.ok(await pressInside(page, 'compaction-playground >> [data-testid="step-forward"]', ['ArrowRight', 'ArrowLeft', 'ArrowRight']), 'an arrow inside the element turned the page');
    assert.equal(await page.$eval('compaction-playground', (e) => e.step), 2);
    // mdBook's dark themes: the element follows.
    await page.evaluate(() => {
      document.documentElement.classList.replace('light', 'navy');
    });
    await page.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'dark');
  } finally {
    await page.close();
  }
  const top = await open(`${url}compaction.html`);
  try {
    await ready(top.page);
    assert.deepEqual(await results(top.page), [{ hash: ARTICLE_HASH, count: 5, backend: 'gpu', method: 'atomic' }]);
    assert.ok(await pressInside(top.page, 'compaction-playground >> [data-testid="flag-cell"] >> nth=0', ['ArrowRight', 'ArrowLeft']), 'an arrow in the flag grid turned the page');
  } finally {
    await top.page.close();
  }
});

test('plain HTML: the page and the iframe route of the recipe, the frame sized by its content and told the page’s theme', { timeout: TEST_TIMEOUT }, async () => {
  const dir = path.join(kit.work, 'plain');
  await writeSite('plain', dir);
  await cp(DIST, path.join(dir, 'playground'), { recursive: true });
  const iframeSnippet = (await siteFiles('plain'))['iframe.html'];
  await writeFile(path.join(dir, 'framed.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>framed</title></head><body><h1>Framed</h1>\n${iframeSnippet}</body></html>`);
  const url = await serve(dir);
  await exercise(`${url}exercise.html`);
  await assertNoShift(url);

  const first = (p) => p.waitForFunction(() => document.querySelector('compaction-playground').isReady && !document.querySelector('compaction-playground').busy);
  const { page, log } = await sameHostStyles(url, first);
  try {
    // The first answers; the second waits as a poster until asked.
    const shown = await results(page);
    assert.equal(shown[0].hash, ARTICLE_HASH, log.join('\n'));
    await page.click('compaction-playground[autorun="false"] >> [data-testid="poster-run"]');
    await ready(page);
    assert.equal((await results(page))[1].hash, ARTICLE_HASH);
  } finally {
    await page.close();
  }

  const framed = await open(`${url}framed.html`);
  try {
    const handle = await framed.page.waitForSelector('iframe');
    const frame = await handle.contentFrame();
    await ready(frame);
    // The host's script sized the frame to its content: nothing scrolls inside.
    await framed.page.waitForFunction(() => Number(document.querySelector('iframe').height) !== 900);
    const fit = await frame.evaluate(() => ({ scroll: document.documentElement.scrollHeight, view: innerHeight }));
    assert.ok(fit.scroll <= fit.view + 1, `the frame scrolls: ${fit.scroll} in ${fit.view}`);
    // The page turns dark: the frame is told.
    await framed.page.evaluate(() => {
      document.documentElement.style.colorScheme = 'dark';
      document.documentElement.dataset.theme = 'dark';
    });
    await frame.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'dark');
  } finally {
    await framed.page.close();
  }
});
