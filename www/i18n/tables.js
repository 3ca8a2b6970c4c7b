// Which message tables there are: the one every panel shares (`core`) and the
// panels' own, each fetched with its panel, so that a page showing one panel
// does not download every panel's words. A pure list: the page's i18n.js and
// the build's account of what a page fetches (scripts/dist-files.mjs) read it.

/** The panels with a table of their own (their keys start with the panel's name). */
export const PANEL_TABLES = ['tiles', 'scan', 'atomic', 'order', 'bench'];

/** The tables a page showing `panels` fetches: the shared one, then the panels' own. */
export function tablesFor(panels) {
  return ['core', ...PANEL_TABLES.filter((p) => panels.includes(p))];
}
