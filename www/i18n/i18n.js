// Every string the playground shows, in English and Spanish (the tables en.js
// and es.js beside this file; the loader's few words in loader.js), and the
// numbers formatted for the language. A playground gets one translator `t` and
// hands it to each part it builds: `t(key, params)` fills `{name}` from params
// (numbers formatted for the language), `t.num(n)`, `t.fixed(x, digits)`.
// Only the language shown is downloaded: `loadTranslator(lang)`.

import { LANGS, pickLang } from './langs.js';

export { LANGS, LANG_NAMES, pickLang } from './langs.js';

/** @type {Record<string, () => Promise<Record<string, string>>>} */
const TABLES = {
  en: () => import('./en.js').then((m) => m.en),
  es: () => import('./es.js').then((m) => m.es),
};

/** @type {Map<string, Promise<Record<string, string>>>} */
const loaded = new Map();

/** The message table of `lang` (fetched once per page). */
export function messages(lang) {
  const code = LANGS.includes(lang) ? lang : 'en';
  let table = loaded.get(code);
  if (!table) {
    table = TABLES[code]();
    table.catch(() => loaded.delete(code));
    loaded.set(code, table);
  }
  return table;
}

/**
 * @typedef {((key: string, params?: Record<string, unknown>) => string) & {
 *   lang: string, num: (n: number) => string, fixed: (x: number, digits: number) => string,
 *   plural: (key: string, n: number, params?: Record<string, unknown>) => string }} Translator
 */

/** A translator for `lang` once its table is in. @returns {Promise<Translator>} */
export async function loadTranslator(lang) {
  const code = pickLang(lang);
  return translator(code, await messages(code));
}

/**
 * @param {string} lang  @param {Record<string, string>} table
 * @returns {Translator}
 */
export function translator(lang, table) {
  const number = new Intl.NumberFormat(lang);
  /** @type {any} */
  const t = (/** @type {string} */ key, /** @type {Record<string, unknown>} */ params = {}) => {
    const text = table[key];
    if (text === undefined) throw new Error(`no message “${key}”`);
    return text.replace(/\{(\w+)\}/g, (whole, name) => {
      if (!(name in params)) return whole;
      const value = params[name];
      return typeof value === 'number' ? number.format(value) : String(value);
    });
  };
  t.lang = lang;
  t.num = (/** @type {number} */ n) => number.format(n);
  t.fixed = (/** @type {number} */ x, /** @type {number} */ digits) => new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
  /** `n`, with the key's `.one` or `.other` form (`{n}` filled). */
  t.plural = (/** @type {string} */ key, /** @type {number} */ n, params = {}) => t(`${key}.${n === 1 ? 'one' : 'other'}`, { n, ...params });
  return t;
}
