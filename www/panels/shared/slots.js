// The run every panel reads: an atomic method's slots are read from the page's
// own run of it (the result's), not from a run of their own, so that the
// result, the stepper and the slots show one order where the GPU makes a new
// one every run. Pure: tests/js/models.test.mjs.

/**
 * The page's last run of `method` on `flags` (the session's, for the flags now
 * shown), or null where there is none: then a panel runs its own.
 * @param {{ lastRun(): any, flags(): Uint32Array }} context  @param {string} method
 */
export function pageRunOf(context, method) {
  const r = context.lastRun();
  return r && r.method === method && r.flags === context.flags() && r.indices.length === r.count ? r : null;
}

/**
 * An atomic method's trace (what `Playground.atomicTrace` gives) read from a
 * run: the slot each visible flag's invocation got is where its index landed.
 * @param {{ method: string, indices: Uint32Array, count: number, instanceCount: number, hash: number }} run
 * @param {Uint32Array} flags  @param {number} noSlot  the slot of an invisible flag (layout.noSlot)
 */
export function atomicTraceOf(run, flags, noSlot) {
  const slots = new Uint32Array(flags.length).fill(noSlot);
  for (let k = 0; k < run.indices.length; k++) if (run.indices[k] < slots.length) slots[run.indices[k]] = k;
  return { method: run.method, slots, indices: run.indices, count: run.count, instanceCount: run.instanceCount, hash: run.hash, flags };
}
