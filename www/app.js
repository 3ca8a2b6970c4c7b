// The playground inside one <compaction-playground>: the panels (flag editor,
// result, drawIndirect, the scan stepper, the tile view of the single-pass
// methods, the atomic view, the order panel, the benchmark, the code), its
// start-up and its attributes, in one language (www/i18n.js). What it computes
// (runs, traces, presets, the URL, device loss) is its base classes, in
// work.js and tools.js. www/element.js gives it its attributes and hands its
// events to the host page.

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
import { OrderPanel } from './order-panel.js';
import { BenchPanel } from './bench-panel.js';
import { CodePanel } from './code-view.js';
import { UrlSync } from './url-sync.js';
import { MANY_TILES } from './work.js';
import { PlaygroundTools } from './tools.js';
import { LANGS, LANG_NAMES, translator } from './i18n.js';
import { parsePanels, formatPanels, visiblePanels } from './panels.js';
import { MAX_CELLS, defaultState, formatHash, ignoredMessage, parseFlagsAttribute, parsePresetAttribute, formatPresetAttribute } from './state.js';

const WARM_UP = new Uint32Array([1, 0, 0, 1, 1, 0, 1, 0, 0, 1]);
const BIG = 1 << 20; // from here on, work shows progress at once
/** The tile view's method when the tile view shows alone and the method is not a tile method. */
const TILE_DEFAULT = 'lookback';

export class PlaygroundApp extends PlaygroundTools {
  /**
   * @param {HTMLElement} root  the element's wrapper, inside its shadow root
   * @param {{ attributes: Record<string, string|null>, restore?: object|null, lang: string,
   *           onLang: (lang: string) => void,
   *           emit: (type: string, detail: object) => void, setState: (name: string, on: boolean) => void }} options
   */
  constructor(root, { attributes, restore = null, lang, onLang, emit, setState }) {
    super();
    this.root = root;
    this.t = translator(lang);
    this.onLang = onLang;
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
    const t = this.t;
    this.status = new StatusBar({ t, langSwitch: this.langSwitch() });
    this.editor = new FlagEditor({
      t,
      parseFlags: (text) => this.wasm.parseFlags(text),
      onFlags: (flags, preset, why) => (flags ? this.setFlags(flags, preset, why) : this.alert('input', why)),
      onPreset: (preset) => this.applyPreset(preset),
    });
    const onExport = (what, format) => this.exportData(what, format);
    this.result = new ResultPanel({ t, onMethod: (m) => this.setMethod(m), onRun: () => this.refresh({ traces: false }), onExport });
    this.draw = new DrawPanel({ t, onResize: () => this.redraw() });
    this.stepper = new Stepper({ t, onChange: () => this.stepChanged(), onExport: (format) => onExport('scan', format) });
    this.tilesView = new TilesView({
      t,
      onSchedule: () => this.track(this.refreshTiles(this.generation)),
      onSuggest: () => this.applyPreset({ ...MANY_TILES }),
      onChange: () => this.stepChanged(),
      onExport: (format) => onExport('tiles', format),
    });
    this.atomicView = new AtomicView({
      t,
      onMethod: () => this.track(this.refreshSlots(this.generation)),
      onRepeat: (runs) => this.repeat(runs),
    });
    this.orderPanel = new OrderPanel({ t, onRun: () => this.track(this.runOrder()), onExport: (format) => onExport('order', format) });
    this.benchPanel = new BenchPanel({ t, onRun: () => this.track(this.runBenchmark()), onCancel: () => this.cancelBenchmark(), onExport: (format) => onExport('bench', format) });
    this.codePanel = new CodePanel({ t, onCopy: (text) => this.copy(text) });

    // One card per panel: `panels` names them, ::part(panel-<name>) styles them.
    const card = (panel, cls, title, ...body) =>
      h('section', { class: `card ${cls}-card`, part: `panel panel-${panel}`, 'data-panel': panel, 'aria-label': title }, h('h2', { 'data-cpu-tag': t('status.cpuTag') }, title), ...body);
    const lead = (key, params) => h('p', { class: 'lead' }, t(key, params));
    this.cards = {
      editor: card('editor', 'flags', t('card.editor'), lead('card.editor.lead'), this.editor.element),
      result: card('result', 'compact', t('card.result'), this.result.element),
      draw: card('draw', 'draw', t('card.draw'), this.draw.element),
      scan: card('scan', 'stepper', t('card.scan'), lead('card.scan.lead'), this.stepper.element),
      tiles: card('tiles', 'tiles', t('card.tiles'), lead('card.tiles.lead', { tile: 4096 }), this.tilesView.element),
      atomic: card('atomic', 'atomic', t('card.atomic'), this.atomicView.element),
      order: card('order', 'order', t('card.order'), this.orderPanel.element),
      bench: card('bench', 'bench', t('card.bench'), this.benchPanel.element),
      code: card('code', 'code', t('card.code'), this.codePanel.element),
    };
    this.cards.tiles.dataset.testid = 'tiles-card';
    replace(this.root, this.status.element, Object.values(this.cards));
    this.root.addEventListener('cp-error', (e) => this.unexpected(e.detail));
    this.showPanels();
  }

