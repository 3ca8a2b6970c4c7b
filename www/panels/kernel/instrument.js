// The loop guard: a learner's WGSL made safe to run before it reaches the GPU.
// An unbounded loop is never stopped on a software adapter (and the page then
// cannot get a new one without a reload), so every `loop`, `for` and `while`
// gets a counter: past its limit the loop breaks and reports its line to the
// probe (binding 15), which the host reads after each run. Each entry point
// also names its bindings (`_ = &visible;`), so that the layout the browser
// derives has every binding the host binds, the probe included. Nothing is
// ever inserted as a new line: the compiler's lines are the learner's lines,
// and `toSource` maps its columns back. Pure: tests/js/instrument.test.mjs.

/** The probe's binding and the names a learner may not use. */
export const PROBE_BINDING = 15;
export const RESERVED_PREFIX = '_cp_';

/**
 * Iterations each invocation's loop may run, by nesting depth (WGSL
 * expressions). The outer limit follows the case, from the live uniform every
 * one of these kernels binds (`live.x`, the flag count, shaders/live.wgsl): a
 * serial loop over all the flags fits it four times over, and a runaway loop on
 * a small case stops at once. Nested loops multiply, so inner ones get
 * constants. A uniform keeps the break in uniform control flow (the kernels'
 * barriers sit inside loops).
 */
export const LOOP_LIMITS = ['max(4096u, 4u * live.x)', '4096u', '256u'];

const PROBE = `@group(0) @binding(${PROBE_BINDING}) var<storage, read_write> _cp_probe : array<atomic<u32>, 2>;
fn _cp_trip(line : u32) { atomicStore(&_cp_probe[0], 1u); atomicMax(&_cp_probe[1], line); }`;

/**
 * @typedef {{ kind: 'ident' | 'punct' | 'attr', text: string, at: number }} Token
 * @typedef {{ severity: 'error' | 'warning' | 'info', message: string, line: number, column: number, length: number, key?: string, params?: object }} Diagnostic
 */

/**
 * The tokens of `source` that matter here (identifiers, `@`, braces, parens,
 * `;`), comments and the rest skipped; `unclosed` is the offset of a block
 * comment never closed (WGSL's nest), or -1.
 * @param {string} source
 */
