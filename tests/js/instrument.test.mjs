// The loop guard (www/panels/kernel/instrument.js): every loop spends one
// budget an invocation (barrier loops a uniform purse passed by pointer, the
// others a private one), the text lexed as WGSL lexes it, lines kept, columns
// mapped back, what the host cannot take refused, in time linear in the text.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { BUDGET, budget, instrument, MAX_DIAGNOSTICS, MAX_SOURCE_BYTES, PROBE_BINDING, toSource, tokens } from '../../www/panels/kernel/instrument.js';

const ENTRY = [{ name: 'k', bindings: ['visible', 'indices', 'live'] }];
const MODULE = (body, before = '') => `@group(0) @binding(0) var<storage, read> visible : array<u32>;
@group(0) @binding(1) var<storage, read_write> indices : array<u32>;${before}
@compute @workgroup_size(64)
fn k(@builtin(local_invocation_index) li : u32) {
${body}
}`;

const lines = (text) => text.split('\n');
const guard = (purse, line) => `if (${purse} == 0u) { _cp_trip(${line}u); break; } ${purse} -= 1u;`;

test('every loop form spends the private purse at the top of its body, on the same lines; the entry point sets the budget and names its bindings', () => {
  const source = MODULE(`  var i = 0u;
  loop { i += 1u; if (i > 3u) { break; } continuing { i += 0u; } }
  for (var j = 0u; j < (li + 1u); j++) {
    while (i < j) { i += 1u; }
  }`);
  const r = instrument(source, ENTRY);
  assert.equal(r.ok, true);
  assert.equal(r.loops, 3);
  const out = lines(r.wgsl);
  for (const [k, line] of lines(source).entries()) {
    if (!/loop|for|while|fn k|^}$/.test(line)) assert.equal(out[k], line, `line ${k + 1} unchanged`);
  }
  // The entry point's counts go to the probe as it ends.
  assert.equal(out[lines(source).length - 1], '_cp_flush(); }');
  assert.equal(out[5], `  loop { ${guard('_cp_p', 6)} i += 1u; if (i > 3u) { break; } continuing { i += 0u; } }`);
  assert.equal(out[6], `  for (var j = 0u; j < (li + 1u); j++) { ${guard('_cp_p', 7)}`);
  assert.equal(out[7], `    while (i < j) { ${guard('_cp_p', 8)} i += 1u; }`);
  assert.match(out[3], /\) \{ _cp_enter0\(\);$/);
  const appended = out.slice(lines(source).length).join('\n');
  assert.match(appended, /fn _cp_enter0\(\) \{ _ = &visible; _ = &indices; _ = &live; _ = &_cp_probe; _ = &_cp_sched; _cp_p = _cp_limit\(\); \}/);
  assert.match(appended, new RegExp(`@binding\\(${PROBE_BINDING}\\) var<storage, read_write> _cp_probe`));
  // The budget reads the module's own `live` in a function of ours: a learner's `let live` cannot shadow it.
  assert.match(appended, /fn _cp_limit\(\) -> u32 \{ let n = live\.x;/);
});

