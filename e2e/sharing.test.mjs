// One playground's long GPU work never holds the others: a benchmark is one turn on the
// page's GPU per sample, so another playground's call waits for one sample, not
// for the whole benchmark, and an AbortSignal stops it before its next sample;
// a large run on a software adapter is recorded in slices, one turn each.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { TEST_TIMEOUT } from './helpers.mjs';
import { openApi, traps } from './api.mjs';

const ctx = useBrowser({ server: { allow: ['e2e/fixtures/'] } });

test('a long benchmark lets another playground run between its samples, and its AbortSignal stops it within a sample', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi(ctx.browser, ctx.server);
  try {
    const report = await page.evaluate(async () => {
      const { Playground } = window.api;
      const long = await Playground.create();
      const other = await Playground.create();
      other.setFlags(new Uint32Array([1, 0, 1]));
      await other.run('scan');
      const n = 2 ** 18;
      // One sample, to know what one costs here.
      const t0 = performance.now();
      await long.benchmark('scan', n, 4, 1);
      const sampleMs = performance.now() - t0;
      const events = [];
      const started = performance.now();
      // 64 samples: far longer than the other call and the abort below take.
      const controller = new AbortController();
      const stopped = long.benchmark('scan', n, 4, 64, controller.signal).then(
        () => ({ kind: null, at: performance.now() }),
        (e) => ({ kind: e.kind, at: performance.now() }),
      );
      await new Promise((r) => setTimeout(r, 2 * sampleMs));
      const asked = performance.now();
      const r = await other.run('scan');
      const waitedMs = performance.now() - asked;
      events.push(['other', performance.now() - started]);
      // Still running (the other call went between its samples): aborted, it
      // rejects with 'aborted' within a sample.
      await new Promise((r) => setTimeout(r, sampleMs));
      const abortedAt = performance.now();
      controller.abort();
      const outcome = await stopped;
      events.push([outcome.kind === 'aborted' ? 'bench aborted' : 'bench', outcome.at - started]);
      const badSignal = await long.benchmark('scan', 10, 1, 1, { aborted: true }).then(
        () => null,
        (e) => e.kind,
      );
      long.free();
      other.free();
      return { sampleMs, waitedMs, events, indices: [...r.indices], outcome, stopMs: outcome.at - abortedAt, badSignal };
    });
    assert.deepEqual(report.indices, [0, 2]);
    assert.equal(report.events[0][0], 'other', `the other playground answered first: ${JSON.stringify(report.events)}`);
    assert.ok(report.waitedMs < Math.max(1000, 4 * report.sampleMs), `the other call waited ${report.waitedMs.toFixed(0)} ms (a sample takes ${report.sampleMs.toFixed(0)} ms)`);
    assert.equal(report.outcome.kind, 'aborted');
    assert.ok(report.stopMs < Math.max(1000, 4 * report.sampleMs), `stopped ${report.stopMs.toFixed(0)} ms after the abort`);
    assert.equal(report.badSignal, 'type', 'a signal that is no AbortSignal is refused');
    assert.deepEqual(traps(log), []);
    console.log(`# a sample ${report.sampleMs.toFixed(0)} ms; the other call waited ${report.waitedMs.toFixed(0)} ms; stopped ${report.stopMs.toFixed(0)} ms after the abort`);
  } finally {
    await page.close();
  }
});

test('on a software adapter a benchmark goes in slices: Cancel of a 16-rep sample at 2^22 stops it within a slice, not a sample', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi(ctx.browser, ctx.server);
  try {
    const report = await page.evaluate(async () => {
      const { Playground } = window.api;
      const long = await Playground.create();
      const controller = new AbortController();
      const started = performance.now();
      // One sample of 16 scans of 2^22 flags: about a minute on SwiftShader.
      const stopped = long.benchmark('scan', 2 ** 22, 16, 1, controller.signal).then(
        () => ({ kind: null, at: performance.now() }),
        (e) => ({ kind: e.kind, at: performance.now() }),
      );
      await new Promise((r) => setTimeout(r, 6000));
      const abortedAt = performance.now();
      controller.abort();
      const outcome = await stopped;
      long.free();
      return { kind: outcome.kind, stopMs: outcome.at - abortedAt, ranMs: abortedAt - started };
    });
    assert.equal(report.kind, 'aborted', JSON.stringify(report));
    assert.ok(report.stopMs < 2000, `stopped ${report.stopMs.toFixed(0)} ms after the abort`);
    assert.deepEqual(traps(log), []);
    console.log(`# aborted after ${report.ranMs.toFixed(0)} ms; stopped ${report.stopMs.toFixed(0)} ms later`);
  } finally {
    await page.close();
  }
});

test('a large run on a software adapter lets another playground run between its slices, and is exact', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi(ctx.browser, ctx.server);
  try {
    const report = await page.evaluate(async () => {
      const { Playground, presetFlags } = window.api;
      const long = await Playground.create();
      const other = await Playground.create();
      other.setFlags(new Uint32Array([1, 0, 1]));
      await other.run('scan');
      const flags = presetFlags('random', 1 << 22, 0.5, 9);
      long.setFlags(flags);
      await long.run('scan'); // its pipelines and buffers warm
      const started = performance.now();
      const run = long.run('scan').then((r) => ({ hash: r.hash, count: r.count, ms: performance.now() - started }));
      let finished = false;
      run.then(() => {
        finished = true;
      });
      // The other playground asks again and again while the long run goes on.
      const waits = [];
      let indices = null;
      while (!finished) {
        const asked = performance.now();
        const r = await other.run('scan');
        waits.push(performance.now() - asked);
        indices = [...r.indices];
      }
      const cpu = Playground.createCpu();
      cpu.setFlags(flags);
      const want = await cpu.run('scan');
      const got = await run;
      // 2^22 flags come back in part (their count and first indices): the rest, and its hash, from the run's buffers.
      const rest = await long.readRun();
      got.partial = rest !== null;
      got.hash = rest?.hash ?? got.hash;
      const backend = long.backend;
      long.free();
      other.free();
      cpu.free();
      return { got, want: { hash: want.hash, count: want.count }, waits, indices, backend };
    });
    assert.equal(report.backend, 'gpu');
    assert.equal(report.got.count, report.want.count);
    assert.equal(report.got.partial, true, '2^22 flags come back in part');
    assert.equal(report.got.hash, report.want.hash, 'the sliced scan, bit for bit the CPU reference');
    assert.deepEqual(report.indices, [0, 2]);
    const longest = Math.max(...report.waits);
    assert.ok(report.waits.length >= 4, `the other playground ran ${report.waits.length} times during a ${report.got.ms.toFixed(0)} ms run`);
    // About a slice (0.5 s on SwiftShader), never the run: a third of it at most on a loaded machine.
    assert.ok(longest < Math.max(1500, report.got.ms / 3), `the other call waited up to ${longest.toFixed(0)} ms of a ${report.got.ms.toFixed(0)} ms run`);
    assert.deepEqual(traps(log), []);
    console.log(`# a ${report.got.ms.toFixed(0)} ms run of 2^22 flags; the other playground ran ${report.waits.length} times, waiting at most ${longest.toFixed(0)} ms`);
  } finally {
    await page.close();
  }
});
