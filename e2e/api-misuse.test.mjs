// The JS API used as a hostile or careless caller would: overlapping calls,
// wrong types and sizes, device losses, calls racing setFlags, and a long soak.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from './browser.mjs';
import { compact, fnv1a, randomFlags } from './oracle.mjs';
import { TEST_TIMEOUT, openPlayground, idle, results, typeFlags, flagCells } from './helpers.mjs';
import { openApi as openApiOn, traps } from './api.mjs';
import { useBrowser } from './fixture.mjs';

const run = promisify(execFile);

const ctx = useBrowser({ server: { allow: ['e2e/fixtures/'] } });

const openApi = () => openApiOn(ctx.browser, ctx.server);

test('overlapping calls all settle with their own answers; a call uses the flags set before it', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi();
  try {
    const flags = randomFlags(5000, 0.4, 7);
    const out = await page.evaluate(async (flags) => {
      const { Playground } = window.api;
      const pg = await Playground.create();
      pg.setFlags(new Uint32Array(flags));
      await pg.run('scan');
      const all = await Promise.all([pg.run('scan'), pg.run('scan'), pg.run('lookback'), pg.scanTrace(), pg.atomicTrace('atomic'), pg.tileTrace('tile-atomic')]);
      // The flags a run uses are the ones set before it was called.
      const early = pg.run('scan');
      pg.setFlags(new Uint32Array([1, 1, 0]));
      const late = pg.run('scan');
      const [a, b] = await Promise.all([early, late]);
      return { hashes: all.map((r) => r.hash), counts: all.map((r) => r.count), early: a.count, late: Array.from(b.indices), backend: pg.backend };
    }, flags);
    const expected = compact(flags);
    assert.equal(out.backend, 'gpu');
    assert.deepEqual(out.counts, Array(6).fill(expected.length));
    assert.deepEqual(out.hashes.slice(0, 4), Array(4).fill(fnv1a(expected)), 'scan, scan, lookback and the trace: the order-preserving hash');
    assert.equal(out.early, expected.length, 'the run made before setFlags used the earlier flags');
    assert.deepEqual(out.late, [0, 1]);
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
});

