// The loop guard (www/panels/kernel/instrument.js): every loop form guarded,
// comments skipped, lines kept, columns mapped back, reserved names refused.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { instrument, LOOP_LIMITS, PROBE_BINDING, toSource, tokens } from '../../www/panels/kernel/instrument.js';

const ENTRY = [{ name: 'k', bindings: ['visible', 'indices', 'live'] }];
const MODULE = (body) => `@group(0) @binding(0) var<storage, read> visible : array<u32>;
@group(0) @binding(1) var<storage, read_write> indices : array<u32>;
@compute @workgroup_size(64)
fn k(@builtin(local_invocation_index) li : u32) {
${body}
}`;

const lines = (text) => text.split('\n');

test('every loop form gets a counter before it and a check at the top of its body, on the same lines', () => {
  const source = MODULE(`  var i = 0u;
  loop { i += 1u; if (i > 3u) { break; } continuing { i += 0u; } }
  for (var j = 0u; j < (li + 1u); j++) {
    while (i < j) { i += 1u; }
  }`);
  const r = instrument(source, ENTRY);
  assert.equal(r.ok, true);
  assert.equal(r.loops, 3);
  const out = lines(r.wgsl);
  // Two lines appended (the probe), none inserted.
  assert.equal(out.length, lines(source).length + 2);
  for (const [k, line] of lines(source).entries()) {
    if (!/loop|for|while|fn k/.test(line)) assert.equal(out[k], line, `line ${k + 1} unchanged`);
  }
  assert.match(out[5], /var _cp_n0 = 0u; loop \{ _cp_n0 \+= 1u; if \(_cp_n0 > max\(4096u, 4u \* live\.x\)\) \{ _cp_trip\(6u\); break; \} i \+= 1u;/);
  assert.match(out[6], /var _cp_n1 = 0u; for \(var j = 0u; j < \(li \+ 1u\); j\+\+\) \{ _cp_n1 \+= 1u; if \(_cp_n1 > max\(4096u, 4u \* live\.x\)\) \{ _cp_trip\(7u\); break; \}$/);
  // The outer limits follow the case (live.x, the flag count); nested one level: a constant.
  assert.match(out[7], new RegExp(`var _cp_n2 = 0u; while \\(i < j\\) \\{ _cp_n2 \\+= 1u; if \\(_cp_n2 > ${LOOP_LIMITS[1]}\\) \\{ _cp_trip\\(8u\\); break; \\} i \\+= 1u; \\}`));
  // The entry point names its declared bindings, live and the probe; the probe is declared after the last line.
  assert.match(out[3], /\{ _ = &visible; _ = &indices; _ = &live; _ = &_cp_probe;$/);
  assert.match(out.at(-2), new RegExp(`@binding\\(${PROBE_BINDING}\\) var<storage, read_write> _cp_probe`));
});

test('loops, braces and names inside comments (nested block comments too) are left alone', () => {
  const source = MODULE(`  // loop { for while
  /* outer /* inner loop { */ still a comment for ( */
  var n = 0u;`);
  const r = instrument(source, ENTRY);
  assert.equal(r.ok, true);
  assert.equal(r.loops, 0);
  assert.equal(lines(r.wgsl).slice(4, 7).join('\n'), lines(source).slice(4, 7).join('\n'));
  assert.deepEqual(
    tokens('a /* b /* c */ d */ e // f').tokens.map((t) => t.text),
    ['a', 'e'],
  );
});

test('reserved names, binding 15 and an unclosed comment are refused on their line and column', () => {
  const r = instrument('// é\nvar<private> _cp_n0 : u32;\n@group(0) @binding(15) var<storage> p : u32;\n// @binding(15) in a comment is fine\n/* never closed', ENTRY);
  assert.equal(r.ok, false);
  const by = Object.fromEntries(r.diagnostics.map((d) => [d.key, d]));
  assert.deepEqual([by['kernel.refused.reserved'].line, by['kernel.refused.reserved'].column, by['kernel.refused.reserved'].length], [2, 14, 6]);
  assert.deepEqual([by['kernel.refused.binding'].line, by['kernel.refused.binding'].column], [3, 11]);
  assert.deepEqual([by['kernel.refused.comment'].line, by['kernel.refused.comment'].column], [5, 1]);
  assert.equal(r.diagnostics.length, 3);
});

test("a column of the instrumented text maps back to the learner's column", () => {
  const source = MODULE('  for (var j = 0u; j < 4u; j++) { let x = j +; }');
  const r = instrument(source, ENTRY);
  assert.equal(r.ok, true);
  const line = 5;
  const original = lines(source)[line - 1];
  const compiled = lines(r.wgsl)[line - 1];
  const errorAt = compiled.indexOf('+;') + 1;
  assert.deepEqual(toSource(source, r.inserts, line, errorAt), { line, column: original.indexOf('+;') + 1 });
  // A place inside an insertion goes to where it was inserted.
  const inside = compiled.indexOf('_cp_n0 += 1u') + 1;
  assert.deepEqual(toSource(source, r.inserts, line, inside), { line, column: original.indexOf('{') + 2 });
  // Lines without insertions are unchanged.
  assert.deepEqual(toSource(source, r.inserts, 1, 7), { line: 1, column: 7 });
});

test('every shipped kernel instruments and keeps its lines', () => {
  for (const name of ['atomic_counter', 'atomic_aggregated', 'scan_block', 'add_offsets', 'scatter']) {
    const source = readFileSync(new URL(`../../shaders/${name}.wgsl`, import.meta.url), 'utf8');
    const r = instrument(source, [{ name, bindings: ['live'] }]);
    assert.equal(r.ok, true, name);
    assert.equal(lines(r.wgsl).length, lines(source).length + 2, name);
    const loops = (source.replace(/\/\/.*$/gm, '').match(/\b(loop|for|while)\b/g) ?? []).length;
    assert.equal(r.loops, loops, name);
  }
});