test('loops that reach a barrier spend a uniform purse: declared by the entry point, passed by pointer to the helpers that need it', () => {
  const source = `var<workgroup> t : array<u32, 64>;
fn sum(n : u32) -> u32 { var s = 0u; for (var i = 0u; i < n; i++) { workgroupBarrier(); s += t[i]; } return s; }
fn outer(a : u32,) -> u32 { return sum(a,) + 1u; }
fn leaf() -> u32 { var s = 0u; loop { s += 1u; if (s > 2u) { break; } } return s; }
fn sync() { workgroupBarrier(); }
@compute @workgroup_size(64)
fn k(@builtin(local_invocation_index) li : u32) {
  var x = 0u;
  while (x < li) { x += leaf(); }
  for (var s = 0u; s < 4u; s++) { sync(); }
  _ = outer(li) + sum(2u);
}`;
  const r = instrument(source, ENTRY);
  assert.equal(r.ok, true);
  const out = lines(r.wgsl);
  // (Each barrier adds itself to the invocation's costs.)
  assert.equal(
    out[1],
    `fn sum(n : u32, _cp_u : ptr<function, u32>) -> u32 { var s = 0u; for (var i = 0u; i < n; i++) { ${guard('(*_cp_u)', 2)} _cp_c(0u, 0u, 0u, 1u); workgroupBarrier(); s += t[i]; } return s; }`,
  );
  assert.equal(out[2], 'fn outer(a : u32,_cp_u : ptr<function, u32>) -> u32 { return sum(a,_cp_u) + 1u; }');
  // A loop with no barrier (nor a call that reaches one) spends the private purse, in helpers as in entry points.
  assert.equal(out[3], `fn leaf() -> u32 { var s = 0u; loop { ${guard('_cp_p', 4)} s += 1u; if (s > 2u) { break; } } return s; }`);
  assert.equal(out[4], 'fn sync() { _cp_c(0u, 0u, 0u, 1u); workgroupBarrier(); }');
  assert.equal(out[6], 'fn k(@builtin(local_invocation_index) li : u32) { _cp_enter0(); var _cp_u = _cp_limit();');
  assert.equal(out[8], `  while (x < li) { ${guard('_cp_p', 9)} x += leaf(); }`);
  assert.equal(out[9], `  for (var s = 0u; s < 4u; s++) { ${guard('_cp_u', 10)} sync(); }`);
  assert.equal(out[10], '  _ = outer(li, &_cp_u) + sum(2u, &_cp_u);');
});

test('the budget: a floor, four passes over the flags, at most BUDGET.grid iterations over a grid of the flags', () => {
  assert.equal(budget(0), BUDGET.floor);
  assert.equal(budget(10), BUDGET.floor + 40);
  assert.equal(budget(4097), BUDGET.floor + 4 * 4097);
  assert.equal(budget(65537), BUDGET.floor + Math.floor(BUDGET.grid / 65537));
  for (const n of [1, 255, 4096, 8191, 65537, 1 << 20]) assert.ok((budget(n) - BUDGET.floor) * Math.max(n, BUDGET.smallestGrid) <= BUDGET.grid, String(n));
  // The WGSL computes the same numbers from the same constants.
  const r = instrument(MODULE(''), ENTRY);
  assert.match(r.ok ? r.wgsl : '', new RegExp(`return ${BUDGET.floor}u \\+ min\\(${BUDGET.perFlag}u \\* min\\(n, 1u << 24u\\), ${BUDGET.grid}u / max\\(n, ${BUDGET.smallestGrid}u\\)\\)`));
});

test('comments end at every WGSL line break; the five an editor does not show are refused where they are', () => {
  for (const brk of ['\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029']) {
    assert.deepEqual(
      tokens(`a // c${brk}loop {}`).tokens.map((t) => t.text),
      ['a', 'loop', '{', '}'],
      `U+${brk.charCodeAt(0).toString(16)}`,
    );
  }
  const source = MODULE('  // a comment\u2028  loop { }\n  /* \u000c */ var x = 1u;');
  const r = instrument(source, ENTRY);
  assert.equal(r.ok, false);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.key, d.line, d.column, d.params.code]),
    [
      ['kernel.refused.lineBreak', 5, 15, 'U+2028'],
      ['kernel.refused.lineBreak', 6, 6, 'U+000C'],
    ],
  );
  // CR LF and a lone CR are line feeds, as the editor counts them: the places are the editor's.
  const crlf = instrument(MODULE('  loop { break; }').replaceAll('\n', '\r\n'), ENTRY);
  assert.equal(crlf.ok, true);
  assert.match(lines(crlf.ok ? crlf.wgsl : '')[4], /_cp_trip\(5u\)/);
  assert.equal(crlf.source.includes('\r'), false);
});

test('identifiers are XID: a loop keyword is a whole identifier', () => {
  assert.deepEqual(
    tokens('éloop loopé _loop loop2 𝑥loop loop').tokens.map((t) => t.text),
    ['éloop', 'loopé', '_loop', 'loop2', '𝑥loop', 'loop'],
  );
  const r = instrument(MODULE('  let éloop = 1u; let a = éloop;\n  loop { break; }'), ENTRY);
  assert.equal(r.ok, true);
  assert.equal(r.loops, 1);
  assert.equal(lines(r.ok ? r.wgsl : '')[4], '  let éloop = 1u; let a = éloop;');
});

