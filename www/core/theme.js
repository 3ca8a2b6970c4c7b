// theme="auto|light|dark". Auto follows the host page: the computed
// color-scheme around the element (docs themes set it), else the colour of the
// nearest opaque background behind it, else the OS. One observer of the
// document's root and body attributes serves every element of the page.

export const THEMES = ['auto', 'light', 'dark'];

const OS_DARK = '(prefers-color-scheme: dark)';

/** 'light' or 'dark' for `host` with its `theme` attribute value. */
export function resolveTheme(host, setting) {
  if (setting === 'light' || setting === 'dark') return setting;
  const around = parentOf(host);
  if (around) {
    const scheme = getComputedStyle(around).colorScheme.split(/\s+/);
    const dark = scheme.includes('dark');
    const light = scheme.includes('light');
    if (dark !== light) return dark ? 'dark' : 'light';
    for (let el = around; el; el = parentOf(el)) {
      const rgba = parseColor(getComputedStyle(el).backgroundColor);
      if (rgba && rgba[3] > 0.5) return luminance(rgba) < 0.4 ? 'dark' : 'light';
    }
  }
  return matchMedia(OS_DARK).matches ? 'dark' : 'light';
}

/** The element's parent, across shadow roots. */
function parentOf(el) {
  if (el.parentElement) return el.parentElement;
  const root = el.parentNode;
  return root instanceof ShadowRoot ? root.host : null;
}

function parseColor(text) {
  const m = /^rgba?\(([^)]+)\)$/.exec(text.trim());
  if (!m) return null;
  const parts = m[1]
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  if (parts.length < 3 || parts.some((v) => Number.isNaN(v))) return null;
  return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
}

/** Relative luminance (WCAG) of an sRGB colour, 0…1. */
function luminance(/** @type {number[]} */ [r, g, b]) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

// ------------------------------------------------------------- watching --
const watchers = new Set();
let observer = null;
let media = null;
let frame = 0;
let late = 0;

function recheckAll() {
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(() => {
    for (const w of watchers) w();
  });
  // Themes often fade their background: look again once it has settled.
  clearTimeout(late);
  late = setTimeout(() => {
    for (const w of watchers) w();
  }, 400);
}

/**
 * Calls `onChange()` whenever the host's theme may have changed (an attribute
 * of <html> or <body>, the OS scheme). Returns the function that stops it.
 */
export function watchTheme(onChange) {
  watchers.add(onChange);
  if (!observer) {
    observer = new MutationObserver(recheckAll);
    observer.observe(document.documentElement, { attributes: true });
    if (document.body) observer.observe(document.body, { attributes: true });
    media = matchMedia(OS_DARK);
    media.addEventListener('change', recheckAll);
  }
  return () => {
    watchers.delete(onChange);
    if (watchers.size === 0 && observer) {
      observer.disconnect();
      media.removeEventListener('change', recheckAll);
      observer = null;
      media = null;
      cancelAnimationFrame(frame);
      clearTimeout(late);
    }
  };
}
