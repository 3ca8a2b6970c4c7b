// Loads the wasm package and opens a Playground: on the GPU when WebGPU works,
// otherwise on the CPU mirror ("CPU reference"), remembering why.
// Every call into a Playground goes through Engine.exec, one at a time, so
// that an upload and the run that uses it stay together.

import { initLayout } from './layout.js';

let wasmPromise = null;

/**
 * The wasm-bindgen module (Playground, parseFlags, …; see the README), loaded
 * from next to this module and initialised once per page.
 */
export function kernels() {
  if (!wasmPromise) {
    wasmPromise = (async () => {
      const wasm = await import('./pkg/compaction_playground.js');
      await wasm.default();
      initLayout(wasm);
      return wasm;
    })();
    wasmPromise.catch(() => {
      wasmPromise = null;
    });
  }
  return wasmPromise;
}

/** Why the page runs on the CPU reference, in words a visitor understands. */
export const FALLBACK_REASONS = {
  'no-webgpu': 'This browser has no WebGPU: navigator.gpu is missing.',
  'no-adapter': 'WebGPU is present but found no adapter (requestAdapter() gave none): the GPU may be disabled or blocklisted.',
  device: 'The GPU adapter would not create a device.',
  'device-lost': 'The GPU device was lost.',
  timeout: 'WebGPU did not answer within 15 seconds.',
};

const CREATE_TIMEOUT_MS = 15_000;

export class Engine {
  constructor(wasm, pg, fallback) {
    this.wasm = wasm;
    this.pg = pg;
    /** null on the GPU; else `{ kind, message }` saying why not. */
    this.fallback = fallback;
    this.chain = Promise.resolve();
  }

  /** Opens the GPU playground, or the CPU one with the reason. */
  static async open(wasm, onEvent) {
    let timer;
    try {
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => {
          const e = new Error('Playground.create() did not settle');
          e.kind = 'timeout';
          reject(e);
        }, CREATE_TIMEOUT_MS);
      });
      const pg = await Promise.race([wasm.Playground.create(onEvent), timeout]);
      return new Engine(wasm, pg, null);
    } catch (e) {
      const kind = FALLBACK_REASONS[e?.kind] ? e.kind : 'device';
      return Engine.cpu(wasm, { kind, message: e?.message ?? String(e) });
    } finally {
      clearTimeout(timer);
    }
  }

  static cpu(wasm, fallback) {
    return new Engine(wasm, wasm.Playground.createCpu(), fallback);
  }

  get backend() {
    return this.pg?.backend ?? 'none';
  }

  /** Runs `fn(pg)` after every earlier call has finished. */
  exec(fn) {
    const result = this.chain.then(() => {
      if (!this.pg) throw Object.assign(new Error('this playground was removed from the page'), { kind: 'disposed' });
      return fn(this.pg);
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

  /** Switches this engine to the CPU reference (after a device loss). */
  fallBackToCpu(fallback) {
    this.chain = this.chain.then(() => {
      if (!this.pg) return;
      this.pg.free();
      this.pg = this.wasm.Playground.createCpu();
      this.fallback = fallback;
    });
    return this.chain;
  }
}
