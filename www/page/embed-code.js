// The two embed snippets for a playground's current state: the element (one
// script tag, one element) and the iframe route (embed.html#<state>), sized
// from the same table the element reserves its space with. Used by the full
// page's "Copy embed code"; pure apart from reading the element.

import { parsePanels, formatPanels } from '../core/panels.js';
import { reserve } from '../loader/reserve.js';

/** embed.html's font size and padding (www/embed/embed.css), and the width a docs column usually gives a frame. */
const FRAME_FONT_PX = 15;
const FRAME_PADDING_PX = 16;
const FRAME_WIDTH_PX = 720;

const escapeAttr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The iframe's height in px for `panels` (a Set) and `n` flags, before the frame reports its own. */
export function frameHeight(panels, n) {
  const { total } = reserve(panels, { widthEm: FRAME_WIDTH_PX / FRAME_FONT_PX, n });
  return Math.ceil(total * FRAME_FONT_PX + 2 * FRAME_PADDING_PX);
}

/**
 * `{ element, iframe }` for `el` (a connected <compaction-playground>) showing
 * `panels` (a space-separated list; empty: all).
 */
export function embedSnippets(el, panels = '') {
  const moduleUrl = el.constructor.moduleUrl;
  // The course comes with a `course` attribute (its progress key), which brings the kernel panel too.
  const course = parsePanels(panels, true).panels.has('course') && /\bcourse\b/.test(panels);
  const chosen = parsePanels(panels, course).panels;
  const panelsAttribute = formatPanels(chosen);
  const attributes = [];
  if (course) attributes.push(['course', 'course']);
  if (el.flags !== null) attributes.push(['flags', el.flags]);
  else attributes.push(['preset', el.preset]);
  attributes.push(['method', el.method]);
  if (el.step) attributes.push(['step', el.step]);
  if (panelsAttribute) attributes.push(['panels', panelsAttribute]);
  const element = [
    `<script type="module" src="${escapeAttr(moduleUrl)}"></script>`,
    `<compaction-playground ${attributes.map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(' ')}></compaction-playground>`,
  ].join('\n');

  const hash = new URLSearchParams(el.stateHash);
  hash.delete('panels');
  if (panelsAttribute) hash.set('panels', panelsAttribute);
  const n = el.result?.n ?? 10;
  const src = `${new URL('embed.html', moduleUrl).href}#${hash.toString()}`;
  const iframe = `<iframe src="${escapeAttr(src)}" title="GPU stream compaction playground" width="100%" height="${frameHeight(chosen, n)}" loading="lazy"></iframe>`;
  return { element, iframe };
}
