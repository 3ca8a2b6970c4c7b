// <compaction-playground>: the element as a guest on any page, defined by the
// loader (the one small module a docs site includes on every page).
//
//   <script type="module" src=".../compaction-playground.js"></script>
//   <compaction-playground flags="1001101001" method="scan" panels="scan"></compaction-playground>
//
// Until an element is about to be seen it costs its placeholder: the size its
// panels will take (www/loader/reserve.js), nothing fetched. Then the
// playground's code (www/playground/), the panels it shows (www/panels/) and
// the wasm arrive, once per page however many elements there are.
// Shadow DOM (open): no rule leaves the element; from the host only the
// inherited font, the --cp-* custom properties and ::part() styles come in.
// Keys used inside stay inside (www/loader/keys.js). Nothing listens on the
// window except `sync-url`'s hashchange; everything is undone when the
// element leaves the page. Attributes, properties, events: docs/embedding.md.

import { parsePanels, formatPanels, PANELS, panelRow } from '../core/panels.js';
import { THEMES, resolveTheme, watchTheme } from '../core/theme.js';
import { h } from '../core/dom.js';
import { pickLang } from '../i18n/langs.js';
import { LOADER_MESSAGES } from '../i18n/loader.js';
import { hashParams } from '../core/state.js';
import { reserve, flagCount, WIDE } from './reserve.js';
import { staysInside } from './keys.js';
import { whenSeen } from './visibility.js';
import { poster } from './poster.js';
import { lazySheet } from '../panels/shared/sheet.js';
import baseCss from './base.css';

export const ATTRIBUTES = [
  'flags',
  'preset',
  'method',
  'step',
  'panels',
  'theme',
  'lang',
  'sync-url',
  'loading',
  'autorun',
  'quiet',
  'kernel',
  'editable',
  'check',
  'cases',
  'kernel-src',
  'course',
  'exercise',
];
const KEY_EVENTS = ['keydown', 'keypress', 'keyup'];

// Importing this module during a static site's server-side render (no DOM)
// defines nothing and throws nothing.
/** @type {typeof HTMLElement} */
const Base = /** @type {any} */ (globalThis.HTMLElement ?? class {});

/** The element's own styles, one constructable sheet for the page (no .css file a bundler would take for the site's). */
const baseSheet = lazySheet(baseCss);

export class CompactionPlaygroundElement extends Base {
  static observedAttributes = ATTRIBUTES;

  /** The element's custom states (`:state(busy)`, `:state(ready)`); none where the browser has no ElementInternals. */
  #internals = /** @type {ElementInternals | null} */ (null);
  #busy = false;
  #isReady = false;
  /** @type {Promise<void>} */
  #ready = Promise.resolve();
  #resolveReady = () => {};

