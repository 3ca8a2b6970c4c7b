// Keyboard only, as a visitor without a mouse (and a screen reader's user)
// meets the full page: the Tabs it takes to cross the element, one tab stop
// per grid (flags, the stepper's diagram, the tile window), a flag toggled and
// a whole scan stepped with keys alone, one short announcement per step and
// none while playing until the pause.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { READY_MS, TEST_TIMEOUT, ready, idle, results, stepLabel } from './helpers.mjs';
import { compact } from './oracle.mjs';
import { announcementsDuring } from './a11y.mjs';

/** The most Tabs that may cross one element with the stepper shown (every panel: the kernel panel's choice and three buttons among them). */
const MAX_TABS = 44;

const ctx = useBrowser({ site: true });

/** Where the focus is: inside the first playground (what, by test id and role) or outside. */
function focused(page) {
  return page.evaluate(() => {
    const host = document.querySelector('compaction-playground');
    if (document.activeElement !== host) return { inside: false, tag: document.activeElement?.localName ?? null };
    const el = host.shadowRoot.activeElement;
    return {
      inside: true,
      tag: el?.localName ?? null,
      testid: el?.dataset.testid ?? null,
      role: el?.getAttribute('role') ?? null,
      row: el?.dataset.row ?? null,
      col: el?.dataset.col ?? null,
      index: el?.dataset.index ?? null,
    };
  });
}

/** Presses Tab until `want(focus)` holds (at most `limit` times); returns the focus and the Tabs taken. */
async function tabUntil(page, want, limit = 200) {
  for (let k = 1; k <= limit; k++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (want(f)) return { focus: f, tabs: k };
  }
  throw new Error(`no focus like that within ${limit} Tabs`);
}

