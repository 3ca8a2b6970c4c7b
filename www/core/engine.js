// Loads the wasm package and opens a Playground: on the GPU when WebGPU works,
// otherwise on the CPU mirror ("CPU reference"), remembering why.
// Every call into a Playground goes through Engine.exec, one at a time, so
// that an upload and the run that uses it stay together.

import { guardFreed } from './freed.js';
import { initLayout } from './layout.js';

/**
 * The wasm handle's types: the package's own (types/compaction-playground.d.ts).
 * @typedef {import('../../types/compaction-playground').Kernels} Kernels
 * @typedef {import('../../types/compaction-playground').Playground} WasmPlayground
 */

/** @type {Promise<Kernels> | null} */
let wasmPromise = null;

/**
 * The wasm-bindgen module (Playground, parseFlags, …; see the README), loaded
 * once per page, however many elements it has. The wasm sits beside the built
 * module (dist/), which is where bundlers find it too (`new URL(…, import.meta.url)`).
 */
export function kernels() {
  if (!wasmPromise) {
    wasmPromise = (async () => {
      const wasm = /** @type {Kernels & { default: (options: object) => Promise<unknown> }} */ (/** @type {unknown} */ (await import('../pkg/compaction_playground.js')));
      const url = new URL('./compaction_playground_bg.wasm', import.meta.url);
      try {
        await wasm.default({ module_or_path: url });
      } catch (e) {
        // The commonest way to get here: the wasm is not beside the module (a page came back instead).
        if (/magic word/.test(e?.message ?? ''))
          throw new Error(
            `${url.href} is not the kernels' wasm (the server answered with something else). Keep dist/'s files together; a dev server that pre-bundles dependencies (Vite's optimizeDeps) moves the modules away from the wasm: exclude compaction-playground from it (docs/embedding.md, VitePress). ${e.message}`,
          );
        throw e;
      }
      initLayout(wasm);
      guardFreed(wasm.Playground);
      return wasm;
    })();
    wasmPromise.catch(() => {
      wasmPromise = null;
    });
  }
  return wasmPromise;
}

/**
 * How long one call running a learner's kernel may take before the page gives
 * its GPU device up (the loop guard's second line: a spin on an atomic nobody
 * sets is no loop the guard can bound). A software adapter runs the largest
 * case in well under a second, its guarded runaways in a few.
 */
export const WATCHDOG_MS = 10_000;
export const SOFTWARE_WATCHDOG_MS = 30_000;

/**
 * `done` (a call on `engine` while a learner's kernel is installed), unless it
 * takes longer than the watchdog: then the page's GPU device is given up, which
 * rejects the call, and every playground of the page falls back as on any
 * device loss; rejects with `.kind` 'watchdog' and `.seconds`.
 * @template T  @param {Engine} engine  @param {T | Promise<T>} done  @returns {Promise<T>}
 */
function watched(engine, done) {
  const ms = engine.watchdogMs;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      engine.pg?.abandonDevice();
      reject(Object.assign(new Error(`a run took more than ${ms / 1000} s`), { kind: 'watchdog', seconds: ms / 1000 }));
    }, ms);
    Promise.resolve(done).then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** Why the page may run on the CPU reference (each said in words as `fallback.<kind>`). */
export const FALLBACK_KINDS = ['no-webgpu', 'no-adapter', 'device', 'device-lost', 'timeout'];

export const CREATE_TIMEOUT_MS = 15_000;
/** How long a device that missed CREATE_TIMEOUT_MS is still awaited, to take over from the CPU reference. */
export const LATE_TIMEOUT_MS = 120_000;

/** @typedef {{ kind: string, message: string }} Fallback */

export class Engine {
  /** @param {Kernels} wasm  @param {WasmPlayground} pg  @param {Fallback | null} fallback */
  constructor(wasm, pg, fallback) {
    this.wasm = wasm;
    this.pg = pg;
    /** null on the GPU; else `{ kind, message }` saying why not. */
    this.fallback = fallback;
    /** @type {Promise<unknown>} */
    this.chain = Promise.resolve();
    /** Method -> ms its pipelines took to compile on this engine (timed apart from any run). */
    this.compiled = new Map();
    /**
     * After a `timeout` fallback: the GPU engine, should the device still come
     * (within LATE_TIMEOUT_MS), else null. A loaded machine can take longer
     * than a page should wait to show anything.
     * @type {Promise<Engine | null> | null}
     */
    this.late = null;
    /** The learner's kernel installed on this engine's playground (`useKernel`), or null: while one is, every call is watched. */
    this.kernel = null;
  }