  /** The language switch: every language in its own words. */
  langSwitch() {
    const select = h(
      'select',
      { 'data-testid': 'lang-select', 'aria-label': this.t('app.language'), onchange: () => this.onLang(select.value) },
      LANGS.map((l) => h('option', { value: l, selected: l === this.t.lang, lang: l }, LANG_NAMES[l])),
    );
    return h('label', { class: 'lang-switch' }, select);
  }

  /** An error that escaped a handler of this playground: shown, never only logged. */
  unexpected(error) {
    if (this.destroyed) return;
    this.alert('unexpected', this.t('app.unexpected', { error: error?.message ?? error }));
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
      this.alert('wasm', this.t('app.noWasm', { error: e.message }));
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
      const done = this.status.progress(this.t('app.compiling'), 400);
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
    this.uploaded = null;
    this.traceEngines?.engine.dispose();
    this.traceEngines = null;
    this.showBackend();
    this.buildMethods();
    this.engineChanged();
    if (engine.backend === 'gpu') {
      const mode = drawMode ?? (isSoftwareAdapter(engine.pg.adapterName) ? 'image' : 'canvas');
      try {
        await this.draw.attach(engine, mode);
      } catch (e) {
        this.alert('canvas', this.t('app.canvas', { error: e.message }));
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
        const ignored = ignoredMessage(parsed.ignored, this.t);
        if (ignored) this.alert('hash', ignored);
        if (parsed.flags || parsed.state.preset) return parsed;
        // The link names no flags: those of the attributes (or the article's).
        const own = this.attributeState();
        return { state: { ...parsed.state, preset: own.state.preset }, flags: own.flags, error: own.error };
      }
      this.alert('hash', this.t('app.hashMalformed', { error: this.hashError(parsed.error), link: location.hash.slice(0, 200) }));
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
      else errors.push(this.t('app.unknownMethod', { method, methods: methodNames().join(', ') }));
    }
    if (step !== null) {
      const k = Number(step);
      if (Number.isInteger(k) && k >= 1) state.step = k;
      else errors.push(this.t('app.badStep', { step }));
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
        errors.push(this.t('app.badFlags', { error: e.message }));
      }
    } else if (preset !== null) {
      try {
        return { preset: parsePresetAttribute(preset) };
      } catch (e) {
        errors.push(this.t('app.badPreset', { error: this.hashError(e.detail ?? e.message) }));
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
        else errors.push(this.t('app.unknownMethodKept', { method: value, methods: methodNames().join(', ') }));
        break;
      case 'step': {
        const k = Number(value);
        if (value === null) break;
        if (Number.isInteger(k) && k >= 1) this.goToStep(k);
        else errors.push(this.t('app.badStep', { step: value }));
        break;
      }
      case 'panels': {
        const { panels, unknown } = parsePanels(value);
        if (unknown.length) errors.push(this.t('app.unknownPanels', { panels: unknown.join(', ') }));
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
    if (v.order && !before.order) this.orderShown();
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
    const tiles = stepper === this.tilesView;
    this.codePanel.mark(stepper.view?.code ?? null, tiles ? stepper.trace.method : 'scan');
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
    this.result.show(r, this.engine?.compiled.get(r.method) ?? null);
    this.codePanel.follow(r.method);
    this.draw.show(r, this.flags.length);
    this.lastRun = r;
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
        .catch((e) => this.alert('canvas', this.t('app.redraw', { error: e.message }))),
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
    this.destroyTools();
  }
}
