// A page that patches built-ins after the wasm module loaded: every method of
// every GPU interface, Array.prototype's push, iterator and index setters,
// setters on Object.prototype named like WebGPU's dictionary members,
// Function.prototype's call and apply, Reflect, Object.defineProperty, the
// typed arrays' methods and getters, DataView, TextDecoder/TextEncoder,
// WebAssembly.Table and Memory, Promise's then and constructor. The glue
// (hardened by scripts/harden-glue.mjs) reaches none of them: no patch is
// handed a GPU object or the wasm memory, and when every patch throws, every
// method still answers exactly and nothing traps.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { useBrowser } from './fixture.mjs';
import { newLoggedPage } from './browser.mjs';
import { READY_MS, TEST_TIMEOUT } from './helpers.mjs';
import { traps } from './api.mjs';

const ctx = useBrowser({ server: { allow: ['e2e/fixtures/'] } });

/**
 * Runs in the page, patched: every method once, the results kept as they came
 * (index loops and plain keys only: the test's own code must not trip the patches).
 */
async function gather() {
  const pg = window.pg;
  const methods = window.methods;
  const raw = { runs: {} };
  pg.setFlags(window.flags);
  for (let i = 0; i < methods.length; i++) raw.runs[methods[i]] = await pg.run(methods[i]);
  raw.scanTrace = await pg.scanTrace();
  raw.tileTrace = await pg.tileTrace(window.tileMethod);
  return raw;
}

/** Runs in the page, unpatched: what `gather` got, as strings to compare. */
function summarize(raw) {
  const out = {};
  for (const [method, r] of Object.entries(raw.runs)) out[method] = `${r.count}:${[...r.indices].sort((a, b) => a - b).join(',')}`;
  out.scanTrace = JSON.stringify(Object.keys(raw.scanTrace));
  out.tileTrace = JSON.stringify(Object.keys(raw.tileTrace));
  return out;
}

/** Runs in the page: patches the built-ins (`mode` 'record' calls the originals, 'throw' throws) and returns `restore`. */
function patch(mode) {
  const { apply } = Reflect;
  const define = Object.defineProperty;
  const describe = Object.getOwnPropertyDescriptor;
  const ownKeys = Reflect.ownKeys;
  const protoOf = Object.prototype.isPrototypeOf;
  const isView = ArrayBuffer.isView;
  const viewBuffer = describe(Object.getPrototypeOf(Uint8Array.prototype), 'buffer').get;
  const dataBuffer = describe(DataView.prototype, 'buffer').get;
  const memoryBuffer = describe(WebAssembly.Memory.prototype, 'buffer').get;
  const memory = window.wasmMemory;
  const gpuProtos = Object.getOwnPropertyNames(window)
    .filter((n) => n.startsWith('GPU') && typeof window[n] === 'function')
    .map((n) => window[n].prototype);
  // Sets and Maps, whose methods stay as they are: the spies must not trip each other.
  const report = window.builtinReport;
  const note = (what, set) => set.add(what);
  // What a patch must never be handed: a GPU object, the wasm memory's buffer, a view of it.
  const inspect = (name, v, depth = 0) => {
    if (typeof v !== 'object' || v === null) return;
    for (let i = 0; i < gpuProtos.length; i++) if (apply(protoOf, gpuProtos[i], [v])) return note(`${name}: a GPU object`, report.leaked);
    const buffer = apply(memoryBuffer, memory, []);
    if (v === buffer) return note(`${name}: the wasm memory`, report.leaked);
    if (isView(v)) {
      const b = v instanceof DataView ? apply(dataBuffer, v, []) : apply(viewBuffer, v, []);
      if (b === buffer) note(`${name}: a view of the wasm memory`, report.leaked);
      return;
    }
    if (depth < 3) {
      const keys = ownKeys(v);
      for (let i = 0; i < keys.length; i++) {
        const d = describe(v, keys[i]);
        if (d && 'value' in d) inspect(name, d.value, depth + 1);
      }
    }
  };
  const undo = new Map();
  const spy = (name, original) =>
    function (...args) {
      note(name, report.ran);
      inspect(name, this);
      for (let i = 0; i < args.length; i++) inspect(name, args[i]);
      if (mode === 'throw') throw new Error(`patched ${name}`);
      return original === undefined ? undefined : apply(original, this, args);
    };
  const swap = (target, key, name) => {
    const d = describe(target, key);
    if (d && !d.configurable) return;
    undo.set(undo.size, () => (d ? define(target, key, d) : delete target[key]));
    if (!d) define(target, key, { get: spy(`get ${name}`), set: spy(`set ${name}`), configurable: true });
    else if ('value' in d) define(target, key, { ...d, value: typeof d.value === 'function' ? spy(name, d.value) : d.value });
    else define(target, key, { ...d, get: d.get && spy(`get ${name}`, d.get), set: d.set && spy(`set ${name}`, d.set) });
  };
  const each = (keys, f) => {
    for (let i = 0; i < keys.length; i++) f(keys[i]);
  };
  const every = (target, name) => each(ownKeys(target), (key) => key !== 'constructor' && swap(target, key, `${name}.${String(key)}`));
  each(gpuProtos, (proto) => every(proto, proto.constructor.name));
  every(Object.getPrototypeOf(Uint8Array.prototype), '%TypedArray%.prototype');
  every(DataView.prototype, 'DataView.prototype');
  every(TextDecoder.prototype, 'TextDecoder.prototype');
  every(TextEncoder.prototype, 'TextEncoder.prototype');
  every(WebAssembly.Table.prototype, 'WebAssembly.Table.prototype');
  every(WebAssembly.Memory.prototype, 'WebAssembly.Memory.prototype');
  each(['label', 'buffer', 'resource', 'entries', 'layout', 'module', 'offset', 'size', 'usage', 'compute', 'entryPoint', 'binding', 'timestampWrites'], (key) =>
    swap(Object.prototype, key, `Object.prototype.${key}`),
  );
  each(['defineProperty', 'getPrototypeOf', 'create', 'getOwnPropertyDescriptor'], (key) => swap(Object, key, `Object.${key}`));
  each(['isArray', 'of', 'from'], (key) => swap(Array, key, `Array.${key}`));
  every(Reflect, 'Reflect');
  each(['call', 'apply'], (key) => swap(Function.prototype, key, `Function.prototype.${key}`));
  // The test's own awaits read these two: patched only where the spies call the originals.
  if (mode === 'record') {
    each(['then', 'constructor'], (key) => swap(Promise.prototype, key, `Promise.prototype.${key}`));
    swap(Promise, 'resolve', 'Promise.resolve');
  }
  each(['push', Symbol.iterator, '0', '1'], (key) => swap(Array.prototype, key, `Array.prototype.${String(key)}`));
  // Undone with the originals taken above, last patch first.
  return () => {
    for (let i = undo.size - 1; i >= 0; i--) undo.get(i)();
  };
}

