// The built-ins the wasm boundary reaches through, captured when it loads.
// scripts/harden-glue.mjs rewrites www/pkg's wasm-bindgen glue so that every
// property it reads or writes, every method it calls, every `instanceof` and
// every global it names goes through here. A page script that afterwards
// patches a prototype (Array.prototype, a GPU interface's method, a typed
// array's getter), replaces a global or defines a setter on Object.prototype
// is never called by the boundary: it cannot be handed the wasm's GPU objects
// or a view of its memory, and cannot throw through the wasm. What a page
// changed before this module loaded is what it captures: no script can undo
// that from inside the same page.

const { apply, construct, getPrototypeOf, getOwnPropertyDescriptor, defineProperty, ownKeys } = Reflect;
const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const ObjectPrototype = Object.prototype;
const MapOf = Map;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const hasInstance = Function.prototype[Symbol.hasInstance];
const promiseThen = Promise.prototype.then;
const iteratorKey = Symbol.iterator;
const TypeErrorOf = TypeError;
/** @type {any} */
const global = globalThis;

/**
 * The JS built-ins the glue names; every other global it names (WebGPU's, the
 * DOM's) is a platform interface, whose methods get copies of the glue's plain
 * objects and arrays (see `shield`).
 */
const LANGUAGE = [
  'Array',
  'ArrayBuffer',
  'BigInt',
  'Boolean',
  'DataView',
  'Date',
  'Error',
  'FinalizationRegistry',
  'Float32Array',
  'Float64Array',
  'Function',
  'Int8Array',
  'Int16Array',
  'Int32Array',
  'JSON',
  'Map',
  'Math',
  'Number',
  'Object',
  'Promise',
  'Reflect',
  'RegExp',
  'Set',
  'String',
  'Symbol',
  'TextDecoder',
  'TextEncoder',
  'TypeError',
  'Uint8Array',
  'Uint8ClampedArray',
  'Uint16Array',
  'Uint32Array',
  'WeakMap',
  'WeakRef',
  'WeakSet',
  'WebAssembly',
];
/** The globals that are values, not interfaces (the glue reads `window` and its aliases, calls `fetch`, `queueMicrotask`, `toString`). */
const VALUES = ['window', 'self', 'global', 'globalThis', 'fetch', 'queueMicrotask', 'toString', 'console'];

/** Named by the glue, or by the wasm through it: WebGPU's interfaces, the DOM's, fetch's. */
const PLATFORM =
  /^(GPU|HTML|OffscreenCanvas|Navigator|WorkerNavigator|Performance|Document|Element|Node|EventTarget|Window|WorkerGlobalScope|Response|Request|Headers|URL|AbortSignal|ShadowRoot|DOMException)/;

/** Whether this module captures the global `name` (the build refuses a glue that names another). */
export function captures(/** @type {string} */ name) {
  return LANGUAGE.includes(name) || VALUES.includes(name) || PLATFORM.test(name);
}

/** A property descriptor with no prototype: defining it reads none of Object.prototype's members. */
function slot(/** @type {any} */ value, writable = true, enumerable = true, configurable = true) {
  return /** @type {PropertyDescriptor} */ (/** @type {any} */ ({ __proto__: null, value, writable, enumerable, configurable }));
}

/** Every object whose own properties were captured -> Map(key -> descriptor). */
const known = new MapOf();
/** The captured objects whose methods are the platform's (see `shield`). */
const platform = new MapOf();

/** A descriptor as this module keeps it: no prototype, so reading it runs nothing. */
function normalise(/** @type {PropertyDescriptor} */ d) {
  return apply(hasOwn, undefined, [d, 'value'])
    ? { __proto__: null, data: true, value: d.value, get: undefined, set: undefined }
    : { __proto__: null, data: false, value: undefined, get: d.get, set: d.set };
}

/** Captures `obj`'s own properties and those along its prototype chain. */
function record(/** @type {any} */ obj, /** @type {boolean} */ isPlatform) {
  for (let o = obj; (typeof o === 'object' || typeof o === 'function') && o !== null; o = getPrototypeOf(o)) {
    if (apply(mapGet, known, [o]) !== undefined) return;
    const own = new MapOf();
    const keys = ownKeys(o);
    for (let i = 0; i < keys.length; i++) apply(mapSet, own, [keys[i], normalise(getOwnPropertyDescriptor(o, keys[i]))]);
    apply(mapSet, known, [o, own]);
    if (isPlatform) apply(mapSet, platform, [o, true]);
  }
}

