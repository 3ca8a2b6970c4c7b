// The loop guard: a learner's WGSL made safe to run before it reaches the GPU.
// An unbounded loop is never stopped on a software adapter (and the page then
// cannot get a new one without a reload), so every invocation gets a budget of
// loop iterations, taken at its entry from the live length (a module-scope
// function of ours reads it, so no name of the learner's can shadow it), and
// every iteration of every `loop`, `for` and `while` spends one: past it the
// loop breaks and reports its line to the probe (binding 15), which the host
// reads after each run. Nested loops and loops in helpers share the one budget,
// so it bounds the invocation's total work, not each loop's.
//
// Two purses, because a loop holding a barrier must break uniformly: loops that
// reach a barrier (themselves or through a call) spend a function-local purse
// that the entry point declares and passes by pointer to the helpers that need
// it (every such helper runs in uniform control flow, or the barrier would not
// compile); all other loops spend a private one. Each invocation thus runs at
// most twice the budget.
//
// The text is lexed as WGSL lexes it: comments end at any of its line breaks,
// identifiers are XID, attributes are tokens. Carriage returns become line
// feeds first (an editor counts both as one line break); the five other line
// breaks of WGSL, which an editor shows on one line, are refused, so the
// compiler's lines are the learner's. Nothing is ever inserted as a new line,
// and `toSource` maps the compiler's columns back. Linear in the source. Pure:
// tests/js/instrument.test.mjs.

import { MEASURE, measureInserts } from './measure.js';

/** The probe's binding and the names a learner may not use. */
export const PROBE_BINDING = 15;
export const RESERVED_PREFIX = '_cp_';
/** The longest source taken (UTF-8 bytes): a learner's module is a few KiB. */
export const MAX_SOURCE_BYTES = 64 * 1024;
/** The most diagnostics of ours listed at once. */
export const MAX_DIAGNOSTICS = 100;

/**
 * The budget of loop iterations an invocation may spend in each purse, at `n`
 * flags: a floor that no runaway on a small case gets far past, plus four
 * passes over the flags, clamped so that a whole grid of about `n` invocations
 * spends at most BUDGET.grid iterations (a few seconds on a software adapter).
 */
export const BUDGET = { floor: 4096, perFlag: 4, grid: 2 ** 27, smallestGrid: 256 };
/** @param {number} n */
export const budget = (n) => BUDGET.floor + Math.min(BUDGET.perFlag * n, Math.floor(BUDGET.grid / Math.max(n, BUDGET.smallestGrid)));

/** Builtins that synchronise a workgroup: a loop reaching one must break uniformly. */
const BARRIERS = new Set(['workgroupBarrier', 'storageBarrier', 'textureBarrier', 'workgroupUniformLoad']);
const LOOPS = new Set(['loop', 'for', 'while']);
/** Line breaks of WGSL that an editor does not break lines at (VT, FF, NEL, LS, PS). */
const ODD_BREAKS = new Set(['\v', '\f', '\u0085', '\u2028', '\u2029']);
const isBreak = (c) => c === '\n' || c === '\r' || ODD_BREAKS.has(c);
const BLANK = /[\t\n\v\f\r \u0085\u200e\u200f\u2028\u2029]/;
const XID_START = /[\p{XID_Start}_]/u;
const XID_CONTINUE = /\p{XID_Continue}/u;

const PROBE = `@group(0) @binding(${PROBE_BINDING}) var<storage, read_write> _cp_probe : array<atomic<u32>, 8>;
var<private> _cp_p : u32;
fn _cp_limit() -> u32 { let n = live.x; return ${BUDGET.floor}u + min(${BUDGET.perFlag}u * min(n, 1u << 24u), ${BUDGET.grid}u / max(n, ${BUDGET.smallestGrid}u)); }
fn _cp_trip(line : u32) { atomicStore(&_cp_probe[0], 1u); _ = atomicCompareExchangeWeak(&_cp_probe[1], 0u, line); }`;

/** Carriage returns as an editor reads them: CR LF and a lone CR are one line feed. @param {string} text */
export const canonical = (text) => text.replace(/\r\n?/g, '\n');

