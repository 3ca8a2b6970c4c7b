// Which message tables there are: the one every panel shares (`core`) and the
// panels' own (their rows say `words`, www/core/panels.js), each fetched with
// its panel, so that a page showing one panel does not download every panel's
// words. The page's i18n.js and the build's account of what a page fetches
// (scripts/dist-files.mjs) read it.

import { PANELS_WITH_WORDS } from '../core/panels.js';

/** The tables a page showing `panels` fetches: the shared one, then the panels' own. @param {string[]} panels */
export function tablesFor(panels) {
  return ['core', ...PANELS_WITH_WORDS.filter((p) => panels.includes(p))];
}
