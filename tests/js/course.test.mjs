// The course's model (www/panels/course/): every exercise made from a shipped
// kernel, its words and hints in both languages, the hint due after a failure
// of each kind, and the progress kept, merged, exported and imported, or kept
// nowhere where storage is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { EXERCISES, HINT_KINDS, failureKind, nextHint } from '../../www/panels/course/exercises.js';
import { ProgressStore, storageKey, validProgress } from '../../www/panels/course/progress.js';
import { startingText } from '../../www/panels/kernel/exercise.js';
import { MESSAGES } from '../../www/i18n/all.js';
import { wasm } from './kernels.mjs';

test('every exercise is one of the kernels a learner may write, its functions in the shipped text, its starter a TODO there', () => {
  const facts = wasm.kernelFacts();
  assert.ok(EXERCISES.length >= 8);
  for (const ex of EXERCISES) {
    const f = facts.find((k) => k.module === ex.module);
    assert.ok(f, ex.id);
    const made = startingText(f.wgsl, ex.editable, null);
    assert.deepEqual(made.missing, [], ex.id);
    assert.notEqual(made.text, f.wgsl, ex.id);
    assert.match(made.text, /TODO/, ex.id);
    assert.ok(made.locked.length > 0, `${ex.id}: the rest read-only`);
    assert.equal(ex.check === 'exact', f.method === 'scan', `${ex.id}: the order checked as its method keeps it`);
  }
});

test('each exercise has its words and its own hints in both languages, three levels, and the course has hints for every kind', () => {
  for (const lang of ['en', 'es']) {
    const table = MESSAGES[lang];
    for (const ex of EXERCISES) {
      for (const part of ['title', 'statement', 'concept', 'checked']) assert.ok(table[`course.${ex.id}.${part}`], `${lang} ${ex.id}.${part}`);
      for (const kind of ex.hints) for (const level of [1, 2, 3]) assert.ok(table[`course.${ex.id}.hint.${kind}.${level}`], `${lang} ${ex.id} ${kind} ${level}`);
    }
    for (const kind of HINT_KINDS) {
      for (const level of [1, 2, 3]) assert.ok(table[`course.hint.${kind}.${level}`], `${lang} ${kind} ${level}`);
      assert.ok(table[`course.kind.${kind}`], `${lang} ${kind}`);
    }
  }
});

test('a hint is due only after a failure, keyed to its kind, one level after another, the exercise’s own before the course’s', () => {
  assert.equal(failureKind(null), null);
  assert.equal(failureKind({ verdict: 'passed' }), null);
  assert.equal(failureKind({ verdict: 'superseded' }), null);
  assert.equal(failureKind({ verdict: 'failed', failure: 'order' }), 'order');
  assert.equal(failureKind({ verdict: 'hung' }), 'hung');
  assert.equal(failureKind({ verdict: 'pipeline-error' }), 'compile-error');
  const counter = EXERCISES[0];
  assert.deepEqual(nextHint(counter, 'missing', 0), { kind: 'missing', level: 1, key: 'course.counter.hint.missing.1' });
  assert.deepEqual(nextHint(counter, 'missing', 2), { kind: 'missing', level: 3, key: 'course.counter.hint.missing.3' });
  assert.equal(nextHint(counter, 'missing', 3), null);
  assert.equal(nextHint(counter, 'nondeterministic', 0).key, 'course.hint.nondeterministic.1');
});

/** A storage as localStorage answers, or one that refuses every write. */
function memoryStorage({ refuse = false } = {}) {
  const items = new Map();
  return {
    items,
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => {
      if (refuse) throw new DOMException('refused', 'QuotaExceededError');
      items.set(k, String(v));
    },
    removeItem: (k) => items.delete(k),
  };
}

test('progress is kept under the course’s key, merged between two elements of one course, and survives a new store', () => {
  const storage = memoryStorage();
  const a = new ProgressStore('intro', storage);
  const b = new ProgressStore('intro', storage);
  assert.equal(a.persistent, true);
  a.update('counter', (e) => {
    e.attempts++;
    e.hints.missing = 2;
  });
  // b writes after a: it reads a's first, so nothing of a's is lost.
  b.update('step', (e) => {
    e.solved = true;
  });
  const again = new ProgressStore('intro', storage);
  assert.deepEqual(again.entry('counter'), { solved: false, attempts: 1, hintsUsed: 2, solutionSeen: false, hints: { missing: 2 } });
  assert.equal(again.entry('step').solved, true);
  assert.ok(storage.items.has(storageKey('intro')));
  assert.equal(new ProgressStore('other', storage).entry('counter').attempts, 0, 'another course, another key');
  again.reset();
  assert.equal(new ProgressStore('intro', storage).entry('step').solved, false);
});

test('an export imports back; a file that is not this course’s progress is refused whole; refused storage keeps it in the page', () => {
  const store = new ProgressStore('intro', memoryStorage());
  store.update('scatter', (e) => {
    e.solutionSeen = true;
    e.attempts = 5;
  });
  const file = store.exportJson();
  const other = new ProgressStore('intro', memoryStorage());
  other.importJson(file);
  assert.deepEqual(other.entry('scatter'), store.entry('scatter'));
  for (const bad of [
    'not json',
    '{}',
    '{"version":2,"exercises":{}}',
    '{"version":1,"exercises":{"nope":{}}}',
    '{"version":1,"exercises":{"counter":{"solved":"yes","attempts":1,"hintsUsed":0,"solutionSeen":false}}}',
    '{"version":1,"exercises":{"counter":{"solved":true,"attempts":-1,"hintsUsed":0,"solutionSeen":false}}}',
    '{"version":1,"exercises":{"counter":{"solved":true,"attempts":1,"hintsUsed":0,"solutionSeen":false,"hints":{"missing":9}}}}',
  ]) {
    assert.throws(
      () => other.importJson(bad),
      (e) => e.kind === 'progress',
      bad,
    );
    assert.equal(other.entry('scatter').attempts, 5, `${bad}: nothing changed`);
  }
  assert.equal(validProgress(JSON.parse(file)).exercises.scatter.solutionSeen, true);
  const refused = new ProgressStore('intro', memoryStorage({ refuse: true }));
  assert.equal(refused.persistent, false);
  refused.update('counter', (e) => {
    e.solved = true;
  });
  assert.equal(refused.entry('counter').solved, true, 'kept in the page');
  assert.equal(new ProgressStore('intro', null).persistent, false, 'no storage at all (a sandboxed frame)');
});
