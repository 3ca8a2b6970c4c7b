// One playground's state and work, apart from how it is shown. It exists from
// the moment the element starts and outlives its views: a language switch
// rebuilds the panels around the same session, so that nothing the visitor or
// the attributes set is lost. Its rooms:
//   here           the start-up sequence, the engine, the state (flags or the
//                  preset that made them, the method; a huge array asked
//                  first), the URL it keeps in sync (written once an edit's
//                  run is in), and what the host hears (events, snapshots)
//   startup.js     where it starts: a snapshot, the link, the attributes (pure)
//   attributes.js  an attribute changed after start-up
//   runs.js        the runs, what they gave, the side engines
//   recovery.js    device loss and the way back to the GPU
//   stepping.js    a learner's kernel stepped on the page, and ours again
// The view (./playground.js) shows what it computes; the panels (www/panels/)
// see it only through their context (./context.js).

import { Engine, kernels, isSoftwareAdapter } from '../core/engine.js';
import { methodNames, isTileMethod } from '../core/layout.js';
import { ASK_ABOVE, DEFAULT_PRESET, tooBig, MAX_CELLS, flagsText, formatHash, formatPresetAttribute, ignoredMessage, parseFlagsAttribute } from '../core/state.js';
import { UrlSync } from '../core/url-sync.js';
import { Recovery } from './recovery.js';
import { Runs, BIG, nextFrame } from './runs.js';
import { startState, hashError } from './startup.js';
import { attributeChanged } from './attributes.js';
import { parsePanels } from '../core/panels.js';
import { guarded } from '../core/dom.js';

const WARM_UP = new Uint32Array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]);

/**
 * What the session needs of whoever shows it (the view): where to say
 * things, and the panels' parts that follow the state.
 * @typedef {{
 *   status: import('./status.js').StatusBar,
 *   root: HTMLElement,
 *   showFlags(flags: Uint32Array, preset: object | null): void,
 *   showMethods(methods: string[], method: string): void,
 *   methodChanged(method: string): void,
 *   showResult(r: any): void,
 *   afterRun(signal: AbortSignal, what: { traces: boolean, slots: boolean }): Promise<void>,
 *   engineChanged(engine: Engine): void,
 *   kernelStepping(state: import('./stepping.js').SteppingState, sources: any[] | null): void,
 *   revealStepper(): void,
 *   attachDraw(engine: Engine, mode: string): Promise<boolean>,
 *   reattachDraw(pg: any): any,
 *   showPanels(): void,
 *   setPanels(panels: Set<string>): void,
 *   currentStep(): { step: number | null, block: number, tile: number },
 *   goToStep(step: number): void,
 *   whenBuilt(): Promise<void>,
 * }} View
 */

