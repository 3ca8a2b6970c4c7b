// <compaction-playground>: the whole playground as a custom element, for
// documentation sites. Light DOM (so the page's fonts apply), one stylesheet
// added to <head> once.
//
//   <script type="module" src="/path/to/www/element.js"></script>
//   <compaction-playground flags="1001101001" method="scan"></compaction-playground>
//
// Attributes (read once, when the element is connected):
//   flags     the initial flags, as typed in the text box: `1001101001`, `1,0,0,1`, `1 0 2`
//   method    atomic | aggregated | scan | lookback | lookback-bits | tile-atomic (default scan)
//   sync-url  keep the state in location.hash (only for one playground per page)
// The wasm package is loaded from www/pkg/ next to this file. The host page's CSP
// must allow `script-src 'self' 'wasm-unsafe-eval'` (or the origin serving www/).

import { mountPlayground } from './playground.js';

const STYLESHEET = new URL('./playground.css', import.meta.url).href;

function ensureStylesheet() {
  const present = [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === STYLESHEET);
  if (!present) document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: STYLESHEET }));
}

export class CompactionPlaygroundElement extends HTMLElement {
  connectedCallback() {
    if (this.app) return;
    ensureStylesheet();
    this.app = mountPlayground(this, {
      syncUrl: this.hasAttribute('sync-url'),
      flags: this.getAttribute('flags'),
      method: this.getAttribute('method'),
    });
  }

  /** Resolves once the article's (or the given) flags are compacted and shown. */
  get ready() {
    return this.app?.ready ?? Promise.resolve();
  }
}

if (!customElements.get('compaction-playground')) {
  customElements.define('compaction-playground', CompactionPlaygroundElement);
}