test('@binding takes one integer literal below 15; every other form is refused on its line', () => {
  const refused = ['0xf', '10+5', '/**/15', '15i', '15u', '15', 'FIFTEEN', '(15)', '1e1', '016', ''];
  for (const arg of refused) {
    const r = instrument(MODULE('', `\n@group(0) @binding(${arg}) var<storage, read_write> p : u32;`), ENTRY);
    assert.equal(r.ok, false, arg);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.key, d.line, d.column]),
      [['kernel.refused.binding', 3, 11]],
      arg,
    );
  }
  for (const arg of ['0', '14u', '3,', '0x0e', ' 2i ']) {
    assert.equal(instrument(MODULE('', `\n@group(0) @binding(${arg}) var<storage, read_write> p : u32;`), ENTRY).ok, true, arg);
  }
  // In a comment it is no attribute.
  assert.equal(instrument(MODULE('  // @binding(15)'), ENTRY).ok, true);
});

test('reserved names and an unclosed comment are refused on their line and column; at most 100 diagnostics', () => {
  const r = instrument('// é\nvar<private> _cp_n0 : u32;\n/* never closed', ENTRY);
  assert.equal(r.ok, false);
  const by = Object.fromEntries(r.diagnostics.map((d) => [d.key, d]));
  assert.deepEqual([by['kernel.refused.reserved'].line, by['kernel.refused.reserved'].column, by['kernel.refused.reserved'].length], [2, 14, 6]);
  assert.deepEqual([by['kernel.refused.comment'].line, by['kernel.refused.comment'].column], [3, 1]);
  const many = instrument('_cp_x '.repeat(10_000), ENTRY);
  assert.equal(many.ok, false);
  assert.equal(many.diagnostics.length, MAX_DIAGNOSTICS);
});

test('sizes are checked before the work: a source past 64 KiB, and a guarded text past what the host takes', () => {
  const long = instrument(`// ${'x'.repeat(MAX_SOURCE_BYTES)}`, ENTRY);
  assert.equal(long.ok, false);
  assert.equal(long.diagnostics[0].key, 'kernel.refused.size');
  const loops = MODULE('  loop { break; }\n'.repeat(50));
  const r = instrument(loops, ENTRY, { maxBytes: loops.length + 500 });
  assert.equal(r.ok, false);
  assert.equal(r.diagnostics[0].key, 'kernel.refused.guardedSize');
  assert.equal(instrument(loops, ENTRY, { maxBytes: 1 << 20 }).ok, true);
});

test('instrumenting is linear in the text: 64 KiB of the worst shapes take well under a second', () => {
  // The quadratic guard took 11 s in a browser on 186 characters of link; these are 64 KiB each.
  const shapes = ['_cp_a ', 'loop{}', 'for(;;){}', 'fn f(){a();}', '\n', '{', ')', '@binding(1)'];
  for (const shape of shapes) {
    const text = shape.repeat(Math.floor((MAX_SOURCE_BYTES - 100) / shape.length));
    const start = performance.now();
    instrument(text, ENTRY, { maxBytes: 1 << 20 });
    assert.ok(performance.now() - start < 1500, `${JSON.stringify(shape)}: ${performance.now() - start} ms`);
  }
});

test("a column of the instrumented text maps back to the learner's column", () => {
  const source = MODULE('  for (var j = 0u; j < 4u; j++) { let x = j +; }');
  const r = instrument(source, ENTRY);
  assert.equal(r.ok, true);
  const line = 5;
  const original = lines(source)[line - 1];
  const compiled = lines(r.ok ? r.wgsl : '')[line - 1];
  const errorAt = compiled.indexOf('+;') + 1;
  assert.deepEqual(toSource(r.source, r.ok ? r.inserts : [], line, errorAt), { line, column: original.indexOf('+;') + 1 });
  // A place inside an insertion goes to where it was inserted.
  const inside = compiled.indexOf('_cp_p -= 1u') + 1;
  assert.deepEqual(toSource(r.source, r.ok ? r.inserts : [], line, inside), { line, column: original.indexOf('{') + 2 });
  // Lines without insertions are unchanged.
  assert.deepEqual(toSource(r.source, r.ok ? r.inserts : [], 1, 7), { line: 1, column: 7 });
});

