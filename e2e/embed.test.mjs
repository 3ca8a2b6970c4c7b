// <compaction-playground> as a guest: the built dist/, copied under a sub-path
// of a documentation site with a theme of its own and a strict CSP
// (e2e/fixtures/host/), two elements on one page. Nothing of the host may
// change: its styles, its keys, its errors, its URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { newLoggedPage } from './browser.mjs';
import { compact, fnv1a } from './oracle.mjs';
import { READY_MS, TEST_TIMEOUT, ready, idle, results } from './helpers.mjs';
import { hostStyles } from './host.mjs';

const ctx = useBrowser({ site: true });

/**
 * Records, in the page, what code from the playground's files adds to the
 * window and document (listeners), and the observers and intervals it leaves
 * running; also every GPU device requested.
 */
function instrument() {
  const fromPlayground = () => /\/assets\/playground\//.test(new Error().stack);
  window.__audit = { listeners: [], observers: [], intervals: new Map(), devices: 0 };
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, options) {
    if ((this === window || this === document) && fromPlayground()) window.__audit.listeners.push({ type, fn, on: this === window ? 'window' : 'document', removed: false });
    return add.call(this, type, fn, options);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, options) {
    for (const l of window.__audit.listeners) if (l.type === type && l.fn === fn) l.removed = true;
    return remove.call(this, type, fn, options);
  };
  for (const name of ['MutationObserver', 'ResizeObserver']) {
    const Base = window[name];
    window[name] = class extends Base {
      constructor(cb) {
        super(cb);
        this.__record = { name, observing: 0, mine: fromPlayground() };
        window.__audit.observers.push(this.__record);
      }
      observe(...args) {
        this.__record.observing++;
        return super.observe(...args);
      }
      unobserve(...args) {
        this.__record.observing = Math.max(0, this.__record.observing - 1);
        return super.unobserve(...args);
      }
      disconnect() {
        this.__record.observing = 0;
        return super.disconnect();
      }
    };
  }
  const setI = window.setInterval;
  const clearI = window.clearInterval;
  window.setInterval = (fn, ms, ...rest) => {
    const id = setI(fn, ms, ...rest);
    if (fromPlayground()) window.__audit.intervals.set(id, true);
    return id;
  };
  window.clearInterval = (id) => {
    window.__audit.intervals.delete(id);
    return clearI(id);
  };
  const request = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = function (...args) {
    window.__audit.devices++;
    return request.apply(this, args);
  };
}

async function openHost(page = 'guide/index.html', { colorScheme = 'light', audit = true } = {}) {
  const { page: p, log } = await newLoggedPage(ctx.browser);
  p.setDefaultTimeout(READY_MS);
  await p.emulateMedia({ colorScheme });
  await p.setViewportSize({ width: 1100, height: 800 });
  if (audit) await p.addInitScript(instrument);
  await p.goto(ctx.site.url(page));
  if (page.endsWith('index.html')) await ready(p);
  return { page: p, log };
}

const shadowText = (page, id) => page.$eval(`#${id}`, (e) => e.shadowRoot.textContent);
const alertsOf = (page, id) => page.$eval(`#${id}`, (e) => [...e.shadowRoot.querySelectorAll('[data-testid="alerts"] .alert')].map((a) => a.textContent));
const stepOf = (page, id) => page.$eval(`#${id}`, (e) => e.step);

async function setHostTheme(page, theme) {
  await page.evaluate((t) => {
    document.documentElement.dataset.theme = t;
  }, theme);
}

async function waitTheme(page, id, theme) {
  await page.waitForFunction(([id, theme]) => document.getElementById(id).resolvedTheme === theme, [id, theme], { timeout: 5000 });
}

