// A Playground after free() (or an object that never was one, made from its
// prototype) answers every call with an Error whose `.kind` is 'freed' (a
// rejected promise from the methods that return one), where the wasm-bindgen
// glue would throw "null pointer passed to rust"; a second free() is nothing.

/** The methods that return a promise (the rest answer at once). */
const ASYNC_METHODS = ['run', 'scanTrace', 'atomicTrace', 'tileTrace', 'compile', 'benchmark', 'drawOrder'];

/** Wraps `Playground.prototype`'s methods and getters once. @param {any} Playground */
export function guardFreed(Playground) {
  const proto = Playground.prototype;
  if (proto.free.guarded) return;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(proto, name));
    const inner = d.get ?? d.value;
    if (name === 'constructor' || name.startsWith('__') || typeof inner !== 'function') continue;
    /** @this {any} */
    const wrapped = function (/** @type {any[]} */ ...args) {
      if (Object.hasOwn(this ?? {}, '__wbg_ptr') && this.__wbg_ptr) return inner.apply(this, args);
      if (name === 'free') return undefined;
      const e = Object.assign(new Error(`${name}: this Playground was freed (or never made by Playground.create)`), { kind: 'freed' });
      if (ASYNC_METHODS.includes(name)) return Promise.reject(e);
      throw e;
    };
    wrapped.guarded = true;
    Object.defineProperty(proto, name, d.get ? { ...d, get: wrapped } : { ...d, value: wrapped });
  }
}