export class Session {
  /**
   * @param {{ attributes: Record<string, string|null>, restore?: any, emit: (type: string, detail: object) => void,
   *           setState: (name: string, on: boolean) => void }} options
   */
  constructor({ attributes, restore = null, emit, setState }) {
    this.attributes = { ...attributes };
    this.restore = restore;
    this.emit = emit;
    this.setState = setState;
    /** @type {View | null} */
    this.view = null;
    /** @type {any} the translator of the view shown */
    this.t = null;
    this.wasm = null;
    /** @type {Engine | null} */
    this.engine = null;
    /** @type {Uint32Array} */
    this.flags = new Uint32Array(0);
    /** @type {{ name: string, n: number, density: number, seed: number } | null} */
    this.preset = null;
    /** @type {import('../../types/compaction-playground').Method} */
    this.method = 'scan';
    /** True once the state is known (attributes, hash or snapshot read): before, the attributes are the truth. */
    this.started = false;
    this.busyCount = 0;
    this.destroyed = false;
    /** The kernel panel's API (`offerKernel`), and a source set before it came. */
    this.kernel = null;
    /** @type {string | null} */
    this.pendingKernelSource = null;
    /** The course's current exercise (the course panel sets it; the kernel panel takes it), and the course panel's API. */
    /** @type {{ id: string, module: string, editable: string[], check: string } | null} */
    this.exercise = null;
    /** @type {any} */
    this.course = null;
    /** The kernel panel's kernel and the visitor's texts, kept when the view is rebuilt (a language switch). */
    /** `link`: the kernel the URL carries (`{ module, src }`), `fromLink`: the one a link brought, until the panel takes it. */
    this.kernelState = { module: null, texts: new Map(), link: null, fromLink: null };
    /**
     * A learner's kernel stepped on the page's own engine, and ours again
     * (./stepping.js, fetched with the first Step through it).
     * @type {import('./stepping.js').Stepping | null}
     */
    this.stepping = null;
    /** @type {Set<ReturnType<typeof setTimeout>>} */
    this.timers = new Set();
    /** Where the steppers start once a trace is in: `{ step, block, tile }` from the hash or the attributes. */
    this.pending = { step: null, block: null, tile: null };
    /** @type {string | null} */
    this.drawMode = null;
    /** @type {string | null} */
    this.drawWanted = null;
    /** @type {UrlSync | null} */
    this.url = null;
    /** The flags the scan stepper's trace is of (www/panels/scan/). */
    this.traced = null;
    /** What each panel kept of its results while its view is rebuilt (`keep()`, `restore()`). @type {Record<string, any>} */
    this.kept = {};
    /** @type {string | null} */
    this.tracedMethod = null;
    /** @type {{ n: number, apply: () => Promise<void> } | null} a link's or an attribute's array past ASK_ABOVE, until the visitor says */
    this.asking = null;
    /** True while the hash stays as the link gave it (a question pending, a part unread): written again once the visitor edits. */
    this.holdUrl = false;
    /** The URL's write planned for the end of this task. @type {ReturnType<typeof setTimeout> | null} */
    this.urlTimer = null;
    /** The runs and what they gave (./runs.js). */
    this.runs = new Runs(this);
    /** Device loss and the way back to the GPU. */
    this.recovery = new Recovery({
      alive: () => !this.destroyed,
      engine: () => this.engine,
      drawMode: () => this.drawMode,
      lostUpload: () => {
        this.runs.uploaded = null;
      },
      open: (onEvent) => Engine.open(this.wasm, onEvent),
      useEngine: (engine, drawMode) => this.useEngine(engine, drawMode),
      showEngine: () => this.showEngine(),
      refresh: () => this.refresh(),
      track: (promise) => this.track(promise),
      later: (fn, ms) => this.later(fn, ms),
      cancel: (timer) => {
        clearTimeout(/** @type {any} */ (timer));
        this.timers.delete(/** @type {any} */ (timer));
      },
      alert: (kind, message, actions) => this.alert(kind, message, actions),
      clearAlert: (kind) => this.clearAlert(kind),
      t: (key, params) => this.t(key, params),
    });
  }

  // ------------------------------------------------------------- helpers --
  /** The current run's signal (aborted once a newer run starts or the session ends). */
  runSignal() {
    return this.runs.run.signal;
  }

  /** Where a stepper starts, from the link or the attributes, once: the parts asked for are cleared. @param {('step' | 'block' | 'tile')[]} parts */
  takeStart(parts) {
    const start = { ...this.pending };
    for (const part of parts) this.pending[part] = null;
    return start;
  }

  /** A step asked for (the `step` attribute) before the stepper has its trace. @param {{ step: number }} at */
  startAt({ step }) {
    this.pending.step = step;
  }

  /**
   * The flags and the method the stepper's trace is of: a method change traces
   * again when either differs.
   * @param {Uint32Array} flags  @param {string} method
   */
  setTraced(flags, method) {
    this.traced = flags;
    this.tracedMethod = method;
  }

  /** Work the tests and the host can wait on: `busy` while any is queued or running. */
  track(promise) {
    this.setBusy(+1);
    return Promise.resolve(promise)
      .catch((e) => this.unexpected(e))
      .finally(() => this.setBusy(-1));
  }

  setBusy(delta) {
    this.busyCount += delta;
    this.setState('busy', this.busyCount > 0);
  }

