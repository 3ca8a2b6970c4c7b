// What a playground computes: presets, runs and their traces on its engine, the
// URL it keeps in sync, and what a device loss changes. The base of
// PlaygroundApp (app.js), which builds the panels these methods fill.

import { Engine } from './engine.js';
import { layout, methodNames, isTileMethod } from './layout.js';
import { ignoredMessage } from './state.js';

/** After a device loss, the first try to get the GPU back, and the longest wait between tries. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
/** From this many flags on, work shows progress at once. */
export const BIG = 1 << 20;
/** What the tile view suggests when the array has a single tile. */
export const MANY_TILES = Object.freeze({ name: 'random', n: 100_000, density: 0.5, seed: 1 });

export class PlaygroundWork {
  // --------------------------------------------------------------- state --
  /** Flags from a preset; large ones show progress while the wasm side makes them. */
  async generate(preset) {
    const done = this.status.progress(this.t('work.generating', { n: preset.n, name: this.t(`presetName.${preset.name}`) }), preset.n >= BIG ? 0 : 300);
    try {
      if (preset.n >= BIG) await nextFrame();
      const flags = this.wasm.presetFlags(preset.name, preset.n, preset.density, preset.seed);
      return { flags, preset: { ...preset, n: flags.length } };
    } finally {
      done();
    }
  }

  async applyPreset(preset) {
    let made;
    this.setBusy(+1);
    try {
      made = await this.generate(preset);
    } catch (e) {
      this.alert('input', this.t('work.presetFailed', { name: preset.name, error: e.message }));
      return;
    } finally {
      this.setBusy(-1);
    }
    if (this.destroyed) return;
    this.editor.show(made.flags, made.preset);
    this.setFlags(made.flags, made.preset, 'preset');
  }