test('every shipped kernel instruments and keeps its lines', () => {
  for (const name of ['atomic_counter', 'atomic_aggregated', 'scan_block', 'add_offsets', 'scatter']) {
    const source = readFileSync(new URL(`../../shaders/${name}.wgsl`, import.meta.url), 'utf8');
    const r = instrument(source, [{ name, bindings: ['live'] }]);
    assert.equal(r.ok, true, name);
    // Every line is the learner's with insertions only: taken out again, it is the line as written.
    const out = lines(r.ok ? r.wgsl : '');
    const starts = [0];
    for (const line of lines(source)) starts.push(starts.at(-1) + line.length + 1);
    for (const [k, line] of lines(source).entries()) {
      let text = out[k];
      for (const ins of (r.ok ? r.inserts : []).filter((x) => x.at >= starts[k] && x.at < starts[k + 1])) text = text.replace(ins.text, '');
      assert.equal(text, line, `${name}: line ${k + 1}`);
    }
    const loops = (source.replace(/\/\/.*$/gm, '').match(/\b(loop|for|while)\b/g) ?? []).length;
    assert.equal(r.loops, loops, name);
  }
});

test('the schedule: workgroup_id and global_invocation_id are taken through _cp_order, the builtins it needs added; each statement adds its costs', () => {
  const article = `@group(0) @binding(0) var<storage, read> visible : array<u32>;
@group(0) @binding(1) var<storage, read_write> indices : array<u32>;
@group(0) @binding(2) var<storage, read_write> counter : atomic<u32>;
@compute @workgroup_size(64)
fn compactar(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&visible) || visible[i] == 0u) { return; }
  let hueco = atomicAdd(&counter, 1u);
  indices[hueco] = i;
  indices[0] += visible[i + 1u];
}`;
  const r = instrument(article, [{ name: 'compactar', bindings: ['visible', 'indices', 'counter'] }]);
  assert.equal(r.ok, true);
  const out = lines(r.ok ? r.wgsl : '');
  assert.equal(
    out[4],
    'fn compactar(@builtin(global_invocation_id) _cp_gid : vec3<u32>, @builtin(num_workgroups) _cp_groups : vec3<u32>, @builtin(workgroup_id) _cp_wid : vec3<u32>, @builtin(local_invocation_id) _cp_lid : vec3<u32>) { _cp_enter0(); let gid = _cp_order(_cp_wid, _cp_groups) * vec3<u32>(u32(64), u32(1), u32(1)) + _cp_lid;',
  );
  // Reads (not `&visible`, an address), an atomic, a write, a compound write (a read and a write); the costs flushed as it returns.
  assert.equal(out[6], '  _cp_c(1u, 0u, 0u, 0u); if (i >= arrayLength(&visible) || visible[i] == 0u) { _cp_flush(); return; }');
  assert.equal(out[7], '  _cp_c(0u, 0u, 1u, 0u); let hueco = atomicAdd(&counter, 1u);');
  assert.equal(out[8], '  _cp_c(0u, 1u, 0u, 0u); indices[hueco] = i;');
  assert.equal(out[9], '  _cp_c(2u, 1u, 0u, 0u); indices[0] += visible[i + 1u];');
  assert.equal(out[10], '_cp_flush(); }');
  // A shipped kernel's workgroup_id: renamed, and the learner's name a local read through the schedule.
  const shippedText = readFileSync(new URL('../../shaders/add_offsets.wgsl', import.meta.url), 'utf8');
  const shipped = instrument(shippedText, [{ name: 'add_offsets', bindings: ['prefix', 'offsets', 'live'] }]);
  assert.match(shipped.ok ? shipped.wgsl : '', /@builtin\(workgroup_id\) _cp_wid : vec3<u32>,[\s\S]*let wid = _cp_order\(_cp_wid, groups\);/);
});
