// One tab stop per grid (the WAI-ARIA roving tabindex): of a container's
// items only one is in the tab order; arrows, Home/End and PageUp/PageDown
// move inside, so Tab leaves the grid at once however many cells it has. The
// stepper's diagram and the tile view use it; the owner re-renders the items
// at every step and calls refresh(), which keeps the same cell (by key) and
// the focus when the grid had it.

/** Cells PageUp/PageDown move by. */
const PAGE = 10;

export class Roving {
  /**
   * @param {HTMLElement} container  where the items live (keys are listened for here)
   * @param {{ items: () => HTMLElement[], rowOf: (item: HTMLElement) => Element, keyOf: (item: HTMLElement) => string }} options
   *   items: the navigable items in reading order; rowOf: the row an item is in;
   *   keyOf: a name that survives a re-render (the same cell of the next step).
   */
  constructor(container, { items, rowOf, keyOf }) {
    this.container = container;
    this.items = items;
    this.rowOf = rowOf;
    this.keyOf = keyOf;
    /** @type {string | null} the key of the item in the tab order */
    this.key = null;
    container.addEventListener('keydown', (e) => this.keyDown(e));
    container.addEventListener('focusin', (e) => {
      const item = this.itemOf(e.target);
      if (item) this.select(item);
    });
  }

  itemOf(target) {
    const all = this.items();
    let el = target;
    while (el && el !== this.container) {
      if (all.includes(el)) return el;
      el = el.parentElement;
    }
    return null;
  }

  /** Whether the focus is on one of the items now. */
  hasFocus() {
    const active = /** @type {Document | ShadowRoot} */ (this.container.getRootNode()).activeElement;
    return Boolean(active && this.container.contains(active));
  }

  /** After a re-render: the same item (or the first) is the tab stop; `focus` puts the focus back on it. */
  refresh(focus = false) {
    const all = this.items();
    if (!all.length) return;
    const item = all.find((el) => this.keyOf(el) === this.key) ?? all[0];
    this.select(item, all);
    if (focus) item.focus({ preventScroll: false });
  }

  select(item, all = this.items()) {
    for (const el of all) el.tabIndex = el === item ? 0 : -1;
    this.key = this.keyOf(item);
  }

  move(item) {
    this.select(item);
    item.focus();
    item.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }

  keyDown(e) {
    if (e.altKey || e.metaKey) return;
    const item = this.itemOf(e.target);
    if (!item) return;
    const all = this.items();
    const row = all.filter((el) => this.rowOf(el) === this.rowOf(item));
    const k = row.indexOf(item);
    const within = (j) => row[Math.max(0, Math.min(row.length - 1, j))];
    let next = null;
    switch (e.key) {
      case 'ArrowRight':
        next = within(k + 1);
        break;
      case 'ArrowLeft':
        next = within(k - 1);
        break;
      case 'PageDown':
        next = within(k + PAGE);
        break;
      case 'PageUp':
        next = within(k - PAGE);
        break;
      case 'Home':
        next = e.ctrlKey ? all[0] : row[0];
        break;
      case 'End':
        next = e.ctrlKey ? all[all.length - 1] : row[row.length - 1];
        break;
      case 'ArrowDown':
      case 'ArrowUp':
        next = this.vertical(item, all, e.key === 'ArrowDown' ? 1 : -1) ?? item;
        break;
      default:
        return;
    }
    // Used here: the stepper's arrow shortcuts do not also step, and the key stays inside the element (www/loader/keys.js).
    e.preventDefault();
    if (next !== item) this.move(next);
  }

  /** The item of the next row (dir 1) or the previous one (-1) nearest to `item` across. */
  vertical(item, all, dir) {
    const rows = [];
    for (const el of all) {
      const r = this.rowOf(el);
      if (!rows.includes(r)) rows.push(r);
    }
    const target = rows[rows.indexOf(this.rowOf(item)) + dir];
    if (!target) return null;
    const box = item.getBoundingClientRect();
    const x = box.left + box.width / 2;
    let best = null;
    let distance = Infinity;
    for (const el of all) {
      if (this.rowOf(el) !== target) continue;
      const b = el.getBoundingClientRect();
      const d = Math.abs(b.left + b.width / 2 - x);
      if (d < distance) {
        best = el;
        distance = d;
      }
    }
    return best;
  }
}

/** A toolbar whose `selector` items take one tab stop together, arrows between them. */
export function oneStop(bar, selector) {
  new Roving(bar, { items: () => [...bar.querySelectorAll(selector)], rowOf: () => bar, keyOf: (el) => el.dataset.testid ?? el.textContent ?? '' }).refresh();
}
