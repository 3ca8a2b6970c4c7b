// A Playground after free() (or an object that never was one, made from its
// prototype) answers every call with an Error whose `.kind` is 'freed' (a
// rejected promise from the methods that return one), where the wasm-bindgen
// glue would throw "null pointer passed to rust"; a second free() is nothing.

/** The methods that return a promise (the rest answer at once). */
const ASYNC_METHODS = new Set(['run', 'scanTrace', 'atomicTrace', 'tileTrace', 'compile', 'benchmark', 'drawOrder']);

function freedError(name) {
  const e = new Error(`${name}: this Playground was freed (or never made by Playground.create); make another`);
  Object.defineProperty(e, 'kind', { value: 'freed', enumerable: true });
  return e;
}

/** Wraps `Playground.prototype`'s methods and getters once. @param {any} Playground */
export function guardFreed(Playground) {
  const proto = Playground.prototype;
  if (Object.hasOwn(proto, '__freedGuard')) return;
  Object.defineProperty(proto, '__freedGuard', { value: true });
  const live = (pg) => typeof pg === 'object' && pg !== null && Object.hasOwn(pg, '__wbg_ptr') && pg.__wbg_ptr !== 0;
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor' || name.startsWith('__')) continue;
    const d = Object.getOwnPropertyDescriptor(proto, name);
    if (!d) continue;
    if (typeof d.value === 'function') {
      const method = d.value;
      d.value =
        name === 'free'
          ? /** @this {any} */
            function free() {
              if (live(this)) method.call(this);
            }
          : {
              /** @this {any} */
              [name](...args) {
                if (live(this)) return method.apply(this, args);
                const e = freedError(name);
                if (ASYNC_METHODS.has(name)) return Promise.reject(e);
                throw e;
              },
            }[name];
    } else if (d.get) {
      const get = d.get;
      /** @this {any} */
      d.get = function () {
        if (!live(this)) throw freedError(name);
        return get.call(this);
      };
    }
    Object.defineProperty(proto, name, d);
  }
}
