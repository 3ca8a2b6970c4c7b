// What the loader (www/loader/element.js) starts once an element is about to
// be seen: a session (the state and the work) and, around it, a view in the
// element's language. The language table and the panels' code arrive in
// parallel with the wasm, which the loader asked for already.

import { Session } from './session.js';
import { Playground } from './playground.js';
import { loadTranslator } from '../i18n/i18n.js';
import { parsePanels, formatPanels } from '../core/panels.js';
import { THEMES } from '../core/theme.js';
import { LANGS, LANG_NAMES } from '../i18n/langs.js';

/**
 * Mounts a playground into `host` (a <compaction-playground>), starting from
 * `restore` (a previous connection's snapshot) when given.
 * @param {any} host  @param {{ restore: any, lang: string }} options
 */
export function mount(host, { restore, lang }) {
  return new Mounted(host, restore, lang);
}

class Mounted {
  constructor(host, restore, lang) {
    this.host = host;
    this.destroyed = false;
    /** The panels asked for before a view exists; then the view's (a link's `panels` may change them). */
    this.panels = parsePanels(host.getAttribute('panels'), host.hasAttribute('course')).panels;
    this.session = new Session({
      attributes: host.attributeValues(),
      restore,
      emit: (type, detail) => host.emit(type, detail),
      setState: (name, on) => host.setState(name, on),
    });
    /** @type {Playground | null} */
    this.view = null;
    this.ready = this.start(lang);
  }

  async start(lang) {
    const session = this.session;
    session.setBusy(+1);
    try {
      const t = await loadTranslator(lang);
      if (this.destroyed) return;
      this.show(t);
      this.sayUnknownPanels(this.host.getAttribute('panels'));
      this.sayBadTheme();
      this.sayBadLang();
    } catch (e) {
      this.host.showLoadFailure(e);
      return;
    } finally {
      session.setBusy(-1);
    }
    await session.start();
  }

  /** A view in `t`'s language around the session. */
  show(t) {
    this.view?.destroy();
    this.session.t = t;
    this.view = new Playground(this.host, this.session, t, this.panelsShown());
    this.session.view = this.view;
  }

  /** Another language (or `quiet` changed): a new view, the same session. */
  async rebuild(lang = this.host.wrapper.lang) {
    const t = await this.session.track(loadTranslator(lang));
    if (this.destroyed || !t || this.host.wrapper?.lang !== lang) return;
    this.show(t);
    await this.session.track(this.session.viewRebuilt());
  }

  setLang(lang) {
    return this.rebuild(lang);
  }

  attributeChanged(name, value) {
    if (name === 'panels') {
      const { panels } = parsePanels(value, this.host.hasAttribute('course'));
      this.panels = panels;
      this.session.clearAlert('panels');
      this.sayUnknownPanels(value);
      // (The URL is written on the next change of state: now, during a hash change, it would undo the link's.)
      this.view?.setPanels(panels);
    } else if (name === 'quiet' || name === 'course') {
      // (A course's key changes its panels and its progress: built anew.)
      this.panels = parsePanels(this.host.getAttribute('panels'), this.host.hasAttribute('course')).panels;
      this.rebuild();
    } else if (name === 'theme') {
      this.sayBadTheme();
    } else if (name === 'lang') {
      this.sayBadLang();
    } else if (!['loading', 'autorun'].includes(name)) {
      this.session.attributeChanged(name, value);
    }
  }

  /** The names of `text` (the `panels` attribute) that are no panel, said in the element. */
  sayUnknownPanels(text) {
    const { unknown } = parsePanels(text);
    if (unknown.length && this.session.t) this.session.alert('panels', this.session.t('app.unknownPanels', { panels: unknown.join(', ') }));
  }

  /** A `theme` that is none of THEMES, said in the element (the theme follows the page meanwhile). */
  sayBadTheme() {
    const value = this.host.getAttribute('theme');
    const t = this.session.t;
    if (!t) return;
    if (value !== null && !THEMES.includes(value)) this.session.alert('theme', t('app.badTheme', { value, themes: THEMES.join(', ') }));
    else this.session.clearAlert('theme');
  }

  /** A `lang` that is no language here, said in the element in the language it falls back to. */
  sayBadLang() {
    const value = this.host.getAttribute('lang');
    const t = this.session.t;
    if (!t) return;
    const base = String(value ?? '')
      .trim()
      .toLowerCase()
      .split('-')[0];
    if (value !== null && !LANGS.includes(base)) this.session.alert('lang', t('app.badLang', { value, langs: LANGS.join(', '), shown: LANG_NAMES[t.lang] ?? t.lang }));
    else this.session.clearAlert('lang');
  }

  onKey(e) {
    return this.view?.onKey(e) ?? false;
  }

  // What the element's properties read.
  get started() {
    return this.session.started;
  }
  get method() {
    return this.session.method;
  }
  get step() {
    return this.view?.currentStep().step ?? null;
  }
  /** The kernel panel's text (or one set before it came), and its API for `check()`. */
  get kernelSource() {
    return this.session.kernelSource;
  }
  set kernelSource(text) {
    this.session.kernelSource = text;
  }
  get kernel() {
    return this.session.kernel;
  }
  /** The course panel's API (null without a course, or before its panel is built). */
  get course() {
    return this.session.course;
  }
  get lastResult() {
    return this.session.lastResult;
  }
  get backend() {
    const b = this.session.engine?.backend;
    return b === 'gpu' || b === 'cpu' ? b : null;
  }
  flagsAttribute() {
    return this.session.flagsAttribute();
  }
  presetAttribute() {
    return this.session.presetAttribute();
  }
  stateHash() {
    return this.session.stateHash(formatPanels(this.panelsShown()));
  }
  snapshot() {
    return this.session.snapshot();
  }
  /** The panels asked for, and the number of flags: what the reservation is computed from. */
  panelsShown() {
    return this.view?.panels ?? this.panels;
  }
  flagCount() {
    return this.session.started ? this.session.flags.length : null;
  }

  destroy() {
    this.destroyed = true;
    this.view?.destroy();
    this.session.destroy();
  }
}