test('the host page is unchanged by two playgrounds: every computed style of its own elements, light and dark', { timeout: TEST_TIMEOUT }, async () => {
  const { page: bare } = await openHost('guide/bare.html', { audit: false });
  const { page: full, log } = await openHost();
  try {
    for (const theme of ['light', 'dark']) {
      await setHostTheme(bare, theme);
      await setHostTheme(full, theme);
      await waitTheme(full, 'first', theme);
      await idle(full);
      const a = await bare.evaluate(hostStyles);
      const b = await full.evaluate(hostStyles);
      assert.deepEqual(
        b.map((x) => x.el),
        a.map((x) => x.el),
        'the same host elements',
      );
      for (let k = 0; k < a.length; k++) {
        const differ = Object.keys(a[k].style).filter((p) => a[k].style[p] !== b[k].style[p]);
        assert.deepEqual(differ, [], `${theme}: ${a[k].el} styled differently with the playgrounds: ${differ.map((p) => `${p}: ${a[k].style[p]} -> ${b[k].style[p]}`).join('; ')}`);
      }
      assert.ok(a.length > 20, `compared ${a.length} host elements`);
    }
    // Nothing was added to the host's document: no stylesheet, no element outside the two.
    assert.equal(await full.evaluate(() => document.head.querySelectorAll('link[rel="stylesheet"], style').length), 1, 'only the host theme');
    assert.deepEqual(await full.evaluate(() => [...document.querySelectorAll('compaction-playground')].map((e) => e.shadowRoot.mode)), ['open', 'open']);
    // The host's variables (--card: hotpink, --radius: 0) do not reach inside.
    const card = await full.$eval('#first', (e) => getComputedStyle(e.shadowRoot.querySelector('.card')).backgroundColor);
    assert.equal(card, 'rgb(26, 29, 32)', 'the dark card, not the host --card');
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await bare.close();
    await full.close();
  }
});

test('two elements: their own answers, one shared GPU device, documented events, attributes that update only their element, the URL untouched', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openHost();
  try {
    const url = page.url();
    assert.equal(await page.evaluate(() => window.__audit.devices), 1, 'one device for both playgrounds');
    // Their own right answers.
    const first = await results(page, '#first');
    assert.equal(first.backend, 'gpu', log.join('\n'));
    assert.equal(first.method, 'atomic');
    assert.deepEqual(
      [...first.indices].sort((x, y) => x - y),
      compact([1, 0, 2, 0, 1]),
    );
    // The second shows the scan stepper alone: its run is its `result`, the indices its hash.
    const second = await page.$eval('#second', (e) => e.result);
    assert.equal(second.method, 'scan');
    assert.equal(second.count, compact([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]).length);
    assert.equal(second.hash, fnv1a([0, 3, 4, 6, 9]));
    // Only the panels asked for.
    const shown = (id) => page.$eval(`#${id}`, (e) => [...e.shadowRoot.querySelectorAll('[data-panel]')].filter((c) => !c.hidden).map((c) => c.dataset.panel));
    assert.deepEqual(await shown('first'), ['editor', 'result']);
    assert.deepEqual(await shown('second'), ['scan']);
    assert.equal(await stepOf(page, 'second'), 1);

    // The events so far, with their documented details.
    const events = () => page.evaluate(() => window.hostEvents);
    const start = await events();
    // (The CPU reference answers first, while the GPU compiles; the last result is the GPU's.)
    const firstResult = start.filter((e) => e.type === 'result' && e.id === 'first').at(-1).detail;
    assert.deepEqual(Object.keys(firstResult).sort(), ['backend', 'count', 'hash', 'instanceCount', 'method', 'n']);
    assert.deepEqual({ ...firstResult, hash: 0 }, { method: 'atomic', n: 5, count: 3, instanceCount: 3, hash: 0, backend: 'gpu' });
    const secondResult = start.filter((e) => e.type === 'result' && e.id === 'second').at(-1).detail;
    assert.deepEqual(secondResult, { method: 'scan', n: 10, count: 5, instanceCount: 5, hash: fnv1a([0, 3, 4, 6, 9]), backend: 'gpu' });
    const firstChange = start.find((e) => e.type === 'change' && e.id === 'first').detail;
    assert.deepEqual(firstChange, { method: 'atomic', n: 5, visible: 3, flags: [1, 0, 2, 0, 1], preset: null, source: 'start' });
    const secondStep = start.filter((e) => e.type === 'step' && e.id === 'second').at(-1).detail;
    assert.deepEqual(secondStep, { view: 'scan', step: 1, steps: 13, kind: 'load' });

    // An attribute of the first changes the first only.
    const seen = start.length;
    await page.$eval('#first', (e) => e.setAttribute('flags', '1 1 0 0 0 1'));
    await idle(page);
    await page.waitForFunction(() => document.getElementById('first').result?.n === 6);
    const after = (await events()).slice(seen);
    assert.ok(after.length >= 2, 'change and result');
    assert.deepEqual([...new Set(after.map((e) => e.id))], ['first'], 'no event from the other element');
    assert.deepEqual(after.find((e) => e.type === 'change').detail, { method: 'atomic', n: 6, visible: 3, flags: [1, 1, 0, 0, 0, 1], preset: null, source: 'attribute' });
    assert.equal(after.find((e) => e.type === 'result').detail.count, 3);
    assert.deepEqual(
      [...(await results(page, '#first')).indices].sort((x, y) => x - y),
      [0, 1, 5],
    );
    assert.equal((await page.$eval('#second', (e) => e.result)).hash, fnv1a([0, 3, 4, 6, 9]), 'the other element kept its answer');
    assert.equal(await page.$eval('#first', (e) => e.flags), '110001', 'the property mirrors the state');

    // Method, step and panels of the second, as attributes and as properties.
    const seen2 = (await events()).length;
    await page.$eval('#second', (e) => {
      e.method = 'lookback';
    });
    await idle(page);
    await page.waitForFunction(() => document.getElementById('second').result?.method === 'lookback');
    assert.equal((await page.$eval('#second', (e) => e.result)).hash, fnv1a([0, 3, 4, 6, 9]));
    await page.$eval('#second', (e) => e.setAttribute('step', '5'));
    await page.waitForFunction(() => document.getElementById('second').step === 5);
    const later = (await events()).slice(seen2);
    assert.deepEqual([...new Set(later.map((e) => e.id))], ['second']);
    assert.deepEqual(later.find((e) => e.type === 'change').detail.method, 'lookback');
    assert.deepEqual(later.filter((e) => e.type === 'step').at(-1).detail, { view: 'scan', step: 5, steps: 13, kind: 'hs' });
    await page.$eval('#first', (e) => {
      e.panels = 'result';
    });
    assert.deepEqual(await shown('first'), ['result']);
    await page.$eval('#first', (e) => e.setAttribute('panels', 'result tiles'));
    await idle(page);
    assert.deepEqual(await shown('first'), ['result', 'tiles']);
    assert.ok((await page.$eval('#first', (e) => e.shadowRoot.querySelectorAll('[data-testid="tile"]').length)) > 0, 'the tile view appeared with its tiles');
    // A bad attribute: said inside that element, nothing lost.
    await page.$eval('#first', (e) => e.setAttribute('flags', '1 0 x'));
    await page.waitForFunction(() => /flags attribute could not be read/.test(document.getElementById('first').shadowRoot.textContent));
    assert.equal(await page.$eval('#first', (e) => e.flags), '110001');
    assert.deepEqual(await alertsOf(page, 'second'), []);

    assert.equal(page.url(), url, 'the host URL is untouched');
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await page.close();
  }
});