  setFlags(flags, preset, why) {
    this.flags = flags;
    this.preset = preset;
    this.clearAlert('input');
    this.changed(why);
    // Painting and typing produce bursts: compact once they pause.
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    else this.setBusy(+1);
    const delay = why === 'edit' ? 60 : 0;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      this.refresh().finally(() => this.setBusy(-1));
    }, delay);
    this.updateUrl();
  }

  setMethod(method, why = 'method') {
    if (method === this.method) return;
    const wasTile = isTileMethod(this.method);
    this.method = method;
    this.result.check(method);
    if (method === 'atomic' || method === 'aggregated') this.atomicView.choose(method);
    const tiles = isTileMethod(method);
    this.showPanels();
    this.updateUrl();
    this.changed(why);
    // The tile view follows the method; the scan trace only the flags.
    this.track(this.refresh({ traces: tiles || wasTile || this.traced !== this.flags, slots: method !== 'scan' && !tiles }));
  }

  /** A state.js error (`{ key, params }`) or a plain message, in words. */
  hashError(error) {
    return typeof error === 'object' && error?.key ? this.t(`hash.${error.key}`, error.params) : String(error);
  }

  updateUrl() {
    if (!this.url || !this.wasm || this.destroyed) return;
    this.url.write(this.currentView());
  }

  async applyHash() {
    if (!this.engine) return;
    const { state, flags, error, ignored } = this.url.read();
    if (error) {
      this.alert('hash', this.t('work.hashMalformed', { error: this.hashError(error) }));
      this.updateUrl();
      return;
    }
    this.clearAlert('hash');
    const message = ignoredMessage(ignored, this.t);
    if (message) this.alert('hash', message);
    // A link that names no flags keeps the ones shown.
    const made = flags ? { flags, preset: null } : state.preset ? await this.generate(state.preset) : { flags: this.flags, preset: this.preset };
    this.method = state.method;
    this.pendingStep = state.step;
    this.pendingBlock = state.block;
    this.pendingTile = state.tile;
    this.showPanels();
    this.buildMethods();
    this.editor.show(made.flags, made.preset);
    this.flags = made.flags;
    this.preset = made.preset;
    this.changed('url');
    await this.refresh();
  }

  // ---------------------------------------------------------------- work --
  /** Runs `fn(pg)` on the engine with the current flags uploaded. */
  withFlags(engine, fn) {
    return engine.exec((pg) => {
      if (this.uploaded?.flags !== this.flags || this.uploaded?.pg !== pg) {
        pg.setFlags(this.flags);
        this.uploaded = { flags: this.flags, pg };
      }
      return fn(pg);
    });
  }

  /**
   * Uploads the flags if they changed, runs the chosen method, then (unless
   * told not to) fetches the traces of the visible steppers and the atomic
   * slots. A newer call supersedes an older one still waiting.
   */
  async refresh({ traces = true, slots = true } = {}) {
    if (!this.engine || this.destroyed) return;
    const generation = ++this.generation;
    const { flags, method, engine } = this;
    const n = flags.length;
    const done = this.status.progress(this.t(engine.backend === 'gpu' ? 'work.running.gpu' : 'work.running.cpu', { method, n }), n >= BIG ? 0 : 250);
    this.setBusy(+1);
    try {
      if (n >= BIG) await nextFrame(); // paint the progress before the upload
      const result = await this.withFlags(engine, async (pg) => {
        if (generation !== this.generation) return null;
        // A first run would count its pipelines' compilation (seconds on a
        // software adapter) as its own time: compile first, timed apart.
        if (!engine.compiled.has(method) && pg.backend === 'gpu') done.set(this.t('work.compilingMethod', { method }));
        await engine.compileIn(pg, method);
        done.set(this.t(engine.backend === 'gpu' ? 'work.running.gpu' : 'work.running.cpu', { method, n }));
        const t0 = performance.now();
        const r = await pg.run(method);
        r.ms = performance.now() - t0;
        return r;
      });
      if (!result || generation !== this.generation) return;
      this.showResult(result);
      const stepper = this.activeStepper();
      if (traces && stepper) await (stepper === this.tilesView ? this.refreshTiles(generation) : this.refreshTrace(generation));
      if (slots && this.visible.atomic) await this.refreshSlots(generation);
      this.clearAlert('gpu-run');
    } catch (e) {
      if (generation !== this.generation || this.destroyed) return;
      this.failed(e);
    } finally {
      done();
      this.setBusy(-1);
    }
  }

  failed(e) {
    if (e?.kind === 'too-large') {
      this.alert('gpu-run', this.t('work.tooLarge', { error: e.message }));
      if (this.uploaded && this.uploaded.flags !== this.flags) {
        this.flags = this.uploaded.flags;
        this.preset = null;
        this.editor.show(this.flags, null);
        this.updateUrl();
        this.changed('too-large');
      }
    } else {
      this.alert('gpu-run', this.t('work.runFailed', { error: e?.message ?? e }));
    }
  }

  /** The engine traces run on: the main one, or for arrays past maxTraceFlags a second one holding a window. */
  async traceEngine() {
    if (this.traceEngines?.for !== this.engine) {
      this.traceEngines?.engine.dispose();
      const engine =
        this.engine.backend === 'gpu'
          ? await Engine.open(this.wasm, (kind, message) => this.onGpuEvent(kind, message))
          : Engine.cpu(this.wasm, this.engine.fallback);
      this.traceEngines = { for: this.engine, engine };
    }
    return this.traceEngines.engine;
  }

  async refreshTrace(generation) {
    const flags = this.flags;
    const max = layout.maxTraceFlags;
    let trace;
    let note = null;
    if (flags.length <= max) {
      trace = await this.withFlags(this.engine, (pg) => (generation === this.generation ? pg.scanTrace() : null));
    } else {
      const engine = await this.traceEngine();
      const window = flags.subarray(0, max);
      trace = await engine.exec(async (pg) => {
        if (generation !== this.generation) return null;
        pg.setFlags(window);
        return pg.scanTrace();
      });
      note = this.t('work.traceWindow', { n: flags.length, max, blocks: max / layout.block });
    }
    if (!trace || generation !== this.generation) return;
    this.traced = flags;
    this.stepper.setTrace(trace, { note, step: this.pendingStep, block: this.pendingBlock });
    this.pendingStep = null;
    this.pendingBlock = null;
    this.stepChanged();
  }

  /** One run of the tile view's method with its tile states. */
  async refreshTiles(generation) {
    const method = this.tileMethod();
    const tiles = Math.ceil(this.flags.length / layout.tile);
    const { inFlight, stalled } = this.tilesView.schedule;
    try {
      const trace = await this.withFlags(this.engine, (pg) => {
        if (generation !== this.generation || method !== this.tileMethod()) return null;
        return pg.tileTrace(method, inFlight, stalled !== null && stalled < tiles ? stalled : undefined);
      });
      if (!trace || generation !== this.generation || method !== this.tileMethod()) return;
      this.tilesView.setTrace(trace, { step: this.pendingStep, tile: this.pendingTile });
      this.pendingStep = null;
      this.pendingTile = null;
      this.stepChanged();
    } catch (e) {
      if (generation === this.generation) this.alert('gpu-run', this.t('work.tileTraceFailed', { error: e?.message ?? e }));
    }
  }

  async refreshSlots(generation) {
    const method = this.atomicView.method;
    const flags = this.flags;
    const max = layout.maxTraceFlags;
    if (flags.length > max) {
      this.atomicView.showSlots(null, flags, this.t('work.slotsTooMany', { max, n: flags.length }));
      return;
    }
    try {
      const trace = await this.withFlags(this.engine, (pg) => (generation === this.generation ? pg.atomicTrace(method) : null));
      if (trace && generation === this.generation) this.atomicView.showSlots(trace, flags);
    } catch (e) {
      if (generation === this.generation) this.alert('gpu-run', this.t('work.atomicTraceFailed', { error: e?.message ?? e }));
    }
  }

  async repeat(runs) {
    if (!this.engine) return;
    const generation = this.generation;
    const engine = this.engine;
    const available = Array.from(engine.pg?.methods ?? methodNames());
    // The methods whose order depends on scheduling, beside the scan.
    const unordered = layout.methods.filter((m) => !m.preservesOrder).map((m) => m.name);
    const methods = [...unordered.filter((m) => available.includes(m)), 'scan'];
    const results = methods.map((method) => ({ method, runs: [] }));
    this.atomicView.setBusy(true);
    this.setBusy(+1);
    const done = this.status.progress(this.t('work.repeating', { runs }), 0, { near: this.atomicView.progress });
    try {
      for (let k = 0; k < runs && !this.destroyed; k++) {
        done.set(this.t('work.repeatRun', { k: k + 1, runs, methods: methods.join(', '), n: this.flags.length }));
        for (const entry of results) {
          const r = await this.withFlags(engine, async (pg) => {
            await engine.compileIn(pg, entry.method);
            return pg.run(entry.method);
          });
          entry.runs.push({ indices: r.indices, hash: r.hash });
        }
      }
      if (this.destroyed) return;
      this.atomicView.showRepeats(results, { backend: engine.backend, adapter: engine.pg?.adapterName, n: this.flags.length });
      // The canvas and the results show the chosen method again.
      if (generation === this.generation) {
        const r = await this.withFlags(engine, (pg) => pg.run(this.method));
        this.showResult(r);
      }
    } catch (e) {
      if (!this.destroyed) this.alert('gpu-run', this.t('work.repeatFailed', { error: e?.message ?? e }));
    } finally {
      done();
      this.atomicView.setBusy(false);
      this.setBusy(-1);
    }
  }

  // ---------------------------------------------------------- device loss --
  onGpuEvent(kind, message) {
    if (this.destroyed) return;
    if (kind !== 'device-lost') {
      this.alert('gpu', this.t('work.gpuError', { error: message }));
      return;
    }
    if (!this.engine || this.engine.backend !== 'gpu') return;
    this.uploaded = null;
    // Some browsers (headless, software adapters) lose the device when a WebGPU
    // canvas is presented: the next device draws offscreen and reads the frame back.
    const toImage = this.draw.mode === 'canvas' && !this.triedImage;
    if (toImage) this.triedImage = true;
    this.gpuDrawMode = toImage ? 'image' : this.draw.mode;
    const lost = this.engine;
    this.track(
      lost.fallBackToCpu({ kind: toImage ? 'starting' : 'device-lost', message }).then(() => {
        if (this.engine !== lost || this.destroyed) return undefined;
        this.showBackend();
        return this.refresh();
      }),
    );
    this.lostMessage = message;
    this.retryDelay = RETRY_FIRST_MS;
    if (!toImage) this.sayLost();
    this.scheduleGpu(toImage ? 0 : this.retryDelay);
  }

  /** The loss, the CPU reference meanwhile, the next try and a button to try now. */
  sayLost(next = this.retryDelay) {
    const retry = { label: this.t('work.retry'), testid: 'retry-gpu', onclick: () => this.scheduleGpu(0) };
    this.alert('device-lost', this.t('work.lost', { error: this.lostMessage, seconds: Math.round(next / 1000) }), [retry]);
  }

  scheduleGpu(delay) {
    clearTimeout(this.retryTimer);
    this.timers.delete(this.retryTimer);
    this.retryTimer = this.later(() => this.track(this.retryGpu()), delay);
  }

  /** Opens a new device; on the GPU again, or another try later (backing off). */
  async retryGpu() {
    if (this.destroyed || this.engine?.backend === 'gpu' || this.reopening) return;
    this.reopening = true;
    try {
      const engine = await Engine.open(this.wasm, (kind, message) => this.onGpuEvent(kind, message));
      if (this.destroyed) {
        engine.dispose();
        return;
      }
      if (engine.backend === 'gpu') {
        this.clearAlert('device-lost');
        await this.useEngine(engine, this.gpuDrawMode);
        return;
      }
      engine.dispose();
      if (this.engine?.fallback?.kind === 'starting') {
        this.engine.fallback = { kind: 'device-lost', message: this.lostMessage };
        this.showBackend();
      }
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
      this.sayLost();
      this.scheduleGpu(this.retryDelay);
    } finally {
      this.reopening = false;
    }
  }
}

/** Lets the browser paint (the progress line) before synchronous work; never hangs in a hidden tab. */
function nextFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });
}
