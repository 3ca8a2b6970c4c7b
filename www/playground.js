// The playground: flag editor, the methods on the GPU (or the CPU reference),
// the scan stepper, the tile view of the single-pass methods and the atomic
// view, wired to one Playground from
// the wasm package. `mountPlayground(root, options)` builds it inside any
// element; index.html and <compaction-playground> both use it.

import { h, replace, grouped, hex32, uniqueId } from './dom.js';
import { Engine, loadWasm, FALLBACK_REASONS } from './engine.js';
import { FlagEditor } from './editor.js';
import { Stepper } from './stepper.js';
import { AtomicView } from './atomic-view.js';
import { TilesView } from './tiles-view.js';
import { isTileMethod } from './tile-steps.js';
import { METHODS, MAX_CELLS, MAX_FLAGS, TILE, defaultState, parseHash, formatHash } from './state.js';

const RESULT_ITEMS = 1024;
const WARM_UP = new Uint32Array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]); // result indices listed one by one
const BIG = 1 << 20; // from here on, work shows progress at once
/** What the tile view suggests when the array has a single tile. */
const MANY_TILES = Object.freeze({ name: 'random', n: 100_000, density: 0.5, seed: 1 });

const METHOD_INFO = {
  atomic: 'one global atomicAdd per visible flag: fast, order varies',
  aggregated: 'one workgroup-local atomic per flag, one global atomicAdd per 64: order varies between workgroups',
  scan: 'exclusive prefix sum, then scatter: the input order, the same buffer every run',
  lookback: 'one pass: tiles of 4096 chained by a decoupled look-back: the input order, the same buffer every run',
  'lookback-bits': 'the look-back reading one bit per flag',
  'tile-atomic': 'one global atomicAdd per tile of 4096: order kept inside a tile, not between tiles',
};
/** Methods whose output order depends on scheduling: the ones "run ×R" repeats beside the scan. */
const UNORDERED = ['atomic', 'aggregated', 'tile-atomic'];

/**
 * Builds the playground inside `root` and starts it.
 * @param {HTMLElement} root
 * @param {{ syncUrl?: boolean, flags?: string|null, method?: string|null }} [options]
 *   syncUrl: keep the state in location.hash (the stand-alone page);
 *   flags / method: the initial state of an embedded playground.
 */
export function mountPlayground(root, options = {}) {
  const app = new PlaygroundApp(root, options);
  app.ready = app.start();
  return app;
}

export class PlaygroundApp {
  constructor(root, { syncUrl = false, flags = null, method = null } = {}) {
    this.root = root;
    this.syncUrl = syncUrl;
    this.initialFlags = flags;
    this.initialMethod = method;
    this.wasm = null;
    this.engine = null;
    this.traceEngines = null;
    this.flags = new Uint32Array(0);
    this.preset = null;
    this.method = 'scan';
    this.generation = 0;
    this.uploaded = null;
    this.lastHash = null;
    this.busyCount = 0;
    this.build();
  }

