// www/core/captured.js: what the hardened glue reaches the page's built-ins
// through. Built-ins patched after it loaded are never called by it, and the
// platform's methods get copies whose properties are all their own.
// scripts/harden-glue.mjs: the rewrite, and what it refuses.

import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { test } from 'node:test';

/** A platform interface, as WebGPU's are: captured when captured.js loads. */
class GPUProbe {
  take(descriptor) {
    // What WebIDL's conversions read: members by [[Get]], sequences by @@iterator.
    let entries = '';
    for (const e of descriptor.entries) entries += `${e.binding + (e.offset ?? 0)};`;
    return { label: descriptor.label, size: descriptor.size, entries, proto: Object.getPrototypeOf(descriptor) };
  }
}
globalThis.GPUProbe = GPUProbe;
// Imported after it (a static import would load captured.js first).
const captured = await import('../../www/core/captured.js');
const { harden } = await import('../../scripts/harden-glue.mjs');

const define = Object.defineProperty;
const describeOwn = Object.getOwnPropertyDescriptor;
const applyOriginal = Reflect.apply;

/** Patches built-ins the way a page script might, every patch recording that it ran; `restore()` undoes them. */
function patchBuiltIns() {
  // A Set, and the originals taken above: the spies must not run each other.
  const ran = new Set();
  const undo = new Set();
  const swap = (target, key, make) => {
    const before = describeOwn(target, key);
    define(target, key, { ...make(before), configurable: true });
    undo.add(() => (before ? define(target, key, before) : delete target[key]));
  };
  const spy = (name, original) =>
    function (...args) {
      ran.add(name);
      return original ? applyOriginal(original, this, args) : undefined;
    };
  const method = (target, key, name) => swap(target, key, (d) => ({ value: spy(name, d?.value), writable: true }));
  const getter = (target, key, name) => swap(target, key, (d) => ({ get: spy(name, d?.get) }));
  const setter = (target, key, name) => swap(target, key, () => ({ set: spy(name), get: spy(name) }));
  const typed = Object.getPrototypeOf(Uint8Array.prototype);
  method(Array.prototype, 'push', 'Array.prototype.push');
  method(Array.prototype, Symbol.iterator, 'Array.prototype[@@iterator]');
  setter(Array.prototype, '0', 'Array.prototype[0]');
  setter(Object.prototype, 'label', 'Object.prototype.label');
  setter(Object.prototype, 'offset', 'Object.prototype.offset');
  method(Function.prototype, 'call', 'Function.prototype.call');
  method(Function.prototype, 'apply', 'Function.prototype.apply');
  method(Reflect, 'apply', 'Reflect.apply');
  method(Reflect, 'get', 'Reflect.get');
  method(Object, 'defineProperty', 'Object.defineProperty');
  method(Object, 'hasOwn', 'Object.hasOwn');
  method(Map.prototype, 'get', 'Map.prototype.get');
  method(Promise.prototype, 'then', 'Promise.prototype.then');
  getter(Promise.prototype, 'constructor', 'Promise.prototype.constructor');
  method(typed, 'subarray', '%TypedArray%.prototype.subarray');
  method(typed, 'set', '%TypedArray%.prototype.set');
  getter(typed, 'length', '%TypedArray%.prototype.length');
  method(GPUProbe.prototype, 'take', 'GPUProbe.prototype.take');
  // (An index loop: the array's own iterator is one of the patches being undone.)
  const restore = () => {
    const list = [...undo];
    for (let i = list.length - 1; i >= 0; i--) list[i]();
  };
  return { ran, restore };
}

