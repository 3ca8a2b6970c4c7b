// The iframe route as a docs site uses it, framed from another origin: the
// frame follows its hash without reloading, tells the host its height (to
// the host's origin only), takes the host's theme and language (from the
// parent only), and has its landmarks. The host's script is the one of
// docs/embedding.md.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { newLoggedPage } from './browser.mjs';
import { compact, fnv1a } from './oracle.mjs';
import { READY_MS, TEST_TIMEOUT, ready, idle } from './helpers.mjs';
import { siteFiles } from './docs.mjs';
import { useBrowser } from './fixture.mjs';

const ctx = useBrowser({
  site: true,
  setUp: async (f) => {
    await f.site.write('docs/guide/playground-frames.js', (await siteFiles('plain'))['playground-frames.js']);
  },
});

/** The frame's origin differs from the host's: the host is on localhost, the frame on 127.0.0.1. */
const frameBase = () => ctx.site.assetsUrl.replace('//localhost:', '//127.0.0.1:');

/** A host page framing embed.html#`hash`, with the recipe's script (`frames`: it also passes the host's theme on). */
async function hostWithFrame(hash, { frames = true } = {}) {
  const src = `${frameBase()}embed.html#${hash}`;
  await ctx.site.write(
    'docs/guide/framed.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>framed</title><link rel="stylesheet" href="../theme.css"></head><body><main class="content"><h1>Docs</h1>
<iframe data-compaction-playground src="${src}" title="GPU stream compaction playground" width="100%" height="900"></iframe>
${frames ? '<script type="module" src="playground-frames.js"></script>' : ''}
<script type="module" src="frame-spy.js"></script></main></body></html>`,
  );
  await ctx.site.write('docs/guide/frame-spy.js', `window.heard = []; addEventListener('message', (e) => window.heard.push({ origin: e.origin, data: e.data }));`);
  const { page, log } = await newLoggedPage(ctx.browser);
  page.setDefaultTimeout(READY_MS);
  await page.setViewportSize({ width: 1100, height: 800 });
  await page.goto(ctx.site.url('guide/framed.html'));
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await ready(frame);
  return { page, frame, log };
}

const stateOf = (frame) =>
  frame.$eval('compaction-playground', (e) => ({
    method: e.method,
    count: e.result?.count,
    hash: e.result?.hash,
    theme: e.resolvedTheme,
    lang: e.language,
    panels: [...e.shadowRoot.querySelectorAll('[data-panel]')].filter((c) => !c.hidden).map((c) => c.dataset.panel),
  }));

test('the frame says its height to its host, and only to the host’s origin; landmarks and a description', { timeout: TEST_TIMEOUT }, async () => {
  const { page, frame } = await hostWithFrame('flags=1001101001&method=scan&panels=scan');
  try {
    await page.waitForFunction(() => window.heard.some((m) => m.data?.source === 'compaction-playground'));
    const heard = await page.evaluate(() => window.heard.filter((m) => m.data?.source === 'compaction-playground'));
    assert.ok(
      heard.every((m) => m.origin === new URL(frameBase()).origin && Object.keys(m.data).sort().join() === 'height,source'),
      JSON.stringify(heard),
    );
    // The host's script sized the iframe: nothing scrolls inside it.
    await page.waitForFunction(() => Number(document.querySelector('iframe').height) === window.heard.filter((m) => m.data?.source).at(-1).data.height);
    await idle(frame);
    const fit = await frame.evaluate(() => ({ scroll: document.documentElement.scrollHeight, view: innerHeight }));
    assert.ok(fit.scroll <= fit.view + 1, `scrolls ${fit.scroll} in ${fit.view}`);
    assert.deepEqual(
      await frame.evaluate(() => ({
        main: document.querySelectorAll('main').length,
        h1: document.querySelectorAll('h1').length,
        description: Boolean(document.querySelector('meta[name="description"]')?.content),
      })),
      { main: 1, h1: 1, description: true },
    );
  } finally {
    await page.close();
  }
  // Told another origin in its hash, it posts nothing this host hears.
  const other = await hostWithFrame('flags=1001101001&method=scan&panels=result&origin=https://elsewhere.example');
  try {
    await idle(other.frame);
    await other.page.waitForTimeout(500);
    assert.deepEqual(await other.page.evaluate(() => window.heard.filter((m) => m.data?.source)), []);
  } finally {
    await other.page.close();
  }
});

test('the frame follows its hash without reloading: state, panels, theme and language', { timeout: TEST_TIMEOUT }, async () => {
  // (Without the recipe's script, which would tell the frame the host's theme over the hash's.)
  const { page, frame, log } = await hostWithFrame('flags=1001101001&method=scan&panels=result', { frames: false });
  try {
    assert.deepEqual(await stateOf(frame), { method: 'scan', count: 5, hash: fnv1a(compact([1, 0, 0, 1, 1, 0, 1, 0, 0, 1])), theme: 'light', lang: 'en', panels: ['result'] });
    await frame.evaluate(() => {
      window.kept = 'the same document';
    });
    await page.evaluate((src) => {
      document.querySelector('iframe').src = src;
    }, `${frameBase()}embed.html#flags=1101&method=atomic&panels=editor%20result&theme=dark&lang=es`);
    await frame.waitForFunction(() => document.querySelector('compaction-playground').result?.count === 3 && document.querySelector('compaction-playground').language === 'es');
    await idle(frame);
    const state = await stateOf(frame);
    assert.deepEqual({ ...state, hash: 0 }, { method: 'atomic', count: 3, hash: 0, theme: 'dark', lang: 'es', panels: ['editor', 'result'] });
    assert.equal(await frame.evaluate(() => window.kept), 'the same document', 'the frame did not reload');
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await page.close();
  }
});