/** The globals the rewritten glue binds in place of the page's (scripts/harden-glue.mjs writes the names). */
export const globals = { __proto__: null };

for (let i = 0; i < LANGUAGE.length; i++) {
  const value = global[LANGUAGE[i]];
  globals[LANGUAGE[i]] = value;
  record(value, false);
  if (typeof value === 'function') record(value.prototype, false);
}
for (let i = 0; i < VALUES.length; i++) globals[VALUES[i]] = global[VALUES[i]];
// A platform interface this global lacks (a worker's Window) is bound as undefined: `instanceof` it is false.
record(getPrototypeOf(Uint8Array.prototype), false);
for (const name of ['Table', 'Memory', 'Module', 'Instance']) record(WebAssembly[name]?.prototype, false);
for (const primitive of [String, Number, Boolean, Symbol, BigInt]) record(primitive.prototype, false);
for (const name of ownKeys(global)) {
  if (typeof name !== 'string' || !PLATFORM.test(name)) continue;
  const d = getOwnPropertyDescriptor(global, name);
  const value = d && apply(hasOwn, undefined, [d, 'value']) ? d.value : undefined;
  if (typeof value !== 'function') continue;
  globals[name] = value;
  record(value, true);
  record(value.prototype, true);
}
record(global, true);

/** The descriptor of `key` along `o`'s chain, captured where the object was; the level it was found at in `level`. */
let level = null;
function lookup(/** @type {any} */ o, /** @type {PropertyKey} */ key) {
  for (let p = o; p !== null; p = getPrototypeOf(p)) {
    const own = apply(mapGet, known, [p]);
    let d;
    if (own !== undefined) d = apply(mapGet, own, [key]);
    else {
      const found = getOwnPropertyDescriptor(p, key);
      d = found === undefined ? undefined : normalise(found);
    }
    if (d !== undefined) {
      level = p;
      return d;
    }
  }
  level = null;
  return undefined;
}

/** The prototype a primitive's properties come from. */
function boxed(/** @type {any} */ v) {
  switch (typeof v) {
    case 'string':
      return String.prototype;
    case 'number':
      return Number.prototype;
    case 'boolean':
      return Boolean.prototype;
    case 'symbol':
      return Symbol.prototype;
    case 'bigint':
      return BigInt.prototype;
    default:
      throw new TypeErrorOf(`Cannot read properties of ${v}`);
  }
}

/** `o[key]`. */
export function get(/** @type {any} */ o, /** @type {PropertyKey} */ key) {
  if (typeof o !== 'object' && typeof o !== 'function') {
    // A string's length and characters are its own; nothing else is.
    if (typeof o === 'string' && (key === 'length' || typeof key === 'number')) return o[key];
    const d = lookup(boxed(o), key);
    return d === undefined ? undefined : d.data ? d.value : d.get === undefined ? undefined : apply(d.get, o, []);
  }
  if (o === null) throw new TypeErrorOf(`Cannot read properties of null (reading '${String(key)}')`);
  const d = lookup(o, key);
  return d === undefined ? undefined : d.data ? d.value : d.get === undefined ? undefined : apply(d.get, o, []);
}

/** `o[key] = value`: the setter captured, else an own data property (never a setter added since). */
export function set(/** @type {any} */ o, /** @type {PropertyKey} */ key, /** @type {any} */ value) {
  const d = lookup(o, key);
  if (d !== undefined && !d.data) {
    if (d.set === undefined) throw new TypeErrorOf(`Cannot set property ${String(key)}, which has only a getter`);
    apply(d.set, o, [value]);
  } else if (d !== undefined && level === o) {
    o[key] = value;
  } else if (!defineProperty(o, key, slot(value))) {
    throw new TypeErrorOf(`Cannot define property ${String(key)}`);
  }
  return value;
}

