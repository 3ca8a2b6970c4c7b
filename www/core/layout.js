// The kernels' constants (block and tile sizes, the slot marker, the
// look-back's spin limit, the methods and what each keeps), read once from the
// wasm module (`layout()` in playground/src/web.rs), so that the page never copies one.

export const layout = {
  block: 0,
  tile: 0,
  noSlot: 0,
  spinLimit: 0,
  maxTraceFlags: 0,
  /** @type {{ name: string, preservesOrder: boolean, usesTiles: boolean }[]} */
  methods: [],
};

/** Fills `layout` from the initialised wasm module (once). */
export function initLayout(wasm) {
  if (layout.methods.length === 0) Object.assign(layout, wasm.layout());
}

export const methodNames = () => layout.methods.map((m) => m.name);

export const isTileMethod = (name) => layout.methods.some((m) => m.name === name && m.usesTiles);
