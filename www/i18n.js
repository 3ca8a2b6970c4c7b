// Every string the playground shows, in English and Spanish (www/messages/),
// and the numbers formatted for the language. A playground gets one
// translator `t` and hands it to each part it builds: `t(key, params)` fills
// `{name}` from params (numbers formatted for the language), `t.num(n)`,
// `t.fixed(x, digits)`. The language: the element's `lang`, else the
// browser's, else English.

import { en } from './messages/en.js';
import { es } from './messages/es.js';

export const MESSAGES = { en, es };
export const LANGS = Object.keys(MESSAGES);
/** Each language in its own words, for the switch. */
export const LANG_NAMES = { en: 'English', es: 'Español' };

/** The first supported language among `requested` and the browser's preferences, else English. */
export function pickLang(requested, preferred = globalThis.navigator?.languages ?? []) {
  for (const tag of [requested, ...preferred]) {
    const base = String(tag ?? '')
      .trim()
      .toLowerCase()
      .split('-')[0];
    if (Object.hasOwn(MESSAGES, base)) return base;
  }
  return 'en';
}

export function translator(lang) {
  const table = MESSAGES[lang] ?? en;
  const number = new Intl.NumberFormat(lang);
  const t = (key, params = {}) => {
    const text = table[key] ?? en[key];
    if (text === undefined) throw new Error(`no message “${key}”`);
    return text.replace(/\{(\w+)\}/g, (whole, name) => {
      if (!(name in params)) return whole;
      const value = params[name];
      return typeof value === 'number' ? number.format(value) : String(value);
    });
  };
  t.lang = Object.hasOwn(MESSAGES, lang) ? lang : 'en';
  t.num = (n) => number.format(n);
  t.fixed = (x, digits) => new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
  /** `n`, with the key's `.one` or `.other` form (`{n}` filled). */
  t.plural = (key, n, params = {}) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { n, ...params });
  return t;
}
