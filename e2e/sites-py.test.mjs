// The recipes of docs/embedding.md for the Python generators, built from the
// very files of that page: Zensical (the MkDocs Material recipe as it is) and
// Sphinx with furo. Checked in Chromium as e2e/sites.test.mjs checks the
// others: the answer from the GPU, no layout shift with the element above the
// fold, the site's styles, keys, navigation and theme. Installed by
// scripts/setup.sh into target/docs-tools/venv.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp } from 'node:fs/promises';
import path from 'node:path';

import { TEST_TIMEOUT, pageErrors } from './helpers.mjs';
import { DIST } from './site.mjs';
import { ARTICLE_RESULT, TOOLS, assertNoShift, followsDark, onGpu, pressInside, results, run, sameHostStyles, serve, kit, thereAndBack, useSites, writeSite } from './sites.mjs';

const VENV = path.join(TOOLS, 'venv', 'bin');

useSites();

test('Zensical builds the MkDocs Material recipe as it is: the answer, no layout shift, instant navigation (site_url), the theme on <body>, the iframe sized', { timeout: TEST_TIMEOUT }, async () => {
  const dir = path.join(kit.work, 'zensical');
  await writeSite('mkdocs', dir);
  await cp(DIST, path.join(dir, 'docs', 'assets', 'playground'), { recursive: true });
  await run(path.join(VENV, 'zensical'), ['build'], { cwd: dir });
  const url = await serve(path.join(dir, 'site'));
  const { page, log } = await sameHostStyles(url, onGpu);
  try {
    assert.deepEqual(await results(page), [ARTICLE_RESULT], log.join('\n'));
    // The recipe's iframe, sized by its content.
    await page.waitForFunction(() => Number(document.querySelector('iframe[data-compaction-playground]').height) !== 600);
    // Zensical keeps the palette on <body>: the element and the frame follow it.
    await followsDark(page, () => document.body.setAttribute('data-md-color-scheme', 'slate'));
    // Instant navigation (no full load), there and back, the element again with its answer.
    assert.equal(await thereAndBack(page, '/culling/'), true, 'a link loaded the page in full: no instant navigation');
    assert.deepEqual(await results(page), [ARTICLE_RESULT]);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
  await assertNoShift(url);
});

test('Sphinx with furo: raw HTML and html_js_files as a module; the answer, no layout shift, `/` from inside the element leaves the search alone, the theme on <body>', {
  timeout: TEST_TIMEOUT,
}, async () => {
  const dir = path.join(kit.work, 'sphinx');
  await writeSite('sphinx', dir);
  await cp(DIST, path.join(dir, '_static', 'playground'), { recursive: true });
  await run(path.join(VENV, 'sphinx-build'), ['-q', '-W', '-b', 'html', '.', '_build'], { cwd: dir });
  const url = await serve(path.join(dir, '_build'));
  const { page, log } = await sameHostStyles(url, onGpu);
  try {
    assert.deepEqual(await results(page), [ARTICLE_RESULT], log.join('\n'));
    const searchFocused = () => page.evaluate(() => document.activeElement?.matches('input[name="q"]') ?? false);
    // `/` with the focus on the element's buttons and its flag grid: the search stays closed, as from a native button.
    for (const inside of ['[data-testid="step-forward"]', '[data-testid="preset-none"]', '[data-testid="flag-cell"] >> nth=0']) {
      assert.ok(await pressInside(page, `compaction-playground >> ${inside}`, ['/']), `/ on ${inside} left the page`);
      assert.equal(await searchFocused(), false, `/ on ${inside} opened Sphinx's search`);
    }
    // From the page, `/` goes to the search: the binding exists.
    await page.locator('h1').first().click();
    await page.keyboard.press('/');
    await page.waitForFunction(() => document.activeElement?.matches('input[name="q"]'));
    // furo's dark theme, on <body data-theme>: the element follows.
    await followsDark(page, () => {
      document.body.dataset.theme = 'dark';
    });
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
  await assertNoShift(url);
});