test('every export given wrong types or sizes throws an Error with a kind, and the module goes on working', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi();
  try {
    const report = await page.evaluate(async () => {
      const { Playground, parseFlags, encodeFlags, decodeFlags, presetFlags, hashWords, layout } = window.api;
      const pg = await Playground.create();
      const cpu = Playground.createCpu();
      const max = layout().maxFlags;
      const cases = {
        'create(42)': () => Playground.create(42),
        'run(42)': () => pg.run(42),
        'run(null)': () => pg.run(null),
        'run()': () => pg.run(),
        'run({})': () => pg.run({}),
        "run('magic')": () => pg.run('magic'),
        'cpu.run(7)': () => cpu.run(7),
        'setFlags(12)': () => pg.setFlags(12),
        'setFlags({})': () => pg.setFlags({}),
        "setFlags('1001')": () => pg.setFlags('1001'),
        'setFlags(Float32Array)': () => pg.setFlags(new Float32Array([0.5])),
        'setFlags(null)': () => pg.setFlags(null),
        'setFlags([1, -1])': () => pg.setFlags([1, -1]),
        'setFlags([0.5])': () => pg.setFlags([0.5]),
        'setFlags([2**32])': () => pg.setFlags([2 ** 32]),
        "setFlags(['1'])": () => pg.setFlags(['1']),
        'attachImage(-1, 5)': () => pg.attachImage(-1, 5),
        'attachImage(2**40, 5)': () => pg.attachImage(2 ** 40, 5),
        // 8192 × 8192 pinned 513 MiB of wasm memory for the page's life; drawOrder's image too.
        'attachImage(8192, 8192)': () => pg.attachImage(8192, 8192),
        "drawOrder('scan', 8192, 8192, 4)": () => pg.drawOrder('scan', 8192, 8192, 4),
        "attachImage('a', 5)": () => pg.attachImage('a', 5),
        'attachCanvas(42)': () => pg.attachCanvas(42),
        "tileTrace('lookback', 0)": () => pg.tileTrace('lookback', 0),
        "tileTrace('lookback', 2**40)": () => pg.tileTrace('lookback', 2 ** 40),
        "tileTrace('lookback', 4, 99999)": () => pg.tileTrace('lookback', 4, 99999),
        "tileTrace('scan')": () => pg.tileTrace('scan'),
        'atomicTrace(5)': () => pg.atomicTrace(5),
        "setKernel('tiles', '')": () => pg.setKernel('tiles', ''),
        "setKernel(5, 'x')": () => pg.setKernel(5, 'x'),
        "setKernel('scan_block', maxKernelBytes + 1)": () => pg.setKernel('scan_block', 'x'.repeat(layout().maxKernelBytes + 1)),
        "kernelModule('scan_block', 5)": () => pg.kernelModule('scan_block', 5),
        "cpu.setKernel('scan_block', 'x')": () => cpu.setKernel('scan_block', 'x'),
        'parseFlags(12)': () => parseFlags(12),
        'parseFlags({})': () => parseFlags({}),
        'parseFlags(null)': () => parseFlags(null),
        'parseFlags()': () => parseFlags(),
        "parseFlags('1 x')": () => parseFlags('1 x'),
        "encodeFlags('x')": () => encodeFlags('x'),
        'decodeFlags(5)': () => decodeFlags(5),
        "decodeFlags('w1073741824.')": () => decodeFlags('w1073741824.'),
        "decodeFlags('b+5.A')": () => decodeFlags('b+5.A'),
        "presetFlags('random', -1, 0.5, 1)": () => presetFlags('random', -1, 0.5, 1),
        "presetFlags('all', 2**30)": () => presetFlags('all', 2 ** 30, 0, 0),
        "presetFlags('random', 10, 2, 1)": () => presetFlags('random', 10, 2, 1),
        "presetFlags('random', 10, NaN, 1)": () => presetFlags('random', 10, NaN, 1),
        "presetFlags('random', 10, 0.5, -3)": () => presetFlags('random', 10, 0.5, -3),
        'presetFlags(5, 10, 0.5, 1)': () => presetFlags(5, 10, 0.5, 1),
        "presetFlags('nope', 10, 0.5, 1)": () => presetFlags('nope', 10, 0.5, 1),
        "hashWords('x')": () => hashWords('x'),
        'setFlags(maxFlags + 1)': () => pg.setFlags(new Uint32Array(max + 1)),
        'cpu.setFlags(maxFlags + 1)': () => cpu.setFlags(new Array(max + 1)),
      };
      const out = {};
      for (const [name, call] of Object.entries(cases)) {
        try {
          await call();
          out[name] = 'no error';
        } catch (e) {
          out[name] = e instanceof Error && typeof e.kind === 'string' ? e.kind : `${e?.constructor?.name}: ${e?.message} (no kind)`;
        }
      }
      // Still working after all of it.
      pg.setFlags(new Uint32Array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]));
      const r = await pg.run('scan');
      return { out, after: Array.from(r.indices) };
    });
    const expected = {
      'create(42)': 'type',
      'run(42)': 'type',
      'run(null)': 'type',
      'run()': 'type',
      'run({})': 'type',
      "run('magic')": 'unknown-method',
      'cpu.run(7)': 'type',
      'setFlags(12)': 'type',
      'setFlags({})': 'type',
      "setFlags('1001')": 'type',
      'setFlags(Float32Array)': 'type',
      'setFlags(null)': 'type',
      'setFlags([1, -1])': 'range',
      'setFlags([0.5])': 'range',
      'setFlags([2**32])': 'range',
      "setFlags(['1'])": 'type',
      'attachImage(-1, 5)': 'range',
      'attachImage(2**40, 5)': 'range',
      'attachImage(8192, 8192)': 'range',
      "drawOrder('scan', 8192, 8192, 4)": 'range',
      "attachImage('a', 5)": 'type',
      'attachCanvas(42)': 'type',
      "tileTrace('lookback', 0)": 'range',
      "tileTrace('lookback', 2**40)": 'range',
      "tileTrace('lookback', 4, 99999)": 'range',
      "tileTrace('scan')": 'not-tiled',
      'atomicTrace(5)': 'type',
      "setKernel('tiles', '')": 'unknown-kernel',
      "setKernel(5, 'x')": 'type',
      "setKernel('scan_block', maxKernelBytes + 1)": 'range',
      "kernelModule('scan_block', 5)": 'type',
      "cpu.setKernel('scan_block', 'x')": 'no-webgpu',
      'parseFlags(12)': 'type',
      'parseFlags({})': 'type',
      'parseFlags(null)': 'type',
      'parseFlags()': 'type',
      "parseFlags('1 x')": 'parse',
      "encodeFlags('x')": 'type',
      'decodeFlags(5)': 'type',
      "decodeFlags('w1073741824.')": 'too-large',
      "decodeFlags('b+5.A')": 'parse',
      "presetFlags('random', -1, 0.5, 1)": 'range',
      "presetFlags('all', 2**30)": 'too-large',
      "presetFlags('random', 10, 2, 1)": 'range',
      "presetFlags('random', 10, NaN, 1)": 'range',
      "presetFlags('random', 10, 0.5, -3)": 'range',
      'presetFlags(5, 10, 0.5, 1)': 'type',
      "presetFlags('nope', 10, 0.5, 1)": 'parse',
      "hashWords('x')": 'type',
      'setFlags(maxFlags + 1)': 'too-large',
      'cpu.setFlags(maxFlags + 1)': 'too-large',
    };
    assert.deepEqual(report.out, expected);
    assert.deepEqual(report.after, [0, 3, 4, 6, 9]);
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
});

