// A learner's kernel stepped on the page (the kernel panel's "Step through
// it"): the page's own engine runs it, every call watched, on its smallest
// failing case, and the flags, the result and the steppers all show that run.
// Other flags (an edit, a preset, a link), another method or a new engine
// bring our kernels back at once, and the panels say so; the panel's "Use our
// kernel again" also brings back the flags and the method the learner had.
// One room of the session (./session.js), which owns the state it changes.

/**
 * @typedef {{ module: string, text: string, method: string, flags: Uint32Array, openAtWrong: boolean, gpu: boolean, schedule: any }} Stepped
 * @typedef {{ active: boolean, module: string | null, schedule?: any, left?: 'asked' | 'flags' | 'method' | 'engine' }} SteppingState
 *   what the panels hear (`kernelStepping`): `left` says why ours came back
 */

export class Stepping {
  /** @param {import('./session.js').Session} session */
  constructor(session) {
    this.session = session;
    /** @type {Stepped | null} */
    this.active = null;
    /** What the learner had before: brought back when they ask for ours again. */
    /** @type {{ flags: Uint32Array, preset: any, method: any } | null} */
    this.saved = null;
  }

  /**
   * The learner's `wgsl` (`text` guarded) in place of `module`'s file on the
   * page's engine, run on `flags` by `method`; the stepper brought into view.
   * `from`: the engine that checked it (its pipelines are taken, not compiled again).
   * @param {{ module: string, text: string, wgsl: string, flags: Uint32Array, method: string, schedule?: any, from?: any }} stepped
   */
  async enter({ module, text, wgsl, flags, method, schedule = null, from = null }) {
    const s = this.session;
    const engine = s.engine;
    if (!engine) return;
    this.saved ??= { flags: s.flags, preset: s.preset, method: s.method };
    const gpu = engine.backend === 'gpu';
    if (gpu && !(from && (await engine.shareKernel(from, module)))) await engine.useKernel(module, wgsl);
    // The order the checker made the workgroups take, where the case failed in one.
    if (gpu && schedule) await engine.exec((pg) => pg.setSchedule(schedule.order, schedule.a, schedule.b, schedule.delayed));
    if (s.destroyed || s.engine !== engine) return;
    this.active = { module, text, method, flags, openAtWrong: true, gpu, schedule };
    s.view?.kernelStepping(this.state(), this.sources());
    if (s.method !== method) s.setMethod(/** @type {any} */ (method), 'counterexample');
    s.view?.showFlags(flags, null);
    s.setFlags(flags, null, 'counterexample');
    s.view?.revealStepper();
  }

  /**
   * Ours again (`why`: the learner asked, other flags, another method, a new
   * engine); with `asked`, the learner's own flags and method too.
   * @param {'asked' | 'flags' | 'method' | 'engine'} why
   */
  leave(why) {
    const was = this.active;
    if (!was) return Promise.resolve();
    const s = this.session;
    this.active = null;
    const saved = this.saved;
    this.saved = null;
    // Queued on the engine before any run the change that brought us here starts.
    const ours = s.engine?.kernel ? s.engine.useOurs().catch(() => undefined) : Promise.resolve();
    s.view?.kernelStepping({ active: false, module: was.module, left: why }, this.sources());
    if (why === 'asked' && saved) {
      if (saved.method !== s.method) s.setMethod(saved.method, 'kernel');
      s.view?.showFlags(saved.flags, saved.preset);
      s.setFlags(saved.flags, saved.preset, 'kernel');
    }
    return ours;
  }

  /** A change of the page's state: anything but the counterexample itself leaves. @param {string} why */
  changed(why) {
    if (this.active && why !== 'counterexample' && why !== 'kernel') this.leave(why === 'method' ? 'method' : 'flags');
  }

  /** Whether the stepper should open at the first step where the learner's buffers differ from ours (once). */
  takeOpenAtWrong() {
    const open = Boolean(this.active?.openAtWrong);
    if (this.active) this.active.openAtWrong = false;
    return open;
  }

  /** The page's kernel sources, with the learner's text while it is stepped. */
  sources() {
    const pg = this.session.engine?.pg;
    return pg ? learnerSources(pg.kernelSources(), this.session.wasm, this.active) : null;
  }

  /** @returns {SteppingState} */
  state() {
    return { active: Boolean(this.active), module: this.active?.module ?? null, schedule: this.active?.schedule ?? null };
  }
}

/**
 * `sources` (kernelSources()) with the learner's own text, as they wrote it
 * (not guarded), in place of the file it replaces while `stepped` runs on the
 * page: the code panel and the steppers' excerpts then show their lines.
 * @param {any[]} sources  @param {any} wasm  @param {Stepped | null} stepped
 */
export function learnerSources(sources, wasm, stepped) {
  if (!stepped?.gpu) return sources;
  const facts = wasm.kernelFacts().find((f) => f.module === stepped.module);
  if (!facts) return sources;
  const wgsl = [stepped.text, ...facts.appended.map((f) => f.wgsl)].join('\n');
  return sources.map((method) => ({
    ...method,
    modules: method.modules.map((m) => (m.files[0] === facts.path ? { ...m, wgsl, learner: true } : m)),
  }));
}