/**
 * @typedef {{ kind: 'ident' | 'number' | 'punct' | 'attr', text: string, at: number }} Token
 * @typedef {{ severity: 'error' | 'warning' | 'info', message: string, line: number, column: number, length: number, key?: string, params?: object }} Diagnostic
 */

/**
 * The tokens of `source` as WGSL lexes them (identifiers, numbers, `@`, and
 * every other character that is not blank as one punctuation token), comments
 * skipped; `unclosed` is the offset of a block comment never closed (WGSL's
 * nest), or -1; `oddBreaks` the offsets of line breaks other than LF and CR.
 * @param {string} source
 */
export function tokens(source) {
  /** @type {Token[]} */
  const out = [];
  /** @type {number[]} */
  const oddBreaks = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (ODD_BREAKS.has(c)) oddBreaks.push(i);
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && !isBreak(source[i])) i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const start = i;
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (ODD_BREAKS.has(source[i])) oddBreaks.push(i);
        if (source[i] === '/' && source[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (source[i] === '*' && source[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      if (depth > 0) return { tokens: out, unclosed: start, oddBreaks };
      continue;
    }
    if (BLANK.test(c)) {
      i++;
      continue;
    }
    const code = /** @type {number} */ (source.codePointAt(i));
    const char = String.fromCodePoint(code);
    if (XID_START.test(char)) {
      const start = i;
      i += char.length;
      for (;;) {
        const next = source.codePointAt(i);
        if (next === undefined || !XID_CONTINUE.test(String.fromCodePoint(next))) break;
        i += next > 0xffff ? 2 : 1;
      }
      out.push({ kind: 'ident', text: source.slice(start, i), at: start });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      // A number with its suffix and exponent (`1e-3`, `0x1p+4`, `15u`) is one token.
      const start = i;
      while (i < n && (/[A-Za-z0-9_.]/.test(source[i]) || ('+-'.includes(source[i]) && /[eEpP]/.test(source[i - 1]) && !/^0[xX][0-9a-fA-F]*[eE]$/.test(source.slice(start, i))))) i++;
      out.push({ kind: 'number', text: source.slice(start, i), at: start });
      continue;
    }
    out.push({ kind: c === '@' ? 'attr' : 'punct', text: char, at: i });
    i += char.length;
  }
  return { tokens: out, unclosed: -1, oddBreaks };
}

/**
 * 1-based line and UTF-16 column of offsets in `source`, lines counted at line
 * feeds (the text is canonical): a table of line starts, searched.
 * @param {string} source
 */
export function placer(source) {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return {
    /** @param {number} offset */
    place(offset) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo + 1, column: offset - starts[lo] + 1 };
    },
    /** The offset where 1-based `line` starts, or -1 past the end. @param {number} line */
    lineStart: (line) => starts[line - 1] ?? -1,
    /** @param {number} line */
    lineEnd: (line) => (line < starts.length ? starts[line] - 1 : source.length),
  };
}

/** 1-based line and UTF-16 column of `offset` in `source`. @param {string} source @param {number} offset */
export const place = (source, offset) => placer(source).place(offset);

/** A `@binding` argument the host accepts: one integer literal below the probe's. */
function plainBinding(toks) {
  if (toks.length !== 1 || toks[0].kind !== 'number') return false;
  const m = /^(0[xX][0-9a-fA-F]+|0|[1-9][0-9]*)[iu]?$/.exec(toks[0].text);
  return m !== null && Number(m[1]) < PROBE_BINDING;
}

/**
 * `source` with every loop spending the invocation's budget and every entry
 * point naming its bindings and the probe, the guard's own code appended after
 * the last line; or the diagnostics that refuse it (too long, a reserved name,
 * a `@binding` other than a literal below 15, an unclosed comment, a line break
 * an editor does not show, a loop without a body), at most MAX_DIAGNOSTICS.
 * `source` in the result is the canonical text that the places refer to.
 * @param {string} text  the learner's module
 * @param {{ name: string, bindings: string[] }[]} entryPoints  the host's entry points and the bindings it binds to each
 * @param {{ maxBytes?: number }} [options]  the longest instrumented text the host takes
 * @returns {{ ok: true, wgsl: string, loops: number, inserts: { at: number, text: string }[], source: string }
 *   | { ok: false, diagnostics: Diagnostic[], source: string }}
 */
