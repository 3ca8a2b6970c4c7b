// A stylesheet from CSS text, for a shadow root's adoptedStyleSheets: the
// element's styles travel inside its modules (the build inlines each .css file
// as text), so no bundler sees a stylesheet to link into the host page. CSP:
// constructable sheets need no 'unsafe-inline'.

/** @param {string} text */
export function sheetOf(text) {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(text);
  return sheet;
}

/** A getter of one sheet per page for `text`, made on first use. @param {string} text */
export function lazySheet(text) {
  /** @type {CSSStyleSheet | null} */
  let sheet = null;
  return () => (sheet ??= sheetOf(text));
}
