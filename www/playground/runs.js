// A playground's runs: the flags uploaded once per engine, the chosen method
// run (a newer run supersedes an older one: each has an AbortSignal, aborted
// when the next starts), what it gave, the panels told, and the engines of
// the side work (a trace window, the order scene). One room of the session
// (./session.js), which owns the state it reads.

import { Engine } from '../core/engine.js';

/** From this many flags on, work shows progress at once. */
export const BIG = 1 << 20;

export class Runs {
  /** @param {import('./session.js').Session} session */
  constructor(session) {
    this.session = session;
    /** The current run's: aborted when a newer run starts or the session ends. */
    this.run = new AbortController();
    /** The flags uploaded, and to which wasm playground. @type {{ flags: Uint32Array, pg: any } | null} */
    this.uploaded = null;
    /** @type {{ for: Engine, engine: Engine } | null} the engine of traces past maxTraceFlags */
    this.traceEngines = null;
    /** The last run's result as the wasm gave it, and as the host reads it (`result`). */
    this.lastRun = null;
    this.lastResult = null;
  }

  /** A new engine: nothing is uploaded to it yet, the side engines were the old one's. */
  engineChanged() {
    this.uploaded = null;
    this.traceEngines?.engine.dispose();
    this.traceEngines = null;
  }

  /** Everything stops: the run in flight is stale, the side engine freed. */
  dispose() {
    this.run.abort();
    this.traceEngines?.engine.dispose();
  }

  /** Runs `fn(pg)` on `engine` with the current flags uploaded. */
  withFlags(engine, fn) {
    const s = this.session;
    return engine.exec((pg) => {
      if (this.uploaded?.flags !== s.flags || this.uploaded?.pg !== pg) {
        pg.setFlags(s.flags);
        this.uploaded = { flags: s.flags, pg };
      }
      return fn(pg);
    });
  }

  /**
   * Uploads the flags if they changed, runs the chosen method, then (unless
   * told not to) has the view fetch what its visible panels show. A newer call
   * supersedes an older one still waiting.
   */
  async refresh({ traces = true, slots = true } = {}) {
    const s = this.session;
    if (!s.engine || s.destroyed) return;
    this.run.abort();
    this.run = new AbortController();
    const { signal } = this.run;
    const { flags, method, engine } = s;
    const n = flags.length;
    const running = () => s.t(engine.backend === 'gpu' ? 'work.running.gpu' : 'work.running.cpu', { method, n });
    const done = s.progress(running(), n >= BIG ? 0 : 250);
    s.setBusy(+1);
    try {
      if (n >= BIG) await nextFrame(); // paint the progress before the upload
      const result = await this.withFlags(engine, async (pg) => {
        if (signal.aborted) return null;
        // A first run would count its pipelines' compilation (seconds on a
        // software adapter) as its own time: compile first, timed apart.
        if (!engine.compiled.has(method) && pg.backend === 'gpu') done.set(s.t('work.compilingMethod', { method }));
        await engine.compileIn(pg, method);
        done.set(running());
        const t0 = performance.now();
        const r = await pg.run(method);
        r.ms = performance.now() - t0;
        // Whose kernel ran: a learner's, stepped on the page, or ours (null); on which flags.
        r.kernel = engine.kernel;
        r.flags = flags;
        return r;
      });
      if (!result || signal.aborted) return;
      this.showResult(result);
      // A large run's count and first indices are on screen: the rest (every index, the hash) comes after,
      // read from its GPU buffers; the `result` event waits for it.
      if (result.partial) s.track(this.readRest(engine, result, signal));
      await s.view?.afterRun(signal, { traces, slots });
      s.clearAlert('gpu-run');
    } catch (e) {
      if (signal.aborted || s.destroyed) return;
      this.failed(e);
    } finally {
      done();
      s.setBusy(-1);
      // The URL once the run and the step it shows are in (a newer run writes its own).
      if (!signal.aborted) s.updateUrl();
    }
  }

  showResult(r) {
    const s = this.session;
    this.lastRun = r;
    this.lastResult = { method: r.method, n: s.flags.length, count: r.count, instanceCount: r.instanceCount, hash: r.partial ? null : r.hash >>> 0, backend: r.backend };
    s.view?.showResult(r);
    if (!r.partial) s.emit('result', { ...this.lastResult });
  }

  /** The rest of a run that came back in part: every index and the hash, then the result whole. */
  async readRest(engine, r, signal) {
    const rest = await engine.exec((pg) => (signal.aborted ? null : pg.readRun()));
    if (!rest || signal.aborted || this.lastRun !== r) return;
    this.showResult({ ...r, indices: rest.indices, hash: rest.hash, partial: false });
  }

  failed(e) {
    const s = this.session;
    if (e?.kind === 'too-large') {
      s.alert('gpu-run', s.t('work.tooLarge', { error: e.message }));
      if (this.uploaded && this.uploaded.flags !== s.flags) {
        s.flags = this.uploaded.flags;
        s.preset = null;
        s.view?.showFlags(s.flags, null);
        s.updateUrl();
        s.changed('too-large');
      }
    } else if (e?.kind === 'watchdog') {
      s.alert('gpu-run', s.t('work.watchdog', { seconds: e.seconds }));
    } else {
      s.alert('gpu-run', s.t('work.runFailed', { error: e?.message ?? e }));
    }
  }

  /** The engine traces run on for arrays past maxTraceFlags: a second one, holding a window. */
  async traceEngine() {
    const s = this.session;
    if (this.traceEngines?.for !== s.engine) {
      this.traceEngines?.engine.dispose();
      this.traceEngines = { for: s.engine, engine: await this.sideEngine() };
    }
    return this.traceEngines.engine;
  }

  /** A new engine of the same kind as the playground's (its own flags): for a trace window, the order scene. */
  sideEngine() {
    const s = this.session;
    return s.engine.backend === 'gpu' ? Engine.open(s.wasm, (kind, message) => s.onGpuEvent(kind, message)) : Promise.resolve(Engine.cpu(s.wasm, s.engine.fallback));
  }

  /** The canvas changed size: attach again and draw the chosen method. */
  redraw() {
    const s = this.session;
    if (s.engine?.backend !== 'gpu' || !s.drawMode) return;
    const engine = s.engine;
    s.track(
      engine
        .exec((pg) => s.view?.reattachDraw(pg))
        .then(() => engine.exec((pg) => pg.run(s.method)))
        .then((r) => {
          if (!r || engine !== s.engine) return;
          this.showResult(r);
          s.clearAlert('canvas');
        })
        .catch((e) => s.alert('canvas', s.t('app.redraw', { error: e.message }))),
    );
  }
}

/** Lets the browser paint (the progress line) before synchronous work; never hangs in a hidden tab. */
export function nextFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });
}
