// Hostile JS values at the wasm boundary, and handles that are not live: typed
// arrays whose `length` lies (before and after wasm memory grew), throwing
// getters, Proxies (throwing, revoked), detached and cross-realm buffers,
// subclasses, objects whose `constructor` throws, arrays with element getters,
// thrown at every entry point that takes a value. Each call either answers
// from the array's real words or refuses with an Error that has a `.kind`; the
// wasm never traps, and every other playground of the page still gives exact
// answers, then frees cleanly.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { compact, fnv1a } from './oracle.mjs';
import { TEST_TIMEOUT } from './helpers.mjs';
import { openApi, traps } from './api.mjs';

// The hostile values, made fresh for each call (a lying getter counts its reads).
function hostileValues() {
  let frame = document.getElementById('foreign-realm');
  if (!frame) {
    frame = Object.assign(document.createElement('iframe'), { id: 'foreign-realm' });
    document.body.append(frame);
  }
  const Foreign = frame.contentWindow.Uint32Array;
  const lying = (lengths) => () => {
    const a = new Uint32Array([1, 0, 1, 1]);
    let k = 0;
    Object.defineProperty(a, 'length', { get: () => lengths[Math.min(k++, lengths.length - 1)] });
    return a;
  };
  class Longer extends Uint32Array {
    get length() {
      return 2 ** 20;
    }
  }
  const throwing = () => {
    throw new Error('hostile getter');
  };
  const detached = () => {
    const a = new Uint32Array([1, 1, 1]);
    structuredClone(a.buffer, { transfer: [a.buffer] });
    return a;
  };
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable(new Uint32Array([1, 0, 1]), {});
    revoke();
    return proxy;
  };
  const traps = { get: throwing, getPrototypeOf: throwing, has: throwing, ownKeys: throwing, getOwnPropertyDescriptor: throwing };
  const growing = () => {
    const a = [1, 0];
    Object.defineProperty(a, 1, {
      get() {
        for (let i = 0; i < 1000; i++) a.push(1);
        return 0;
      },
    });
    return a;
  };
  return {
    // [what, make, the words it really holds (an answer must come from these), or null: refused]
    'lying length 3,3,2^20': [lying([3, 3, 2 ** 20, 2 ** 20]), [1, 0, 1, 1]],
    'lying length 100000': [lying([100_000]), [1, 0, 1, 1]],
    'lying length 2^40': [lying([2 ** 40]), [1, 0, 1, 1]],
    'throwing length': [
      () => {
        const a = new Uint32Array([1, 1]);
        Object.defineProperty(a, 'length', { get: throwing });
        return a;
      },
      [1, 1],
    ],
    'subclass with a longer length': [() => Longer.from([0, 1, 1]), [0, 1, 1]],
    'cross-realm Uint32Array': [() => new Foreign([1, 0, 0, 1]), [1, 0, 0, 1]],
    'subarray at an offset': [() => new Uint32Array([9, 9, 1, 0, 1, 9]).subarray(2, 5), [1, 0, 1]],
    'detached Uint32Array': [detached, []],
    'Proxy of a Uint32Array, throwing traps': [() => new Proxy(new Uint32Array([1, 0]), traps), null],
    'revoked Proxy': [revoked, null],
    'Proxy of an array, throwing traps': [() => new Proxy([1, 0, 1], traps), null],
    'array with a throwing element': [
      () => {
        const a = [1, 0, 1];
        Object.defineProperty(a, 1, { get: throwing });
        return a;
      },
      null,
    ],
    'array whose element getter grows it': [growing, [1, 0]],
    'object whose constructor throws': [
      () => ({
        get constructor() {
          throw new Error('hostile');
        },
      }),
      null,
    ],
    'object whose toString throws': [() => ({ toString: throwing, valueOf: throwing }), null],
  };
}

/** A page of the JS API with `hostileValues()` as window.hostileValues (it runs there). */
async function openHostile() {
  const opened = await openApi(ctx.browser, ctx.server);
  await opened.page.evaluate(`window.hostileValues = ${hostileValues}`);
  return opened;
}

const ctx = useBrowser({ server: { allow: ['e2e/fixtures/'] } });