  /** This module's URL: where embed snippets point (`embed.html` sits beside it). */
  static moduleUrl = import.meta.url;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.#internals = this.attachInternals?.() ?? null;
    /** The reservation of this element: one sheet of its own, rewritten as its width or panels change. */
    this.reserveSheet = new CSSStyleSheet();
    /** @type {CSSStyleSheet[]} sheets the playground and its panels add */
    this.sheets = [];
    this.adoptSheets();
    /** @type {any} the mounted playground (www/playground/mount.js), once started */
    this.playground = null;
    /** A previous connection's state, to start from when put back. */
    this.saved = null;
    this.chosenLang = null;
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.keepKey(e);
    this.keptKeys = new Set();
    this.#newReady();
  }

  /** Resolves once the playground is ready, on the GPU or the CPU reference; kept, with its waiters, until it does. */
  get ready() {
    return this.#ready;
  }

  /** True once `ready` resolved, until the element leaves the page. */
  get isReady() {
    return this.#isReady;
  }

  /** True while a run, a trace or a start-up is in flight. */
  get busy() {
    return this.#busy;
  }

  /** A new `ready` for the next connection, once the last one resolved (a pending one is kept, its waiters hear back later). */
  #newReady() {
    this.#isReady = false;
    if (this.#ready && this.#pending) return;
    this.#pending = true;
    this.#ready = new Promise((resolve) => {
      this.#resolveReady = () => {
        this.#pending = false;
        resolve();
      };
    });
  }

  #pending = false;

  /** The element's sheets, after any another library put there (the code editor's: kept, first, as it placed them). */
  adoptSheets() {
    const own = [baseSheet(), ...this.sheets, this.reserveSheet];
    const foreign = this.shadowRoot.adoptedStyleSheets.filter((s) => !own.includes(s));
    this.shadowRoot.adoptedStyleSheets = [...foreign, ...own];
  }

  /** Adds the playground's or a panel's sheet to this element's shadow root (once). @param {CSSStyleSheet} sheet */
  adopt(sheet) {
    if (this.sheets.includes(sheet)) return;
    this.sheets.push(sheet);
    this.adoptSheets();
  }

  connectedCallback() {
    if (this.wrapper) return;
    this.wrapper = h('div', { class: 'pg', part: 'playground', lang: this.resolveLang() });
    this.shadowRoot.replaceChildren(this.wrapper);
    this.applyTheme();
    this.stopTheme = watchTheme(() => this.applyTheme());
    for (const type of KEY_EVENTS) this.addEventListener(type, this.onKey);
    // The element's own reservation from the first style after it is defined: the host's reserve sheet
    // (which holds it while undefined) may be gone or refetched meanwhile, and nothing waits for a resize.
    this.updateReserve();
    this.resizeObserver = new ResizeObserver(() => this.updateReserve());
    this.resizeObserver.observe(this);
    this.showPlaceholder();
    if (this.getAttribute('loading') === 'eager') this.start();
    else if (this.getAttribute('autorun') === 'false' && !this.saved) this.showPoster();
    else this.stopWatching = whenSeen(this, () => this.start());
  }

  disconnectedCallback() {
    if (!this.wrapper) return;
    this.stopWatching?.();
    this.stopWatching = null;
    this.stopTheme?.();
    this.resizeObserver.disconnect();
    for (const type of KEY_EVENTS) this.removeEventListener(type, this.onKey);
    this.starting = null;
    if (this.playground) {
      this.saved = this.playground.snapshot() ?? this.saved;
      this.playground.destroy();
      this.playground = null;
    }
    this.wrapper = null;
    this.shadowRoot.replaceChildren();
    this.setState('busy', false);
    this.setState('ready', false);
    this.#newReady();
  }

  /** Fetches the playground's code and the wasm, then mounts it (once per connection). */
  start() {
    if (this.starting || !this.wrapper) return this.starting;
    this.stopWatching?.();
    this.stopWatching = null;
    this.setState('busy', true);
    const wrapper = this.wrapper;
    const starting = Promise.all([import('../playground/mount.js'), import('../core/engine.js').then((m) => m.kernels().catch(() => null))])
      .then(([{ mount }]) => {
        if (this.starting !== starting || this.wrapper !== wrapper) return;
        this.playground = mount(this, { restore: this.saved, lang: this.resolveLang() });
        // Handed over, not kept: from here the session holds it (and its snapshot
        // the learner's later text, which a remount must not overwrite).
        if (this.#kernelSource !== null) this.playground.kernelSource = this.#kernelSource;
        this.#kernelSource = null;
      })
      .catch((e) => {
        if (this.starting !== starting) return;
        this.starting = null;
        this.setState('busy', false);
        this.showLoadFailure(e);
      });
    this.starting = starting;
    return starting;
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    if (!this.wrapper) {
      this.forgetSaved(name);
      return;
    }
    if (name === 'theme') {
      this.applyTheme();
      return this.playground?.attributeChanged(name, value);
    }
    if (name === 'lang') {
      // The host's newer word outranks the visitor's earlier choice.
      this.chosenLang = null;
      this.applyLang();
      return this.playground?.attributeChanged(name, value);
    }
    if (name === 'loading' && value === 'eager') this.start();
    if (this.playground) return this.playground.attributeChanged(name, value);
    if (['panels', 'flags', 'preset', 'quiet', 'method', 'autorun'].includes(name)) this.showWaiting();
  }

  /**
   * An attribute set while the element is off the page outranks what it kept
   * of its last connection: that part starts from the attribute when it is put
   * back (www/playground/session.js, initialState).
   */
  forgetSaved(name) {
    if (!this.saved) return;
    if (name === 'flags' || name === 'preset') this.saved = { ...this.saved, flags: undefined, preset: undefined };
    else if (name === 'method' || name === 'step') this.saved = { ...this.saved, [name]: undefined };
  }

  // --------------------------------------------------------- placeholder --
  /** What shows until the playground's code is in: its status line and its cards, at the size they will have. */
  showPlaceholder() {
    const words = LOADER_MESSAGES[this.wrapper.lang] ?? LOADER_MESSAGES.en;
    const status = h(
      'div',
      { class: 'pg-status skeleton', part: 'status', hidden: this.quiet },
      h('div', { class: 'status-row' }, h('p', { class: 'backend', 'data-testid': 'backend', 'data-backend': 'loading' }, words.loading)),
    );
    const cards = this.reservation()
      .cards.filter((c) => !c.shared || c.panel === 'result')
      .map(({ panel }) => h('section', { class: `card skeleton ${panelRow(panel)?.card ?? ''}`, part: `panel panel-${panel}`, 'data-panel': panel, 'aria-busy': 'true' }));
    // On paper, where the element was never scrolled to: its flags and method, not "Loading…".
    const summary = this.posterFor().element;
    summary.classList.add('print-only');
    summary.dataset.testid = 'print-summary';
    cards[0]?.append(summary);
    this.wrapper.replaceChildren(status, ...cards);
    this.updateReserve();
  }

  /** The poster of this element's attributes (a button when `onRun` is given). @param {(() => void)=} onRun */
  posterFor(onRun) {
    return poster({
      flags: this.getAttribute('flags'),
      method: this.getAttribute('method') ?? 'scan',
      n: flagCount(this.getAttribute('flags'), this.getAttribute('preset')),
      lang: this.wrapper.lang,
      onRun,
    });
  }

  /**
   * Before the code is in: the placeholder, and on it the poster while
   * `autorun="false"` waits for a press (an attribute or the language
   * changed: the poster follows, it never turns into a lasting "Loading…").
   */
  showWaiting() {
    this.showPlaceholder();
    if (this.starting || this.saved || this.getAttribute('loading') === 'eager') return;
    if (this.getAttribute('autorun') === 'false') {
      this.stopWatching?.();
      this.stopWatching = null;
      this.showPoster();
    } else if (!this.stopWatching) this.stopWatching = whenSeen(this, () => this.start());
  }

  showPoster() {
    const first = this.wrapper.querySelector('section.card');
    const made = this.posterFor(() => {
      if (made.button) made.button.disabled = true;
      this.start();
    });
    if (first) first.replaceChildren(made.element);
    else this.wrapper.append(made.element);
  }

  showLoadFailure(error) {
    const words = LOADER_MESSAGES[this.wrapper?.lang] ?? LOADER_MESSAGES.en;
    const line = this.wrapper?.querySelector('[data-testid="backend"]');
    if (!line) return;
    line.dataset.backend = 'none';
    line.replaceChildren(words.failed.replace('{error}', error?.message ?? String(error)), ' ', h('button', { type: 'button', 'data-testid': 'retry-load', onclick: () => this.start() }, words.retry));
    this.wrapper.querySelector('.pg-status')?.removeAttribute('hidden');
  }

  /** The reservation for the panels shown, this element's width and its flags (www/loader/reserve.js). */
  reservation() {
    const style = getComputedStyle(this);
    const em = parseFloat(style.fontSize) || 16;
    const width = this.getBoundingClientRect().width || this.parentElement?.getBoundingClientRect().width || 800;
    const panels = this.playground?.panelsShown() ?? parsePanels(this.getAttribute('panels'), this.hasAttribute('course')).panels;
    const n = this.playground?.flagCount() ?? flagCount(this.getAttribute('flags'), this.getAttribute('preset'));
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    return reserve(panels, { widthEm: width / em, wideEm: (WIDE * rem) / em, n, method: this.method, status: !this.quiet });
  }

  /** Rewrites this element's reservation sheet: the cards' and the status line's heights. */
  updateReserve() {
    if (!this.wrapper) return;
    const r = this.reservation();
    const rules = r.cards.map(({ panel, em }) => `.card[data-panel="${panel}"] { min-height: ${em}em; }`);
    rules.push(`.pg { min-height: ${r.total}em; }`);
    // On screen only: paper has no layout to keep still, and prints the parts at their own heights.
    this.reserveSheet.replaceSync(`@media screen {\n${rules.join('\n')}\n}`);
  }

  get quiet() {
    return this.hasAttribute('quiet');
  }

  // ----------------------------------------------------------------- keys --
  /** Stops the key events the element used or that were typed into it (www/loader/keys.js). */
  keepKey(e) {
    const target = e.composedPath()[0];
    if (e.type === 'keydown') {
      const used = this.playground?.onKey(e) || e.defaultPrevented;
      if (staysInside(e, target, used)) {
        this.keptKeys.add(e.code || e.key);
        e.stopPropagation();
      } else this.keptKeys.delete(e.code || e.key);
    } else if (this.keptKeys.has(e.code || e.key) || staysInside(e, target, false)) {
      if (e.type === 'keyup') this.keptKeys.delete(e.code || e.key);
      e.stopPropagation();
    }
  }

  // ------------------------------------------------------- theme, language --
  applyTheme() {
    if (!this.wrapper) return;
    const setting = this.getAttribute('theme') ?? 'auto';
    this.wrapper.dataset.theme = resolveTheme(this, THEMES.includes(setting) ? setting : 'auto');
  }

  /**
   * The language: the visitor's choice in the switch, else the `lang`
   * attribute, else `lang=` in the hash (sync-url, as embed.html passes it),
   * else the browser's, else English.
   */
  resolveLang() {
    const hash = this.hasAttribute('sync-url') ? hashParams(location.hash).params.get('lang') : null;
    return pickLang(this.chosenLang ?? this.getAttribute('lang') ?? hash);
  }

  /** The visitor chose a language in the switch. @param {string} lang */
  chooseLang(lang) {
    this.chosenLang = lang;
    this.applyLang();
  }

  /** Another language: the panels are rebuilt in it; the state, the engine and the GPU stay. */
  applyLang() {
    if (!this.wrapper) return;
    const lang = this.resolveLang();
    if (lang === this.wrapper.lang) return;
    this.wrapper.lang = lang;
    if (this.playground) this.playground.setLang(lang);
    else if (!this.starting) this.showWaiting();
    this.emit('langchange', { lang });
  }

  /** The language shown (`en`, `es`), or null before the element is on a page. */
  get language() {
    return this.wrapper?.lang || null;
  }

  // -------------------------------------------------------------- events --
  /** A CustomEvent from the element to the host page. */
  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  setState(name, on) {
    if (name === 'busy') this.#busy = on;
    if (name === 'ready' && on) {
      this.#isReady = true;
      this.#resolveReady();
    }
    // :state(busy), :state(ready) for the host's CSS.
    try {
      if (on) this.#internals?.states.add(name);
      else this.#internals?.states.delete(name);
    } catch {
      // Browsers without CustomStateSet: the properties still say it.
    }
  }

  // ------------------------------------------ properties mirroring attributes --
  /** The current flags as the attribute takes them (null when a large preset made them: see `preset`). */
  get flags() {
    return this.playground?.started ? this.playground.flagsAttribute() : this.getAttribute('flags');
  }
  set flags(value) {
    this.setOrRemove('flags', value);
  }

  /** The preset the flags came from (`random 100000 0.5 1`), or null when edited. */
  get preset() {
    return this.playground?.started ? this.playground.presetAttribute() : this.getAttribute('preset');
  }
  set preset(value) {
    this.setOrRemove('preset', value);
  }

  get method() {
    return this.playground?.started ? this.playground.method : (this.getAttribute('method') ?? 'scan');
  }
  set method(value) {
    this.setOrRemove('method', value);
  }

  /** The step shown (1-based) by the visible stepper, or null. */
  get step() {
    return this.playground?.step ?? null;
  }
  set step(value) {
    this.setOrRemove('step', value);
  }

  get panels() {
    return formatPanels(parsePanels(this.getAttribute('panels'), this.hasAttribute('course')).panels) ?? PANELS.join(' ');
  }
  set panels(value) {
    this.setOrRemove('panels', Array.isArray(value) ? value.join(' ') : value);
  }

  get theme() {
    const t = this.getAttribute('theme');
    return THEMES.includes(t) ? t : 'auto';
  }
  set theme(value) {
    this.setOrRemove('theme', value);
  }

  get syncUrl() {
    return this.hasAttribute('sync-url');
  }
  set syncUrl(on) {
    this.toggleAttribute('sync-url', Boolean(on));
  }

  /** `'lazy'` (start when about to be seen) or `'eager'` (start when connected). */
  get loading() {
    return this.getAttribute('loading') === 'eager' ? 'eager' : 'lazy';
  }
  set loading(value) {
    this.setOrRemove('loading', value);
  }

  /** The last run: `{ method, n, count, instanceCount, hash, backend }`, or null. */
  get result() {
    return this.playground?.lastResult ? { ...this.playground.lastResult } : null;
  }

  /**
   * The kernel panel's WGSL (null before the playground starts): setting it
   * compiles and checks it as typing would, and is kept until the panel comes.
   */
  get kernelSource() {
    return this.playground?.kernelSource ?? this.#kernelSource;
  }
  set kernelSource(text) {
    if (typeof text !== 'string') throw new TypeError('kernelSource must be a string');
    if (this.playground) this.playground.kernelSource = text;
    else this.#kernelSource = text;
  }

  /** A kernel source set before the playground started, until it is handed over. @type {string | null} */
  #kernelSource = null;

  /** The course's exercises in order, `[{ id, title, kernel, solved }]`: empty without a course, or before its panel is built. */
  get exercises() {
    return this.playground?.course?.exercises() ?? [];
  }

  /** The course's current exercise (its id); setting it (or the attribute) moves the course there. */
  get exercise() {
    return this.playground?.course?.exercise ?? this.getAttribute('exercise');
  }
  set exercise(id) {
    this.setOrRemove('exercise', id);
  }

  /** The course's progress, per exercise id: `{ solved, attempts, hintsUsed, solutionSeen }`. */
  get progress() {
    return this.playground?.course?.progress() ?? {};
  }

  /** The next hint for the last failed check of the current exercise, `{ id, kind, level, text }`, or null (rejects without a course). */
  hint() {
    const course = this.playground?.course;
    if (!course) return Promise.reject(Object.assign(new Error('no course'), { kind: 'no-course' }));
    return course.hint();
  }

  /** Clears the course's progress (in this browser, under its key). */
  resetProgress() {
    this.playground?.course?.resetProgress();
  }

  /** Checks the kernel panel's kernel: resolves to its report (`KernelReport`), rejects without a kernel panel. */
  check() {
    const kernel = this.playground?.kernel;
    if (!kernel?.shown()) return Promise.reject(Object.assign(new Error('this element shows no kernel panel (panels="kernel")'), { kind: 'no-kernel' }));
    return kernel.check();
  }

  /** `'gpu'`, `'cpu'` (the CPU reference), or null while loading. */
  get backend() {
    return this.playground?.backend ?? null;
  }

  /** The theme in use after `auto` was resolved: 'light' or 'dark'. */
  get resolvedTheme() {
    return this.wrapper?.dataset.theme ?? null;
  }

  /** The state as a hash for embed.html (`flags=…&method=…`), with `panels` when not all. */
  get stateHash() {
    return this.playground?.started ? this.playground.stateHash() : null;
  }

  /** Every observed attribute's value (null: absent), as the playground starts from them. */
  attributeValues() {
    const values = Object.fromEntries(ATTRIBUTES.map((a) => [a, this.getAttribute(a)]));
    // An exercise's kernel inline: raw text, so `array<u32>` survives any page (a <template> would parse it).
    values['kernel-script'] = this.querySelector(':scope > script[type="text/wgsl"]')?.textContent ?? null;
    return values;
  }

  setOrRemove(name, value) {
    if (value === null || value === undefined) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  }
}