test('maxFlags is the page’s limit too, and one more is refused in milliseconds without growing wasm memory', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi();
  let limit;
  try {
    const out = await page.evaluate(async () => {
      const { Playground, layout, presetFlags } = window.api;
      const pg = await Playground.create();
      const big = new Uint32Array(pg.maxFlags + 1);
      const before = window.wasmMemory.buffer.byteLength;
      const t0 = performance.now();
      const kinds = [];
      for (const call of [() => pg.setFlags(big), () => presetFlags('all', pg.maxFlags + 1, 0, 0)]) {
        try {
          call();
        } catch (e) {
          kinds.push(e.kind);
        }
      }
      return { kinds, ms: performance.now() - t0, grew: window.wasmMemory.buffer.byteLength - before, max: pg.maxFlags, layout: layout().maxFlags };
    });
    console.log(`maxFlags ${out.max}: maxFlags + 1 refused in ${out.ms.toFixed(2)} ms, wasm memory grew by ${out.grew} bytes`);
    assert.deepEqual(out.kinds, ['too-large', 'too-large']);
    assert.ok(out.ms < 500, `${out.ms} ms`);
    assert.equal(out.grew, 0);
    assert.equal(out.max, out.layout, 'one limit for the page and the API (this device binds at least as many)');
    limit = out.layout;
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
  // The page's size box takes the same limit.
  const { page: pg, log: log2 } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    const max = await pg.$eval('[data-testid="size"]', (e) => Number(e.max));
    assert.equal(max, limit, 'the size box takes what the wasm takes');
    assert.deepEqual(traps(log2), []);
  } finally {
    await pg.close();
  }
});

test('events reach only their own playground; create() from the device-lost callback works; calls after a loss say device-lost', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi();
  try {
    const out = await page.evaluate(async () => {
      const { Playground } = window.api;
      const heard = { one: [], two: [], three: [] };
      let reopened = null;
      const _one = await Playground.create((kind) => {
        heard.one.push(kind);
        // Recovering from inside the callback, as a page would.
        if (kind === 'device-lost') reopened = Playground.create((k) => heard.three.push(k));
      });
      const two = await Playground.create((kind) => heard.two.push(kind));
      const shared = window.devices.length;
      two.setFlags(new Uint32Array([1, 0, 1]));
      for (const d of window.devices) d.destroy();
      await new Promise((r) => setTimeout(r, 500));
      let afterLoss;
      try {
        await two.run('scan');
        afterLoss = 'no error';
      } catch (e) {
        afterLoss = e.kind;
      }
      let setAfter;
      try {
        two.setFlags(new Uint32Array([1]));
        setAfter = 'no error';
      } catch (e) {
        setAfter = e.kind;
      }
      two.free();
      const three = await reopened;
      three.setFlags(new Uint32Array([0, 1, 1]));
      const r = await three.run('scan');
      const heardBefore = JSON.parse(JSON.stringify(heard));
      // The new device's loss reaches the new playground only; the freed one hears nothing.
      for (const d of window.devices) d.destroy();
      await new Promise((r) => setTimeout(r, 500));
      return { shared, heardBefore, heard, afterLoss, setAfter, indices: Array.from(r.indices), backend: three.backend };
    });
    assert.equal(out.shared, 1, 'the two playgrounds shared one device');
    assert.deepEqual(out.heardBefore, { one: ['device-lost'], two: ['device-lost'], three: [] });
    assert.deepEqual(out.heard, { one: ['device-lost'], two: ['device-lost'], three: ['device-lost'] });
    assert.equal(out.afterLoss, 'device-lost');
    assert.equal(out.setAfter, 'device-lost');
    assert.equal(out.backend, 'gpu');
    assert.deepEqual(out.indices, [1, 2]);
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
});