test('hostile values at every entry point never trap, never read memory they did not write, and leave the other playgrounds exact', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, log } = await openHostile();
  try {
    const report = await page.evaluate(async () => {
      const hostile = window.hostileValues;
      const { Playground, encodeFlags, hashWords, parseFlags, decodeFlags, presetFlags } = window.api;
      const bystander = await Playground.create();
      const bystanderFlags = new Uint32Array(5000).map((_, i) => (i * 7919) % 3 === 0);
      bystander.setFlags(bystanderFlags);
      const victim = await Playground.create();
      // Grow wasm memory first, as an 8 M preset does: the case that once wrote past the heap.
      victim.setFlags(presetFlags('random', 8_000_000, 0.5, 1));
      victim.setFlags(new Uint32Array([1]));
      const outcomes = [];
      const settle = async (call) => {
        try {
          return { value: await call() };
        } catch (e) {
          return { error: e instanceof Error ? e.message : String(e), kind: e?.kind ?? null };
        }
      };
      for (const [what, [make, words]] of Object.entries(hostile())) {
        const entries = {
          setFlags: async () => {
            victim.setFlags(make());
            const r = await victim.run('scan');
            return { count: r.count, indices: [...r.indices] };
          },
          encodeFlags: () => decodeFlags(encodeFlags(make())).join(''),
          hashWords: () => hashWords(make()),
          run: () => victim.run(make()),
          attachCanvas: () => victim.attachCanvas(make()),
          tileTrace: () => victim.tileTrace(make()),
          parseFlags: () => parseFlags(make()),
          decodeFlags: () => decodeFlags(make()),
          presetFlags: () => presetFlags(make(), 10, 0.5, 1),
          create: () => Playground.create(make()),
        };
        for (const [entry, call] of Object.entries(entries)) {
          const got = await settle(call);
          outcomes.push({ what, entry, words, got: got.error ? got : { value: entry === 'create' ? 'created' : got.value } });
          if (entry === 'create' && got.value) got.value.free();
        }
      }
      // The others, and the victim with good flags, are still exact.
      const b = await bystander.run('lookback');
      victim.setFlags(new Uint32Array([0, 1, 1, 0, 1]));
      const v = await victim.run('scan');
      const cpu = Playground.createCpu();
      cpu.setFlags(bystanderFlags);
      const c = await cpu.run('scan');
      bystander.free();
      victim.free();
      cpu.free();
      return {
        outcomes,
        bystander: { indices: [...b.indices], hash: b.hash },
        victim: [...v.indices],
        cpu: [...c.indices],
        bystanderFlags: [...bystanderFlags],
      };
    });

    const problems = [];
    const hashOf = (words) => fnv1a(Uint32Array.from(words));
    const takesFlags = new Set(['setFlags', 'encodeFlags', 'hashWords']);
    for (const { what, entry, words, got } of report.outcomes) {
      const where = `${entry}(${what})`;
      if (got.error !== undefined) {
        if (typeof got.kind !== 'string' || !got.kind) problems.push(`${where}: refused without a kind: ${got.error}`);
        continue;
      }
      // An answer must come from the array's real words; anything else is a type error it should have been.
      if (words === null || !takesFlags.has(entry)) {
        problems.push(`${where}: answered ${JSON.stringify(got.value).slice(0, 80)} for a value it should refuse`);
        continue;
      }
      if (entry === 'setFlags') {
        const want = compact(words);
        if (got.value.count !== want.length || JSON.stringify(got.value.indices) !== JSON.stringify(want))
          problems.push(`${where}: ${JSON.stringify(got.value).slice(0, 80)}, want ${JSON.stringify(want)}`);
      }
      if (entry === 'encodeFlags' && got.value !== words.map((w) => (w ? 1 : 0)).join('')) problems.push(`${where}: ${String(got.value).slice(0, 40)}`);
      if (entry === 'hashWords' && got.value !== hashOf(words)) problems.push(`${where}: hash ${got.value}, want ${hashOf(words)}`);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(report.bystander.indices, compact(report.bystanderFlags), 'the other playground, exact after it all');
    assert.deepEqual(report.cpu, compact(report.bystanderFlags), 'the CPU reference, exact');
    assert.deepEqual(report.victim, [1, 2, 4], 'the hostile values’ playground itself, exact with good flags');
    assert.deepEqual(traps(log), [], 'no trap, no panic, nothing uncaught');
  } finally {
    await page.close();
  }
});