async function openApiPage() {
  const { page, log } = await newLoggedPage(ctx.browser);
  page.setDefaultTimeout(READY_MS);
  await page.goto(`${ctx.server.url}e2e/fixtures/api.html`);
  await page.waitForFunction(() => window.apiReady === true);
  await page.evaluate(async () => {
    const { Playground, presetFlags } = window.api;
    window.pg = await Playground.create();
    window.methods = [...window.pg.methods].map((m) => (typeof m === 'string' ? m : m.name));
    window.flags = presetFlags('random', 3000, 0.3, 7);
    window.tileMethod = window.methods.find((m) => /look/.test(m)) ?? window.methods[0];
    window.builtinReport = { ran: new Set(), leaked: new Set() };
  });
  return { page, log };
}

for (const mode of ['record', 'throw']) {
  test(`built-ins patched after load (${mode === 'record' ? 'calling the originals' : 'every one throwing'}): no GPU object or wasm memory handed to a patch, every method exact, no trap`, {
    timeout: TEST_TIMEOUT,
  }, async () => {
    const { page, log } = await openApiPage();
    try {
      const before = await page.evaluate(`(async () => (${summarize})(await (${gather})()))()`);
      const after = await page.evaluate(`(async () => {
        const restore = (${patch})(${JSON.stringify(mode)});
        let raw;
        let threw;
        try {
          raw = await (${gather})();
        } catch (e) {
          threw = e;
        } finally {
          restore();
        }
        return threw ? { threw: String(threw && threw.message) } : (${summarize})(raw);
      })()`);
      const report = await page.evaluate(() => ({ ran: [...window.builtinReport.ran], leaked: [...window.builtinReport.leaked] }));
      assert.deepEqual(report.leaked, [], 'no patch was handed a GPU object or the wasm memory');
      assert.deepEqual(
        report.ran.filter((name) => /GPU|TypedArray|DataView|TextDecoder|TextEncoder|WebAssembly/.test(name)),
        [],
        'no patched GPU method, typed array, DataView, text codec or WebAssembly member ran',
      );
      assert.deepEqual(after, before, 'every method answers as it did before the patches');
      assert.deepEqual(traps(log), [], 'no trap, no panic, nothing uncaught');
    } finally {
      await page.close();
    }
  });
}