  /**
   * Later runs and traces of this engine use the learner's `wgsl` (guarded, with
   * the probe) in place of `module`'s file; from now on every call is watched
   * (`watched`): a run past the watchdog gives the page's device up.
   * @param {string} module  @param {string} wgsl
   */
  async useKernel(module, wgsl) {
    await this.exec((pg) => pg.setKernel(/** @type {any} */ (module), wgsl, true));
    this.kernel = module;
  }

  /**
   * The learner's kernel `from` holds (another engine of the page: the kernel
   * panel's checker), its pipelines already compiled; false where it holds none.
   * @param {Engine} from  @param {string} module
   */
  async shareKernel(from, module) {
    const shared = await this.exec((pg) => (from.pg ? pg.shareKernel(from.pg) : false));
    if (shared) this.kernel = module;
    return shared;
  }

  /** Our kernels again. */
  async useOurs() {
    this.kernel = null;
    await this.exec((pg) => pg.clearKernel());
  }

  /** How long one call may take while a learner's kernel is installed: longer on a software adapter. */
  get watchdogMs() {
    return isSoftwareAdapter(this.pg?.adapterName) ? SOFTWARE_WATCHDOG_MS : WATCHDOG_MS;
  }

  /**
   * Opens the GPU playground, or the CPU one with the reason.
   * @param {Kernels} wasm  @param {(kind: string, message: string) => void} onEvent
   */
  static async open(wasm, onEvent) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const created = wasm.Playground.create(onEvent);
    try {
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => {
          reject(Object.assign(new Error('Playground.create() did not settle'), { kind: 'timeout' }));
        }, CREATE_TIMEOUT_MS);
      });
      const pg = await Promise.race([created, timeout]);
      return new Engine(wasm, pg, null);
    } catch (e) {
      const kind = FALLBACK_KINDS.includes(e?.kind) ? e.kind : 'device';
      const cpu = Engine.cpu(wasm, { kind, message: e?.message ?? String(e) });
      if (kind === 'timeout') cpu.late = lateEngine(wasm, created);
      return cpu;
    } finally {
      clearTimeout(timer);
    }
  }

  /** @param {Kernels} wasm  @param {Fallback | null} fallback */
  static cpu(wasm, fallback) {
    return new Engine(wasm, wasm.Playground.createCpu(), fallback);
  }

  /** @returns {'gpu' | 'cpu' | 'none'} */
  get backend() {
    return this.pg?.backend ?? 'none';
  }

  /** Compiles `method` on the GPU unless done (inside an `exec`): ms it took, timed apart from the runs. @param {WasmPlayground} pg  @param {any} method */
  async compileIn(pg, method) {
    if (pg.backend !== 'gpu' || this.compiled.has(method)) return;
    const t0 = performance.now();
    await pg.compile(method);
    this.compiled.set(method, performance.now() - t0);
  }

  /**
   * Runs `fn(pg)` after every earlier call has finished.
   * @template T
   * @param {(pg: WasmPlayground) => T | Promise<T>} fn
   * @returns {Promise<T>}
   */
  exec(fn) {
    const result = this.chain.then(() => {
      if (!this.pg) throw Object.assign(new Error('this playground was removed from the page'), { kind: 'disposed' });
      const done = fn(this.pg);
      return this.kernel ? watched(this, done) : done;
    });
    this.chain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Frees the wasm side once the calls in flight are done. */
  dispose() {
    this.chain = this.chain.then(() => {
      this.pg?.free();
      this.pg = null;
    });
  }

  /** Switches this engine to the CPU reference (after a device loss). @param {Fallback} fallback */
  fallBackToCpu(fallback) {
    this.kernel = null;
    this.chain = this.chain.then(() => {
      if (!this.pg) return;
      this.pg.free();
      this.pg = this.wasm.Playground.createCpu();
      this.fallback = fallback;
      this.compiled = new Map();
    });
    return this.chain;
  }
}

/**
 * The GPU engine of a `create` that missed CREATE_TIMEOUT_MS, if it settles
 * within LATE_TIMEOUT_MS more; null otherwise (a playground made after that is freed).
 * @param {Kernels} wasm  @param {Promise<WasmPlayground>} created
 * @returns {Promise<Engine | null>}
 */
function lateEngine(wasm, created) {
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
  }, LATE_TIMEOUT_MS);
  const settled = created.then(
    (pg) => {
      clearTimeout(timer);
      if (!expired) return new Engine(wasm, pg, null);
      pg.free();
      return null;
    },
    () => {
      clearTimeout(timer);
      return null;
    },
  );
  const deadline = new Promise((resolve) => setTimeout(() => resolve(null), LATE_TIMEOUT_MS));
  return Promise.race([settled, deadline]);
}

/** Software adapters (SwiftShader, lavapipe) report device type Cpu: "… (Cpu, BrowserWebGpu)". */
export function isSoftwareAdapter(name) {
  return /\(Cpu,|swiftshader|llvmpipe|lavapipe/i.test(name ?? '');
}