test('a freed or never-made Playground answers with .kind "freed" (a rejected promise where the method returns one)', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openApi(ctx.browser, ctx.server, 'e2e/fixtures/kernels.html');
  try {
    const report = await page.evaluate(async () => {
      const { Playground } = window.api;
      const pg = await Playground.create();
      pg.setFlags(new Uint32Array([1, 0, 1]));
      await pg.run('scan');
      pg.free();
      pg.free(); // a second free is nothing
      const settle = async (call) => {
        try {
          const v = call();
          const promise = v instanceof Promise;
          await v;
          return { ok: true, promise };
        } catch (e) {
          return { kind: e?.kind ?? null, message: String(e?.message ?? e) };
        }
      };
      const sync = (call) => {
        try {
          const v = call();
          return v instanceof Promise
            ? v.then(
                () => ({ ok: true }),
                (e) => ({ kind: e?.kind ?? null, promise: true }),
              )
            : { ok: true };
        } catch (e) {
          return { kind: e?.kind ?? null, promise: false };
        }
      };
      const unbound = Object.create(Playground.prototype);
      // Issue 39.7: a handle copied before free() (a deep clone, Object.assign) and forged pointers.
      const other = await Playground.create();
      const clone = Object.assign(Object.create(Playground.prototype), other);
      const plainCopy = { ...other };
      const copyBefore = await sync(() => clone.run('scan'));
      other.free();
      const forgedFree = await settle(() => Playground.prototype.free.call({ __wbg_ptr: 8 }));
      const copyAfter = await sync(() => clone.run('scan'));
      const copyFree = await settle(() => clone.free());
      const forgedRun = await sync(() => Playground.prototype.run.call({ __wbg_ptr: 8 }, 'scan'));
      const plainCopyRun = await sync(() => Playground.prototype.run.call(plainCopy, 'scan'));
      const repointed = await Playground.create();
      repointed.__wbg_ptr += 8;
      const repointedRun = await sync(() => repointed.run('scan'));
      // The page goes on: a new playground compacts exactly.
      const fresh = await Playground.create();
      fresh.setFlags(new Uint32Array([0, 7, 0, 1, 1]));
      const freshRun = await fresh.run('scan');
      fresh.free();
      return {
        copyBefore,
        copyAfter,
        copyFree,
        forgedFree,
        forgedRun,
        plainCopyRun,
        repointedRun,
        freshIndices: Array.from(freshRun.indices ?? []),
        run: await sync(() => pg.run('scan')),
        scanTrace: await sync(() => pg.scanTrace()),
        packedTrace: await sync(() => pg.packedTrace()),
        setFlags: await sync(() => pg.setFlags(new Uint32Array([1]))),
        backend: await settle(() => pg.backend),
        unboundRun: await sync(() => unbound.run('scan')),
        unboundMethods: await settle(() => unbound.methods),
      };
    });
    assert.deepEqual(report.run, { kind: 'freed', promise: true });
    assert.deepEqual(report.scanTrace, { kind: 'freed', promise: true });
    assert.deepEqual(report.packedTrace, { kind: 'freed', promise: true });
    assert.deepEqual(report.setFlags, { kind: 'freed', promise: false });
    assert.equal(report.backend.kind, 'freed');
    assert.deepEqual(report.unboundRun, { kind: 'freed', promise: true });
    assert.equal(report.unboundMethods.kind, 'freed');
    for (const key of ['copyBefore', 'copyAfter', 'forgedRun', 'plainCopyRun', 'repointedRun']) assert.deepEqual(report[key], { kind: 'freed', promise: true }, key);
    assert.deepEqual(report.copyFree, { ok: true, promise: false });
    assert.deepEqual(report.forgedFree, { ok: true, promise: false });
    assert.deepEqual(report.freshIndices, [1, 3, 4]);
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
});