test('keys stay with the host unless focus is inside an element; the host’s errors never show inside', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openHost();
  try {
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    // On a loaded machine the first key can arrive before the click's focus has
    // settled (a CI run saw the host never scroll): End again until it does, a few times.
    for (let tries = 0; tries < 5 && (await page.evaluate(() => window.scrollY)) <= 100; tries++) {
      await page.keyboard.press('End');
      await page.waitForFunction(() => window.scrollY > 100, null, { timeout: 5000 }).catch(() => {});
    }
    assert.ok((await page.evaluate(() => window.scrollY)) > 100, 'End on the host scrolls the host');
    assert.equal(await stepOf(page, 'second'), 1, 'End on the host scrolled the host, not the stepper');
    await page.keyboard.press('Home');
    await page.waitForFunction(() => window.scrollY === 0);

    // Inside the second element, End goes to its last step; the first and the page stay.
    await page.focus('#second [data-testid="step-play"]');
    const y = await page.evaluate(() => window.scrollY);
    await page.keyboard.press('End');
    assert.equal(await stepOf(page, 'second'), 13);
    assert.equal(await page.evaluate(() => window.scrollY), y, 'the key was used by the element');

    // The host fails three ways; none of it appears in a playground.
    await page.evaluate(() => window.hostFail());
    await page.click('#host-button');
    await page.waitForFunction(() => true, null, { timeout: 1000 }).catch(() => {});
    await new Promise((r) => setTimeout(r, 500));
    const hostErrors = log.filter((l) => l.includes('host failure'));
    assert.ok(hostErrors.length >= 2, `the host's errors happened: ${hostErrors.join(' | ')}`);
    for (const id of ['first', 'second']) {
      assert.deepEqual(await alertsOf(page, id), [], `${id} shows no alert`);
      assert.doesNotMatch(await shadowText(page, id), /host failure|Unexpected error/);
    }
    // And the playground never listened on the window or document for keys or errors.
    const listeners = await page.evaluate(() => window.__audit.listeners.map((l) => `${l.on}:${l.type}`));
    assert.deepEqual(listeners, []);
  } finally {
    await page.close();
  }
});