test('the host’s messages set the theme and the language; a message from anyone else is ignored', { timeout: TEST_TIMEOUT }, async () => {
  const { page, frame } = await hostWithFrame('flags=1001101001&method=scan&panels=result');
  try {
    // The recipe's script passes the host's theme on when it changes.
    await page.evaluate(() => {
      document.documentElement.dataset.theme = 'dark';
    });
    await frame.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'dark');
    await page.evaluate((origin) => document.querySelector('iframe').contentWindow.postMessage({ lang: 'es' }, origin), new URL(frameBase()).origin);
    await frame.waitForFunction(() => document.querySelector('compaction-playground').language === 'es');
    // The frame posting to itself is not its parent.
    await frame.evaluate(() => window.postMessage({ theme: 'light', lang: 'en' }, '*'));
    await page.waitForTimeout(500);
    assert.deepEqual([(await stateOf(frame)).theme, (await stateOf(frame)).lang], ['dark', 'es']);
    // Nonsense is ignored too.
    await page.evaluate((origin) => document.querySelector('iframe').contentWindow.postMessage({ theme: 'purple', lang: 'xx' }, origin), new URL(frameBase()).origin);
    await page.waitForTimeout(300);
    assert.deepEqual([(await stateOf(frame)).theme, (await stateOf(frame)).lang], ['dark', 'es']);
  } finally {
    await page.close();
  }
});

test('the recipe’s script follows a theme set on <body> and adopts a frame that arrives after load (a site navigating without reloading)', { timeout: TEST_TIMEOUT }, async () => {
  // A generator that themes <body> (a class and its color-scheme, in a file: the guide's pages allow no inline style).
  await ctx.site.write('docs/guide/body-theme.css', 'body.night { color-scheme: dark; }\n');
  await ctx.site.write(
    'docs/guide/later.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>later</title><link rel="stylesheet" href="../theme.css"><link rel="stylesheet" href="body-theme.css"></head><body><main class="content" id="m"><h1>Docs</h1></main>
<script type="module" src="playground-frames.js"></script></body></html>`,
  );
  const { page } = await newLoggedPage(ctx.browser);
  page.setDefaultTimeout(READY_MS);
  try {
    await page.goto(ctx.site.url('guide/later.html'));
    await page.waitForLoadState('load');
    await page.evaluate(() => document.body.classList.add('night'));
    // The frame arrives after the script ran, as a client-side navigation would bring it.
    await page.evaluate((src) => {
      const frame = Object.assign(document.createElement('iframe'), { src, title: 'playground', width: '100%', height: '900' });
      frame.dataset.compactionPlayground = '';
      document.getElementById('m').append(frame);
    }, `${frameBase()}embed.html#flags=1001101001&method=scan&panels=result`);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await ready(frame);
    await frame.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'dark');
    // Sized by its content, not left at the 900 px it came with.
    await page.waitForFunction(() => document.querySelector('iframe').height !== '900');
    const height = Number(await page.$eval('iframe', (f) => f.height));
    assert.ok(height > 100 && height < 900, `${height}px`);
    // Back to light on <body>: the frame follows.
    await page.evaluate(() => document.body.classList.remove('night'));
    await frame.waitForFunction(() => document.querySelector('compaction-playground').resolvedTheme === 'light');
  } finally {
    await page.close();
  }
});
