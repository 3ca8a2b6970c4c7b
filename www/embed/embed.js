// embed.html, the iframe route: the element alone, its state in the frame's
// hash. The hash is followed as it changes (the state by the element's
// sync-url, `theme`, `lang` and `panels` here, as attributes), without a
// reload. With the page that frames it, a small postMessage protocol:
//   host -> frame  { theme: 'light' | 'dark' | 'auto', lang: 'en' | 'es' }  (either key alone works)
//   frame -> host  { source: 'compaction-playground', height }             on every change of its height
// Messages are taken only from the parent window (and only from its origin,
// once known); the frame posts only to that origin: the hash's `origin`,
// else the browser's record of who framed it, else the referrer's. When none
// is known it posts nothing.

import { hashParams } from '../core/state.js';
import { THEMES } from '../core/theme.js';
import { LANGS } from '../i18n/langs.js';
import { parentOrigin } from './origin.js';

const el = document.querySelector('compaction-playground');
const framed = window.parent !== window;

/** The embedding keys of the hash the element does not read itself. */
function hashSettings() {
  const { params } = hashParams(location.hash);
  return { theme: params.get('theme'), lang: params.get('lang'), panels: params.get('panels'), origin: params.get('origin') };
}

/** Sets or removes an attribute of the element. */
function setAttr(name, value) {
  if (value === null || value === undefined || value === '') el.removeAttribute(name);
  else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** The hash's theme, lang and panels as the element's attributes, as they are: it says what it cannot use (sync-url follows the rest). */
function applyHash() {
  const { theme, lang, panels } = hashSettings();
  setAttr('theme', theme);
  setAttr('lang', lang);
  setAttr('panels', panels);
}

applyHash();
addEventListener('hashchange', applyHash);

if (framed) {
  const origin = parentOrigin(hashSettings().origin, location.ancestorOrigins, document.referrer);

  addEventListener('message', (e) => {
    if (e.source !== window.parent || (origin && e.origin !== origin)) return;
    const data = e.data;
    if (!data || typeof data !== 'object') return;
    if (THEMES.includes(data.theme)) el.setAttribute('theme', data.theme);
    if (LANGS.includes(data.lang)) el.setAttribute('lang', data.lang);
  });

  if (origin) {
    let last = 0;
    const report = () => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ source: 'compaction-playground', height }, origin);
    };
    new ResizeObserver(report).observe(document.documentElement);
    report();
  }
}

await import('../loader/loader.js');
