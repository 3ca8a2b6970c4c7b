// Every string the playground shows, in English and Spanish (the tables in en/
// and es/ beside this file: core.js, what every panel shares, and one table per
// panel that has its own words, www/i18n/tables.js; the loader's few words in
// loader.js), and the numbers formatted for the language. A playground gets one
// translator `t` and hands it to each part it builds: `t(key, params)` fills
// `{name}` from params (numbers formatted for the language), `t.num(n)`,
// `t.fixed(x, digits)`. Only the language shown is downloaded, and of it only
// the shared table and the tables of the panels shown: `loadTranslator(lang)`,
// then `t.load(panel)` as a panel is built.

import { LANGS, pickLang } from './langs.js';
import { PANELS_WITH_WORDS } from '../core/panels.js';

export { LANGS, LANG_NAMES, pickLang } from './langs.js';

/**
 * The table `part` of language `code`: www/i18n/<code>/<part>.js (the build
 * makes one chunk of each file the pattern matches).
 * @param {string} code  @param {string} part  @returns {Promise<{ messages: Record<string, string> }>}
 */
const importTable = (code, part) => import(`./${code}/${part}.js`);

/** @type {Map<string, Promise<Record<string, string>>>} */
const loaded = new Map();

/** The message table `part` (`core` or a panel's) of `lang` (fetched once per page). */
export function messages(lang, part = 'core') {
  const code = LANGS.includes(lang) ? lang : 'en';
  const key = `${code}/${part}`;
  let table = loaded.get(key);
  if (!table) {
    const known = part === 'core' || PANELS_WITH_WORDS.includes(part);
    table = known ? importTable(code, part).then((m) => m.messages) : Promise.resolve({});
    table.catch(() => loaded.delete(key));
    loaded.set(key, table);
  }
  return table;
}

/**
 * @typedef {((key: string, params?: Record<string, unknown>) => string) & {
 *   lang: string, num: (n: number) => string, fixed: (x: number, digits: number) => string,
 *   plural: (key: string, n: number, params?: Record<string, unknown>) => string,
 *   load: (panel: string) => Promise<void> }} Translator
 */

/** A translator for `lang` once its table is in. @returns {Promise<Translator>} */
export async function loadTranslator(lang) {
  const code = pickLang(lang);
  return translator(code, await messages(code));
}

/**
 * @param {string} lang  @param {Record<string, string>} shared  the table every panel shares
 * @returns {Translator}
 */
export function translator(lang, shared) {
  const number = new Intl.NumberFormat(lang);
  /** The shared table and, as their panels are built, the panels' own (a copy: the cache stays as fetched). */
  const table = { ...shared };
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
  /** Adds the table of `panel` (nothing for a panel without one), for the panel about to be built. */
  t.load = async (/** @type {string} */ panel) => {
    if (PANELS_WITH_WORDS.includes(panel)) Object.assign(table, await messages(lang, panel));
  };
  return t;
}
