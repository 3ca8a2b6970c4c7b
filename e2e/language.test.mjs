// Spanish and English: every message has both, the switch rebuilds the
// playground in the other language and leaves no English message behind,
// the browser's language is the default, the element's `lang` wins over it,
// and numbers follow the language.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { TEST_TIMEOUT, READY_MS, ready, idle, openPlayground, pageErrors } from './helpers.mjs';
import { MESSAGES } from '../www/i18n/all.js';

const { en, es } = MESSAGES;

const ctx = useBrowser({ server: { allow: ['e2e/fixtures/'] } });

/** Every text the playground shows (titles, labels and placeholders too), but code: WGSL is WGSL in any language. */
function shownText(page) {
  return page.evaluate(() => {
    const root = document.querySelector('compaction-playground').shadowRoot;
    const parts = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) if (!walker.currentNode.parentElement.closest('pre, code')) parts.push(walker.currentNode.data);
    for (const el of root.querySelectorAll('[title], [aria-label], [placeholder]')) {
      for (const a of ['title', 'aria-label', 'placeholder']) if (el.hasAttribute(a)) parts.push(el.getAttribute(a));
    }
    return parts.join('\n');
  });
}

/** The English words of every message that Spanish says otherwise: its literal pieces of 12+ characters. */
function englishFragments() {
  const fragments = [];
  for (const [key, text] of Object.entries(en)) {
    if (es[key] === text) continue;
    for (const piece of text.split(/\{\w+\}|`[^`]*`/)) {
      const p = piece.trim();
      if (p.length >= 12 && /[a-z]{3}/.test(p) && !es[key].includes(p)) fragments.push({ key, text: p });
    }
  }
  return fragments;
}

test('switching to Spanish rebuilds the playground in Spanish: no English message is left, the state is kept', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.fill('[data-testid="size"]', '20000');
    await page.click('[data-testid="preset-random"]');
    await idle(page);
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    assert.equal(await page.$eval('compaction-playground', (e) => e.shadowRoot.querySelector('.pg').lang), 'en');
    const before = await page.$eval('compaction-playground', (e) => e.result);
    await page.selectOption('[data-testid="lang-select"]', 'es');
    await ready(page);
    assert.equal(await page.$eval('compaction-playground', (e) => e.shadowRoot.querySelector('.pg').lang), 'es');
    assert.deepEqual(await page.$eval('compaction-playground', (e) => e.result), before, 'the same flags and method, run again');
    // Every step of the tile view, and the scan stepper's, in Spanish.
    const fragments = englishFragments();
    const check = async (where) => {
      const text = await shownText(page);
      const left = fragments.filter((f) => text.includes(f.text));
      assert.deepEqual(left, [], `English left in Spanish (${where})`);
    };
    await check('start');
    assert.match(await page.textContent('[data-testid="backend"]'), /En la GPU/);
    // The page around it follows.
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
    assert.match(await page.textContent('h1'), /^Compactar los visibles/);
    assert.match(await page.textContent('[data-testid="copy-embed"]'), /^Copiar/);
    for (let k = 0; k < 14 && (await page.isEnabled('[data-testid="tiles-step-forward"]')); k++) {
      await page.click('[data-testid="tiles-step-forward"]');
      await check(`tile step ${k + 2}`);
    }
    await page.check('[data-testid="method-scan"]');
    await idle(page);
    for (const step of [1, 2, 10, 11, 12, 20, 30]) {
      await page.$eval(
        '[data-testid="scrubber"]',
        (el, v) => {
          el.value = String(v);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        },
        step,
      );
      await check(`scan step ${step}`);
    }
    // Numbers for the language: 100 000 flags are "100.000" in Spanish.
    await page.fill('[data-testid="size"]', '100000');
    await page.click('[data-testid="preset-random"]');
    await idle(page);
    assert.match(await page.textContent('[data-testid="flag-summary"]'), /^100\.000 flags, [\d.]+ visibles/);
    await page.click('[data-testid="repeat-run"]');
    await idle(page);
    await check('after Run ×8');
    // And back.
    await page.selectOption('[data-testid="lang-select"]', 'en');
    await ready(page);
    assert.match(await page.textContent('[data-testid="flag-summary"]'), /^100,000 flags/);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('the browser’s language is the default; the element’s lang attribute and changes to it win', { timeout: TEST_TIMEOUT }, async () => {
  const page = await ctx.browser.newPage({ locale: 'es-ES' });
  page.setDefaultTimeout(READY_MS);
  try {
    await page.goto(`${ctx.server.url}e2e/fixtures/embed.html`);
    await ready(page);
    const langs = () => page.$$eval('compaction-playground', (els) => els.map((e) => e.shadowRoot.querySelector('.pg').lang));
    const first = await langs();
    assert.ok(first.length >= 1);
    assert.ok(
      first.every((l) => l === 'es'),
      JSON.stringify(first),
    );
    await page.$eval('compaction-playground', (e) => e.setAttribute('lang', 'en'));
    await ready(page);
    assert.equal((await langs())[0], 'en');
    assert.match(await page.$eval('compaction-playground', (e) => e.shadowRoot.querySelector('[data-testid="backend"]').textContent), /Running on the GPU/);
    await page.$eval('compaction-playground', (e) => e.setAttribute('lang', 'es-MX'));
    await ready(page);
    assert.equal((await langs())[0], 'es');
  } finally {
    await page.close();
  }
});

test('a language switch keeps nothing of the view it replaces: the page’s nodes and listeners stay flat over 20 switches', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url, '#flags=1001101001&method=scan&panels=editor,result,scan,atomic,bench');
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    /** The page's DOM nodes and event listeners after a full garbage collection. */
    const retained = async () => {
      for (let k = 0; k < 2; k++) {
        await cdp.send('HeapProfiler.collectGarbage');
        await page.waitForTimeout(200);
      }
      const { metrics } = await cdp.send('Performance.getMetrics');
      const of = (name) => metrics.find((m) => m.name === name).value;
      return { nodes: of('Nodes'), listeners: of('JSEventListeners') };
    };
    const switches = async (k) => {
      for (let i = 0; i < k; i++) {
        await page.selectOption('[data-testid="lang-select"]', i % 2 ? 'en' : 'es');
        await idle(page);
      }
    };
    await switches(4);
    const before = await retained();
    await switches(20);
    const after = await retained();
    // Each switch kept about 500 nodes and 50 listeners of its old view (Chromium's radio groups held them).
    assert.ok(after.nodes - before.nodes < 100, `20 switches kept ${after.nodes - before.nodes} nodes`);
    assert.ok(after.listeners - before.listeners < 20, `20 switches kept ${after.listeners - before.listeners} listeners`);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});