test('the full page by keyboard alone: few Tabs across the element, a flag toggled, a whole scan stepped, one announcement per step', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(READY_MS);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${ctx.site.assetsUrl}index.html#flags=1001101001&method=scan`);
    await ready(page);

    // Crossing the element: from its first stop to the first one after it.
    const entered = await tabUntil(page, (f) => f.inside);
    const crossed = await tabUntil(page, (f) => !f.inside);
    assert.ok(crossed.tabs <= MAX_TABS, `${crossed.tabs} Tabs to cross the element (at most ${MAX_TABS})`);
    assert.ok(entered.tabs >= 1);

    // One tab stop per grid: the flag grid and the stepper's diagram each take one Tab.
    await page.evaluate(() => document.activeElement?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    const stops = await page.evaluate(() => {
      const root = document.querySelector('compaction-playground').shadowRoot;
      const count = (sel) => [...root.querySelectorAll(sel)].filter((e) => e.tabIndex === 0).length;
      return { flags: count('[data-testid="flag-cell"]'), diagram: count('[data-testid="diagram"] [data-testid="cell"]') };
    });
    assert.deepEqual(stops, { flags: 1, diagram: 1 });

    // A flag toggled with the keyboard: into the grid, one to the right, Space.
    await tabUntil(page, (f) => f.testid === 'flag-cell', MAX_TABS);
    assert.equal((await focused(page)).index, '0', 'Tab enters the grid on its first cell');
    await page.keyboard.press('ArrowRight');
    assert.equal((await focused(page)).index, '1');
    await page.keyboard.press('Space');
    await idle(page);
    const flags = [1, 1, 0, 1, 1, 0, 1, 0, 0, 1];
    const got = await results(page);
    assert.deepEqual(got.indices, compact(flags), 'the result after toggling flag 1 by keyboard');
    // One Tab leaves the grid, whichever cell has the focus.
    await page.keyboard.press('Tab');
    assert.notEqual((await focused(page)).testid, 'flag-cell');

    // The whole scan stepped with Enter on the forward button.
    let focus = await tabUntil(page, (f) => f.testid === 'step-forward', MAX_TABS);
    assert.equal(focus.focus.testid, 'step-forward');
    const first = await stepLabel(page);
    const lines = [];
    for (let k = first.step; k < first.steps; k++) {
      const spoken = await announcementsDuring(page, () => page.keyboard.press('Enter'), 150);
      const label = await stepLabel(page);
      assert.equal(label.step, k + 1, 'Enter on the forward button took one step');
      assert.equal(spoken.length, 1, `one announcement for step ${label.step}: ${JSON.stringify(spoken)}`);
      assert.equal(spoken[0].testid, 'step-announce');
      assert.ok(spoken[0].text.length < 250, `announcement of ${spoken[0].text.length} characters`);
      assert.match(spoken[0].text, new RegExp(`^step ${label.step} of ${label.steps}: \\S`));
      lines.push(spoken[0].text);
    }
    assert.equal((await stepLabel(page)).step, first.steps, 'the last step reached');
    assert.equal(new Set(lines).size, lines.length, 'every step says something of its own');
    // The last step disabled the button: the focus went to the scrubber, not the page.
    focus = await focused(page);
    assert.equal(focus.testid, 'scrubber');
    // The narration is on the page, not spoken again.
    const narration = await page.$eval('[data-testid="step-text"]', (e) => ({ text: e.textContent, live: e.closest('[aria-live]')?.getAttribute('aria-live') ?? null }));
    assert.ok(narration.text.length > 0);
    assert.equal(narration.live, null);

    // Into the diagram: arrows move between its cells and do not step; one Tab leaves it.
    await page.keyboard.press('Home');
    assert.equal((await stepLabel(page)).step, 1);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const inDiagram = await tabUntil(page, (f) => f.role === 'gridcell', 30);
    const before = await stepLabel(page);
    await page.keyboard.press('ArrowRight');
    const moved = await focused(page);
    assert.equal(moved.role, 'gridcell');
    assert.equal(Number(moved.col), Number(inDiagram.focus.col) + 1, 'ArrowRight moved one cell');
    await page.keyboard.press('ArrowDown');
    assert.equal((await focused(page)).role, 'gridcell');
    await page.keyboard.press('End');
    assert.equal((await stepLabel(page)).step, before.step, 'keys in the diagram do not step');
    await page.keyboard.press('Tab');
    assert.notEqual((await focused(page)).role, 'gridcell', 'one Tab leaves the diagram');

    // Playing: nothing spoken while it plays faster than speech, one line on the pause.
    await page.focus('[data-testid="step-play"]');
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.keyboard.press('Home');
    // (A step stays up as long as its text takes to read: a few seconds at 4×.)
    const whilePlaying = await announcementsDuring(page, () => page.keyboard.press('p'), 5000);
    const playing = await stepLabel(page);
    assert.ok(playing.step > 1, 'it played');
    const onPause = await announcementsDuring(page, () => page.keyboard.press('p'), 200);
    assert.deepEqual(
      whilePlaying.filter((s) => s.testid === 'step-announce' && !/^step 1 of/.test(s.text)),
      [],
      'nothing announced while playing',
    );
    const paused = await stepLabel(page);
    const said = onPause.filter((s) => s.testid === 'step-announce');
    if (paused.step < paused.steps) {
      assert.equal(said.length, 1, `one announcement on the pause: ${JSON.stringify(onPause)}`);
      assert.match(said[0].text, new RegExp(`^step ${paused.step} of`));
    }

    // The tile view: one tab stop for its window of tiles, arrows inside.
    await page.check('[data-testid="method-lookback"]');
    await ready(page);
    const tileStops = await page.$$eval('[data-testid="tile-row"] .tile', (els) => els.filter((e) => e.tabIndex === 0).length);
    assert.equal(tileStops, 1);
    await page.focus('[data-testid="tile-row"] .tile[tabindex="0"]');
    const tile0 = await page.evaluate(() => document.querySelector('compaction-playground').shadowRoot.activeElement.dataset.tile);
    await page.keyboard.press('ArrowRight');
    const tile1 = await page.evaluate(() => document.querySelector('compaction-playground').shadowRoot.activeElement.dataset.tile);
    const tiles = await page.$$eval('[data-testid="tile-row"] .tile', (els) => els.length);
    if (tiles > 1) assert.notEqual(tile1, tile0, 'ArrowRight moved to the next tile');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
