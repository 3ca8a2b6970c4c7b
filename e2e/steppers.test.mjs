// The stepper follows the chosen method (headless Chromium, WebGPU on
// SwiftShader): atomic, aggregated and packed-scan step their own kernels from
// their own buffers, checked against an independent JavaScript computation
// (e2e/oracle.mjs); the drawIndirect picture colours each object by its place
// in the draw; the search for a size where the atomic order changes says what
// it found, or plainly that this adapter never reorders.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { compact, randomFlags } from './oracle.mjs';
import { TEST_TIMEOUT, openPlayground, idle, results, pageErrors, stepLabel, typeFlags, scrubTo } from './helpers.mjs';
import { useBrowser } from './fixture.mjs';

const ctx = useBrowser({ server: true });

// 300 flags: two atomic workgroups of 64 and more, two blocks of 256.
const FLAGS = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 || (i > 200 && i % 5 === 0) ? 1 : 0));

/** The cells of row `row` of the diagram: `[{ i, value }]`. */
function cellsOf(page, row) {
  return page.$$eval(`[data-testid="diagram"] [data-testid="cell"][data-row="${row}"]`, (els) => els.map((e) => ({ i: Number(e.dataset.i), value: e.dataset.value })));
}

/** Steps forward until the step is of `kind`. */
async function forwardTo(page, kind) {
  for (let k = 0; k < 40; k++) {
    if ((await stepLabel(page)).kind === kind) return;
    await page.click('[data-testid="step-forward"]');
  }
  throw new Error(`no ${kind} step`);
}

async function choose(page, method) {
  await page.check(`[data-testid="method-${method}"]`);
  await idle(page);
  if (await page.isEnabled('[data-testid="step-first"]')) await page.click('[data-testid="step-first"]');
  const heading = await page.$eval('[data-testid="scan-card"] h2', (e) => e.textContent);
  assert.match(heading, new RegExp(method), `the card names ${method}`);
  assert.match(await page.textContent('[data-testid="stepping"]'), new RegExp(`\`?${method}`), 'the stepper names the method');
}

