// Loads the wasm package and opens a Playground: on the GPU when WebGPU works,
// otherwise on the CPU mirror ("CPU reference"), remembering why.
// Every call into a Playground goes through Engine.exec, one at a time: the
// wasm side keeps its state in RefCells, so two calls must never interleave
// (e.g. setFlags while a run is awaiting the GPU).

let wasmPromise = null;

/** The wasm-bindgen module, initialised once per page. */
export function loadWasm() {
  if (!wasmPromise) {
    wasmPromise = (async () => {
      const wasm = await import('./pkg/compaction_playground.js');
      await wasm.default();
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
    return this.pg.backend;
  }

  /** Runs `fn(pg)` after every earlier call has finished. */
  exec(fn) {
    const result = this.chain.then(() => fn(this.pg));
    this.chain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Switches this engine to the CPU reference (after a device loss). */
  fallBackToCpu(fallback) {
    this.chain = this.chain.then(() => {
      this.pg = this.wasm.Playground.createCpu();
      this.fallback = fallback;
    });
    return this.chain;
  }
}
