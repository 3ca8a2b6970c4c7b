// The two embed snippets for a playground's current state: the element (one
// script tag, one element) and the iframe route (embed.html#<state>). Used by
// the full page's "Copy embed code"; pure apart from reading the element.

import { PANELS, parsePanels, formatPanels } from './panels.js';

/** About how tall each panel is, for the iframe's height. */
const PANEL_HEIGHTS = { editor: 430, result: 400, draw: 380, scan: 900, tiles: 820, atomic: 560 };
const STATUS_HEIGHT = 70;

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * `{ element, iframe }` for `el` (a connected <compaction-playground>) showing
 * `panels` (a space-separated list; empty: all).
 */
export function embedSnippets(el, panels = '') {
  const moduleUrl = el.constructor.moduleUrl;
  const chosen = parsePanels(panels).panels;
  const panelsAttribute = formatPanels(chosen);
  const attributes = [];
  if (el.flags !== null) attributes.push(['flags', el.flags]);
  else attributes.push(['preset', el.preset]);
  attributes.push(['method', el.method]);
  if (el.step) attributes.push(['step', el.step]);
  if (panelsAttribute) attributes.push(['panels', panelsAttribute]);
  const element = [
    `<script type="module" src="${escape(moduleUrl)}"></script>`,
    `<compaction-playground ${attributes.map(([k, v]) => `${k}="${escape(v)}"`).join(' ')}></compaction-playground>`,
  ].join('\n');

  const hash = new URLSearchParams(el.stateHash);
  hash.delete('panels');
  if (panelsAttribute) hash.set('panels', panelsAttribute);
  const height = STATUS_HEIGHT + PANELS.filter((p) => chosen.has(p)).reduce((sum, p) => sum + PANEL_HEIGHTS[p], 0);
  const src = `${new URL('embed.html', moduleUrl).href}#${hash.toString()}`;
  const iframe = `<iframe src="${escape(src)}" title="GPU stream compaction playground" width="100%" height="${height}" loading="lazy"></iframe>`;
  return { element, iframe };
}
