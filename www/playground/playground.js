// The view of one playground inside a <compaction-playground>: the status line
// and one card per panel, in one language. A card's content is a panel of
// www/panels/ (its row in www/core/panels.js), downloaded and built only when
// the card is to be seen; each panel gets a context (./context.js: what it may
// read and call, never the session itself), and is told what changed through
// the hooks listed in PanelHooks. A language
// switch throws the view away and builds another around the same session.

import { h, replace } from '../core/dom.js';
import { isTileMethod, layout } from '../core/layout.js';
import { visiblePanels, panelRow, PANEL_ROWS, SCAN_STEPPER, TILE_VIEW } from '../core/panels.js';
import { panelContext } from './context.js';
import { LANGS, LANG_NAMES } from '../i18n/i18n.js';
import { StatusBar } from './status.js';
import { controlKind, movesControl } from '../loader/keys.js';
import { sheets } from './sheets.js';

/**
 * What a panel module's `create(context)` returns; every hook is optional.
 * @typedef {{
 *   element: HTMLElement,
 *   styles?: CSSStyleSheet[],
 *   showFlags?(flags: Uint32Array, preset: object | null): void,
 *   showMethods?(methods: string[], method: string): void,
 *   methodChanged?(method: string): void,
 *   showResult?(r: any): void,
 *   engineChanged?(engine: any, sources: any[]): void,
 *   kernelStepping?(state: import('./stepping.js').SteppingState): void,
 *   sourcesChanged?(sources: any[]): void,
 *   kernelChecked?(report: object): void,
 *   refresh?(signal: AbortSignal): Promise<void>,
 *   shown?(): void,
 *   stepper?: any,
 *   attach?(engine: any, mode: string): Promise<void>,
 *   reattach?(pg: any): any,
 *   fit?(): boolean,
 *   mark?(ref: any, method: string): void,
 *   keep?(): any,
 *   restore?(kept: any): void,
 *   destroy?(): void,
 * }} PanelHooks
 */

/**
 * A panel's module, www/panels/<name>/index.js, fetched the first time a card
 * shows it (the build makes one chunk of each file the pattern matches).
 * @param {string} name  @returns {Promise<{ create(context: import('./context.js').PanelContext): PanelHooks }>}
 */
const panelModule = (name) => import(`../panels/${name}/index.js`);

/** The tile view's method when the tile view shows alone and the method is not a tile method. */
const TILE_DEFAULT = 'lookback';

export class Playground {
  /**
   * @param {any} host  the <compaction-playground> (www/loader/element.js)
   * @param {import('./session.js').Session} session
   * @param {any} t  the translator
   * @param {Set<string>} panels  the panels asked for
   */
  constructor(host, session, t, panels) {
    this.host = host;
    this.session = session;
    this.t = t;
    this.root = host.wrapper;
    this.panels = panels;
    /** @type {Record<string, PanelHooks>} */
    this.loaded = {};
    /** @type {Record<string, Promise<void>>} */
    this.loading = {};
    /** @type {any[] | null} the engine's kernel sources */
    this.sources = null;
    this.destroyed = false;
    for (const sheet of sheets()) host.adopt(sheet);
    this.build();
  }

  build() {
    const t = this.t;
    this.status = new StatusBar({ t, langSwitch: this.host.quiet ? null : this.langSwitch(), quiet: this.host.quiet });
    /** @type {Record<string, HTMLElement>} */
    this.cards = {};
    for (const { name, card, lead } of PANEL_ROWS) {
      const title = t(`card.${name}`);
      this.cards[name] = h(
        'section',
        { class: `card ${card}`, part: `panel panel-${name}`, 'data-panel': name, 'data-testid': `${name}-card`, 'aria-label': this.regionName(title), 'aria-busy': 'true', hidden: true },
        h('h2', { 'data-cpu-tag': t('status.cpuTag') }, title),
        lead ? h('p', { class: 'lead' }, t(`card.${name}.lead`, { tile: layout.tile })) : null,
      );
    }
    this.context = panelContext(this.session, this);
    replace(this.root, this.status.element, Object.values(this.cards));
    // On the element's wrapper, which outlives this view: removed in destroy(), or every language switch would keep its view alive.
    this.onError = (/** @type {Event} */ e) => this.session.unexpected(/** @type {CustomEvent} */ (e).detail);
    this.root.addEventListener('cp-error', this.onError);
    this.showPanels();
  }

  /**
   * A card's region name, told apart from the same card of another playground
   * of the page: by the element's own label (`aria-label`), else by its place
   * among the page's playgrounds (the first keeps the plain title).
   */
  regionName(title) {
    const own = this.host.getAttribute('aria-label')?.trim();
    if (own) return `${title} — ${own}`;
    const all = [...(this.host.ownerDocument?.querySelectorAll('compaction-playground') ?? [])];
    const k = all.indexOf(this.host);
    return k > 0 ? this.t('app.nth', { label: title, n: k + 1 }) : title;
  }

