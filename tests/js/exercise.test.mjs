// Exercises (www/panels/kernel/exercise.js): the attributes read, the template
// made from the shipped kernel with the editable bodies as a TODO, a script
// child spliced in or taken whole, the rest read-only.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { readExercise, sameOrigin, startingText } from '../../www/panels/kernel/exercise.js';

const shipped = (name) => readFileSync(new URL(`../../shaders/${name}.wgsl`, import.meta.url), 'utf8');
const FACTS = ['atomic_counter', 'scan_block'].map((module) => ({ module, wgsl: shipped(module) }));

test('the attributes: a kernel, a check, cases and editable functions; bad values said, the rest kept', () => {
  const ok = readExercise({ kernel: 'scan_block', check: 'exact', cases: '1 255, 256 257 1', editable: 'step, load' }, FACTS);
  assert.deepEqual([ok.module, ok.check, ok.cases, ok.editable, ok.errors], ['scan_block', 'exact', [1, 255, 256, 257], ['step', 'load'], []]);
  const bad = readExercise({ kernel: 'tiles', check: 'strict', cases: '1 -2 x 70000' }, FACTS);
  assert.deepEqual([bad.module, bad.check, bad.cases], [null, null, null]);
  assert.deepEqual(
    bad.errors.map((e) => e.key),
    ['kernel.unknownKernelAttr', 'kernel.badCheck', 'kernel.badCases'],
  );
});

test('the template: the editable bodies are a TODO, everything else as shipped and read-only', () => {
  const text = shipped('scan_block');
  const { text: template, locked, missing } = startingText(text, ['step', 'nope'], null);
  assert.deepEqual(missing, ['nope']);
  assert.match(template, /fn step\(li : u32, offset : u32\) \{\n {2}\/\/ TODO: write this function\.\n\}/);
  assert.doesNotMatch(template, /sum = sum \+ tmp\[li - offset\]/);
  assert.ok(template.includes('fn publish('), 'the others kept');
  // Every character of the editable function is free, the rest locked.
  const at = template.indexOf('// TODO');
  assert.ok(
    locked.every((r) => at < r.from || at >= r.to),
    'the TODO is editable',
  );
  const publish = template.indexOf('fn publish(');
  assert.ok(
    locked.some((r) => publish >= r.from && publish < r.to),
    'publish is locked',
  );
  assert.deepEqual(startingText(text, [], null), { text, locked: [], missing: [] });
});

test('a script child holding only editable functions is spliced into the shipped kernel; a whole module is taken whole', () => {
  const text = shipped('scan_block');
  const child = 'fn step(li : u32, offset : u32) {\n  workgroupBarrier();\n  workgroupBarrier();\n}';
  const spliced = startingText(text, ['step'], child).text;
  assert.ok(spliced.includes(child));
  assert.ok(spliced.includes('fn publish('));
  assert.equal(spliced.split('fn step(').length, 2, 'one step');
  const whole = '@group(0) @binding(0) var<storage, read> input : array<u32>;\nfn step() {}';
  assert.equal(startingText(text, ['step'], whole).text, whole);
  assert.equal(startingText(text, [], '  \n').text, text, 'an empty child is none');
});

test('kernel-src is same-origin only', () => {
  assert.equal(sameOrigin('/k/step.wgsl', 'https://docs.example/guide/'), true);
  assert.equal(sameOrigin('https://docs.example/x.wgsl', 'https://docs.example/guide/'), true);
  assert.equal(sameOrigin('https://evil.example/x.wgsl', 'https://docs.example/guide/'), false);
  assert.equal(sameOrigin('javascript:alert(1)', 'https://docs.example/'), false);
});

test('the read-only parts are read-only to their first and last character: no insertion at the very start, the very end, or between two of them', async () => {
  const { editable } = await import('../../www/panels/kernel/editor.js');
  const { text, locked } = startingText(shipped('scan_block'), ['step'], null);
  const end = text.length;
  assert.equal(locked[0].from, 0);
  assert.equal(locked.at(-1).to, end);
  assert.equal(editable(locked, 0, 0, end), false, 'before the first character');
  assert.equal(editable(locked, end, end, end), false, 'after the last');
  const todo = text.indexOf('// TODO');
  assert.equal(editable(locked, todo, todo, end), true, 'inside the editable body');
  assert.equal(editable(locked, todo, todo + 7, end), true);
  // Where the editable body begins and ends, an insertion belongs to it.
  const body = locked.find((r) => r.to <= todo && locked.some((q) => q.from > todo));
  assert.equal(editable(locked, body.to, body.to, end), true);
  assert.equal(editable(locked, 5, 5, end), false, 'inside a locked range');
  assert.equal(editable(locked, body.to - 1, body.to + 1, end), false, 'a change that reaches into it');
  assert.equal(
    editable(
      [
        { from: 0, to: 4 },
        { from: 4, to: 9 },
      ],
      4,
      4,
      9,
    ),
    false,
    'between two locked ranges',
  );
  assert.equal(editable([], 0, 0, 0), true);
});
