// The playground inside one <compaction-playground>: the panels (flag editor,
// result, drawIndirect, the scan stepper, the tile view of the single-pass
// methods, the atomic view), its start-up and its attributes. What it computes
// (runs, traces, presets, the URL, device loss) is its base class, in work.js.
// www/element.js gives it its attributes and hands its events to the host page.

import { h, replace, guarded } from './dom.js';
import { Engine, kernels } from './engine.js';
import { methodNames, isTileMethod } from './layout.js';
import { StatusBar, isSoftwareAdapter } from './status.js';
import { FlagEditor, flagsText } from './editor.js';
import { ResultPanel } from './result-panel.js';
import { DrawPanel } from './draw-panel.js';
import { Stepper } from './stepper.js';
import { TilesView } from './tiles-view.js';
import { AtomicView } from './atomic-view.js';
import { UrlSync } from './url-sync.js';
import { PlaygroundWork, MANY_TILES } from './work.js';
import { parsePanels, formatPanels, visiblePanels } from './panels.js';
import { MAX_CELLS, defaultState, formatHash, ignoredMessage, parseFlagsAttribute, parsePresetAttribute, formatPresetAttribute } from './state.js';

const WARM_UP = new Uint32Array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]);
const BIG = 1 << 20; // from here on, work shows progress at once
/** The tile view's method when the tile view shows alone and the method is not a tile method. */
const TILE_DEFAULT = 'lookback';

export class PlaygroundApp extends PlaygroundWork {
  /**
   * @param {HTMLElement} root  the element's wrapper, inside its shadow root
   * @param {{ attributes: Record<string, string|null>, restore?: object|null,
   *           emit: (type: string, detail: object) => void, setState: (name: string, on: boolean) => void }} options
   */
  constructor(root, { attributes, restore = null, emit, setState }) {
    super();
    this.root = root;
    this.attributes = { ...attributes };
    this.restore = restore;
    this.emit = emit;
    this.setState = setState;
    this.wasm = null;
    this.engine = null;
    this.traceEngines = null;
    this.flags = new Uint32Array(0);
    this.preset = null;
    this.method = 'scan';
    this.generation = 0;
    this.uploaded = null;
    this.busyCount = 0;
    this.destroyed = false;
    this.timers = new Set();
    this.panels = parsePanels(attributes.panels).panels;
    this.lastResult = null;
    this.build();
    this.ready = this.start();
  }

  // ------------------------------------------------------------------ DOM --
  build() {
    this.status = new StatusBar();
    this.editor = new FlagEditor({
      parseFlags: (text) => this.wasm.parseFlags(text),
      onFlags: (flags, preset, why) => (flags ? this.setFlags(flags, preset, why) : this.alert('input', why)),
      onPreset: (preset) => this.applyPreset(preset),
    });
    this.result = new ResultPanel({ onMethod: (m) => this.setMethod(m), onRun: () => this.refresh({ traces: false }) });
    this.draw = new DrawPanel({ onResize: () => this.redraw() });
    this.stepper = new Stepper({ onChange: () => this.stepChanged() });
    this.tilesView = new TilesView({
      onSchedule: () => this.track(this.refreshTiles(this.generation)),
      onSuggest: () => this.applyPreset({ ...MANY_TILES }),
      onChange: () => this.stepChanged(),
    });
    this.atomicView = new AtomicView({
      onMethod: () => this.track(this.refreshSlots(this.generation)),
      onRepeat: (runs) => this.repeat(runs),
    });

    // One card per panel: `panels` names them, ::part(panel-<name>) styles them.
    const card = (panel, cls, title, ...body) =>
      h('section', { class: `card ${cls}-card`, part: `panel panel-${panel}`, 'data-panel': panel, 'aria-label': title }, h('h2', {}, title), ...body);
    this.cards = {
      editor: card('editor', 'flags', 'Flags', h('p', { class: 'lead' }, 'The culling pass left one flag per object: nonzero means visible. Click or drag across cells to toggle them, or use the arrow keys and Space.'), this.editor.element),
      result: card('result', 'compact', 'Compact', this.result.element),
      draw: card('draw', 'draw', 'Drawn with drawIndirect', this.draw.element),
      scan: card(
        'scan',
        'stepper',
        'Step through the scan',
        h('p', { class: 'lead' }, 'Every value below was read back from the buffers of a real run: the Hillis–Steele steps inside each 256-element block, the block sums, the level above, the offsets added back and the scatter.'),
        this.stepper.element,
      ),
      tiles: card(
        'tiles',
        'tiles',
        'Step through the single pass',
        h('p', { class: 'lead' }, 'The single-pass methods cut the flags into tiles of 4 096, one workgroup each, and compact them in one dispatch. Below: each tile’s count and published state, the look-back that chains the tiles, and the scatter of each tile’s run. Every number is marked with where it comes from.'),
        this.tilesView.element,
      ),
      atomic: card('atomic', 'atomic', 'The atomic counter and its order', this.atomicView.element),
    };
    this.cards.tiles.dataset.testid = 'tiles-card';
    replace(this.root, this.status.element, Object.values(this.cards));
    this.root.addEventListener('cp-error', (e) => this.unexpected(e.detail));
    this.showPanels();
  }

