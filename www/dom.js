// Tiny DOM helpers: no framework, no inline styles (the page runs under a CSP
// without 'unsafe-inline'), every testable element carries a data-testid.

/**
 * h('button', { class: 'x', 'data-testid': 'run', onclick: fn }, 'Run')
 * Attributes starting with `on` become listeners; `false`/`null` attributes are
 * skipped; children may be strings, nodes, arrays or null.
 */
export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'text') {
      el.textContent = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
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

/** 1234567 -> "1 234 567" (thin spaces, readable and locale-neutral). */
export function grouped(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
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
