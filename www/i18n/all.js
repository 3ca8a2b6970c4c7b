// Every message of a language, shared and per panel, in one table: for the
// tests and tools that want all of it (the page fetches core.js and each
// shown panel's own). Node only: it awaits every table at import.

import { LANGS } from './langs.js';
import { PANELS_WITH_WORDS } from '../core/panels.js';

/** @param {string} lang  @returns {Promise<Record<string, string>>} */
async function all(lang) {
  const parts = await Promise.all(['core', ...PANELS_WITH_WORDS].map((part) => import(`./${lang}/${part}.js`)));
  return Object.assign({}, ...parts.map((m) => m.messages));
}

/** `{ en: {...}, es: {...} }`: every message of every language. */
export const MESSAGES = Object.fromEntries(await Promise.all(LANGS.map(async (lang) => [lang, await all(lang)])));