test('built-ins patched after captured.js loaded are never run by it', async () => {
  const { get, set, call, is, own, spread } = captured;
  const memory = new Uint8Array([1, 2, 3, 4]);
  const handle = { secret: true };
  const { ran, restore } = patchBuiltIns();
  let results;
  let settled;
  try {
    const dictionary = {};
    set(dictionary, 'label', 'buffer');
    const list = [];
    call(list, 'push', [handle]);
    const view = call(memory, 'subarray', [1, 3]);
    call(view, 'set', [[9]]);
    call(own(Promise.resolve(handle)), 'then', [(v) => (settled = v)]);
    results = {
      label: get(dictionary, 'label'),
      own: describeOwn(dictionary, 'label')?.value,
      list: list.length === 1 && list[0] === handle,
      length: get(view, 'length'),
      isArray: is(list, Array),
      spread: spread((a, b, c) => a + b + c, [1], [2, 3]),
      stringLength: get('abc', 'length'),
      char: call('abc', 'charCodeAt', [1]),
    };
  } finally {
    restore();
  }
  await new Promise((r) => setTimeout(r, 0));
  results.memory = [...memory];
  results.settled = settled === handle;
  assert.deepEqual([...ran], [], 'no patched built-in ran');
  assert.deepEqual(results, {
    label: 'buffer',
    own: 'buffer',
    list: true,
    length: 2,
    memory: [1, 9, 3, 4],
    settled: true,
    isArray: true,
    spread: 6,
    stringLength: 3,
    char: 98,
  });
});

test('a platform method gets the glue’s dictionaries and arrays with every property their own', () => {
  const { call, set } = captured;
  const probe = new GPUProbe();
  const entry = {};
  set(entry, 'binding', 2);
  const descriptor = {};
  set(descriptor, 'entries', [entry]);
  set(descriptor, 'size', 16);
  const { ran, restore } = patchBuiltIns();
  let got;
  try {
    got = call(probe, 'take', [descriptor]);
  } finally {
    restore();
  }
  assert.deepEqual([...ran], [], 'neither the patched method nor any inherited member ran');
  assert.equal(got.proto, null, 'the dictionary has no prototype to read a missing member from');
  assert.deepEqual([got.label, got.size, got.entries], [undefined, 16, '2;']);
  assert.equal(Object.getPrototypeOf(descriptor), Object.prototype, 'the glue’s own object is unchanged');
});

test('the rewrite routes every member access, call, instanceof and await through the captured helpers', () => {
  const glue = `let wasm;
function k() {}
function f(arg0, arg1) {
  const ret = arg0.queue;
  arg1.label = 'x';
  arg0.writeBuffer(arg1, [1]);
  k(1, ...arg1);
}
function g(arg0) { const r = arg0[3]; return arg0 instanceof GPUValidationError || wasm.memory.buffer; }
async function h(p) { const state = { cnt: 0 }; state.cnt++; return await p; }
function debugString(val) { return JSON.stringify(val); }
export { f };
`;
  const out = harden(glue);
  for (const want of [
    '__cp_get(arg0, "queue")',
    '__cp_set(arg1, "label", \'x\')',
    '__cp_call(arg0, "writeBuffer", [arg1, [1]])',
    '__cp_spread(k, [1], arg1)',
    '__cp_get(arg0, 3)',
    '__cp_is(arg0, GPUValidationError)',
    '__cp_get(wasm.memory, "buffer")',
    'await __cp_own(p)',
    'state.cnt++',
    'return __cp_describe(val)',
    'const { GPUValidationError, JSON } = __cp_globals;',
  ]) {
    assert.ok(out.includes(want), `${want} in:\n${out}`);
  }
  assert.equal(harden(out), out, 'a hardened glue is left as it is');
});

test('the rewrite refuses what it cannot place', () => {
  assert.throws(() => harden('function f(arg0) { return arg0?.x; }'), /optional chain/);
  assert.throws(() => harden('function f(arg0) { return someGlobalNobodyCaptured(arg0); }'), /does not capture: someGlobalNobodyCaptured/);
  assert.throws(() => harden('function f(a, b) { return a(...b, 1); }'), /spread/);
});

test('the built glue is hardened, and names only what captured.js captures', { skip: !existsSync('www/pkg/compaction_playground.js') && 'no www/pkg (npm run build)' }, () => {
  const text = readFileSync('www/pkg/compaction_playground.js', 'utf8');
  assert.ok(text.startsWith('/* hardened by scripts/harden-glue.mjs */'), 'scripts/build-web.sh runs the rewrite');
  assert.equal(harden(text), text);
});
