// Tiny DOM helpers: no framework, no inline styles (the page runs under a CSP
// without 'unsafe-inline'), every testable element carries a data-testid.
// A listener's error (thrown, or a rejected promise it returns) is sent up as a
// `cp-error` event, which the playground shows in its own status line: the
// element reports its own errors, and never listens on the window for them.

/**
 * h('button', { class: 'x', 'data-testid': 'run', onclick: fn }, 'Run')
 * Attributes starting with `on` become listeners; `false`/`null` attributes are
 * skipped; children may be strings, nodes, arrays or null.
 */
export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith('svg:') ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), guarded(value, el));
    } else if (key === 'text') {
      el.textContent = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** `fn`, with its errors reported from `el` (see the top of this file). */
export function guarded(fn, el) {
  const report = (error) => el.dispatchEvent(new CustomEvent('cp-error', { bubbles: true, detail: error }));
  return (...args) => {
    try {
      const result = fn(...args);
      if (typeof result?.catch === 'function') result.catch(report);
      return result;
    } catch (error) {
      report(error);
      return undefined;
    }
  };
}

export function svg(tag, attrs = {}, ...children) {
  return h(`svg:${tag}`, attrs, ...children);
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces all children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Sets `el`'s text, with `code` between backticks shown as <code>. */
export function richText(el, text) {
  const parts = String(text).split('`');
  replace(
    el,
    parts.map((part, k) => (k % 2 === 1 ? h('code', {}, part) : part)),
  );
  return el;
}

/** A u32 hash as 8 hex digits. */
export function hex32(n) {
  return (n >>> 0).toString(16).padStart(8, '0');
}

let uid = 0;
/** A document-unique id, so that several embedded playgrounds never clash. */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** Puts a scroll box in the tab order while (and only while) its content overflows it. */
function syncScrollStop(el) {
  const scrolls = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
  // A box that does not scroll is no stop: its content is read in the flow, and every Tab counts.
  if (scrolls && el.tabIndex !== 0) el.tabIndex = 0;
  else if (!scrolls && el.hasAttribute('tabindex')) el.removeAttribute('tabindex');
}

/**
 * A box that scrolls, reachable by keyboard (WCAG 2.1.1): in the tab order
 * while its content overflows it, with a name; a region unless it has a role
 * of its own (a list, a table). Returns `el`.
 * @template {HTMLElement} E
 * @param {E} el
 * @param {string} name
 * @returns {E}
 */
export function scrollBox(el, name) {
  if (!['ol', 'ul', 'table'].includes(el.localName) && !el.hasAttribute('role')) el.setAttribute('role', 'region');
  el.setAttribute('aria-label', name);
  if (el.dataset.scrollBox) return el;
  el.dataset.scrollBox = '';
  // New content changes what overflows without resizing the box.
  const content = new MutationObserver(() => requestAnimationFrame(() => syncScrollStop(el)));
  // Removed from the page (a panel re-rendered, the element left), the box stops
  // being rendered, which is itself a resize: both observers go with it.
  const size = new ResizeObserver(() => {
    if (el.isConnected) syncScrollStop(el);
    else {
      size.disconnect();
      content.disconnect();
    }
  });
  size.observe(el);
  content.observe(el, { childList: true, subtree: true, characterData: true });
  return el;
}

/** The longest text an alert shows of a value it quotes. */
export const SHOWN_CHARS = 600;

/**
 * `text` fit to show in a message: cut to `max` characters, control and
 * bidirectional-override characters written as `\u{…}` (a quoted value cannot
 * reorder or hide the words around it).
 */
export function shown(text, max = SHOWN_CHARS) {
  const s = String(text);
  const cut = s.length > max ? `${s.slice(0, max)}…` : s;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters escaped are control characters
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u{${c.charCodeAt(0).toString(16).padStart(4, '0')}}`);
}
