// An exercise a docs author puts in a page: the element's `kernel`,
// `editable`, `check`, `cases` and `kernel-src` attributes and an inline
// `<script type="text/wgsl">` child, read into what the panel starts from.
// The template is the shipped kernel with the editable functions' bodies left
// as a TODO, so it never drifts from the library; the rest stays read-only.
// Pure: tests/js/exercise.test.mjs.

import { locate } from '../shared/wgsl.js';

/** The sizes a `cases` attribute may name: up to the ladder's largest. */
export const MAX_CASE_FLAGS = 65_537;
export const CHECKS = ['exact', 'unordered', 'none'];

/**
 * The exercise the attributes ask for; `errors`: `{ key, params }` of what
 * was refused (each said, the rest kept).
 * @param {Record<string, string | null>} attrs  the element's attributes (`kernel-script`: its script child's text)
 * @param {{ module: string, wgsl: string }[]} facts  the kernels (the wasm's kernelFacts())
 */
export function readExercise(attrs, facts) {
  /** @type {{ key: string, params: object }[]} */
  const errors = [];
  const names = facts.map((f) => f.module);
  let module = null;
  if (attrs.kernel) {
    if (names.includes(attrs.kernel)) module = attrs.kernel;
    else errors.push({ key: 'kernel.unknownKernelAttr', params: { name: attrs.kernel, kernels: names.join(', ') } });
  }
  let check = null;
  if (attrs.check) {
    if (CHECKS.includes(attrs.check)) check = attrs.check;
    else errors.push({ key: 'kernel.badCheck', params: { check: attrs.check, checks: CHECKS.join(', ') } });
  }
  let cases = null;
  if (attrs.cases) {
    const sizes = attrs.cases.split(/[\s,]+/).filter(Boolean);
    const bad = sizes.filter((s) => !/^\d+$/.test(s) || Number(s) > MAX_CASE_FLAGS);
    if (bad.length || !sizes.length) errors.push({ key: 'kernel.badCases', params: { cases: attrs.cases.slice(0, 80), max: MAX_CASE_FLAGS } });
    else cases = [...new Set(sizes.map(Number))];
  }
  const editable = (attrs.editable ?? '').split(/[\s,]+/).filter(Boolean);
  return { module, check, cases, editable, script: attrs['kernel-script'] ?? null, src: attrs['kernel-src'] ?? null, errors };
}

/**
 * The text an exercise starts from: `given` (an inline script or a fetched
 * file) spliced into the shipped text where it holds only editable functions,
 * or taken whole; without it, the shipped text with the editable bodies left
 * as a TODO. Also the character ranges the learner may not change (all but
 * the editable functions; none without `editable`), and the editable names
 * not found (said).
 * @param {string} shipped  @param {string[]} editable  @param {string | null} given
 */
export function startingText(shipped, editable, given) {
  let text = shipped;
  const missing = editable.filter((fn) => !locate(shipped, fn));
  const wanted = editable.filter((fn) => !missing.includes(fn));
  if (given?.trim()) {
    const fns = [...given.matchAll(/^\s*fn\s+(\w+)\s*\(/gm)].map((m) => m[1]);
    const onlyEditable = wanted.length > 0 && fns.length > 0 && fns.every((f) => wanted.includes(f)) && !/@\s*(group|binding|compute)\b/.test(given);
    if (onlyEditable) {
      for (const fn of fns) text = replaceFunction(text, fn, functionText(given, fn));
    } else text = given;
  } else {
    for (const fn of wanted) text = replaceFunction(text, fn, todoBody(functionText(shipped, fn)));
  }
  return { text, locked: wanted.length ? lockedRanges(text, wanted) : [], missing };
}

/** The text of `fn name(…) { … }` in `wgsl`, from its head to its closing brace (its comments above left out). */
export function functionText(wgsl, name) {
  const at = locate(wgsl, name);
  if (!at) return '';
  return wgsl.split('\n').slice(at.head, at.end).join('\n');
}

/** `wgsl` with function `name` (head to closing brace) replaced by `replacement`. */
function replaceFunction(wgsl, name, replacement) {
  const at = locate(wgsl, name);
  if (!at || !replacement) return wgsl;
  const lines = wgsl.split('\n');
  return [...lines.slice(0, at.head), replacement, ...lines.slice(at.end)].join('\n');
}

/** A function's head kept, its body a TODO (that still compiles: one returning a value returns the zero of its type). */
function todoBody(fnText) {
  const open = fnText.indexOf('{');
  const returns = /->\s*(?:@\w+\([^)]*\)\s*)*([^{]+?)\s*$/.exec(fnText.slice(0, open))?.[1];
  return `${fnText.slice(0, open + 1)}\n  // TODO: write this function.\n${returns ? `  return ${returns}();\n` : ''}}`;
}

/** Character ranges outside the editable functions (head to closing brace, comments above included). */
function lockedRanges(text, editable) {
  const lines = text.split('\n');
  const starts = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  const open = editable
    .map((fn) => locate(text, fn))
    .filter(Boolean)
    .map((r) => ({ from: starts[r.start], to: r.end < lines.length ? starts[r.end] : text.length }))
    .sort((a, b) => a.from - b.from);
  const locked = [];
  let from = 0;
  for (const r of open) {
    if (r.from > from) locked.push({ from, to: r.from });
    from = Math.max(from, r.to);
  }
  if (from < text.length) locked.push({ from, to: text.length });
  return locked;
}

/** Whether `url` may be fetched for `kernel-src`: same origin as the page. @param {string} url  @param {string} base */
export function sameOrigin(url, base) {
  try {
    return new URL(url, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}
