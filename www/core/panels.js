// Which parts of the playground show (`panels="scan result"`): a docs page
// showing one idea embeds one panel. Pure: no DOM here.

/** Every panel, in page order. */
export const PANELS = ['editor', 'result', 'draw', 'scan', 'tiles', 'atomic', 'order', 'bench', 'code'];

/**
 * The methods that show the tile view instead of the scan stepper. The wasm's
 * layout() says it too (`usesTiles`), but the loader reserves an element's
 * size before the wasm is there; tests/js/panels.test.mjs checks the two agree.
 */
export const TILE_METHODS = ['lookback', 'lookback-bits', 'tile-atomic'];

/** Each panel's card class: the two-column layout places the first two (www/loader/base.css). */
export const CARD_CLASS = {
  editor: 'flags-card',
  result: 'compact-card',
  draw: 'draw-card',
  scan: 'stepper-card',
  tiles: 'tiles-card',
  atomic: 'atomic-card',
  order: 'order-card',
  bench: 'bench-card',
  code: 'code-card',
};

/**
 * `panels` as written in the attribute or the hash: names separated by spaces
 * or commas. Empty or missing: every panel. Returns `{ panels: Set, unknown: [] }`.
 */
export function parsePanels(text) {
  const names = String(text ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (names.length === 0) return { panels: new Set(PANELS), unknown: [] };
  const unknown = names.filter((n) => !PANELS.includes(n));
  const panels = new Set(names.filter((n) => PANELS.includes(n)));
  return { panels: panels.size ? panels : new Set(PANELS), unknown };
}

/** The attribute form: `null` when every panel shows. */
export function formatPanels(panels) {
  const list = PANELS.filter((p) => panels.has(p));
  return list.length === PANELS.length ? null : list.join(' ');
}

/**
 * What shows for `panels` with a method: the scan stepper and the tile view
 * share a place when both are wanted (the tile view for the single-pass
 * methods); either one alone shows whatever the method.
 */
export function visiblePanels(panels, tileMethod) {
  const both = panels.has('scan') && panels.has('tiles');
  return {
    editor: panels.has('editor'),
    result: panels.has('result'),
    draw: panels.has('draw'),
    scan: panels.has('scan') && !(both && tileMethod),
    tiles: panels.has('tiles') && (!both || tileMethod),
    atomic: panels.has('atomic'),
    order: panels.has('order'),
    bench: panels.has('bench'),
    code: panels.has('code'),
  };
}
