// What dist/ holds and how big it may be: used by the build, by `npm pack`'s
// check and by the tests.

/** The gzip budget of all of dist/ (level 9), in bytes. */
export const GZIP_BUDGET = 600 * 1024;

/** The files a documentation site needs: the element (JS, CSS, wasm) and the iframe route. */
export const ELEMENT_FILES = ['compaction-playground.js', 'compaction-playground.css', 'compaction_playground_bg.wasm', 'embed.html', 'embed.css'];

/** The full page, beside them. */
export const PAGE_FILES = ['index.html', 'page.css', 'page.js'];