test('each method steps its own kernels from its own buffers', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await typeFlags(page, FLAGS.join(' '));
    const visible = compact(FLAGS);

    for (const method of ['atomic', 'aggregated']) {
      await choose(page, method);
      const code = await page.textContent('[data-testid="step-code"]');
      assert.match(code, new RegExp(`fn ${method === 'atomic' ? 'atomic_counter' : 'atomic_aggregated'}`), `${method}: its kernel's code`);
      // The workgroup chooser: 64 flags each.
      assert.equal((await page.$$('[data-testid="block-select"] option')).length, Math.ceil(FLAGS.length / 64));
      await forwardTo(page, 'write');
      // The indices the GPU wrote: every visible index once; each slot shown points at its own index.
      const indices = (await cellsOf(page, 'indices')).map((c) => Number(c.value));
      assert.deepEqual(
        [...indices].sort((a, b) => a - b),
        visible,
        `${method}: a permutation of the visible indices`,
      );
      for (let block = 0; block < Math.ceil(FLAGS.length / 64); block++) {
        await page.selectOption('[data-testid="block-select"]', String(block));
        for (const cell of await cellsOf(page, method === 'atomic' ? 'slot' : 'local')) {
          if (FLAGS[cell.i] === 0) assert.equal(cell.value, '·', `flag ${cell.i} is invisible`);
          else assert.equal(indices[Number(cell.value)], cell.i, `${method}: indices[slot of ${cell.i}] = ${cell.i}`);
        }
      }
      if (method === 'aggregated') {
        // Each workgroup's visible flags land in one contiguous run.
        for (let g = 0; g * 64 < FLAGS.length; g++) {
          const slots = indices.flatMap((i, k) => (Math.floor(i / 64) === g ? [k] : []));
          assert.equal(slots.at(-1) - slots[0] + 1, slots.length, `workgroup ${g}'s run is contiguous`);
        }
        await page.click('[data-testid="step-first"]');
        await forwardTo(page, 'reserve');
        const groups = (await cellsOf(page, 'group')).map((c) => Number(c.value));
        assert.deepEqual(
          [...groups].sort((a, b) => a - b),
          [0, 1, 2, 3, 4],
          'every workgroup with a visible flag reserved once',
        );
      }
    }

    await choose(page, 'packed-scan');
    assert.match(await page.textContent('[data-testid="step-code"]'), /fn pack_bits_counted/);
    // Block 1 (flags 256–299): two words of bits.
    await page.selectOption('[data-testid="block-select"]', '1');
    const words = (await cellsOf(page, 'bits')).map((c) => c.value);
    const word = (w) => FLAGS.slice(32 * w, 32 * w + 32).reduce((acc, f, k) => (f ? acc | (1 << k) : acc), 0) >>> 0;
    assert.deepEqual(
      words,
      [8, 9].map((w) => `0x${word(w).toString(16).padStart(8, '0')}`),
    );
    await forwardTo(page, 'count');
    assert.deepEqual(
      (await cellsOf(page, 'counts')).map((c) => Number(c.value)),
      [visible.length],
      'one tile of 4096, its count',
    );
    await forwardTo(page, 'scatter');
    for (const cell of await cellsOf(page, 'slot')) {
      if (FLAGS[cell.i] === 0) assert.equal(cell.value, '·');
      else assert.equal(Number(cell.value), visible.indexOf(cell.i), `flag ${cell.i}'s slot is its rank`);
    }

    // Back to the scan: its own steps, and the code panel marks no other method's function.
    await choose(page, 'scan');
    assert.equal((await stepLabel(page)).kind, 'load');
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('the draw colours each object by its place in the draw', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await typeFlags(page, FLAGS.join(' '));
    for (const method of ['scan', 'atomic']) {
      await page.check(`[data-testid="method-${method}"]`);
      await idle(page);
      const { indices } = await results(page);
      const colours = await page.$eval(
        '[data-testid="draw-canvas"]',
        (canvas, { n, order }) => {
          const { width, height } = canvas;
          // Grid::fit (playground/src/draw_instances.rs): square-ish cells, one per flag.
          const cols = Math.min(n, Math.max(1, Math.ceil(Math.sqrt((n * width) / height))));
          const rows = Math.ceil(n / cols);
          const ctx2d = canvas.getContext('2d');
          return order.map((i) => {
            const x = Math.floor(((i % cols) + 0.5) * (width / cols));
            const y = Math.floor((Math.floor(i / cols) + 0.5) * (height / rows));
            return Array.from(ctx2d.getImageData(x, y, 1, 1).data.slice(0, 3));
          });
        },
        { n: FLAGS.length, order: indices },
      );
      colours.forEach((rgb, slot) => {
        // The shader's position_colour, computed here independently.
        const t = (0.85 * slot) / FLAGS.length;
        const want = [0, 2, 4].map((k) => Math.round(255 * (0.55 + 0.4 * Math.cos(2 * Math.PI * (t + k / 6)))));
        assert.ok(
          rgb.every((c, k) => Math.abs(c - want[k]) <= 3),
          `${method}: object ${indices[slot]}, drawn ${slot}th, is ${rgb}, wants ${want}`,
        );
      });
    }
    assert.ok(await page.isVisible('[data-testid="draw-key"]'), 'a key of the colours');
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('a link’s stepper opens its offsets step on a block that adds something; Left and Right on the method radios change the method', { timeout: TEST_TIMEOUT }, async () => {
  // 600 flags: three blocks; steps 1–11 scan level 0, 12–22 level 1, 23 adds the offsets to level 0.
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url, '#preset=random&n=600&density=0.5&seed=1&method=scan&step=23');
  try {
    await idle(page);
    const label = await stepLabel(page);
    assert.deepEqual([label.step, label.kind], [23, 'offsets']);
    assert.notEqual(await page.$eval('[data-testid="block-select"]', (s) => s.value), '0', 'block 0 adds 0');
    // The count has one source in the steps: the top level's block sum (step 22), where the result step finds it.
    const top = await scrubTo(page, 22);
    assert.equal(top.kind, 'blocksum');
    assert.match(await page.textContent('[data-testid="step-text"]'), /top level, a single block, so its sum \d+ is the number of visible flags/);
    await scrubTo(page, 25);
    assert.match(await page.textContent('[data-testid="step-text"]'), /Their count is the top level’s block sum/);
    await scrubTo(page, 23);
    // The method's radios: their arrows are theirs, not the stepper's.
    await page.focus('[data-testid="method-scan"]');
    await page.keyboard.press('ArrowRight');
    await idle(page);
    assert.equal(await page.isChecked('[data-testid="method-scan"]'), false, 'ArrowRight left the scan');
    await page.keyboard.press('ArrowLeft');
    await idle(page);
    assert.equal(await page.isChecked('[data-testid="method-scan"]'), true, 'ArrowLeft came back');
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('the search for a reordering shows the orders, or says plainly that this adapter keeps one', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.click('[data-testid="reorder-search"]');
    await page.waitForSelector('[data-testid="reorder-result"]:not([hidden])', { timeout: 240_000 });
    await idle(page);
    const found = await page.getAttribute('[data-testid="reorder-result"]', 'data-found');
    const text = await page.textContent('[data-testid="reorder-result"]');
    if (found === 'true') {
      const hashes = await page.$$eval('[data-testid^="repeat-hash-"]', (els) => els.map((e) => `${e.dataset.testid} ${e.textContent}`));
      const distinct = (m) => new Set(hashes.filter((x) => x.startsWith(`repeat-hash-${m} `))).size;
      assert.ok(distinct('atomic') > 1 || distinct('aggregated') > 1 || distinct('tile-atomic') > 1, text);
      assert.equal(distinct('scan'), 1, 'the scan keeps one buffer');
      // Where a method kept its order beside them, the reason reads as one sentence.
      const why = await page.$$eval('[data-testid="verdict-why"]', (els) => els.map((e) => e.textContent));
      for (const line of why) assert.doesNotMatch(line, /, and with/, line);
      // The flags found are offered to the page: the editor, the result and the stepper then show them.
      const n = Number(/At ([\d,]+) random flags/.exec(text)[1].replaceAll(',', ''));
      const moved = ['atomic', 'aggregated', 'tile-atomic'].filter((m) => distinct(m) > 1);
      await page.click('[data-testid="reorder-use"]');
      await idle(page);
      assert.equal(await page.inputValue('[data-testid="size"]'), String(n));
      const r = await results(page);
      assert.equal(r.count, compact(randomFlags(n, 0.5, 1)).length);
      assert.ok(moved.includes(r.method), `${r.method} is one of ${moved}`);
    } else {
      // SwiftShader: WebGPU on the CPU, said once, with its name.
      assert.match(text, /WebGPU on the CPU/);
      assert.match(text, /SwiftShader|swiftshader/i);
    }
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('a language switch keeps the runs ×R, the order panel’s draws and the benchmark’s results', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.fill('[data-testid="repeat-count"]', '2');
    await page.click('[data-testid="repeat-run"]');
    await page.waitForSelector('[data-testid="repeat-table"]:not([hidden])');
    await idle(page);
    await page.selectOption('[data-testid="order-size"]', '4096');
    await page.click('[data-testid="order-run"]');
    await page.waitForFunction(() => /Done/.test(document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="order-progress"]').textContent));
    for (const m of ['aggregated', 'scan', 'lookback', 'lookback-bits', 'tile-atomic', 'packed-scan']) await page.uncheck(`[data-testid="bench-method-${m}"]`);
    await page.selectOption('[data-testid="bench-max"]', '1024');
    await page.click('[data-testid="bench-run"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="bench-progress"]').dataset.state === 'done');
    await idle(page);
    const shown = () =>
      page.evaluate(() => {
        const root = document.querySelector('compaction-playground').shadowRoot;
        const all = (id) => [...root.querySelectorAll(`[data-testid="${id}"]`)];
        return {
          repeats: all('repeat-row').length,
          hashes: all('repeat-hash-scan').map((e) => e.textContent),
          orders: all('order-row').map((e) => `${e.dataset.method} ${e.dataset.stateChanges} ${e.dataset.inversions}`),
          bench: all('bench-row').map((e) => `${e.dataset.method}@${e.dataset.n}`),
        };
      });
    const before = await shown();
    assert.equal(before.repeats, 2);
    assert.ok(before.orders.length >= 2 && before.bench.length === 1, JSON.stringify(before));
    await page.selectOption('[data-testid="lang-select"]', 'es');
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('.pg').lang === 'es');
    await idle(page);
    assert.deepEqual(await shown(), before, 'the same results, now in Spanish');
    assert.match(await page.textContent('[data-testid="repeat-verdict"]'), /ejecuciones/);
    // A bad token is said in Spanish too, counted from 0 as the grid counts.
    await page.fill('[data-testid="flag-text"]', '1 0 x');
    await page.click('[data-testid="flag-text-apply"]');
    assert.match(await page.textContent('[data-testid="flag-text-error"]'), /el elemento 2 \(`x`\) no es un u32 decimal/);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});