  /** An error that escaped a handler of this playground: shown, never only logged. */
  unexpected(error) {
    if (this.destroyed) return;
    this.alert('unexpected', `Unexpected error: ${error?.message ?? error}`);
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
      guarded(fn, this.root)();
    }, ms);
    this.timers.add(t);
    return t;
  }

  // -------------------------------------------------------------- start-up --
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
      this.status.showNoKernels();
      this.alert('wasm', `Could not load the compiled kernels (compaction_playground): ${e.message}. If you built from source, run \`npm start\` and reload.`);
      return;
    }
    if (this.destroyed) return;
    if (this.attributes['sync-url'] !== null) this.startUrlSync();
    const { state, flags, error } = this.initialState();
    if (error) this.alert('attributes', error);
    this.method = state.method;
    this.pendingStep = state.step;
    this.pendingBlock = state.block;
    this.pendingTile = state.tile;
    this.showPanels();

    const initial = flags ? { flags, preset: null } : await this.generate(state.preset);
    this.flags = initial.flags;
    this.preset = initial.preset;
    this.editor.show(this.flags, this.preset);
    this.changed('start');

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
    if (this.destroyed) {
      gpu.dispose();
      return;
    }
    await this.useEngine(gpu);
    this.setState('ready', true);
  }

  /** Warms `engine` up (compiling every pipeline), then makes it the playground's engine. */
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
      const done = this.status.progress('Compiling the GPU pipelines (slow on a software adapter)…', 400);
      try {
        await engine.exec(async (pg) => {
          pg.setFlags(WARM_UP);
          await pg.run('scan');
        });
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
    this.uploaded = null;
    this.traceEngines?.engine.dispose();
    this.traceEngines = null;
    this.showBackend();
    this.buildMethods();
    if (engine.backend === 'gpu') {
      const mode = drawMode ?? (isSoftwareAdapter(engine.pg.adapterName) ? 'image' : 'canvas');
      try {
        await this.draw.attach(engine, mode);
      } catch (e) {
        this.alert('canvas', `The canvas could not be drawn to: ${e.message}. Results are still read back below.`);
      }
    }
    await this.refresh();
  }

  /** The starting state: a previous connection's, the URL's (sync-url) or the attributes'. */
  initialState() {
    if (this.restore) {
      const r = this.restore;
      return { state: { ...defaultState(), method: r.method, preset: r.preset, step: r.step }, flags: r.preset ? null : r.flags, error: null };
    }
    if (this.url && location.hash.length > 1) {
      const parsed = this.url.read();
      if (!parsed.error) {
        if (parsed.state.embed.panels) this.panels = parsePanels(parsed.state.embed.panels).panels;
        const ignored = ignoredMessage(parsed.ignored);
        if (ignored) this.alert('hash', ignored);
        if (parsed.flags || parsed.state.preset) return parsed;
        // The link names no flags: those of the attributes (or the article's).
        const own = this.attributeState();
        return { state: { ...parsed.state, preset: own.state.preset }, flags: own.flags, error: own.error };
      }
      this.alert('hash', `The link's state is malformed (${parsed.error}), so the default example is shown instead. The link was: ${location.hash.slice(0, 200)}`);
      this.url.clear();
    }
    return this.attributeState();
  }

  /** `{ state, flags, error }` from the flags, preset, method and step attributes. */
  attributeState() {
    const state = defaultState();
    const errors = [];
    let flags = null;
    const { method, step } = this.attributes;
    if (method !== null) {
      if (methodNames().includes(method)) state.method = method;
      else errors.push(`Unknown method “${method}” (expected ${methodNames().join(', ')}); using scan.`);
    }
    if (step !== null) {
      const k = Number(step);
      if (Number.isInteger(k) && k >= 1) state.step = k;
      else errors.push(`The step attribute “${step}” is not a step number (1, 2, …).`);
    }
    const made = this.attributeFlags(errors);
    if (made?.flags) flags = made.flags;
    if (made?.preset) state.preset = made.preset;
    return { state, flags, error: errors.join(' ') || null };
  }

  /** The flags or preset attribute: `{ flags }`, `{ preset }` or null (none, or unreadable: said in `errors`). */
  attributeFlags(errors) {
    const { flags, preset } = this.attributes;
    if (flags !== null) {
      try {
        return { flags: parseFlagsAttribute(flags, this.wasm) };
      } catch (e) {
        errors.push(`The flags attribute could not be read (${e.message}); the flags are unchanged.`);
      }
    } else if (preset !== null) {
      try {
        return { preset: parsePresetAttribute(preset) };
      } catch (e) {
        errors.push(`The preset attribute could not be read (${e.message}); the flags are unchanged.`);
      }
    }
    return null;
  }

  startUrlSync() {
    if (this.url) return;
    this.url = new UrlSync({
      decodeFlags: (code) => this.wasm.decodeFlags(code),
      encodeFlags: (flags) => this.wasm.encodeFlags(flags),
      onHash: () => this.track(this.applyHash()),
    });
  }

  // ----------------------------------------------------------- attributes --
  /** An observed attribute changed after start-up (`value` null: removed). */
  attributeChanged(name, value) {
    this.attributes[name] = value;
    if (!this.wasm || !this.engine) return; // start-up reads them all
    this.clearAlert('attributes');
    const errors = [];
    switch (name) {
      case 'flags':
      case 'preset': {
        const made = this.attributeFlags(errors);
        if (made?.flags) {
          this.editor.show(made.flags, null);
          this.setFlags(made.flags, null, 'attribute');
        } else if (made?.preset) {
          this.applyPreset(made.preset);
        }
        break;
      }
      case 'method':
        if (value === null) break;
        if (methodNames().includes(value)) this.setMethod(value, 'attribute');
        else errors.push(`Unknown method “${value}” (expected ${methodNames().join(', ')}); the method is unchanged.`);
        break;
      case 'step': {
        const k = Number(value);
        if (value === null) break;
        if (Number.isInteger(k) && k >= 1) this.goToStep(k);
        else errors.push(`The step attribute “${value}” is not a step number (1, 2, …).`);
        break;
      }
      case 'panels': {
        const { panels, unknown } = parsePanels(value);
        if (unknown.length) errors.push(`Unknown panels ignored: ${unknown.join(', ')}.`);
        this.setPanels(panels);
        break;
      }
      case 'sync-url':
        if (value === null) {
          this.url?.destroy();
          this.url = null;
        } else {
          this.startUrlSync();
          this.updateUrl();
        }
        break;
      default:
        break;
    }
    if (errors.length) this.alert('attributes', errors.join(' '));
  }

  setPanels(panels) {
    const before = this.visible;
    this.panels = panels;
    this.showPanels();
    // A panel that appears fetches what it shows.
    const v = this.visible;
    const traces = (v.scan && !before.scan) || (v.tiles && !before.tiles);
    if (traces || (v.atomic && !before.atomic)) this.track(this.refresh({ traces, slots: v.atomic && !before.atomic }));
    if (v.draw && !before.draw && this.draw.fit()) this.redraw();
  }

  /** Shows the panels asked for; the scan stepper or the tile view by the method. */
  showPanels() {
    const v = visiblePanels(this.panels, isTileMethod(this.method));
    const gpu = this.engine?.backend === 'gpu';
    this.visible = v;
    for (const [name, card] of Object.entries(this.cards)) card.hidden = !v[name] || (name === 'draw' && !gpu);
  }

  /** The method the tile view traces: the chosen one, or the look-back when the tile view shows alone. */
  tileMethod() {
    return isTileMethod(this.method) ? this.method : TILE_DEFAULT;
  }

  /** The step control the visitor sees (the scan stepper or the tile view), or null. */
  activeStepper() {
    if (this.visible.tiles && (isTileMethod(this.method) || !this.visible.scan)) return this.tilesView;
    return this.visible.scan ? this.stepper : null;
  }

  goToStep(step) {
    const stepper = this.activeStepper();
    if (stepper?.steps.length) stepper.controls.go(step - 1);
    else this.pendingStep = step;
  }

  /** Keys pressed while focus is inside the element (see element.js). */
  onKey(e) {
    if (e.defaultPrevented) return;
    const target = e.composedPath()[0];
    if (target?.closest?.('input, textarea, select, [contenteditable], .flag-grid')) return;
    if (this.activeStepper()?.handleKey(e)) e.preventDefault();
  }

  // ------------------------------------------------------- events, state --
  changed(source) {
    let visible = 0;
    for (const f of this.flags) if (f !== 0) visible++;
    this.emit('change', { method: this.method, n: this.flags.length, visible, flags: this.flags, preset: this.preset ? { ...this.preset } : null, source });
  }

  stepChanged() {
    this.updateUrl();
    const stepper = this.activeStepper();
    if (!stepper?.steps.length) return;
    this.emit('step', {
      view: stepper === this.tilesView ? 'tiles' : 'scan',
      step: stepper.step,
      steps: stepper.steps.length,
      kind: stepper.steps[stepper.controls.index]?.kind ?? null,
    });
  }

  /** The state a reconnected element starts from. */
  snapshot() {
    return { flags: this.flags, preset: this.preset, method: this.method, step: this.activeStepper()?.steps.length ? this.activeStepper().step : null };
  }

  /** The flags as the `flags` attribute takes them, or null for arrays made by a preset too large to list. */
  flagsAttribute() {
    if (this.preset && this.flags.length > MAX_CELLS) return null;
    return this.flags.length > MAX_CELLS ? this.wasm.encodeFlags(this.flags) : flagsText(this.flags);
  }

  presetAttribute() {
    return this.preset ? formatPresetAttribute(this.preset) : null;
  }

  /** `theme` or `lang` from the hash of embed.html (sync-url), or null. */
  embedSetting(name) {
    return this.url?.embed[name] ?? null;
  }

  /** The state in the hash form of state.js, `panels` included when not all show (for embed.html). */
  stateHash() {
    const panels = formatPanels(this.panels);
    return formatHash({ ...this.currentView(), embed: panels ? { panels } : {} }, (flags) => this.wasm.encodeFlags(flags)).slice(1);
  }

  /** What the URL keeps: the flags (or their preset), the method, the step and where it looks. */
  currentView() {
    const tiles = this.activeStepper() === this.tilesView;
    return { flags: this.flags, preset: this.preset, method: this.method, step: this.step, block: tiles ? 0 : this.stepper.block, tile: tiles ? this.tilesView.firstTile : 0 };
  }

  get step() {
    const stepper = this.activeStepper();
    return stepper?.steps.length ? stepper.step : null;
  }

  // ---------------------------------------------------------------- views --
  showBackend() {
    this.status.showBackend(this.engine, this.root);
    this.showPanels();
  }

  buildMethods() {
    const methods = Array.from(this.engine.pg?.methods ?? methodNames());
    if (!methods.includes(this.method)) this.method = methods[0];
    this.result.showMethods(methods, this.method);
  }

  showResult(r) {
    this.result.show(r);
    this.draw.show(r, this.flags.length);
    this.lastResult = { method: r.method, n: this.flags.length, count: r.count, instanceCount: r.instanceCount, hash: r.hash >>> 0, backend: r.backend };
    this.emit('result', { ...this.lastResult });
  }

  /** The canvas changed size: attach again and draw the chosen method. */
  redraw() {
    if (this.engine?.backend !== 'gpu' || !this.draw.mode) return;
    const engine = this.engine;
    this.track(
      engine
        .exec((pg) => this.draw.attachTo(pg))
        .then(() => engine.exec((pg) => pg.run(this.method)))
        .then((r) => r && engine === this.engine && this.showResult(r))
        .catch((e) => this.alert('canvas', `The canvas could not be redrawn: ${e.message}`)),
    );
  }

  alert(kind, message, actions = []) {
    this.status.alert(kind, message, actions);
  }

  clearAlert(kind) {
    this.status.clearAlert(kind);
  }

  // ------------------------------------------------------------ teardown --
  /** Stops everything this playground started; its wasm objects are freed. */
  destroy() {
    this.destroyed = true;
    this.generation++;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    clearTimeout(this.refreshTimer);
    this.url?.destroy();
    this.status.destroy();
    this.editor.destroy();
    this.draw.destroy();
    this.stepper.destroy();
    this.tilesView.destroy();
    this.engine?.dispose();
    this.traceEngines?.engine.dispose();
  }
}
