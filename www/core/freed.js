// Only a Playground that Playground.create / createCpu returned, and not yet
// freed, reaches the wasm. Everything else, a freed one, an object made from
// the prototype, a copy (Object.assign, a state library's clone) or a forgery
// carrying a `__wbg_ptr`, answers every call with an Error whose `.kind` is
// 'freed' (a rejected promise from the methods that return one), where the
// wasm-bindgen glue would dereference whatever pointer it was handed.
// A second free() and a free() of anything not a live handle are nothing.

/** The methods that return a promise (the rest answer at once). */
const ASYNC_METHODS = ['run', 'scanTrace', 'atomicTrace', 'packedTrace', 'tileTrace', 'compile', 'benchmark', 'drawOrder'];

/** Each live handle -> the pointer it was made with; a copy is not a key, a changed pointer does not match. */
const live = new WeakMap();

/** @param {any} pg */
function isLive(pg) {
  return (typeof pg === 'object' || typeof pg === 'function') && pg !== null && live.has(pg) && live.get(pg) === pg.__wbg_ptr;
}

/** @param {any} pg */
function register(pg) {
  if (pg && typeof pg.__wbg_ptr === 'number' && pg.__wbg_ptr !== 0) live.set(pg, pg.__wbg_ptr);
  return pg;
}

/** Wraps `Playground`'s factories and its prototype's methods and getters once. @param {any} Playground */
export function guardFreed(Playground) {
  const proto = Playground.prototype;
  if (proto.free.guarded) return;
  const create = Playground.create;
  const createCpu = Playground.createCpu;
  Playground.create = (/** @type {any[]} */ ...args) => create.apply(Playground, args).then(register);
  Playground.createCpu = (/** @type {any[]} */ ...args) => register(createCpu.apply(Playground, args));
  for (const key of Reflect.ownKeys(proto)) {
    const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(proto, key));
    const inner = d.get ?? d.value;
    const name = String(key);
    if (key === 'constructor' || name.startsWith('__') || typeof inner !== 'function') continue;
    const frees = inner === proto.free;
    // A method taking another playground (shareKernel) takes a live one only: the glue would use its pointer too.
    const takesPlayground = name === 'shareKernel';
    /** @this {any} */
    const wrapped = function (/** @type {any[]} */ ...args) {
      if (isLive(this) && (!takesPlayground || isLive(args[0]))) {
        if (frees) live.delete(this);
        return inner.apply(this, args);
      }
      if (frees) return undefined;
      const e = Object.assign(new Error(`${name}: not a live Playground (freed, copied, or never made by Playground.create)`), { kind: 'freed' });
      if (ASYNC_METHODS.includes(name)) return Promise.reject(e);
      throw e;
    };
    wrapped.guarded = true;
    Object.defineProperty(proto, key, d.get ? { ...d, get: wrapped } : { ...d, value: wrapped });
  }
}
