// The order, benchmark and code panels and the downloads, in headless Chromium
// on SwiftShader. Numbers are checked against e2e/oracle.mjs, the code against
// the files in shaders/, the downloads against the run they came from.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { REPO_ROOT } from './browser.mjs';
import { compact, depthInversions, fnv1a, materialChanges, randomFlags, scanLevels } from './oracle.mjs';
import { TEST_TIMEOUT, openPlayground, idle, results, typeFlags, scrubTo, pageErrors, inShadow, applyPreset } from './helpers.mjs';
import { useBrowser } from './fixture.mjs';

const ctx = useBrowser({ server: true });

/** Clicks `testid` and returns the text of the file it downloads. */
async function downloaded(page, testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

function parseCsv(text) {
  const [header, ...rows] = text
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  return rows.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k]])));
}

test('order panel: each method drawn in its draw order; state changes, inversions and the history match the GPU’s index buffers', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.selectOption('[data-testid="order-size"]', '4096');
    await page.click('[data-testid="order-run"]');
    await page.waitForFunction(() => /Done/.test(document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="order-progress"]').textContent));
    await idle(page);
    const file = await downloaded(page, 'export-order-json');
    const { scene, runs } = JSON.parse(file.text);
    assert.equal(scene.n, 4096);
    const flags = randomFlags(scene.n, scene.density, scene.seed);
    const sorted = compact(flags);
    assert.equal(runs.length, 7);
    const rows = await page.$$eval('[data-testid="order-row"]', (els) => els.map((e) => ({ ...e.dataset, image: e.querySelector('[data-testid="order-image"]').width, text: e.textContent })));
    for (const run of runs) {
      assert.equal(run.frames.length, scene.frames, run.method);
      const order = run.frames[0];
      // Every method draws exactly the visible instances.
      assert.deepEqual(
        [...order].sort((a, b) => a - b),
        sorted,
        run.method,
      );
      const row = rows.find((r) => r.method === run.method);
      assert.ok(row, run.method);
      const changes = materialChanges(order, scene.n, scene.groups);
      const inversions = depthInversions(order);
      assert.equal(Number(row.stateChanges), changes, `${run.method} state changes`);
      assert.equal(Number(row.inversions), inversions, `${run.method} inversions`);
      assert.ok(row.text.includes(`${changes.toLocaleString('en')} (`) && row.text.includes(`${inversions.toLocaleString('en')} of`), row.text);
      assert.ok(row.image > 0, 'the GPU drew it');
      const changedPerFrame = run.frames.slice(1).map((f, k) => f.filter((v, s) => v !== run.frames[k][s]).length / f.length);
      const changed = changedPerFrame.reduce((a, b) => a + b, 0) / changedPerFrame.length;
      assert.ok(Math.abs(Number(row.changed) - changed) < 1e-9, `${run.method} changed slots`);
      if (['scan', 'lookback', 'lookback-bits', 'packed-scan'].includes(run.method)) {
        // The order-keeping methods draw the sort itself, the same every frame: no history error.
        for (const frame of run.frames) assert.deepEqual(frame, sorted, run.method);
        assert.equal(changes, new Set(sorted.map((i) => Math.floor(i / Math.ceil(scene.n / scene.groups)))).size - 1);
        assert.equal(inversions, 0);
        assert.equal(Number(row.error), 0);
      }
    }
    // The CSV holds the same buffers.
    const csv = parseCsv((await downloaded(page, 'export-order-csv')).text);
    const scanCsv = csv.filter((r) => r.method === 'scan' && r.frame === '0').map((r) => Number(r.index));
    assert.deepEqual(scanCsv, sorted);
    const note = await page.textContent('[data-testid="order-note"]');
    const atomic = runs.find((r) => r.method === 'atomic');
    if (depthInversions(atomic.frames[0]) === 0) assert.match(note, /kept the sorted order/);
    else assert.match(note, /this GPU’s index buffers/);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('benchmark panel: compile timed apart, a labelled timer, a table and two charts, downloadable; Cancel stops it', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    for (const m of ['aggregated', 'lookback', 'lookback-bits', 'tile-atomic', 'packed-scan']) await page.uncheck(`[data-testid="bench-method-${m}"]`);
    await page.selectOption('[data-testid="bench-max"]', '2048');
    await page.click('[data-testid="bench-run"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="bench-progress"]').dataset.state === 'done');
    const rows = await page.$$eval('[data-testid="bench-row"]', (els) => els.map((e) => ({ ...e.dataset })));
    assert.deepEqual(
      rows.map((r) => `${r.method}@${r.n}`),
      ['atomic@1024', 'atomic@2048', 'scan@1024', 'scan@2048'],
    );
    for (const r of rows) assert.ok(Number(r.us) > 0 && ['gpu', 'wall'].includes(r.timer), JSON.stringify(r));
    const timer = await page.$eval('[data-testid="bench-timer"]', (e) => ({ timer: e.dataset.timer, text: e.textContent }));
    assert.match(timer.text, timer.timer === 'gpu' ? /GPU timestamps/ : /wall clock/);
    const compiled = await page.$$eval('[data-testid="bench-compile-item"]', (els) => els.map((e) => ({ method: e.dataset.method, ms: Number(e.dataset.ms) })));
    assert.deepEqual(
      compiled.map((c) => c.method),
      ['atomic', 'scan'],
    );
    assert.ok(compiled.every((c) => c.ms > 0));
    const charts = await page.$$eval('[data-testid="bench-chart"] figure', (els) =>
      els.map((f) => ({ field: f.dataset.field, series: f.querySelectorAll('.series').length, points: f.querySelectorAll('circle').length })),
    );
    assert.deepEqual(charts, [
      { field: 'medianUs', series: 2, points: 4 },
      { field: 'gbps', series: 2, points: 4 },
    ]);
    const csv = parseCsv((await downloaded(page, 'export-bench-csv')).text);
    assert.deepEqual(
      csv.map((r) => [r.method, Number(r.n), r.check]),
      [
        ['atomic', 1024, 'count+sum'],
        ['atomic', 2048, 'count+sum'],
        ['scan', 1024, 'exact'],
        ['scan', 2048, 'exact'],
      ],
    );
    csv.forEach((r, k) => {
      assert.ok(Math.abs(Number(r.median_us) - Number(rows[k].us)) / Number(rows[k].us) < 1e-3);
    });
    // SwiftShader is software: the times say so.
    assert.match(timer.text, /say nothing about a hardware GPU/);

    // Every method: seven series, each in a colour of its own.
    for (const m of ['aggregated', 'lookback', 'lookback-bits', 'tile-atomic', 'packed-scan']) await page.check(`[data-testid="bench-method-${m}"]`);
    await page.selectOption('[data-testid="bench-max"]', '1024');
    await page.click('[data-testid="bench-run"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelectorAll('[data-testid="bench-row"]').length === 7);
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="bench-progress"]').dataset.state === 'done');
    const strokes = await page.$$eval('[data-testid="bench-chart"] figure[data-field="medianUs"] .series polyline', (els) => els.map((e) => getComputedStyle(e).stroke));
    assert.equal(strokes.length, 7, 'seven series');
    assert.equal(new Set(strokes).size, 7, `seven colours: ${strokes}`);

    // Cancel: a longer run stops after the measurement in flight.
    await page.selectOption('[data-testid="bench-max"]', String(2 ** 14));
    await page.click('[data-testid="bench-run"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelectorAll('[data-testid="bench-row"]').length >= 1);
    await page.click('[data-testid="bench-cancel"]');
    await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="bench-progress"]').dataset.state === 'cancelled');
    const after = await page.locator('[data-testid="bench-row"]').count();
    assert.ok(after >= 1 && after < 10, `${after} rows of 10`);
    assert.equal(await page.isDisabled('[data-testid="bench-cancel"]'), true);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('code panel: every module of every method is the files of shaders/ it names, joined; the current step’s lines are marked', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const methods = await page.$$eval('[data-testid="code-method"] option', (os) => os.map((o) => o.value));
    assert.deepEqual(methods, ['atomic', 'aggregated', 'scan', 'lookback', 'lookback-bits', 'tile-atomic', 'packed-scan']);
    for (const method of methods) {
      await page.selectOption('[data-testid="code-method"]', method);
      const modules = await page.$$eval('[data-testid="code-module"]', (els) =>
        els.map((e) => ({ label: e.dataset.module, files: e.dataset.files.split(' '), code: e.querySelector('pre code').textContent })),
      );
      assert.ok(modules.length >= 2, method);
      for (const m of modules) {
        const parts = await Promise.all(m.files.map((f) => readFile(path.join(REPO_ROOT, f), 'utf8')));
        assert.equal(m.code, parts.join('\n'), `${method}: ${m.label} is ${m.files.join(' + ')}`);
      }
      // The browser build has no subgroups: the look-back is the portable composition.
      const tiles = modules.find((m) => m.label === 'tiles');
      if (tiles) {
        assert.deepEqual(tiles.files, [
          'shaders/tiles.wgsl',
          'shaders/lookback.wgsl',
          'shaders/tile_atomic.wgsl',
          'shaders/tile_scatter_bits.wgsl',
          'shaders/tile_input.wgsl',
          'shaders/tile_write.wgsl',
          'shaders/lookback_portable.wgsl',
          'shaders/group_slots_none.wgsl',
          'shaders/lookback_stats.wgsl',
          'shaders/input.wgsl',
          'shaders/live.wgsl',
        ]);
      }
    }
    // Scan step 2 (a Hillis–Steele step) marks fn step in scan_block, in the panel and in the stepper.
    await page.selectOption('[data-testid="code-method"]', 'scan');
    await scrubTo(page, 2);
    const marked = await page.$$eval('[data-module="scan_block"] pre .marked', (els) => els.map((e) => e.textContent));
    const source = await readFile(path.join(REPO_ROOT, 'shaders/scan_block.wgsl'), 'utf8');
    assert.ok(marked.some((l) => /^fn step\(/.test(l)) && marked.at(-1) === '}', marked.join('\n'));
    assert.ok(source.includes(marked.join('\n')));
    const excerpt = await page.textContent('[data-testid="step-code"]');
    assert.ok(source.includes(excerpt) && /fn step\(/.test(excerpt), excerpt);
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('downloads: the flags, the run and both traces parse back equal to what was computed', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const flags = [1, 0, 2, 1, 0, 0, 1, 0, 1, 1, 0, 3];
    await typeFlags(page, flags.join(','));
    const expected = compact(flags);
    const f = JSON.parse((await downloaded(page, 'export-flags-json')).text);
    assert.deepEqual(f.flags, flags);
    assert.deepEqual(
      parseCsv((await downloaded(page, 'export-flags-csv')).text).map((r) => Number(r.flag)),
      flags,
    );
    const run = JSON.parse((await downloaded(page, 'export-result-json')).text);
    assert.deepEqual(run.indices, expected);
    assert.equal(run.hash, fnv1a(expected).toString(16).padStart(8, '0'));
    assert.equal(run.hash, (await page.textContent('[data-testid="hash"]')).trim(), 'the hash as the page shows it');
    assert.equal(run.instanceCount, (await results(page)).instanceCount);
    assert.deepEqual(
      parseCsv((await downloaded(page, 'export-result-csv')).text).map((r) => Number(r.index)),
      expected,
    );
    const scan = JSON.parse((await downloaded(page, 'export-scan-json')).text);
    const levels = scanLevels(flags);
    assert.deepEqual(
      scan.levels[0].steps.map((s) => s.slice(0, flags.length)),
      levels[0].steps.map((s) => s.slice(0, flags.length)),
    );
    assert.deepEqual(scan.indices, expected);
    const scanCsv = parseCsv((await downloaded(page, 'export-scan-csv')).text).filter((r) => r.level === '0');
    assert.deepEqual(
      scanCsv.map((r) => Number(r.prefix)),
      scan.levels[0].prefix,
    );

    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    const tiles = JSON.parse((await downloaded(page, 'export-tiles-json')).text);
    assert.equal(tiles.method, 'lookback');
    assert.deepEqual(tiles.indices, expected);
    assert.deepEqual(tiles.tiles.aggregate, [expected.length]);
    const tileCsv = parseCsv((await downloaded(page, 'export-tiles-csv')).text);
    assert.deepEqual(
      tileCsv.map((r) => [Number(r.aggregate), Number(r.exclusive), Number(r.inclusive)]),
      [[expected.length, 0, expected.length]],
    );
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('a first run compiles apart: the look-back’s compile time is shown beside, not inside, its run time', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await page.check('[data-testid="method-lookback"]');
    await idle(page);
    const compiled = Number(await page.$eval('[data-testid="compile-time"]', (e) => e.dataset.ms));
    const ran = Number(await page.$eval('[data-testid="run-backend"]', (e) => e.dataset.ms));
    assert.ok(compiled > 0 && ran > 0, `compile ${compiled} ms, run ${ran} ms`);
    assert.ok(ran < compiled, `the run (${ran} ms) does not include the compilation (${compiled} ms)`);
    await page.click('[data-testid="run"]');
    await idle(page);
    assert.equal(Number(await page.$eval('[data-testid="compile-time"]', (e) => e.dataset.ms)), compiled, 'compiled once');
    assert.deepEqual(pageErrors(log), []);
  } finally {
    await page.close();
  }
});

test('the atomic view: four-digit slots fit their cells; the repeat table at 5 000 flags fits the card; Run ×R shows progress beside its button', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await applyPreset(page, 'all', 4000);
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

    await applyPreset(page, 'random', 5000);
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