  /** Card `name`'s title, as its panel words it now (the stepper names the method it steps). */
  setCardTitle(name, title) {
    const card = this.cards[name];
    if (!card) return;
    const heading = card.querySelector('h2');
    if (heading && heading.textContent !== title) heading.textContent = title;
    card.setAttribute('aria-label', this.regionName(title));
  }

  /** The language switch: every language in its own words. */
  langSwitch() {
    const select = h(
      'select',
      { 'data-testid': 'lang-select', 'aria-label': this.t('app.language'), onchange: () => this.host.chooseLang(select.value) },
      LANGS.map((l) => h('option', { value: l, selected: l === this.t.lang, lang: l }, LANG_NAMES[l])),
    );
    return h('label', { class: 'lang-switch' }, select);
  }

  // -------------------------------------------------------------- panels --
  /** Shows the panels asked for (the scan stepper or the tile view by the method), fetching those not in yet. */
  showPanels() {
    const session = this.session;
    const v = visiblePanels(this.panels, isTileMethod(session.method));
    const gpu = session.engine?.backend === 'gpu';
    this.visible = v;
    for (const [name, card] of Object.entries(this.cards)) {
      const wanted = Boolean(v[name]);
      const waits = panelRow(name)?.gpu && !gpu;
      card.hidden = !wanted || Boolean(waits);
      // A panel of the GPU's waits for it; every other one loads as soon as it is to show.
      if (wanted && !waits) this.ensurePanel(name);
    }
    this.host.updateReserve();
  }

  /** New `panels` (the attribute or a link): a panel that appears fetches what it shows. */
  setPanels(panels) {
    const before = this.visible ?? {};
    this.panels = panels;
    this.showPanels();
    const v = this.visible;
    for (const name of Object.keys(v)) {
      if (v[name] && !before[name] && this.loaded[name]) this.catchUp(name, this.loaded[name]);
    }
  }

  /** The panel's module, built into its card (once). */
  ensurePanel(name) {
    if (this.loading[name]) return this.loading[name];
    // The panel's code and its words (where it has its own), fetched together.
    const promise = Promise.all([panelModule(name), this.t.load(name)])
      .then(async ([module]) => {
        if (this.destroyed) return;
        const panel = module.create(this.context);
        for (const sheet of panel.styles ?? []) this.host.adopt(sheet);
        this.loaded[name] = panel;
        // What the panel had shown in the view before this one (another language).
        const kept = this.session.kept[name];
        delete this.session.kept[name];
        if (kept) panel.restore?.(kept);
        this.cards[name].append(panel.element);
        this.cards[name].removeAttribute('aria-busy');
        await this.catchUp(name, panel);
      })
      .catch((e) => {
        delete this.loading[name];
        this.session.alert(`panel-${name}`, this.t('app.panelFailed', { panel: name, error: e?.message ?? e }));
      });
    this.loading[name] = promise;
    this.session.track(promise);
    return promise;
  }

  /** A panel that arrived (or appeared) after the state it shows: it is given all of it. */
  async catchUp(name, panel) {
    const session = this.session;
    if (!session.started) return;
    panel.showFlags?.(session.flags, session.preset);
    panel.showMethods?.(session.methods(), session.method);
    panel.methodChanged?.(session.method);
    if (session.engine && this.sources) panel.engineChanged?.(session.engine, this.sources);
    if (panelRow(name)?.gpu && session.engine?.backend === 'gpu') {
      await session.attachDraw(session.engine, session.drawWanted);
      session.redraw();
    }
    if (session.lastRun) panel.showResult?.(session.lastRun);
    if (this.visible[name]) {
      panel.shown?.();
      if (panel.refresh && session.lastRun) await panel.refresh(session.runSignal());
    }
  }

  /** Resolves once every panel to be seen is built (the element is `ready` after). */
  async whenBuilt() {
    let pending;
    do {
      pending = Object.values(this.loading);
      await Promise.all(pending);
    } while (Object.values(this.loading).length !== pending.length);
  }

  /** `hook(panel, ...args)` on every panel built. */
  each(hook, ...args) {
    for (const panel of Object.values(this.loaded)) panel[hook]?.(...args);
  }

  // ------------------------------------------------ what the session shows --
  showFlags(flags, preset) {
    this.each('showFlags', flags, preset);
    this.host.updateReserve();
  }

  showMethods(methods, method) {
    this.each('showMethods', methods, method);
  }

  methodChanged(method) {
    this.each('methodChanged', method);
    this.showPanels();
  }

  showResult(r) {
    this.each('showResult', r);
  }

  /** After a run: the active stepper's trace (`traces`), the other panels that read the run's buffers (`slots`), when they show. */
  async afterRun(signal, { traces, slots }) {
    const stepper = this.activeStepper();
    const others = Object.entries(this.loaded).filter(([name, p]) => this.visible[name] && !panelRow(name)?.stepper && p.refresh);
    await Promise.all([traces && stepper?.refresh?.(signal), ...(slots ? others.map(([, p]) => p.refresh?.(signal)) : [])]);
  }