test('a link that names no flags keeps the visitor’s flags; every ignored part of a link is named', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.browser, ctx.server.url);
  try {
    await typeFlags(page, '1 1 0 0 1 0 1');
    await page.evaluate(() => {
      location.hash = '#method=atomic&colour=blue';
    });
    await page.waitForFunction(() => document.querySelector('compaction-playground').method === 'atomic');
    await idle(page);
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      [1, 1, 0, 0, 1, 0, 1],
      'the typed flags stay',
    );
    assert.deepEqual(
      [...(await results(page)).indices].sort((a, b) => a - b),
      [0, 1, 4, 6],
    );
    assert.match(await page.textContent('[data-testid="alert-hash"]'), /ignored: “colour=blue”/);
    await page.evaluate(() => {
      location.hash = '#garbage%%%';
    });
    await page.waitForFunction(() => /“garbage%%%”/.test(document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="alert-hash"]')?.textContent ?? ''));
    assert.deepEqual(
      (await flagCells(page)).map((c) => c.value),
      [1, 1, 0, 0, 1, 0, 1],
    );
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
});

test('the scan’s hash in the browser equals the CLI’s on the same flags (native, lavapipe)', { timeout: TEST_TIMEOUT }, async () => {
  const cli = path.join(REPO_ROOT, 'target', 'release', 'compact');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compaction-cli-'));
  const cases = [randomFlags(70_000, 0.3, 5), randomFlags(257, 0.5, 9), [0, 0, 0], [2, 0, 0xffffffff, 1]];
  const { page, log } = await openApi();
  try {
    for (const flags of cases) {
      const file = path.join(dir, `${flags.length}.txt`);
      await writeFile(file, flags.join(' '));
      const { stdout } = await run(cli, ['--method', 'scan', '--input', file], { maxBuffer: 1 << 26, env: { ...process.env, WGPU_BACKEND: 'vulkan' } });
      const native = JSON.parse(stdout).indices;
      const browserHash = await page.evaluate(async (flags) => {
        const pg = await window.api.Playground.create();
        pg.setFlags(new Uint32Array(flags));
        const r = await pg.run('scan');
        pg.free();
        return r.hash >>> 0;
      }, flags);
      assert.deepEqual(native, compact(flags));
      assert.equal(browserHash, fnv1a(native), `n = ${flags.length}`);
    }
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('soak: 1 000 compactions in one page keep memory flat and do not slow down', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi();
  const expected = compact(randomFlags(20_000, 0.5, 3)).length;
  try {
    const out = await page.evaluate(async (expected) => {
      const { Playground, presetFlags } = window.api;
      const pg = await Playground.create();
      const flags = presetFlags('random', 20_000, 0.5, 3);
      const methods = ['scan', 'atomic', 'lookback', 'tile-atomic'];
      const times = [];
      const memory = [];
      for (let k = 0; k < 1000; k++) {
        if (k % 100 === 0) {
          pg.setFlags(flags);
          memory.push(window.wasmMemory.buffer.byteLength);
        }
        const t0 = performance.now();
        const r = await pg.run(methods[k % methods.length]);
        times.push(performance.now() - t0);
        if (r.count !== expected) throw new Error(`run ${k}: count ${r.count}, expected ${expected}`);
      }
      memory.push(window.wasmMemory.buffer.byteLength);
      const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
      return { memory, first: mean(times.slice(100, 200)), last: mean(times.slice(900)), heap: performance.memory?.usedJSHeapSize ?? null };
    }, expected);
    const mib = (b) => (b / 2 ** 20).toFixed(1);
    console.log(
      `soak: wasm memory ${out.memory.map(mib).join(' → ')} MiB; mean run ${out.first.toFixed(2)} ms (runs 100-199) → ${out.last.toFixed(2)} ms (runs 900-999); JS heap ${out.heap ? mib(out.heap) : '?'} MiB`,
    );
    // Pools grow while each method meets its first arrays, then stay.
    assert.equal(out.memory.at(-1), out.memory[5], 'wasm memory is flat over the last 500 runs');
    assert.ok(out.memory.at(-1) <= 2 * out.memory[0], 'and at most twice what it was after the first run');
    assert.ok(out.last < out.first * 2 + 2, `no slowdown: ${out.first} → ${out.last} ms`);
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
});
