// The kernels' constants (block and tile sizes, the atomic workgroup, the slot
// marker, the look-back's spin limit and its status codes, the presets, the
// methods and what each keeps), read once from the
// wasm module (`layout()` in playground/src/web.rs), so that the page never copies one.

export const layout = {
  block: 0,
  tile: 0,
  /** Invocations of a workgroup of the atomic kernels: `aggregated` reserves once for each. */
  atomicWorkgroup: 0,
  noSlot: 0,
  spinLimit: 0,
  maxTraceFlags: 0,
  /** The longest kernel (a learner's, with the loop guard's code) the wasm takes, in UTF-8 bytes. */
  maxKernelBytes: 0,
  /** The indices a large run lists at once (the rest are read on demand, `readRun`). */
  resultHead: 0,
  /** What a learner's index buffer holds before a run: a slot still holding it was never written. */
  unwritten: 0,
  /** A tile state's status by its code (`invalid`, `aggregate`, `inclusive`). */
  /** @type {string[]} */
  tileStatus: [],
  /** What a look-back read of a predecessor, by its code from 1 (`aggregate`, `inclusive`, `counted itself`). */
  /** @type {string[]} */
  chainSeen: [],
  /** The presets' names (`preset="random 1000 0.5 1"`). */
  /** @type {string[]} */
  presets: [],
  /** @type {{ name: string, preservesOrder: boolean, usesTiles: boolean }[]} */
  methods: [],
};

/** Fills `layout` from the initialised wasm module (once). */
export function initLayout(wasm) {
  if (layout.methods.length === 0) Object.assign(layout, wasm.layout());
}

export const methodNames = () => layout.methods.map((m) => m.name);

export const isTileMethod = (name) => layout.methods.some((m) => m.name === name && m.usesTiles);