  engineChanged(engine) {
    this.sources = engine.pg.kernelSources();
    this.each('engineChanged', engine, this.sources);
  }

  /** A learner's kernel runs on the page, or ours again: the panels say so, the code panels show its text. */
  kernelStepping(state, sources) {
    if (sources) this.sources = sources;
    this.each('kernelStepping', state);
    if (sources) this.each('sourcesChanged', sources);
  }

  /** The stepper shown, brought into view (the learner pressed Step through it, far below). */
  revealStepper() {
    this.reveal(this.visible?.[SCAN_STEPPER] ? SCAN_STEPPER : TILE_VIEW);
  }

  /** Panel `name`'s card brought into view, where it shows. @param {string} name */
  reveal(name) {
    if (this.visible?.[name]) this.cards[name].scrollIntoView({ block: 'start' });
  }

  /** The draw panel on `engine`; false when no draw panel is built. */
  async attachDraw(engine, mode) {
    const draw = this.loaded.draw;
    if (!draw) return false;
    await draw.attach(engine, mode);
    return true;
  }

  reattachDraw(pg) {
    return this.loaded.draw?.reattach(pg);
  }

  // --------------------------------------------------------------- steps --
  /** The stepper panel the visitor sees (the scan stepper or the tile view), or null. */
  activeStepper() {
    const v = this.visible;
    if (v[TILE_VIEW] && (isTileMethod(this.session.method) || !v[SCAN_STEPPER])) return this.loaded[TILE_VIEW] ?? null;
    return v[SCAN_STEPPER] ? (this.loaded[SCAN_STEPPER] ?? null) : null;
  }

  /** The method the tile view traces: the chosen one, or the look-back when the tile view shows alone. */
  tileMethod() {
    return isTileMethod(this.session.method) ? this.session.method : TILE_DEFAULT;
  }

  goToStep(step) {
    const stepper = this.activeStepper()?.stepper;
    if (stepper?.steps.length) stepper.controls.go(step - 1);
    else this.session.startAt({ step });
  }

  /** Where the visible stepper is: `{ step, block, tile }` (what the URL keeps). */
  currentStep() {
    const panel = this.activeStepper();
    const stepper = panel?.stepper;
    const step = stepper?.steps.length ? stepper.step : null;
    const tiles = panel === this.loaded[TILE_VIEW];
    return { step, block: tiles ? 0 : (this.loaded[SCAN_STEPPER]?.stepper.block ?? 0), tile: tiles ? stepper.firstTile : 0 };
  }

  /** The WGSL the visible stepper's step runs (`{ ref, method }`, `ref` null when none), for the code panel to mark. */
  currentMark() {
    const panel = this.activeStepper();
    const stepper = panel?.stepper;
    const ref = stepper?.steps.length ? (stepper.view?.code ?? null) : null;
    if (!stepper?.trace) return { ref, method: 'scan' };
    return { ref, method: panel === this.loaded[TILE_VIEW] ? stepper.trace.method : stepper.method };
  }

  /** The visible stepper moved: the URL, the code panel's marks, the host's `step` event. */
  stepChanged() {
    const session = this.session;
    session.updateUrl();
    const panel = this.activeStepper();
    const stepper = panel?.stepper;
    if (!stepper?.steps.length) return;
    const tiles = panel === this.loaded[TILE_VIEW];
    const mark = this.currentMark();
    this.each('mark', mark.ref, mark.method);
    session.emit('step', {
      view: tiles ? TILE_VIEW : SCAN_STEPPER,
      step: stepper.step,
      steps: stepper.steps.length,
      kind: stepper.steps[stepper.controls.index]?.kind ?? null,
    });
  }

  /** Keys pressed while focus is inside the element: true when the visible stepper used it. */
  onKey(e) {
    if (e.defaultPrevented) return false;
    const target = e.composedPath()[0];
    // Typing in a text box or a list, moving in the flag grid, a radio group or a slider, is not a shortcut.
    const kind = controlKind(target);
    if (kind === 'text' || kind === 'list' || movesControl(target, e.key) || target?.closest?.('.flag-grid')) return false;
    if (this.activeStepper()?.stepper.handleKey(e)) {
      e.preventDefault();
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------ teardown --
  destroy() {
    this.destroyed = true;
    // The results the visitor made (runs ×R, the order scene, the benchmark)
    // outlive the view: the next one (a language switch) shows them again.
    for (const [name, panel] of Object.entries(this.loaded)) {
      const kept = panel.keep?.();
      if (kept) this.session.kept[name] = kept;
    }
    this.root.removeEventListener('cp-error', this.onError);
    this.each('destroy');
    this.status.destroy();
    // Chromium's shadow root keeps each radio group's checked button in a map
    // by name, after the button left the tree: unnamed, the old view's radios
    // go with it (else every language switch kept its view, about 500 nodes).
    for (const radio of this.root.querySelectorAll('input[type="radio"][name]')) radio.removeAttribute('name');
  }
}