export function instrument(text, entryPoints, { maxBytes = Infinity } = {}) {
  const source = canonical(text);
  const bytes = new TextEncoder().encode(source).length;
  if (bytes > MAX_SOURCE_BYTES) return { ok: false, source, diagnostics: [sizeDiagnostic(bytes, MAX_SOURCE_BYTES)] };
  const { place } = placer(source);
  const { tokens: toks, unclosed, oddBreaks } = tokens(source);
  /** @type {Diagnostic[]} */
  const refused = [];
  const refuse = (at, length, key, params) => {
    if (refused.length < MAX_DIAGNOSTICS) refused.push({ severity: 'error', message: '', ...place(at), length, key, params });
  };
  if (unclosed >= 0) refuse(unclosed, 2, 'kernel.refused.comment', {});
  for (const at of oddBreaks) refuse(at, 1, 'kernel.refused.lineBreak', { code: `U+${source.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}` });
  const match = matching(toks);
  for (const [k, tk] of toks.entries()) {
    if (tk.kind === 'ident' && tk.text.startsWith(RESERVED_PREFIX)) refuse(tk.at, tk.text.length, 'kernel.refused.reserved', { name: tk.text, prefix: RESERVED_PREFIX });
    if (tk.kind === 'attr' && toks[k + 1]?.text === 'binding') {
      const open = k + 2;
      const close = toks[open]?.text === '(' ? match[open] : -1;
      let args = close > open ? toks.slice(open + 1, close) : [];
      if (args.at(-1)?.text === ',') args = args.slice(0, -1);
      if (close < 0 || !plainBinding(args)) {
        const end = close >= 0 ? toks[close].at + 1 : toks[k + 1].at + 7;
        refuse(tk.at, end - tk.at, 'kernel.refused.binding', { binding: PROBE_BINDING });
      }
    }
  }
  if (refused.length) return { ok: false, source, diagnostics: refused };

  const shape = structure(toks, match);
  for (const loop of shape.loops) {
    if (loop.open < 0)
      return {
        ok: false,
        source,
        diagnostics: [{ severity: 'error', message: '', ...place(toks[loop.at].at), length: toks[loop.at].text.length, key: 'kernel.refused.loop', params: { loop: toks[loop.at].text } }],
      };
  }

  /** @type {{ at: number, text: string }[]} */
  const inserts = [];
  const entries = [];
  for (const f of shape.fns) {
    if (f.entry) {
      const k = entries.length;
      entries.push(f.name);
      inserts.push({ at: toks[f.body].at + 1, text: ` _cp_enter${k}();${f.needsPurse ? ' var _cp_u = _cp_limit();' : ''}` });
    } else if (f.needsPurse) {
      const close = toks[f.params[1]];
      const bare = f.params[1] === f.params[0] + 1 || toks[f.params[1] - 1].text === ',';
      inserts.push({ at: close.at, text: `${bare ? '' : ', '}_cp_u : ptr<function, u32>` });
    }
  }
  for (const call of shape.calls) {
    if (!call.callee.needsPurse || !call.caller) continue;
    const bare = call.close === call.open + 1 || toks[call.close - 1].text === ',';
    inserts.push({ at: toks[call.close].at, text: `${bare ? '' : ', '}${call.caller.entry ? '&_cp_u' : '_cp_u'}` });
  }
  for (const loop of shape.loops) {
    const line = place(toks[loop.at].at).line;
    const purse = !loop.uniform || !loop.fn ? '_cp_p' : loop.fn.entry ? '_cp_u' : '(*_cp_u)';
    inserts.push({ at: toks[loop.open].at + 1, text: ` if (${purse} == 0u) { _cp_trip(${line}u); break; } ${purse} -= 1u;` });
  }
  const declared = new Set(['live']);
  /** The module's storage variables: what the costs count reads and writes of. */
  const storage = new Set();
  for (let k = 0; k + 1 < toks.length; k++) {
    // `var<storage, read> visible` and `var<uniform> live` at module scope: the name follows the `>`.
    if (toks[k].text !== 'var' || shape.depthAt[k] !== 0) continue;
    let j = k + 1;
    if (toks[j]?.text === '<') while (j < toks.length && toks[j].text !== '>') j++;
    const name = toks[j + (toks[j]?.text === '>' ? 1 : 0)];
    if (name?.kind !== 'ident') continue;
    declared.add(name.text);
    if (toks[k + 2]?.text === 'storage') storage.add(name.text);
  }
  // The schedule and the costs after the guard's own inserts: at one place, the guard's come first.
  inserts.push(...measureInserts(toks, match, shape, storage));
  inserts.sort((a, b) => a.at - b.at);
  const enters = entries.map((name, k) => {
    const entry = entryPoints.find((e) => e.name === name);
    const uses = [...(entry?.bindings ?? []).filter((b) => declared.has(b)), '_cp_probe', '_cp_sched'].map((b) => ` _ = &${b};`).join('');
    return `fn _cp_enter${k}() {${uses} _cp_p = _cp_limit(); }`;
  });

  const parts = [];
  let from = 0;
  for (const ins of inserts) {
    parts.push(source.slice(from, ins.at), ins.text);
    from = ins.at;
  }
  parts.push(source.slice(from), '\n', PROBE, '\n', MEASURE, '\n', enters.join('\n'));
  const wgsl = parts.join('');
  const outBytes = bytes + inserts.reduce((s, ins) => s + ins.text.length, 0) + PROBE.length + MEASURE.length + enters.join('\n').length + 3;
  if (outBytes > maxBytes) return { ok: false, source, diagnostics: [sizeDiagnostic(outBytes, maxBytes, 'kernel.refused.guardedSize')] };
  return { ok: true, wgsl, loops: shape.loops.length, inserts, source };
}