test('1 000 runs of every method with hostile values mixed in: exact every time; JS heap, wasm memory and GPU buffers stay flat', { timeout: TEST_TIMEOUT * 2 }, async () => {
  const { page, log } = await openHostile();
  const cdp = await page.context().newCDPSession(page);
  try {
    await page.evaluate(async () => {
      const { Playground } = window.api;
      const pg = await Playground.create();
      const methods = [...pg.methods];
      let seed = 12345;
      const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
      const entries = [(v) => pg.setFlags(v), (v) => pg.run(v), (v) => window.api.hashWords(v), (v) => window.api.encodeFlags(v), (v) => pg.tileTrace(v)];
      window.soak = { done: 0, wrong: [], unkinded: [], hostileCalls: 0 };
      // `count` more runs; every 7th is preceded by a hostile value at an entry point.
      window.soakBatch = async (count) => {
        for (let k = 0; k < count; k++) {
          const i = window.soak.done++;
          if (i % 7 === 3) {
            const values = Object.values(window.hostileValues());
            const [make] = values[next() % values.length];
            window.soak.hostileCalls++;
            try {
              await entries[next() % entries.length](make());
            } catch (e) {
              if (typeof e?.kind !== 'string') window.soak.unkinded.push(String(e?.message ?? e).slice(0, 80));
            }
          }
          const n = 1 + (next() % 3000);
          const density = (next() % 100) / 100;
          const flags = new Uint32Array(n).map(() => (next() % 1000 < density * 1000 ? 1 + (next() % 5) : 0));
          const method = methods[i % methods.length];
          pg.setFlags(flags);
          const r = await pg.run(method);
          const want = [];
          for (let j = 0; j < n; j++) if (flags[j]) want.push(j);
          const got = [...r.indices].sort((a, b) => a - b);
          if (r.count !== want.length || got.join() !== want.join()) window.soak.wrong.push(`${method} n=${n}: ${r.count} vs ${want.length}`);
        }
        return { done: window.soak.done, wasm: window.wasmMemory.buffer.byteLength, gpu: { ...window.gpuBuffers } };
      };
    });
    const figures = [];
    const measure = async (batch) => {
      const inPage = await page.evaluate((count) => window.soakBatch(count), batch);
      await cdp.send('HeapProfiler.collectGarbage');
      // (The finalizers of what the collection freed run in a later task.)
      const gpu = await page.evaluate(() => new Promise((r) => setTimeout(() => r({ ...window.gpuBuffers }), 50)));
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      figures.push({ ...inPage, gpu, heap: usedSize });
    };
    await measure(50); // warm-up: every method compiled, memory at its working size
    for (let k = 0; k < 4; k++) await measure(250 - (k === 0 ? 50 : 0));
    const soak = await page.evaluate(() => window.soak);
    const mb = (b) => (b / 2 ** 20).toFixed(2);
    for (const f of figures)
      console.log(
        `# after ${f.done} runs: JS heap ${mb(f.heap)} MiB, wasm memory ${mb(f.wasm)} MiB, GPU buffers ${f.gpu.live} live (${mb(f.gpu.bytes)} MiB), ${f.gpu.destroyed} destroyed, ${f.gpu.collected} collected`,
      );
    console.log(`# ${soak.hostileCalls} hostile calls mixed in`);
    assert.equal(soak.done, 1000);
    assert.deepEqual(soak.wrong, [], 'every run exact');
    assert.deepEqual(soak.unkinded, [], 'every refusal has a kind');
    const [warm, , , , last] = figures;
    assert.ok(last.heap - warm.heap < 4 * 2 ** 20, `the JS heap grew ${mb(last.heap - warm.heap)} MiB`);
    assert.ok(last.wasm - warm.wasm <= 2 ** 20, `wasm memory grew ${mb(last.wasm - warm.wasm)} MiB`);
    // What a run makes it destroys as it ends: a few buffers live (the flags), whatever the GC did.
    assert.ok(last.gpu.live <= warm.gpu.live + 2 && last.gpu.bytes < 2 ** 16, `GPU buffers: ${JSON.stringify(warm.gpu)} then ${JSON.stringify(last.gpu)}`);
    // Left to the GC: only each setFlags' replaced flags buffer (a queued run may still read it).
    assert.ok(last.gpu.collected <= last.done + soak.hostileCalls, `left to the GC ${last.gpu.collected}`);
    assert.ok(last.gpu.destroyed > 5 * last.gpu.collected, `destroyed ${last.gpu.destroyed}, left to the GC ${last.gpu.collected}`);
    assert.deepEqual(traps(log), []);
  } finally {
    await page.close();
  }
});
