// The element's state has one owner from its first moment:
// the attributes and the link are the truth until the visitor edits, and a
// rebuild before start-up ended (a language switch, a move, a reconnect, many
// language flips, a slow wasm) never loses them; an attribute set while the
// element is off the page wins when it is put back.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { READY_MS, TEST_TIMEOUT, ready } from './helpers.mjs';
import { useBrowser } from './fixture.mjs';

const ctx = useBrowser({
  site: true,
  setUp: async (f) => {
    await f.site.write(
      'docs/guide/state.html',
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="../assets/playground/compaction-playground.js"></script></head><body><main id="m"></main></body></html>',
    );
  },
});

test('rebuilt before start-up ended (language, move, flips, reconnect), the element keeps its attributes; set while away, they win', { timeout: TEST_TIMEOUT }, async () => {
  const page = await ctx.browser.newPage();
  page.setDefaultTimeout(READY_MS);
  try {
    await page.goto(ctx.site.url('guide/state.html'));
    await page.waitForFunction(() => customElements.get('compaction-playground'));
    for (const how of ['lang', 'move', 'flips', 'away']) {
      const got = await page.evaluate(async (how) => {
        const main = document.getElementById('m');
        main.replaceChildren();
        const el = document.createElement('compaction-playground');
        for (const [k, v] of Object.entries({ flags: '1001101001', method: 'atomic', loading: 'eager', panels: 'editor result' })) el.setAttribute(k, v);
        main.append(el);
        // In the same task as the creation: start-up has not ended.
        if (how === 'lang') el.setAttribute('lang', 'es');
        if (how === 'move') {
          el.remove();
          main.append(el);
        }
        if (how === 'flips') for (let i = 0; i < 500; i++) el.setAttribute('lang', i % 2 ? 'en' : 'es');
        await el.ready;
        if (how === 'away') {
          el.remove();
          el.setAttribute('flags', '111');
          el.setAttribute('method', 'scan');
          main.append(el);
          await el.ready;
        }
        await new Promise((r) => setTimeout(r, 300));
        return { flags: el.flags, method: el.method };
      }, how);
      const want = how === 'away' ? { flags: '111', method: 'scan' } : { flags: '1001101001', method: 'atomic' };
      assert.deepEqual(got, want, how);
    }
  } finally {
    await page.close();
  }
});

test('a language switch while the wasm loads on a slow link leaves the link as it was', { timeout: TEST_TIMEOUT }, async () => {
  const page = await ctx.browser.newPage();
  page.setDefaultTimeout(READY_MS);
  try {
    // The wasm arrives 3 s late.
    await page.route('**/*.wasm', async (route) => {
      await new Promise((r) => setTimeout(r, 3000));
      await route.continue();
    });
    const link = '#flags=b7.Sw&method=atomic';
    await page.goto(`${ctx.site.assetsUrl}index.html${link}`);
    await page.waitForFunction(() => document.querySelector('compaction-playground')?.shadowRoot?.querySelector('[data-testid="lang-select"]'), null, { timeout: 20_000 }).catch(() => null);
    await page.evaluate(() => document.querySelector('compaction-playground').setAttribute('lang', 'es'));
    await ready(page);
    const state = await page.evaluate(() => ({ hash: location.hash, method: document.querySelector('compaction-playground').method }));
    assert.equal(state.method, 'atomic');
    assert.match(state.hash, /flags=b7\.Sw/);
    assert.match(state.hash, /method=atomic/);
  } finally {
    await page.close();
  }
});

test('bad theme and lang are said in the element; a huge attribute with control and bidi characters is quoted cut and escaped', { timeout: TEST_TIMEOUT }, async () => {
  const page = await ctx.browser.newPage();
  page.setDefaultTimeout(READY_MS);
  try {
    await page.goto(ctx.site.url('guide/state.html'));
    await page.waitForFunction(() => customElements.get('compaction-playground'));
    const got = await page.evaluate(async () => {
      const main = document.getElementById('m');
      main.replaceChildren();
      const el = document.createElement('compaction-playground');
      for (const [k, v] of Object.entries({ theme: 'purple', lang: 'xx', loading: 'eager', panels: 'editor result' })) el.setAttribute(k, v);
      // A 10 MB method name with a right-to-left override and a NUL in it.
      el.setAttribute('method', `\u202e${'x'.repeat(10_000_000)}\u0000`);
      main.append(el);
      const started = performance.now();
      await el.ready;
      const text = (kind) => el.shadowRoot.querySelector(`[data-testid="alert-${kind}"]`)?.textContent ?? null;
      const alerts = [...el.shadowRoot.querySelectorAll('[data-testid^="alert-"]')].map((a) => a.textContent);
      const out = { theme: text('theme'), lang: text('lang'), alerts, ms: performance.now() - started };
      el.setAttribute('theme', 'dark');
      await new Promise((r) => setTimeout(r, 100));
      out.themeAfter = text('theme');
      return out;
    });
    assert.match(got.theme ?? '', /purple/);
    assert.match(got.lang ?? '', /xx/);
    assert.equal(got.themeAfter, null, 'a good theme clears the alert');
    const method = got.alerts.find((a) => /x{20}/.test(a));
    assert.ok(method, `the bad method is said: ${got.alerts.map((a) => a.slice(0, 80))}`);
    assert.ok(method.length < 1000, `${method.length} characters shown`);
    assert.ok(!method.includes('\u202e') && !method.includes('\u0000'), 'no raw override or NUL');
    assert.match(method, /\\u\{202e\}/);
  } finally {
    await page.close();
  }
});

test('the element’s contract: a pending `ready` is kept through a move and resolves; `busy`, `isReady` and the internals are read-only', { timeout: TEST_TIMEOUT }, async () => {
  const page = await ctx.browser.newPage();
  page.setDefaultTimeout(READY_MS);
  try {
    await page.goto(ctx.site.url('guide/state.html'));
    const got = await page.evaluate(async () => {
      const main = document.getElementById('m');
      const el = document.createElement('compaction-playground');
      el.setAttribute('loading', 'eager');
      main.append(el);
      const first = el.ready;
      el.remove();
      main.append(el);
      const kept = el.ready === first;
      const heard = await Promise.race([first.then(() => 'resolved'), new Promise((r) => setTimeout(() => r('never'), 100_000))]);
      const writes = ['busy', 'isReady', 'ready'].map((name) => Reflect.set(el, name, name === 'ready' ? Promise.resolve() : !el[name]));
      const afterReady = el.ready;
      el.remove();
      main.append(el);
      return { kept, heard, writes, isReady: el.isReady, internals: 'internals' in el, renewed: el.ready !== afterReady };
    });
    assert.deepEqual(got, { kept: true, heard: 'resolved', writes: [false, false, false], isReady: false, internals: false, renewed: true });
  } finally {
    await page.close();
  }
});