/** @returns {Diagnostic} */
function sizeDiagnostic(bytes, limit, key = 'kernel.refused.size') {
  return { severity: 'error', message: '', line: 1, column: 1, length: 0, key, params: { bytes, limit } };
}

/** For each bracket token, the index of its partner (-1 where unmatched); -1 elsewhere. @param {Token[]} toks */
function matching(toks) {
  const partner = new Int32Array(toks.length).fill(-1);
  const PAIRS = { ')': '(', '}': '{', ']': '[' };
  const stack = [];
  for (const [k, tk] of toks.entries()) {
    if (tk.text === '(' || tk.text === '{' || tk.text === '[') stack.push(k);
    else if (tk.text in PAIRS) {
      // A closer without its opener on top: the text does not compile; leave both unmatched.
      if (stack.length && toks[stack[stack.length - 1]].text === PAIRS[tk.text]) {
        const open = /** @type {number} */ (stack.pop());
        partner[open] = k;
        partner[k] = open;
      }
    }
  }
  return partner;
}

/**
 * @typedef {{ name: string, entry: boolean, params: [number, number], body: number, end: number, needsPurse: boolean, barrier: boolean }} Fn
 * @typedef {{ at: number, open: number, close: number, fn: Fn | null, uniform: boolean }} Loop
 */

/**
 * The functions (their parameter parens and body braces), the loops (keyword,
 * body braces, function), the calls to the module's own functions and the
 * barriers, and which loops and functions reach a barrier: one pass over the
 * tokens and a fixed point over the call graph (WGSL has no recursion).
 * @param {Token[]} toks  @param {Int32Array} match
 */
