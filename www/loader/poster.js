// autorun="false": what shows until the visitor asks for the playground. The
// flags as the attributes give them, the method, and one button; nothing else
// of the playground is downloaded until it is pressed.

import { h } from '../core/dom.js';
import { LOADER_MESSAGES } from '../i18n/loader.js';

/** The flags as digits, when the attribute lists them (a packed link or a preset shows only its size). */
function digits(flags) {
  const text = String(flags ?? '').trim();
  if (!text || /^[bw]\d+\./.test(text)) return null;
  const list = text.split(/[\s,]+/).filter(Boolean);
  const cells = list.length === 1 && /^\d+$/.test(list[0]) ? [...list[0]] : list;
  return cells.length <= 256 ? cells.join(' ') : null;
}

/** The longest method name a poster quotes (a page's attribute may hold anything). */
const MAX_QUOTED = 40;

/** `text` cut to MAX_QUOTED characters. @param {string} text */
const cut = (text) => (text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);

/** `{name}` in `template` replaced by `values`' text as it is (no `$` patterns). @param {string} template  @param {Record<string, string>} values */
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);

/**
 * The poster for `el` in `lang`: `{ element, button }`. Without `onRun`, no
 * button: what paper shows of an element whose code is not in yet.
 * @param {{ flags: string|null, method: string, n: number, lang: string, onRun?: () => void }} options
 */
export function poster({ flags, method, n, lang, onRun }) {
  const words = LOADER_MESSAGES[lang] ?? LOADER_MESSAGES.en;
  const shown = digits(flags);
  const button = onRun ? h('button', { type: 'button', class: 'primary', 'data-testid': 'poster-run', onclick: onRun }, words.run) : null;
  const element = h(
    'div',
    { class: 'poster', 'data-testid': 'poster' },
    shown ? h('p', { class: 'poster-flags' }, h('code', {}, shown)) : null,
    h('p', { class: 'poster-text' }, fill(words.poster, { n: String(n), method: cut(method) })),
    button,
  );
  return { element, button };
}