export function tokens(source) {
  /** @type {Token[]} */
  const out = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const start = i;
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (source[i] === '/' && source[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (source[i] === '*' && source[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      if (depth > 0) return { tokens: out, unclosed: start };
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < n && /[A-Za-z0-9_]/.test(source[i])) i++;
      out.push({ kind: 'ident', text: source.slice(start, i), at: start });
      continue;
    }
    if (/[0-9]/.test(c)) {
      // Numbers (with suffixes and exponents) are one run of word characters.
      while (i < n && /[A-Za-z0-9_.]/.test(source[i])) i++;
      continue;
    }
    if ('{}();@'.includes(c)) out.push({ kind: c === '@' ? 'attr' : 'punct', text: c, at: i });
    i++;
  }
  return { tokens: out, unclosed: -1 };
}

/** 1-based line and UTF-16 column of `offset` in `source`. @param {string} source @param {number} offset */
export function place(source, offset) {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (source[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * `source` with every loop guarded and every entry point naming its bindings
 * and the probe, the probe appended after the last line; or the diagnostics
 * that refuse it (a reserved name, binding 15, an unclosed comment).
 * @param {string} source  the learner's module
 * @param {{ name: string, bindings: string[] }[]} entryPoints  the host's entry points and the bindings it binds to each
 * @returns {{ ok: true, wgsl: string, loops: number, inserts: { at: number, text: string }[] } | { ok: false, diagnostics: Diagnostic[] }}
 */
export function instrument(source, entryPoints) {
  const { tokens: toks, unclosed } = tokens(source);
  /** @type {Diagnostic[]} */
  const refused = [];
  const refuse = (at, length, key, params) => refused.push(diagnostic(source, at, length, key, params));
  if (unclosed >= 0) refuse(unclosed, 2, 'kernel.refused.comment', {});
  for (const tk of toks) {
    if (tk.kind === 'ident' && tk.text.startsWith(RESERVED_PREFIX)) refuse(tk.at, tk.text.length, 'kernel.refused.reserved', { name: tk.text, prefix: RESERVED_PREFIX });
  }
  for (const m of source.matchAll(/@\s*binding\s*\(\s*(\d+)u?\s*\)/g)) {
    if (Number(m[1]) === PROBE_BINDING && isAttribute(toks, m.index)) refuse(m.index, m[0].length, 'kernel.refused.binding', { binding: PROBE_BINDING });
  }
  if (refused.length) return { ok: false, diagnostics: refused };

  const declared = new Set();
  for (let k = 0; k + 1 < toks.length; k++) {
    // `var<storage, read> visible` and `var<uniform> live`: the name follows the `>`.
    if (toks[k].text === 'var') {
      const close = source.indexOf('>', toks[k].at);
      const next = toks.find((t) => t.at > close && t.kind === 'ident');
      if (close >= 0 && next) declared.add(next.text);
    }
  }
  declared.add('live');

  /** @type {{ at: number, text: string }[]} */
  const inserts = [];
  let loops = 0;
  /** The tokens that open a loop's body, and the brace depth of each open one. */
  const bodyTokens = new Set();
  const loopBodies = [];
  let depth = 0;
  /** @type {string | null} an entry point whose body's `{` is next */
  let pendingEntry = null;
  let sawCompute = false;
  for (let k = 0; k < toks.length; k++) {
    const tk = toks[k];
    if (tk.kind === 'attr' && toks[k + 1]?.text === 'compute') sawCompute = true;
    if (tk.kind === 'ident' && tk.text === 'fn') {
      const name = toks[k + 1]?.text ?? '';
      pendingEntry = sawCompute ? name : null;
      sawCompute = false;
      continue;
    }
    if (tk.kind === 'ident' && (tk.text === 'loop' || tk.text === 'for' || tk.text === 'while')) {
      // A `for`'s body follows its header; a `loop`'s and a `while`'s is the
      // next brace (WGSL expressions hold none).
      const from = tk.text === 'for' ? afterParens(toks, k + 1) : k + 1;
      const open = toks.findIndex((t, j) => j >= from && t.text === '{');
      if (open < 0) return { ok: false, diagnostics: [diagnostic(source, tk.at, tk.text.length, 'kernel.refused.loop', { loop: tk.text })] };
      const id = loops++;
      const limit = LOOP_LIMITS[Math.min(loopBodies.length, LOOP_LIMITS.length - 1)];
      const line = place(source, tk.at).line;
      inserts.push({ at: tk.at, text: `var _cp_n${id} = 0u; ` });
      inserts.push({ at: toks[open].at + 1, text: ` _cp_n${id} += 1u; if (_cp_n${id} > ${limit}) { _cp_trip(${line}u); break; }` });
      bodyTokens.add(open);
      continue;
    }
    if (tk.text === '{') {
      depth++;
      if (bodyTokens.has(k)) loopBodies.push(depth);
      if (pendingEntry !== null) {
        const entry = entryPoints.find((e) => e.name === pendingEntry);
        const names = (entry?.bindings ?? []).filter((b) => declared.has(b));
        const uses = [...names, '_cp_probe'].map((b) => ` _ = &${b};`).join('');
        inserts.push({ at: tk.at + 1, text: uses });
        pendingEntry = null;
      }
    } else if (tk.text === '}') {
      if (loopBodies[loopBodies.length - 1] === depth) loopBodies.pop();
      depth--;
    }
  }
  inserts.sort((a, b) => a.at - b.at);
  let wgsl = '';
  let from = 0;
  for (const ins of inserts) {
    wgsl += source.slice(from, ins.at) + ins.text;
    from = ins.at;
  }
  wgsl += `${source.slice(from)}\n${PROBE}`;
  return { ok: true, wgsl, loops, inserts };
}

/** The token index after the parenthesised group starting at `k` (a `for`'s header). */
function afterParens(toks, k) {
  if (toks[k]?.text !== '(') return k;
  let depth = 0;
  for (let j = k; j < toks.length; j++) {
    if (toks[j].text === '(') depth++;
    else if (toks[j].text === ')' && --depth === 0) return j + 1;
  }
  return toks.length;
}

/** Whether an `@` at `offset` is an attribute (in a comment it is no token). */
function isAttribute(toks, offset) {
  return toks.some((t) => t.kind === 'attr' && t.at === offset);
}

/** @returns {Diagnostic} */
function diagnostic(source, at, length, key, params) {
  const { line, column } = place(source, at);
  return { severity: 'error', message: '', line, column, length, key, params };
}

/**
 * Maps a place in the instrumented text back to the learner's: the same line,
 * the column less what was inserted before it on that line (a place inside an
 * insertion goes to where it was inserted).
 * @param {string} source  @param {{ at: number, text: string }[]} inserts  @param {number} line  @param {number} column
 */
export function toSource(source, inserts, line, column) {
  const lineStart = lineOffset(source, line);
  if (lineStart < 0) return { line, column };
  const lineEnd = source.indexOf('\n', lineStart) < 0 ? source.length : source.indexOf('\n', lineStart);
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

/** The offset where 1-based `line` starts, or -1 past the end. */
function lineOffset(source, line) {
  let at = 0;
  for (let l = 1; l < line; l++) {
    at = source.indexOf('\n', at);
    if (at < 0) return -1;
    at++;
  }
  return at;
}