function structure(toks, match) {
  /** @type {Fn[]} */
  const fns = [];
  const depthAt = new Int32Array(toks.length);
  let depth = 0;
  let sawCompute = false;
  for (let k = 0; k < toks.length; k++) {
    const tk = toks[k];
    depthAt[k] = depth;
    if (tk.text === '{') depth++;
    else if (tk.text === '}') depth = Math.max(depth - 1, 0);
    if (tk.kind === 'attr' && toks[k + 1]?.text === 'compute') sawCompute = true;
    if (tk.kind !== 'ident' || tk.text !== 'fn' || depthAt[k] !== 0) continue;
    const entry = sawCompute;
    sawCompute = false;
    const name = toks[k + 1]?.kind === 'ident' ? toks[k + 1].text : '';
    const open = toks[k + 2]?.text === '(' ? k + 2 : -1;
    const close = open >= 0 ? match[open] : -1;
    if (close < 0) continue;
    let body = close + 1;
    while (body < toks.length && toks[body].text !== '{' && toks[body].text !== ';' && !(toks[body].kind === 'ident' && toks[body].text === 'fn')) body++;
    if (toks[body]?.text !== '{' || match[body] < 0) continue;
    fns.push({ name, entry, params: [open, close], body, end: match[body], needsPurse: false, barrier: false });
  }
  const byName = new Map(fns.map((f) => [f.name, f]));
  /** The function whose body holds token `k`: the spans are sorted and disjoint. */
  let f = 0;
  const fnAt = (k) => {
    while (f < fns.length && fns[f].end < k) f++;
    return f < fns.length && fns[f].body < k ? fns[f] : null;
  };
  /** @type {{ caller: Fn | null, callee: Fn, at: number, open: number, close: number }[]} */
  const calls = [];
  /** @type {{ fn: Fn | null, at: number }[]} */
  const barriers = [];
  /** @type {Loop[]} */
  const loops = [];
  for (let k = 0; k < toks.length; k++) {
    const tk = toks[k];
    if (tk.kind !== 'ident') continue;
    const caller = fnAt(k);
    if (LOOPS.has(tk.text)) {
      let from = k + 1;
      if (tk.text === 'for' && toks[from]?.text === '(') from = match[from] >= 0 ? match[from] + 1 : toks.length;
      let open = from;
      while (open < toks.length && toks[open].text !== '{' && toks[open].text !== ';' && toks[open].text !== '}') open++;
      const found = toks[open]?.text === '{' && match[open] >= 0;
      loops.push({ at: k, open: found ? open : -1, close: found ? match[open] : -1, fn: caller, uniform: false });
      continue;
    }
    if (toks[k + 1]?.text !== '(' || toks[k - 1]?.text === 'fn') continue;
    if (BARRIERS.has(tk.text)) barriers.push({ fn: caller, at: k });
    const callee = byName.get(tk.text);
    if (callee && match[k + 1] >= 0) calls.push({ caller, callee, at: k, open: k + 1, close: match[k + 1] });
  }
  for (const b of barriers) if (b.fn) b.fn.barrier = true;
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of calls) {
      if (c.callee.barrier && c.caller && !c.caller.barrier) c.caller.barrier = changed = true;
    }
  }
  // A loop reaches a barrier when one, or a call to a function that reaches one, lies between its keyword and its end.
  const reaching = [...barriers.map((b) => b.at), ...calls.filter((c) => c.callee.barrier).map((c) => c.at)].sort((a, b) => a - b);
  for (const loop of loops) {
    if (loop.open < 0) continue;
    loop.uniform = firstAtLeast(reaching, loop.at) <= loop.close;
    if (loop.uniform && loop.fn) loop.fn.needsPurse = true;
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of calls) {
      if (c.callee.needsPurse && c.caller && !c.caller.needsPurse) c.caller.needsPurse = changed = true;
    }
  }
  return { fns, loops, calls, depthAt };
}

/** The first value of sorted `list` at least `x` (Infinity if none). @param {number[]} list @param {number} x */
function firstAtLeast(list, x) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo] : Infinity;
}

/**
 * Maps a place in the instrumented text back to the learner's: the same line,
 * the column less what was inserted before it on that line (a place inside an
 * insertion goes to where it was inserted).
 * @param {string} source  the canonical text (`instrument(...).source`)  @param {{ at: number, text: string }[]} inserts  @param {number} line  @param {number} column
 */
export function toSource(source, inserts, line, column) {
  const lines = placer(source);
  const lineStart = lines.lineStart(line);
  if (lineStart < 0) return { line, column };
  const lineEnd = lines.lineEnd(line);
  let col = column;
  for (const ins of inserts) {
    if (ins.at < lineStart || ins.at > lineEnd) continue;
    const here = ins.at - lineStart + 1;
    if (col <= here) break;
    if (col < here + ins.text.length) return { line, column: here };
    col -= ins.text.length;
  }
  return { line, column: col };
}