test('theme: host light with the OS dark gives light, host dark gives dark, and it follows the host’s switch', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openHost('guide/index.html', { colorScheme: 'dark' });
  try {
    const cardColours = (id) =>
      page.$eval(`#${id}`, (e) => {
        const cs = getComputedStyle(e.shadowRoot.querySelector('.card'));
        return { background: cs.backgroundColor, color: cs.color };
      });
    for (const id of ['first', 'second']) {
      await waitTheme(page, id, 'light');
      assert.deepEqual(await cardColours(id), { background: 'rgb(255, 255, 255)', color: 'rgb(29, 31, 34)' });
    }
    await page.click('#theme-toggle');
    for (const id of ['first', 'second']) {
      await waitTheme(page, id, 'dark');
      assert.deepEqual(await cardColours(id), { background: 'rgb(26, 29, 32)', color: 'rgb(230, 231, 232)' });
    }
    // theme="light" overrides the host for that element only.
    await page.$eval('#first', (e) => e.setAttribute('theme', 'light'));
    await waitTheme(page, 'first', 'light');
    assert.equal(await page.$eval('#second', (e) => e.resolvedTheme), 'dark');
    await page.$eval('#first', (e) => e.removeAttribute('theme'));
    await waitTheme(page, 'first', 'dark');
  } finally {
    await page.close();
  }
});

test('a keyboard-only walk through a whole scan inside an element', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openHost();
  try {
    const focusInfo = () =>
      page.evaluate(() => {
        let el = document.activeElement;
        const host = el?.localName === 'compaction-playground' ? el.id : null;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        return { host, testid: el?.dataset?.testid ?? el?.localName };
      });
    // Tab from the top of the page until the second element's "step forward".
    let info;
    for (let k = 0; k < 80; k++) {
      await page.keyboard.press('Tab');
      info = await focusInfo();
      if (info.host === 'second' && info.testid === 'step-forward') break;
    }
    assert.deepEqual(info, { host: 'second', testid: 'step-forward' }, 'Tab reaches the stepper');
    for (let step = 2; step <= 13; step++) {
      await page.keyboard.press('Enter');
      assert.equal(await stepOf(page, 'second'), step);
    }
    // At the last step the disabled button hands the focus to the scrubber, not to the page.
    assert.deepEqual(await focusInfo(), { host: 'second', testid: 'scrubber' });
    await page.keyboard.press('Home');
    assert.equal(await stepOf(page, 'second'), 1);
    await page.keyboard.press('ArrowRight');
    assert.equal(await stepOf(page, 'second'), 2);
    assert.equal(await stepOf(page, 'first'), null, 'the first element has no stepper shown');
  } finally {
    await page.close();
  }
});

test('removed, an element leaves nothing running; put back, it starts again where it was', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openHost();
  try {
    await page.$eval('#first', (e) => e.setAttribute('flags', '1 1 1 0'));
    await page.waitForFunction(() => document.getElementById('first').result?.n === 4);
    await page.evaluate(() => {
      window.__kept = [...document.querySelectorAll('compaction-playground')].map((e) => ({ e, parent: e.parentNode, next: e.nextSibling }));
      for (const { e } of window.__kept) e.remove();
    });
    await new Promise((r) => setTimeout(r, 300));
    const audit = await page.evaluate(() => ({
      observers: window.__audit.observers.filter((o) => o.mine && o.observing > 0).map((o) => o.name),
      intervals: window.__audit.intervals.size,
      listeners: window.__audit.listeners.filter((l) => !l.removed).map((l) => `${l.on}:${l.type}`),
      shadows: [...window.__kept].map(({ e }) => e.shadowRoot.childNodes.length),
    }));
    assert.deepEqual(audit, { observers: [], intervals: 0, listeners: [], shadows: [0, 0] });
    // The host switching theme with no playground left is nothing to them.
    await page.click('#theme-toggle');
    await page.evaluate(() => {
      for (const { e, parent, next } of window.__kept) parent.insertBefore(e, next);
    });
    await ready(page);
    const r = await results(page, '#first');
    assert.deepEqual(
      [...r.indices].sort((x, y) => x - y),
      [0, 1, 2],
      'the flags it had',
    );
    assert.equal(await page.$eval('#second', (e) => e.resolvedTheme), 'dark');
    assert.deepEqual(
      log.filter((l) => l.startsWith('[pageerror]')),
      [],
    );
  } finally {
    await page.close();
  }
});