  later(fn, ms) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      guarded(fn, this.view?.root ?? null)();
    }, ms);
    this.timers.add(t);
    return t;
  }

  /** An error that escaped a handler of this playground: shown, never only logged. */
  unexpected(error) {
    if (this.destroyed || !this.t) return;
    this.alert('unexpected', this.t('app.unexpected', { error: error?.message ?? error }));
  }

  alert(kind, message, actions = []) {
    this.view?.status.alert(kind, message, actions);
  }

  clearAlert(kind) {
    this.view?.status.clearAlert(kind);
  }

  /** A progress line (see StatusBar.progress); a no-op function before a view exists. */
  progress(label, delay, options) {
    if (this.view) return this.view.status.progress(label, delay, options);
    const done = () => {};
    done.set = () => {};
    return done;
  }

  // -------------------------------------------------------------- start-up --
  /** Loads the kernels, reads the state, answers on the CPU at once, then moves to the GPU. */
  async start() {
    this.setBusy(+1);
    try {
      await this.startUp();
    } catch (e) {
      this.unexpected(e);
    } finally {
      this.setBusy(-1);
    }
  }

  async startUp() {
    try {
      this.wasm = await kernels();
    } catch (e) {
      this.view?.status.showNoKernels();
      this.alert('wasm', this.t('app.noWasm', { error: e.message }));
      return;
    }
    if (this.destroyed) return;
    if (this.attributes['sync-url'] !== null) this.startUrlSync();
    const { state, flags } = this.initialState();
    this.method = /** @type {any} */ (state.method);
    this.pending = startAt(state);
    const wanted = flags ? { flags, preset: null } : { flags: null, preset: state.preset };
    // What a visitor's own state held (a reconnection) is computed again; a link's or an attribute's huge array asks first.
    const asked = this.restore ? 0 : tooBig(wanted);
    const initial = wanted.flags && !asked ? wanted : await this.generate(asked ? DEFAULT_PRESET : wanted.preset);
    if (this.destroyed) return;
    this.flags = initial.flags;
    this.preset = initial.preset;
    this.started = true;
    this.view?.showPanels();
    this.view?.showFlags(this.flags, this.preset);
    this.changed('start');
    if (asked) this.askFirst(asked, () => this.applyMade(wanted, 'asked'));

    // The CPU reference answers at once; WebGPU takes over once its pipelines
    // are compiled (seconds on a software adapter), so the example is compacted
    // right away either way.
    this.engine = Engine.cpu(this.wasm, { kind: 'starting', message: '' });
    this.showEngine();
    // Its sources too: the stepper's code excerpt then comes in with the first trace, not a frame after it.
    this.view?.engineChanged(this.engine);
    // (A huge array would only keep the CPU busy while the GPU starts.)
    const early = this.flags.length < BIG ? this.refresh() : Promise.resolve();
    const gpu = await Engine.open(this.wasm, (kind, message) => this.onGpuEvent(kind, message));
    await early;
    if (this.destroyed) {
      gpu.dispose();
      return;
    }
    await this.useEngine(gpu);
    // A device that came too late for the start takes over when it comes (busy until then).
    if (gpu.late) this.track(this.adoptLate(gpu));
    await this.view?.whenBuilt();
    if (!this.destroyed) this.setState('ready', true);
  }

  /** The GPU engine that `cpu` (a start that timed out) still waits for, made the engine if it comes while `cpu` is. */
  async adoptLate(cpu) {
    const gpu = await cpu.late;
    if (!gpu) return;
    if (this.destroyed || this.engine !== cpu) {
      gpu.dispose();
      return;
    }
    await this.useEngine(gpu);
  }

  /** Shows the engine: where it runs, its methods, its sources. */
  showEngine() {
    // A lost device took the learner's kernel with it: the page runs ours, and says so.
    if (this.stepping?.active?.gpu && !this.engine?.kernel) this.stepping.leave('engine');
    const methods = this.methods();
    if (!methods.includes(this.method)) this.method = methods[0];
    this.view?.status.showBackend(this.engine, this.view.root);
    this.view?.showPanels();
    this.view?.showMethods(methods, this.method);
  }

  /** The methods the engine offers. @returns {import('../../types/compaction-playground').Method[]} */
  methods() {
    return /** @type {any[]} */ (Array.from(this.engine?.pg?.methods ?? methodNames()));
  }

  /** A new view (a language switch): it shows everything the session has, then compacts again. */
  async viewRebuilt() {
    if (!this.started || !this.engine) return;
    if (this.asking) this.sayAsk();
    this.view.showFlags(this.flags, this.preset);
    this.showEngine();
    this.view.engineChanged(this.engine);
    if (this.engine.backend === 'gpu') await this.attachDraw(this.engine, this.drawWanted ?? null);
    await this.refresh();
  }

  /** Warms `engine` up (compiling the scan's pipelines), then makes it the playground's engine. */
  async useEngine(engine, drawMode = null) {
    this.setBusy(+1);
    try {
      await this.switchEngine(engine, drawMode);
    } finally {
      this.setBusy(-1);
    }
  }

  async switchEngine(engine, drawMode) {
    if (engine.backend === 'gpu') {
      // A first run on a small array compiles the scan's pipelines (the other
      // playgrounds of the page share them).
      const done = this.progress(this.t('app.compiling'), 400);
      try {
        const t0 = performance.now();
        await engine.exec(async (pg) => {
          pg.setFlags(WARM_UP);
          await pg.run('scan');
        });
        engine.compiled.set('scan', performance.now() - t0);
      } catch (e) {
        engine.dispose();
        engine = Engine.cpu(this.wasm, { kind: 'device', message: e?.message ?? String(e) });
      } finally {
        done();
      }
    }
    if (this.destroyed) {
      engine.dispose();
      return;
    }
    this.engine?.dispose();
    this.engine = engine;
    this.runs.engineChanged();
    this.showEngine();
    this.view?.engineChanged(engine);
    if (engine.backend === 'gpu') await this.attachDraw(engine, drawMode);
    await this.refresh();
  }

  /**
   * The drawIndirect canvas on `engine`, in `mode` ('canvas', or 'image' where
   * presenting fails; null: an image on a software adapter). `drawMode` is the
   * mode attached, null while no draw panel shows; `drawWanted` the one to use.
   */
  async attachDraw(engine, mode) {
    this.drawWanted = mode ?? (isSoftwareAdapter(engine.pg.adapterName) ? 'image' : 'canvas');
    this.drawMode = null;
    try {
      if (await this.view?.attachDraw(engine, this.drawWanted)) {
        this.drawMode = this.drawWanted;
        // A canvas that could not be redrawn before (a lost device) is drawn again: its alert goes.
        this.clearAlert('canvas');
      }
    } catch (e) {
      this.alert('canvas', this.t('app.canvas', { error: e.message }));
    }
  }

  /** The starting state: a previous connection's, the link's (sync-url) or the attributes' (./startup.js). */
  initialState() {
    const link = this.url && location.hash.length > 1 ? { ...this.url.read(), hash: location.hash } : null;
    const start = startState({ restore: this.restore, link, attributes: this.attributes, t: this.t, wasm: this.wasm });
    // A learner's kernel in the link: the kernel panel takes it (compiled at once, run only on Check).
    if (link && !link.error && link.state.kernel) this.kernelState.fromLink = link.state.kernel;
    if (start.panels) {
      const { panels, unknown } = parsePanels(start.panels, this.attributes.course !== null && this.attributes.course !== undefined);
      this.view?.setPanels(panels);
      if (unknown.length) this.alert('panels', this.t('app.unknownPanels', { panels: unknown.join(', ') }));
    }
    for (const { kind, message } of start.alerts) this.alert(kind, message);
    if (start.holdUrl) this.holdUrl = true;
    return start;
  }

  startUrlSync() {
    if (this.url) return;
    this.url = new UrlSync({
      // A link's flags: packed (`b10.WQI`) or a list, as the attribute takes them.
      decodeFlags: (code) => parseFlagsAttribute(code, this.wasm),
      encodeFlags: (flags) => this.wasm.encodeFlags(flags),
      onHash: () => this.track(this.applyHash()),
    });
  }

  // ----------------------------------------------------------- attributes --
  /** An observed attribute changed (./attributes.js). @param {string} name  @param {string | null} value */
  attributeChanged(name, value) {
    attributeChanged(this, name, value);
  }

  // --------------------------------------------------------------- state --
  /** Flags from a preset; large ones show progress while the wasm side makes them. */
  async generate(preset) {
    const done = this.progress(this.t('work.generating', { n: preset.n, name: this.t(`presetName.${preset.name}`) }), preset.n >= BIG ? 0 : 300);
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
    this.view?.showFlags(made.flags, made.preset);
    this.setFlags(made.flags, made.preset, 'preset');
  }

  /** Shows and computes `{ flags }` or `{ preset }` (generated first). */
  async applyMade({ flags, preset }, why) {
    if (!flags) return this.applyPreset(preset);
    this.view?.showFlags(flags, null);
    this.setFlags(flags, null, why);
  }

  /**
   * A link or an attribute asks for `n` flags, past ASK_ABOVE: the example stays
   * until the visitor says to compute them (`apply`); the URL keeps the link's
   * state meanwhile. Any edit of theirs drops the question.
   */
  askFirst(n, apply) {
    this.asking = { n, apply };
    this.holdUrl = true;
    this.sayAsk();
  }

  sayAsk() {
    const { n, apply } = this.asking;
    const compute = {
      label: this.t('work.askCompute', { n }),
      testid: 'ask-compute',
      onclick: () => {
        this.edited();
        this.track(apply());
      },
    };
    this.alert('ask', this.t('work.ask', { n, mib: Math.ceil((n * 4) / 2 ** 20), max: ASK_ABOVE }), [compute]);
  }

  /** The visitor (or the host) changed the state: a pending question is dropped, the URL follows again. */
  edited() {
    this.holdUrl = false;
    if (!this.asking) return;
    this.asking = null;
    this.clearAlert('ask');
  }

  setFlags(flags, preset, why) {
    this.stepping?.changed(why);
    this.edited();
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
    // (The URL is written once the run and its step are in: refresh.)
  }

  setMethod(method, why = 'method') {
    if (method === this.method) return;
    this.stepping?.changed(why);
    if (why === 'method') this.edited();
    const wasTile = isTileMethod(this.method);
    this.method = method;
    this.view?.methodChanged(method);
    const tiles = isTileMethod(method);
    this.changed(why);
    // The tile view follows the method, and so does the stepper: it steps the method chosen.
    this.track(this.refresh({ traces: tiles || wasTile || this.traced !== this.flags || this.tracedMethod !== method, slots: method !== 'scan' && !tiles }));
  }

  /** A state.js error (`{ key, params }`) or a plain message, in words. */
  hashError(error) {
    return hashError(error, this.t);
  }

  /**
   * The URL follows the state: written once for what one task changed (an
   * edit, its run and the step the stepper shows after it are one write).
   */
  updateUrl() {
    if (this.urlTimer !== null) return;
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      this.writeUrl();
    }, 0);
  }

  writeUrl() {
    // Before the state is read (the wasm still loading), or while a link's huge array waits for a yes, the hash is the truth: never written then.
    if (!this.url || !this.wasm || this.destroyed || !this.view || !this.started || this.holdUrl) return;
    this.url.write(this.currentView());
  }

  async applyHash() {
    if (!this.engine) return;
    const { state, flags, error, ignored } = this.url.read();
    if (error) {
      this.alert('hash', this.t('work.hashMalformed', { error: this.hashError(error) }));
      this.holdUrl = true;
      return;
    }
    this.clearAlert('hash');
    const message = ignoredMessage(ignored, this.t);
    if (message) this.alert('hash', message);
    const n = tooBig({ flags, preset: state.preset });
    if (n) {
      this.askFirst(n, () => this.applyHashState(state, flags));
      return;
    }
    this.edited();
    this.holdUrl = Boolean(message);
    await this.applyHashState(state, flags);
  }

  /** A link's state (read from the hash) shown and computed. */
  async applyHashState(state, flags) {
    // A link that names no flags keeps the ones shown.
    const made = flags ? { flags, preset: null } : state.preset ? await this.generate(state.preset) : { flags: this.flags, preset: this.preset };
    if (this.destroyed) return;
    this.method = state.method;
    this.pending = startAt(state);
    this.view?.showPanels();
    this.view?.showMethods(this.methods(), this.method);
    this.view?.showFlags(made.flags, made.preset);
    this.flags = made.flags;
    this.preset = made.preset;
    this.changed('url');
    await this.refresh();
  }

  // ---------------------------------------------------------------- work --
  // (./runs.js: the runs, what they gave, the side engines.)
  withFlags(engine, fn) {
    return this.runs.withFlags(engine, fn);
  }

  refresh(options) {
    return this.runs.refresh(options);
  }

  showResult(r) {
    this.runs.showResult(r);
  }

  traceEngine() {
    return this.runs.traceEngine();
  }

  sideEngine() {
    return this.runs.sideEngine();
  }

  redraw() {
    this.runs.redraw();
  }

  get lastRun() {
    return this.runs.lastRun;
  }

  get lastResult() {
    return this.runs.lastResult;
  }

  /** The stepping room, made (and its module fetched) the first time a learner's kernel is stepped. */
  async steppingRoom() {
    if (!this.stepping) {
      const { Stepping } = await import('./stepping.js');
      this.stepping ??= new Stepping(this);
    }
    return this.stepping;
  }

  // ------------------------------------------------------- events, state --
  changed(source) {
    let visible = 0;
    for (const f of this.flags) if (f !== 0) visible++;
    this.emit('change', { method: this.method, n: this.flags.length, visible, flags: this.flags, preset: this.preset ? { ...this.preset } : null, source });
  }

  /** The state a reconnected element starts from; null while the attributes are still the truth. */
  snapshot() {
    // (While a link's huge array waits for a yes, the link is still the truth.)
    if (!this.started || this.asking) return null;
    return { flags: this.flags, preset: this.preset, method: this.method, step: this.view?.currentStep().step ?? null };
  }

  /** The flags as the `flags` attribute takes them, or null for arrays made by a preset too large to list. */
  flagsAttribute() {
    if (this.preset && this.flags.length > MAX_CELLS) return null;
    return this.flags.length > MAX_CELLS ? this.wasm.encodeFlags(this.flags) : flagsText(this.flags);
  }

  presetAttribute() {
    return this.preset ? formatPresetAttribute(this.preset) : null;
  }

  /** The state in the hash form of state.js, with `panels` when not all show (for embed.html). */
  stateHash(panels) {
    return formatHash({ ...this.currentView(), embed: panels ? { panels } : {} }, (flags) => this.wasm.encodeFlags(flags)).slice(1);
  }

  /** What the URL keeps: the flags (or their preset), the method, the step and where it looks. */
  currentView() {
    const { step, block, tile } = this.view?.currentStep() ?? { step: null, block: 0, tile: 0 };
    return { flags: this.flags, preset: this.preset, method: this.method, step, block, tile, kernel: this.kernelState.link };
  }

  // ---------------------------------------------------------- device loss --
  /** What the device says: a loss falls back to the CPU and tries to get the GPU back (./recovery.js). */
  onGpuEvent(kind, message) {
    this.recovery.onGpuEvent(kind, message);
  }

  // ------------------------------------------------------------ teardown --
  /** Stops everything this session started; its wasm objects are freed. */
  /**
   * The kernel panel's API for the element (null when it goes); answers the
   * source set on the element before the panel came, if any.
   * @param {import('./context.js').KernelApi | null} api
   */
  offerKernel(api) {
    this.kernel = api;
    const pending = this.pendingKernelSource;
    this.pendingKernelSource = null;
    return api ? pending : null;
  }

  /** The course's exercise, set by its panel: the kernel panel takes it. @param {any} exercise */
  setExercise(exercise) {
    this.exercise = exercise;
    this.kernel?.exerciseChanged();
  }

  /** The course panel's API for the element (null when it goes). @param {any} api */
  offerCourse(api) {
    this.course = api;
  }

  /** The element's `kernelSource`: the panel's text, or what waits for the panel. */
  get kernelSource() {
    return this.kernel?.source ?? this.pendingKernelSource;
  }

  set kernelSource(text) {
    if (this.kernel) this.kernel.setSource(text);
    else this.pendingKernelSource = text;
  }

  destroy() {
    this.destroyed = true;
    this.runs.dispose();
    clearTimeout(this.urlTimer);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    clearTimeout(this.refreshTimer);
    this.url?.destroy();
    this.engine?.dispose();
  }
}

/**
 * Where the steppers start: a link's block 0 is the hash's default (it writes
 * no `block` for it), not a block the visitor chose, so the steps may still
 * open on the block where they do something.
 * @param {{ step: number | null, block?: number | null, tile?: number | null }} state
 */
function startAt({ step, block, tile }) {
  return { step, block: block || null, tile: tile ?? null };
}