  // ------------------------------------------------------------------ DOM --
  build() {
    this.backendLine = h('p', { class: 'backend', 'data-testid': 'backend', 'data-backend': 'loading' }, 'Loading the compiled kernels…');
    this.fallbackLine = h('p', { class: 'fallback', 'data-testid': 'fallback-reason', hidden: true });
    this.alerts = h('div', { class: 'alerts', role: 'alert', 'data-testid': 'alerts' });
    this.progressText = h('span', { class: 'progress-text' });
    this.progressLine = h('div', { class: 'progress', role: 'status', 'data-testid': 'progress', hidden: true }, h('progress', {}), this.progressText);

    this.editor = new FlagEditor({
      parseFlags: (text) => this.wasm.parseFlags(text),
      onFlags: (flags, preset, why) => (flags ? this.setFlags(flags, preset, why) : this.alert('input', why)),
      onPreset: (preset) => this.applyPreset(preset),
    });

    const methodName = uniqueId('method');
    this.methodRadios = h('div', { class: 'methods', role: 'radiogroup', 'aria-label': 'Method' });
    this.methodName = methodName;
    this.runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'run', onclick: () => this.refresh({ traces: false }) }, 'Run again');
    const stat = (label, testid) => {
      const dd = h('dd', { 'data-testid': testid }, '–');
      return [h('div', {}, h('dt', {}, label), dd), dd];
    };
    const [countBox, count] = stat('count', 'count');
    const [instanceBox, instanceCount] = stat('instanceCount (read back from the indirect buffer)', 'instance-count');
    const [hashBox, hash] = stat('hash of the index buffer (FNV-1a)', 'hash');
    const [onBox, ranOn] = stat('ran on', 'run-backend');
    Object.assign(this, { count, instanceCount, hash, ranOn });
    this.resultList = h('ol', { class: 'result-list', 'data-testid': 'result-list' });
    this.resultMore = h('p', { class: 'note', 'data-testid': 'result-more', hidden: true });
    this.canvas = h('canvas', { class: 'draw-canvas', 'data-testid': 'draw-canvas', role: 'img', 'aria-label': 'The visible instances, drawn with drawIndirect' });
    this.canvasCaption = h('figcaption', { 'data-testid': 'draw-caption' });
    this.canvasFigure = h('figure', { class: 'draw' }, this.canvas, this.canvasCaption);

    this.stepper = new Stepper({ onChange: () => this.updateUrl() });
    this.tilesView = new TilesView({
      onSchedule: () => {
        this.setBusy(+1);
        this.refreshTiles(this.generation).finally(() => this.setBusy(-1));
      },
      onSuggest: () => this.applyPreset({ ...MANY_TILES }),
      onChange: () => this.updateUrl(),
    });
    this.atomicView = new AtomicView({
      onMethod: () => {
        this.setBusy(+1);
        this.refreshSlots(this.generation).finally(() => this.setBusy(-1));
      },
      onRepeat: (runs) => this.repeat(runs),
    });

    replace(
      this.root,
      h(
        'div',
        { class: 'pg' },
        h('div', { class: 'pg-status' }, this.backendLine, this.fallbackLine, this.alerts, this.progressLine),
        h('section', { class: 'card flags-card', 'aria-labelledby': this.heading('flags') }, h('h2', { id: this.ids.flags }, 'Flags'), h('p', { class: 'lead' }, 'The culling pass left one flag per object: nonzero means visible. Click or drag across cells to toggle them, or use the arrow keys and Space.'), this.editor.element),
        h(
          'section',
          { class: 'card compact-card', 'aria-labelledby': this.heading('compact') },
          h('h2', { id: this.ids.compact }, 'Compact'),
          h('div', { class: 'method-row' }, this.methodRadios, this.runButton),
          h('dl', { class: 'results' }, countBox, instanceBox, hashBox, onBox),
          h('p', { class: 'list-title' }, 'The dense list (slot: index)'),
          this.resultList,
          this.resultMore,
          this.canvasFigure,
        ),
        (this.stepperCard = h(
          'section',
          { class: 'card stepper-card', 'aria-labelledby': this.heading('stepper') },
          h('h2', { id: this.ids.stepper }, 'Step through the scan'),
          h('p', { class: 'lead' }, 'Every value below was read back from the buffers of a real run: the Hillis–Steele steps inside each 256-element block, the block sums, the level above, the offsets added back and the scatter.'),
          this.stepper.element,
        )),
        (this.tilesCard = h(
          'section',
          { class: 'card tiles-card', 'data-testid': 'tiles-card', hidden: true, 'aria-labelledby': this.heading('tiles') },
          h('h2', { id: this.ids.tiles }, 'Step through the single pass'),
          h('p', { class: 'lead' }, 'The single-pass methods cut the flags into tiles of 4 096, one workgroup each, and compact them in one dispatch. Below: each tile’s count and published state, the look-back that chains the tiles, and the scatter of each tile’s run. Every number is marked with where it comes from.'),
          this.tilesView.element,
        )),
        h(
          'section',
          { class: 'card atomic-card', 'aria-labelledby': this.heading('atomic') },
          h('h2', { id: this.ids.atomic }, 'The atomic counter and its order'),
          this.atomicView.element,
        ),
      ),
    );

    // Anything that escapes a handler still reaches the page, not only the console.
    window.addEventListener('unhandledrejection', (e) => this.alert('unexpected', `Unexpected error: ${e.reason?.message ?? e.reason}`));
    window.addEventListener('error', (e) => {
      if (e.error) this.alert('unexpected', `Unexpected error: ${e.error.message ?? e.message}`);
    });
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
    if (this.syncUrl) window.addEventListener('hashchange', () => this.onHashChange());
    this.canvasObserver = new ResizeObserver(() => {
      clearTimeout(this.canvasTimer);
      this.canvasTimer = setTimeout(() => this.resizeCanvas(), 200);
    });
  }

  /** `data-busy` on the root is "true" while any work is queued or running (the tests wait on it). */
  setBusy(delta) {
    this.busyCount += delta;
    this.root.dataset.busy = String(this.busyCount > 0);
  }

  heading(name) {
    this.ids ??= {};
    this.ids[name] = uniqueId(`pg-${name}`);
    return this.ids[name];
  }

  // -------------------------------------------------------------- start-up --
  async start() {
    try {
      this.wasm = await loadWasm();
    } catch (e) {
      this.backendLine.textContent = 'The compiled kernels did not load.';
      this.backendLine.dataset.backend = 'none';
      this.alert('wasm', `Could not load www/pkg/compaction_playground.js: ${e.message}. Build it with \`npm start\` (or bash scripts/build-web.sh) and reload.`);
      return;
    }
    const { state, flags, error } = this.initialState();
    if (error) this.alert('hash', error);
    this.method = state.method;
    this.pendingStep = state.step;
    this.pendingBlock = state.block;
    this.pendingTile = state.tile;
    this.showSteppers();

    const initial = flags ? { flags, preset: null } : await this.generate(state.preset);
    this.flags = initial.flags;
    this.preset = initial.preset;
    this.editor.show(this.flags, this.preset);

    // The CPU reference answers at once; WebGPU takes over once its pipelines
    // are compiled (seconds on a software adapter), so the example is compacted
    // right away either way.
    this.engine = Engine.cpu(this.wasm, { kind: 'starting', message: '' });
    this.showBackend();
    this.buildMethods();
    // (A huge array would only keep the CPU busy while the GPU starts.)
    const early = this.flags.length < BIG ? this.refresh() : Promise.resolve();
    const gpu = await Engine.open(this.wasm, (kind, message) => this.onGpuEvent(kind, message));
    await early;
    await this.useEngine(gpu);
    this.root.dataset.ready = 'true';
  }

  /** Warms `engine` up (compiling every pipeline), then makes it the page's engine. */
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
      // A first run on a small array compiles every pipeline.
      const done = this.progress('Compiling the GPU pipelines (slow on a software adapter)…', 400);
      try {
        await engine.exec(async (pg) => {
          pg.setFlags(WARM_UP);
          await pg.run('scan');
        });
      } catch (e) {
        engine = Engine.cpu(this.wasm, { kind: 'device', message: e?.message ?? String(e) });
      } finally {
        done();
      }
    }
    this.engine = engine;
    this.uploaded = null;
    this.traceEngines = null;
    this.showBackend();
    this.buildMethods();
    if (engine.backend === 'gpu') await this.attachDrawing(drawMode ?? (isSoftwareAdapter(engine.pg.adapterName) ? 'image' : 'canvas'));
    await this.refresh();
  }

  /**
   * Where drawIndirect draws: straight into the WebGPU canvas ('canvas'), or,
   * where the browser cannot present one (headless Chromium on SwiftShader loses
   * its device on the first present), into an offscreen texture whose pixels are
   * read back and put into a 2D canvas ('image').
   */
  async attachDrawing(mode) {
    if (this.drawMode) {
      // A canvas keeps the first context type it was given: start from a fresh one.
      const fresh = h('canvas', { class: 'draw-canvas', 'data-testid': 'draw-canvas', role: 'img', 'aria-label': 'The visible instances, drawn with drawIndirect' });
      this.canvasObserver.unobserve(this.canvas);
      this.canvas.replaceWith(fresh);
      this.canvas = fresh;
    }
    this.drawMode = mode;
    this.canvas.dataset.mode = mode;
    this.resizeCanvas(false);
    try {
      await this.engine.exec((pg) => (mode === 'canvas' ? pg.attachCanvas(this.canvas) : pg.attachImage(this.canvas.width, this.canvas.height)));
      this.canvasObserver.observe(this.canvas);
    } catch (e) {
      this.alert('canvas', `The canvas could not be drawn to: ${e.message}. Results are still read back below.`);
    }
  }

  /** The starting state: the URL's (stand-alone page) or the element's attributes. */
  initialState() {
    if (this.syncUrl) {
      const parsed = parseHash(location.hash, (code) => this.wasm.decodeFlags(code));
      if (parsed.error) {
        parsed.error = `The link's state is malformed (${parsed.error}), so the default example is shown instead. The link was: ${location.hash.slice(0, 200)}`;
        history.replaceState(null, '', location.pathname + location.search);
      }
      return parsed;
    }
    const state = defaultState();
    let flags = null;
    let error = null;
    if (this.initialMethod) {
      if (METHODS.includes(this.initialMethod)) state.method = this.initialMethod;
      else error = `Unknown method “${this.initialMethod}”; using scan.`;
    }
    if (this.initialFlags) {
      try {
        flags = this.wasm.parseFlags(this.initialFlags);
        if (flags.length === 0 || flags.length > MAX_FLAGS) throw new Error(`${flags.length} flags`);
      } catch (e) {
        flags = null;
        error = `The flags attribute could not be read (${e.message}); showing the article's example.`;
      }
    }
    return { state, flags, error };
  }

  showBackend() {
    const engine = this.engine;
    const gpu = engine.backend === 'gpu';
    const starting = engine.fallback?.kind === 'starting';
    this.backendLine.dataset.backend = starting ? 'starting' : engine.backend;
    this.backendLine.textContent = gpu
      ? `Running on the GPU: ${adapterLabel(engine.pg.adapterName)}`
      : starting
        ? 'Starting WebGPU and compiling its pipelines… meanwhile the CPU reference answers'
        : 'CPU reference — the Rust mirror of every kernel, compiled to wasm';
    this.root.classList.toggle('cpu', !gpu && !starting);
    this.fallbackLine.hidden = gpu || starting;
    if (!gpu && !starting) {
      const f = engine.fallback ?? { kind: 'no-webgpu', message: '' };
      this.fallbackLine.dataset.reason = f.kind;
      const detail = f.message && !FALLBACK_REASONS[f.kind].includes(f.message) ? ` (${f.message})` : '';
      this.fallbackLine.textContent = `${FALLBACK_REASONS[f.kind]}${detail} You can still edit the flags and step through every stage: the values come from the CPU reference, which computes exactly what the kernels compute. Nothing is drawn with drawIndirect without a GPU.`;
    }
    this.canvasFigure.hidden = !gpu;
  }

  buildMethods() {
    const methods = Array.from(this.engine.pg.methods ?? METHODS);
    if (!methods.includes(this.method)) this.method = methods[0];
    replace(
      this.methodRadios,
      methods.map((m) =>
        h(
          'label',
          { class: 'method' },
          h('input', {
            type: 'radio',
            name: this.methodName,
            value: m,
            checked: m === this.method,
            'data-testid': `method-${m}`,
            onchange: () => this.setMethod(m),
          }),
          h('span', { class: 'method-name' }, m),
          h('span', { class: 'method-info' }, METHOD_INFO[m] ?? ''),
        ),
      ),
    );
  }

  // --------------------------------------------------------------- state --
  /** Flags from a preset; large ones show progress while the wasm side makes them. */
  async generate(preset) {
    const done = this.progress(`Generating ${grouped(preset.n)} ${preset.name} flags…`, preset.n >= BIG ? 0 : 300);
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
      this.alert('input', `Could not make the ${preset.name} preset: ${e.message}`);
      return;
    } finally {
      this.setBusy(-1);
    }
    this.editor.show(made.flags, made.preset);
    this.setFlags(made.flags, made.preset, 'preset');
  }

  setFlags(flags, preset, why) {
    this.flags = flags;
    this.preset = preset;
    this.clearAlert('input');
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

  setMethod(method) {
    this.method = method;
    for (const r of this.methodRadios.querySelectorAll('input')) r.checked = r.value === method;
    if (method === 'atomic' || method === 'aggregated') {
      for (const r of this.atomicView.radios) r.checked = r.value === method;
      this.atomicView.method = method;
    }
    const tiles = isTileMethod(method);
    this.showSteppers();
    this.updateUrl();
    // The tile view follows the method; the scan trace only the flags.
    this.refresh({ traces: tiles || this.traced !== this.flags, slots: method !== 'scan' && !tiles });
  }

  /** The scan stepper for the article's methods, the tile view for the single-pass ones. */
  showSteppers() {
    const tiles = isTileMethod(this.method);
    this.stepperCard.hidden = tiles;
    this.tilesCard.hidden = !tiles;
  }

  /** The stepper the visitor sees. */
  activeStepper() {
    return isTileMethod(this.method) ? this.tilesView : this.stepper;
  }

  updateUrl() {
    if (!this.syncUrl || !this.wasm) return;
    const hash = formatHash(
      {
        flags: this.flags,
        preset: this.preset,
        method: this.method,
        step: this.activeStepper().steps.length ? this.activeStepper().step : null,
        block: isTileMethod(this.method) ? 0 : this.stepper.block,
        tile: isTileMethod(this.method) ? this.tilesView.firstTile : 0,
      },
      (flags) => this.encode(flags),
    );
    this.lastHash = hash;
    if (hash !== location.hash) history.replaceState(null, '', hash);
  }

  encode(flags) {
    if (this.encoded?.flags !== flags) this.encoded = { flags, code: this.wasm.encodeFlags(flags) };
    return this.encoded.code;
  }

  async onHashChange() {
    if (location.hash === this.lastHash || !this.engine) return;
    this.setBusy(+1);
    try {
      await this.applyHash();
    } finally {
      this.setBusy(-1);
    }
  }

  async applyHash() {
    const { state, flags, error } = parseHash(location.hash, (code) => this.wasm.decodeFlags(code));
    if (error) {
      this.alert('hash', `The link's state is malformed (${error}); the page keeps what it showed.`);
      this.updateUrl();
      return;
    }
    this.clearAlert('hash');
    const made = flags ? { flags, preset: null } : await this.generate(state.preset);
    this.method = state.method;
    this.pendingStep = state.step;
    this.pendingBlock = state.block;
    this.pendingTile = state.tile;
    this.showSteppers();
    this.buildMethods();
    this.editor.show(made.flags, made.preset);
    this.flags = made.flags;
    this.preset = made.preset;
    await this.refresh();
  }

  // ---------------------------------------------------------------- work --
  /**
   * Uploads the flags if they changed, runs the chosen method, then (unless
   * told not to) fetches the scan trace for the stepper and the atomic slots.
   * A newer call supersedes an older one still waiting.
   */
  async refresh({ traces = true, slots = true } = {}) {
    if (!this.engine) return;
    const generation = ++this.generation;
    const { flags, method, engine } = this;
    const n = flags.length;
    const where = engine.backend === 'gpu' ? 'the GPU' : 'the CPU reference';
    const done = this.progress(`Running ${method} on ${grouped(n)} flags on ${where}…`, n >= BIG ? 0 : 250);
    this.setBusy(+1);
    try {
      if (n >= BIG) await nextFrame(); // paint the progress before the upload
      const result = await engine.exec(async (pg) => {
        if (generation !== this.generation) return null;
        if (this.uploaded?.flags !== flags || this.uploaded?.pg !== pg) {
          pg.setFlags(flags);
          this.uploaded = { flags, pg };
        }
        const t0 = performance.now();
        const r = await pg.run(method);
        r.ms = performance.now() - t0;
        return r;
      });
      if (!result || generation !== this.generation) return;
      this.showResult(result);
      if (traces) await (isTileMethod(method) ? this.refreshTiles(generation) : this.refreshTrace(generation));
      if (slots) await this.refreshSlots(generation);
      this.clearAlert('gpu-run');
    } catch (e) {
      if (generation !== this.generation) return;
      this.failed(e);
    } finally {
      done();
      this.setBusy(-1);
    }
  }

  failed(e) {
    if (e?.kind === 'too-large') {
      this.alert('gpu-run', `${e.message}. The flags were not changed on the device; pick a smaller size.`);
      if (this.uploaded && this.uploaded.flags !== this.flags) {
        this.flags = this.uploaded.flags;
        this.preset = null;
        this.editor.show(this.flags, null);
        this.updateUrl();
      }
    } else {
      this.alert('gpu-run', `The run failed: ${e?.message ?? e}`);
    }
  }

  /** The engine traces run on: the main one, or for arrays past maxTraceFlags a second one holding a window. */
  async traceEngine() {
    if (this.traceEngines?.for !== this.engine) {
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
    const max = this.engine.pg.maxTraceFlags;
    let trace;
    let note = null;
    if (flags.length <= max) {
      trace = await this.engine.exec((pg) => (generation === this.generation ? pg.scanTrace() : null));
    } else {
      const engine = await this.traceEngine();
      const window = flags.subarray(0, max);
      trace = await engine.exec(async (pg) => {
        if (generation !== this.generation) return null;
        pg.setFlags(window);
        return pg.scanTrace();
      });
      note = `The array has ${grouped(flags.length)} flags; the stepper traces its first ${grouped(max)} (${max / 256} blocks) so that every arrow stays readable. Inside each block the steps are exactly those of the full run; the level above and the offsets are those of this ${grouped(max)}-flag window. The result above is the full run's.`;
    }
    if (!trace || generation !== this.generation) return;
    this.traced = flags;
    this.stepper.setTrace(trace, { note, step: this.pendingStep, block: this.pendingBlock });
    this.pendingStep = null;
    this.pendingBlock = null;
    this.updateUrl();
  }

  /** One run of the chosen tile method with its tile states, for the tile view. */
  async refreshTiles(generation) {
    const method = this.method;
    const tiles = Math.ceil(this.flags.length / TILE);
    const { inFlight, stalled } = this.tilesView.schedule;
    try {
      const trace = await this.engine.exec((pg) => {
        if (generation !== this.generation || method !== this.method) return null;
        if (this.uploaded?.flags !== this.flags || this.uploaded?.pg !== pg) {
          pg.setFlags(this.flags);
          this.uploaded = { flags: this.flags, pg };
        }
        return pg.tileTrace(method, inFlight, stalled !== null && stalled < tiles ? stalled : undefined);
      });
      if (!trace || generation !== this.generation || method !== this.method) return;
      this.tilesView.setTrace(trace, { step: this.pendingStep, tile: this.pendingTile });
      this.pendingStep = null;
      this.pendingTile = null;
      this.updateUrl();
    } catch (e) {
      if (generation === this.generation) this.alert('gpu-run', `The tile trace failed: ${e?.message ?? e}`);
    }
  }

  async refreshSlots(generation) {
    const method = this.atomicView.method;
    const flags = this.flags;
    const max = this.engine.pg.maxTraceFlags;
    if (flags.length > max) {
      this.atomicView.showSlots(null, flags, `Slots are listed for arrays up to ${grouped(max)} flags; “Run ×R” below works on all ${grouped(flags.length)}.`);
      return;
    }
    try {
      const trace = await this.engine.exec((pg) => (generation === this.generation ? pg.atomicTrace(method) : null));
      if (trace && generation === this.generation) this.atomicView.showSlots(trace, flags);
    } catch (e) {
      this.alert('gpu-run', `The atomic trace failed: ${e?.message ?? e}`);
    }
  }

  async repeat(runs) {
    if (!this.engine) return;
    const generation = this.generation;
    const available = Array.from(this.engine.pg.methods ?? METHODS);
    const methods = [...UNORDERED.filter((m) => available.includes(m)), 'scan'];
    const results = methods.map((method) => ({ method, runs: [] }));
    this.atomicView.setBusy(true);
    this.setBusy(+1);
    const done = this.progress(`Repeating each method ${runs} times…`, 0);
    try {
      for (let k = 0; k < runs; k++) {
        done.set(`Run ${k + 1} of ${runs} of ${methods.join(', ')} on ${grouped(this.flags.length)} flags…`);
        for (const entry of results) {
          const r = await this.engine.exec(async (pg) => {
            if (this.uploaded?.flags !== this.flags || this.uploaded?.pg !== pg) {
              pg.setFlags(this.flags);
              this.uploaded = { flags: this.flags, pg };
            }
            return pg.run(entry.method);
          });
          entry.runs.push({ indices: r.indices, hash: r.hash });
        }
      }
      this.atomicView.showRepeats(results, { backend: this.engine.backend, adapter: this.engine.pg.adapterName, n: this.flags.length });
      // The canvas and the results show the chosen method again.
      if (generation === this.generation) {
        const r = await this.engine.exec((pg) => pg.run(this.method));
        this.showResult(r);
      }
    } catch (e) {
      this.alert('gpu-run', `Repeating failed: ${e?.message ?? e}`);
    } finally {
      done();
      this.atomicView.setBusy(false);
      this.setBusy(-1);
    }
  }

  // --------------------------------------------------------------- views --
  showResult(r) {
    this.count.textContent = grouped(r.count);
    this.count.dataset.value = String(r.count);
    this.instanceCount.textContent = grouped(r.instanceCount);
    this.instanceCount.dataset.value = String(r.instanceCount);
    this.hash.textContent = hex32(r.hash);
    this.hash.dataset.value = String(r.hash >>> 0);
    const time = r.ms !== undefined ? ` in ${r.ms < 10 ? r.ms.toFixed(1) : Math.round(r.ms)} ms (with readback)` : '';
    this.ranOn.textContent = `${r.backend === 'gpu' ? 'GPU' : 'CPU reference'}: ${r.method}${time}`;
    const shown = Math.min(r.indices.length, RESULT_ITEMS);
    const items = [];
    for (let k = 0; k < shown; k++) items.push(h('li', { 'data-testid': 'result-item' }, String(r.indices[k])));
    replace(this.resultList, items);
    this.resultList.dataset.method = r.method;
    this.resultList.dataset.count = String(r.indices.length);
    this.resultMore.hidden = r.indices.length <= shown;
    this.resultMore.textContent = `… and ${grouped(r.indices.length - shown)} more (the first ${grouped(shown)} are listed).`;
    if (r.count === 0) {
      this.resultMore.hidden = false;
      this.resultMore.textContent = 'No visible flags: the list is empty and instanceCount is 0, so drawIndirect draws nothing.';
    }
    this.resultList.dataset.backend = r.backend;
    if (r.image && this.drawMode === 'image') {
      const ctx = this.canvas.getContext('2d');
      ctx.putImageData(new ImageData(new Uint8ClampedArray(r.image.buffer, r.image.byteOffset, r.image.length), r.imageWidth, r.imageHeight), 0, 0);
    }
    const readBack = this.drawMode === 'image' ? ' This browser cannot present a WebGPU canvas here, so the frame was drawn into an offscreen texture and read back.' : '';
    this.canvasCaption.textContent = `drawIndirect with instanceCount = ${grouped(r.instanceCount)}, read from the indirect buffer the GPU wrote: each instance's vertex shader reads visibles[instance_index] and draws object i at cell i of a grid of ${grouped(this.flags.length)}; the gaps are the invisible flags.${readBack}`;
  }

  resizeCanvas(reattach = true) {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(rect.width * dpr));
    const height = Math.max(1, Math.round(rect.height * dpr));
    if (this.canvas.width === width && this.canvas.height === height) return;
    this.canvas.width = width;
    this.canvas.height = height;
    if (reattach && this.engine?.backend === 'gpu') {
      this.engine
        .exec((pg) => (this.drawMode === 'canvas' ? pg.attachCanvas(this.canvas) : pg.attachImage(width, height)))
        .then(() => this.engine.exec((pg) => pg.run(this.method)))
        .then((r) => r && this.showResult(r))
        .catch((e) => this.alert('canvas', `The canvas could not be redrawn: ${e.message}`));
    }
  }

  // -------------------------------------------------------- status, errors --
  /** Shows `label` with a progress bar after `delay` ms; returns the function that hides it. */
  progress(label, delay) {
    const token = {};
    this.progressToken = token;
    const t0 = performance.now();
    let tick = null;
    const show = () => {
      if (this.progressToken !== token) return;
      this.progressLine.hidden = false;
      const update = () => {
        this.progressLine.dataset.label = label;
        this.progressText.textContent = `${label} ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      };
      update();
      tick = setInterval(update, 250);
    };
    const timer = delay ? setTimeout(show, delay) : (show(), null);
    const done = () => {
      clearTimeout(timer);
      clearInterval(tick);
      if (this.progressToken === token) this.progressLine.hidden = true;
    };
    done.set = (text) => {
      label = text;
    };
    return done;
  }

  alert(kind, message) {
    this.clearAlert(kind);
    const dismiss = h('button', { type: 'button', class: 'dismiss', 'aria-label': 'Dismiss', onclick: () => box.remove() }, '×');
    const box = h('div', { class: 'alert', 'data-kind': kind, 'data-testid': `alert-${kind}` }, h('span', {}, message), dismiss);
    this.alerts.append(box);
  }

  clearAlert(kind) {
    for (const el of this.alerts.querySelectorAll(`[data-kind="${kind}"]`)) el.remove();
  }

  onGpuEvent(kind, message) {
    if (kind === 'device-lost') {
      if (unloading || !this.engine || this.engine.backend !== 'gpu') return;
      this.uploaded = null;
      if (this.drawMode === 'canvas' && !this.triedImage) {
        // Some browsers (headless, software adapters) lose the device when a
        // WebGPU canvas is presented: reopen the GPU and read the frame back instead.
        this.triedImage = true;
        const lost = this.engine;
        lost.fallBackToCpu({ kind: 'starting', message }).then(() => this.showBackend());
        Engine.open(this.wasm, (k, m) => this.onGpuEvent(k, m)).then((engine) => this.useEngine(engine, 'image'));
        return;
      }
      this.alert('device-lost', `The GPU device was lost (${message}). The page switched to the CPU reference.`);
      this.engine.fallBackToCpu({ kind: 'device-lost', message }).then(() => {
        this.showBackend();
        this.refresh();
      });
    } else {
      this.alert('gpu', `GPU error: ${message}`);
    }
  }

  onKey(e) {
    const t = e.target;
    if (e.defaultPrevented) return;
    if (t?.closest?.('input, textarea, select, [contenteditable], .flag-grid')) return;
    const inside = this.root.contains(t);
    const first = document.querySelector('compaction-playground, [data-playground]') ?? this.root;
    if (!inside && !(t === document.body && (first === this.root || first.contains(this.root)))) return;
    if (this.activeStepper().handleKey(e)) e.preventDefault();
  }
}

/** Software adapters (SwiftShader, lavapipe) report device type Cpu: "… (Cpu, BrowserWebGpu)". */
function isSoftwareAdapter(name) {
  return /\(Cpu,|swiftshader|llvmpipe|lavapipe/i.test(name ?? '');
}

function adapterLabel(name) {
  const clean = (name ?? '').trim();
  if (/^\(Cpu,/.test(clean)) return 'a software adapter (device type Cpu, e.g. SwiftShader)';
  return clean || 'WebGPU adapter';
}

/** Lets the browser paint (the progress line) before synchronous work; never hangs in a hidden tab. */
function nextFrame() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 50);
  });
}

// Devices are destroyed when the page goes away; that is no "device lost" to report.
let unloading = false;
addEventListener('pagehide', () => {
  unloading = true;
});
