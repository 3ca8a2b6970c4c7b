// <compaction-playground>: the playground as a guest on any page.
//
//   <script type="module" src=".../compaction-playground.js"></script>
//   <compaction-playground flags="1001101001" method="scan" panels="scan"></compaction-playground>
//
// Shadow DOM (open): no rule leaves the element; from the host only the
// inherited font, the --cp-* custom properties and ::part() styles come in.
// Keys are heard only while focus is inside; nothing listens on the window
// except `sync-url`'s hashchange; everything is undone when the element leaves
// the page. Attributes, properties, events, parts: docs/embedding.md.

import { PlaygroundApp } from './app.js';
import { kernels } from './engine.js';
import { PANELS, parsePanels, formatPanels } from './panels.js';
import { pickLang } from './i18n.js';
import { styleUrls } from './styles.js';
import { THEMES, resolveTheme, watchTheme } from './theme.js';

const ATTRIBUTES = ['flags', 'preset', 'method', 'step', 'panels', 'theme', 'lang', 'sync-url'];

// Importing this module during a static site's server-side render (no DOM)
// defines nothing and throws nothing.
const Base = globalThis.HTMLElement ?? class {};

export class CompactionPlaygroundElement extends Base {
  static observedAttributes = ATTRIBUTES;

  /** This module's URL: where embed snippets point (`embed.html` sits beside it). */
  static moduleUrl = import.meta.url;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.internals = this.attachInternals?.() ?? null;
    this.saved = null;
    this.onKeyDown = (e) => this.app?.onKey(e);
    this.resetReady();
  }

  resetReady() {
    this.isReady = false;
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
  }

  connectedCallback() {
    if (this.app) return;
    const wrapper = document.createElement('div');
    wrapper.className = 'pg';
    wrapper.setAttribute('part', 'playground');
    wrapper.dataset.styles = 'loading';
    const links = styleUrls().map((href) => Object.assign(document.createElement('link'), { rel: 'stylesheet', href }));
    this.shadowRoot.replaceChildren(...links, wrapper);
    this.wrapper = wrapper;
    this.waitForStyles(links, wrapper);
    this.applyTheme();
    this.stopTheme = watchTheme(() => this.applyTheme());
    this.addEventListener('keydown', this.onKeyDown);
    this.startApp(this.saved);
  }

  /** A playground in the language `resolveLang()` picks, from `restore` (a snapshot) if given. */
  startApp(restore) {
    this.busy = true;
    const lang = this.resolveLang();
    this.wrapper.lang = lang;
    this.app = new PlaygroundApp(this.wrapper, {
      attributes: Object.fromEntries(ATTRIBUTES.map((a) => [a, this.getAttribute(a)])),
      restore,
      lang,
      onLang: (chosen) => {
        this.chosenLang = chosen;
        this.applyLang();
      },
      emit: (type, detail) => this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true })),
      setState: (name, on) => this.setState(name, on),
    });
    this.app.ready.then(() => this.applyTheme());
    this.dispatchEvent(new CustomEvent('langchange', { detail: { lang }, bubbles: true, composed: true }));
  }

  /** The language shown (`en`, `es`), or null before the element is on a page. */
  get language() {
    return this.wrapper?.lang || null;
  }

  /**
   * The language: the visitor's choice in the switch, else the `lang`
   * attribute, else `lang=` in the hash (sync-url, as embed.html passes it),
   * else the browser's, else English.
   */
  resolveLang() {
    const hash = this.hasAttribute('sync-url') ? new URLSearchParams(location.hash.slice(1)).get('lang') : null;
    return pickLang(this.chosenLang ?? this.getAttribute('lang') ?? hash);
  }

  disconnectedCallback() {
    if (!this.app) return;
    this.saved = this.app.snapshot();
    this.app.destroy();
    this.app = null;
    this.stopTheme?.();
    this.removeEventListener('keydown', this.onKeyDown);
    this.shadowRoot.replaceChildren();
    this.setState('busy', false);
    this.setState('ready', false);
    this.resetReady();
  }

  attributeChangedCallback(name, old, value) {
    if (!this.app || old === value) return;
    if (name === 'theme') this.applyTheme();
    else if (name === 'lang') {
      // The host's newer word outranks the visitor's earlier choice.
      this.chosenLang = null;
      this.applyLang();
    }
    else this.app.attributeChanged(name, value);
  }

  /** Shows the playground once its stylesheets are in (or says which failed). */
  waitForStyles(links, wrapper) {
    let pending = links.length;
    for (const link of links) {
      link.addEventListener('load', () => {
        if (--pending === 0) delete wrapper.dataset.styles;
      });
      link.addEventListener('error', () => {
        delete wrapper.dataset.styles;
        this.app?.alert('styles', `The playground's stylesheet ${link.href} did not load; it is shown unstyled.`);
      });
    }
  }

  applyTheme() {
    if (!this.wrapper) return;
    const setting = this.getAttribute('theme') ?? this.app?.embedSetting('theme') ?? 'auto';
    this.wrapper.dataset.theme = resolveTheme(this, THEMES.includes(setting) ? setting : 'auto');
  }

  /** Another language: the playground is rebuilt in it, from where it was. */
  applyLang() {
    if (!this.app || this.resolveLang() === this.wrapper.lang) return;
    const saved = this.app.snapshot();
    this.app.destroy();
    this.setState('ready', false);
    this.resetReady();
    this.wrapper.replaceChildren();
    this.startApp(saved);
  }

  setState(name, on) {
    if (name === 'busy') this.busy = on;
    if (name === 'ready' && on) {
      this.isReady = true;
      this.resolveReady();
    }
    // :state(busy), :state(ready) for the host's CSS.
    try {
      if (on) this.internals?.states.add(name);
      else this.internals?.states.delete(name);
    } catch {
      // Browsers without CustomStateSet: the properties still say it.
    }
  }

  // ------------------------------------------ properties mirroring attributes --
  /** The current flags as the attribute takes them (null when a large preset made them: see `preset`). */
  get flags() {
    return this.app?.wasm ? this.app.flagsAttribute() : this.getAttribute('flags');
  }
  set flags(value) {
    this.setOrRemove('flags', value);
  }

  /** The preset the flags came from (`random 100000 0.5 1`), or null when edited. */
  get preset() {
    return this.app?.wasm ? this.app.presetAttribute() : this.getAttribute('preset');
  }
  set preset(value) {
    this.setOrRemove('preset', value);
  }

  get method() {
    return this.app?.engine ? this.app.method : (this.getAttribute('method') ?? 'scan');
  }
  set method(value) {
    this.setOrRemove('method', value);
  }

  /** The step shown (1-based) by the visible stepper, or null. */
  get step() {
    return this.app?.step ?? null;
  }
  set step(value) {
    this.setOrRemove('step', value);
  }

  get panels() {
    return formatPanels(parsePanels(this.getAttribute('panels')).panels) ?? PANELS.join(' ');
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

  /** The last run: `{ method, n, count, instanceCount, hash, backend }`, or null. */
  get result() {
    return this.app?.lastResult ? { ...this.app.lastResult } : null;
  }

  /** `'gpu'`, `'cpu'` (the CPU reference), or null while loading. */
  get backend() {
    return this.app?.engine?.backend ?? null;
  }

  /** The theme in use after `auto` was resolved: 'light' or 'dark'. */
  get resolvedTheme() {
    return this.wrapper?.dataset.theme ?? null;
  }

  /** The state as a hash for embed.html (`flags=…&method=…`), with `panels` when not all. */
  get stateHash() {
    return this.app?.wasm ? this.app.stateHash() : null;
  }

  setOrRemove(name, value) {
    if (value === null || value === undefined) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  }
}

if (globalThis.customElements && !customElements.get('compaction-playground')) {
  customElements.define('compaction-playground', CompactionPlaygroundElement);
}

/** The kernels without any interface: `const { Playground } = await kernels();` (README, JS API). */
export { kernels };
