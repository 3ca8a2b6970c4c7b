// The languages the playground speaks, and which one a page gets: the
// element's choice, else the browser's, else English. Small enough for the
// loader, which picks the language before any table is downloaded.

export const LANGS = ['en', 'es'];
/** Each language in its own words, for the switch. */
export const LANG_NAMES = { en: 'English', es: 'Español' };

/** The first supported language among `requested` and the browser's preferences, else English. */
export function pickLang(requested, preferred = globalThis.navigator?.languages ?? []) {
  for (const tag of [requested, ...preferred]) {
    const base = String(tag ?? '')
      .trim()
      .toLowerCase()
      .split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}
