// Rough edges a first-time visitor met, each checked where it was seen: wide
// slot numbers, the repeat table at 5 000 flags, the Run ×R progress, a parse
// error after a preset, focus at the last step, code in the narration, the
// stalled-tile narration, the no-adapter message, the result on first load.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { launchBrowser, startServer } from './browser.mjs';
import { TEST_TIMEOUT, openPlayground, idle, scrubTo, pageErrors } from './helpers.mjs';

let server;
let browser;
let cpuBrowser;

before(async () => {
  server = await startServer({ port: 0 });
  browser = await launchBrowser({ webgpu: true });
  cpuBrowser = await launchBrowser({ webgpu: false });
});

after(async () => {
  await browser?.close();
  await cpuBrowser?.close();
  server?.server.closeAllConnections();
  await new Promise((resolve) => server?.server.close(resolve));
});

const inShadow = (page, fn, arg) =>
  page.evaluate(([source, a]) => new Function('root', 'arg', `return (${source})(root, arg)`)(document.querySelector('compaction-playground').shadowRoot, a), [fn.toString(), arg]);

async function preset(page, name, n) {
  await page.fill('[data-testid="size"]', String(n));
  await page.click(`[data-testid="preset-${name}"]`);
  await idle(page);
}

test('on first load at 1280×800 the result is in view', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(browser, server.url, '', { viewport: { width: 1280, height: 800 } });
  try {
    for (const id of ['count', 'instance-count', 'hash']) {
      const box = await page.locator(`[data-testid="${id}"]`).boundingBox();
      assert.ok(box && box.y + box.height <= 800, `${id} ends at ${box?.y + box?.height}px`);
    }
  } finally {
    await page.close();
  }
});

test('the atomic view: four-digit slots fit their cells; the repeat table at 5 000 flags fits the card; Run ×R shows progress beside its button', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(browser, server.url);
  try {
    await preset(page, 'all', 4000);
    await page.check('[data-testid="method-atomic"]');
    await idle(page);
    const cells = await inShadow(page, (root) => {
      const all = [...root.querySelectorAll('[data-testid="slot-cell"]')];
      // The slots are the GPU's; if none of the cells shown got four digits, one is given them, as the layout must hold them.
      if (!all.some((c) => c.dataset.slot.length >= 4)) all[0].querySelector('.slot-v').textContent = '3999';
      return all.map((c) => ({ text: c.querySelector('.slot-v').textContent, over: c.scrollWidth > c.clientWidth }));
    });
    assert.ok(cells.some((c) => c.text.length >= 4));
    assert.deepEqual(
      cells.filter((c) => c.over),
      [],
      'no slot number overflows its cell',
    );

    await preset(page, 'random', 5000);
    await page.evaluate(() => {
      const root = document.querySelector('compaction-playground').shadowRoot;
      const progress = root.querySelector('[data-testid="repeat-progress"]');
      window.seen = [];
      new MutationObserver(() => {
        const box = progress.getBoundingClientRect();
        if (progress.textContent) window.seen.push({ text: progress.textContent, inView: box.top >= 0 && box.bottom <= innerHeight });
      }).observe(progress, { childList: true, characterData: true, subtree: true });
    });
    await page.fill('[data-testid="repeat-count"]', '3');
    await page.locator('[data-testid="repeat-run"]').scrollIntoViewIfNeeded();
    await page.click('[data-testid="repeat-run"]');
    await idle(page);
    const seen = await page.evaluate(() => window.seen);
    assert.ok(
      seen.some((s) => /Run \d of 3/.test(s.text) && s.inView),
      JSON.stringify(seen.slice(0, 3)),
    );
    const fit = await inShadow(page, (root) => {
      const table = root.querySelector('[data-testid="repeat-table"]');
      const hash = root.querySelector('[data-testid="repeat-hash-scan"]').getBoundingClientRect();
      return { table: table.scrollWidth, box: table.parentElement.clientWidth, hashRight: hash.right, width: innerWidth };
    });
    assert.ok(fit.table <= fit.box, `table ${fit.table}px in ${fit.box}px`);
    assert.ok(fit.hashRight <= fit.width, `the scan's hash ends at ${fit.hashRight}px of ${fit.width}`);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('a parse error goes when a preset replaces the flags', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(browser, server.url);
  try {
    await page.fill('[data-testid="flag-text"]', '1 0 x');
    await page.click('[data-testid="flag-text-apply"]');
    assert.match(await page.textContent('[data-testid="flag-text-error"]'), /Could not read/);
    await page.click('[data-testid="preset-all"]');
    await idle(page);
    assert.equal(await page.textContent('[data-testid="flag-text-error"]'), '');
    assert.equal(await page.getAttribute('[data-testid="flag-text"]', 'aria-invalid'), null);
  } finally {
    await page.close();
  }
});

test('at the last step the focus stays in the stepper; code in the narration is code, not backticks', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(browser, server.url);
  try {
    const focused = () => inShadow(page, (root) => root.activeElement?.dataset.testid ?? root.activeElement?.tagName ?? null);
    await page.click('[data-testid="step-last"]');
    assert.equal(await focused(), 'scrubber');
    await scrubTo(page, 2);
    const text = await inShadow(page, (root) => {
      const el = root.querySelector('[data-testid="step-text"]');
      return { text: el.textContent, code: [...el.querySelectorAll('code')].map((c) => c.textContent) };
    });
    assert.ok(!text.text.includes('`'), text.text);
    assert.ok(text.code.includes('if (li >= offset)'), JSON.stringify(text.code));
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    await page.click('[data-testid="tiles-step-last"]');
    assert.equal(await focused(), 'tiles-scrubber');
  } finally {
    await page.close();
  }
});

test('a stalled tile: the tiles that counted it themselves are not told that nobody waited', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(browser, server.url);
  try {
    await preset(page, 'random', 100_000);
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    await page.selectOption('[data-testid="tile-stall"]', '2');
    await idle(page);
    const narrations = [];
    while (await page.isEnabled('[data-testid="tiles-step-forward"]')) {
      await page.click('[data-testid="tiles-step-forward"]');
      const counted = await page.locator('[data-testid="tile-read"][data-seen="counted itself"]').count();
      narrations.push({ counted, text: await page.textContent('[data-testid="tiles-step-text"]') });
    }
    const fallback = narrations.filter((n) => n.counted > 0);
    assert.ok(fallback.length > 0, 'some tile counted the stalled one itself');
    for (const n of fallback) {
      assert.doesNotMatch(n.text, /Nobody waited|No second pass was needed/);
      assert.match(n.text, /counted that tile’s flags itself/);
    }
  } finally {
    await page.close();
  }
});

test('no adapter: the sentence is the page’s; what the browser said is kept apart, folded', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openPlayground(cpuBrowser, server.url);
  try {
    const fallback = await inShadow(page, (root) => ({
      text: root.querySelector('[data-testid="fallback-text"]').textContent,
      detail: root.querySelector('[data-testid="fallback-detail"]').textContent,
      open: root.querySelector('.fallback-details').open,
      hidden: root.querySelector('.fallback-details').hidden,
    }));
    assert.match(fallback.text, /found no adapter/);
    assert.doesNotMatch(fallback.text, /noop|not requested|RequestAdapter|wgpu/i);
    if (fallback.detail) {
      assert.equal(fallback.open, false);
      assert.equal(fallback.hidden, false);
      assert.ok(!fallback.text.includes(fallback.detail));
    }
  } finally {
    await page.close();
  }
});