/** `value` appended to the array `a`, as its own element (`push` would run a setter on Array.prototype). */
function append(/** @type {any[]} */ a, /** @type {any} */ value) {
  const n = a.length;
  defineProperty(a, n, slot(value));
  return n + 1;
}

/** An own `@@iterator` for the arrays handed to the platform: what it walks is theirs, whatever Array.prototype says. */
/** @this {any[]} */
function iterate() {
  const a = this;
  let i = 0;
  return {
    __proto__: null,
    next() {
      return i < a.length ? { __proto__: null, value: a[i++], done: false } : { __proto__: null, value: undefined, done: true };
    },
  };
}

/**
 * What a platform method gets: the glue's plain objects and arrays copied
 * into ones whose properties all are their own (no prototype, an own
 * iterator), so that converting a dictionary never reads a member from
 * Object.prototype, nor walks an array through Array.prototype.
 */
function shield(/** @type {any} */ v, /** @type {number} */ depth) {
  if (typeof v !== 'object' || v === null || depth > 8) return v;
  if (isArray(v)) {
    const out = [];
    for (let i = 0; i < v.length; i++) append(out, shield(v[i], depth + 1));
    defineProperty(out, iteratorKey, slot(iterate, false, false, false));
    return out;
  }
  if (getPrototypeOf(v) !== ObjectPrototype) return v;
  const out = { __proto__: null };
  const keys = ownKeys(v);
  for (let i = 0; i < keys.length; i++) {
    const d = getOwnPropertyDescriptor(v, keys[i]);
    if (d !== undefined && apply(hasOwn, undefined, [d, 'value'])) out[keys[i]] = shield(d.value, depth + 1);
  }
  return out;
}

/** `p`, a promise the glue awaits or chains, resolved through the captured `then` whatever its prototype now says. */
export function own(/** @type {any} */ p) {
  if (p !== null && typeof p === 'object' && apply(hasInstance, Promise, [p])) {
    // SpeciesConstructor and `await` read these two: own properties, so nothing of the page's runs.
    defineProperty(p, 'constructor', slot(undefined, true, false));
    defineProperty(p, 'then', slot(promiseThen, true, false));
  }
  return p;
}

/** `o[key](...args)`. */
export function call(/** @type {any} */ o, /** @type {PropertyKey} */ key, /** @type {any[]} */ args) {
  if (key === 'push' && isArray(o)) {
    let n = o.length;
    for (let i = 0; i < args.length; i++) n = append(o, args[i]);
    return n;
  }
  const f = get(o, key);
  if (typeof f !== 'function') throw new TypeErrorOf(`${String(key)} is not a function`);
  if (key === 'then') own(o);
  if (o === Promise && key === 'resolve') own(args[0]);
  if (level !== null && apply(mapGet, platform, [level]) === true && level !== global) {
    const shielded = [];
    for (let i = 0; i < args.length; i++) append(shielded, shield(args[i], 0));
    return apply(f, o, shielded);
  }
  return apply(f, o, args);
}

/** `f(...head, ...rest)`. */
export function spread(/** @type {Function} */ f, /** @type {any[]} */ head, /** @type {any[]} */ rest) {
  const args = [];
  for (let i = 0; i < head.length; i++) append(args, head[i]);
  for (let i = 0; i < rest.length; i++) append(args, rest[i]);
  return apply(f, undefined, args);
}

/** `v instanceof C`, by the built-in rule (a `Symbol.hasInstance` defined since is not asked). */
export function is(/** @type {any} */ v, /** @type {any} */ C) {
  return apply(hasInstance, C, [v]);
}

/** `new C(...args)`. */
export function make(/** @type {any} */ C, /** @type {any[]} */ args) {
  return construct(C, args);
}

/** What the glue's debug formatting says of a value, without running any of its code. */
export function describe(/** @type {any} */ v) {
  switch (typeof v) {
    case 'string':
      return `"${v}"`;
    case 'bigint':
      return `${v}n`;
    case 'symbol':
      return 'Symbol';
    case 'function':
      return 'Function';
    case 'object':
      if (v === null) return 'null';
      if (isArray(v)) return 'Array';
      if (is(v, Error)) {
        const name = get(v, 'name');
        const message = get(v, 'message');
        return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : ''}`;
      }
      return 'Object';
    default:
      return `${v}`;
  }
}
