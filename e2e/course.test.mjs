// The course (www/panels/course/) as a learner walks it, in Chromium on
// SwiftShader: the first three exercises from their starters (each fails, a
// hint of its kind comes only after a failure and level by level, our
// solution opens after a pass), progress that survives a reload and an
// import, every exercise's starter failing and our solution passing, and the
// schedule as an adversary (a chained add_offsets right only in order). Every
// kernel here is bounded: a guard that failed ends the test, not the browser.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { TEST_TIMEOUT, pageErrors } from './helpers.mjs';
import { newLoggedPage } from './browser.mjs';
import { useBrowser } from './fixture.mjs';

const ctx = useBrowser({ server: { allow: ['e2e/fixtures/', 'dist/'] } });
const CHECK_MS = 240_000;
const shipped = (name) => readFileSync(new URL(`../shaders/${name}.wgsl`, import.meta.url), 'utf8');

/** The course page (one element, course key `e2e`), its course panel built; `storage` false: a page where localStorage throws. */
async function openCourse({ storage = true, exercise = null } = {}) {
  const { page, log } = await newLoggedPage(ctx.browser);
  if (!storage)
    await page.addInitScript(() =>
      Object.defineProperty(window, 'localStorage', {
        get: () => {
          throw new DOMException('denied', 'SecurityError');
        },
      }),
    );
  if (exercise) await page.addInitScript((id) => document.addEventListener('DOMContentLoaded', () => document.querySelector('compaction-playground').setAttribute('exercise', id)), exercise);
  await page.setViewportSize({ width: 1200, height: 1400 });
  await page.goto(`${ctx.server.url}e2e/fixtures/course.html`);
  await page.waitForFunction(() => document.querySelector('compaction-playground')?.exercises.length === 8 && document.querySelector('compaction-playground').kernelSource?.includes('TODO'), null, {
    timeout: CHECK_MS,
  });
  await page.evaluate(() => {
    window.__events = [];
    for (const type of ['solved', 'hint', 'check'])
      document.querySelector('compaction-playground').addEventListener(type, (e) => window.__events.push([type, e.detail.id ?? e.detail.verdict, e.detail.kind ?? e.detail.failure ?? null]));
  });
  return { page, log };
}

/** Sets the kernel text and checks it: the report. */
const check = (page, text) =>
  page.evaluate(async (text) => {
    const el = document.querySelector('compaction-playground');
    el.kernelSource = text;
    const r = await el.check();
    return {
      verdict: r.verdict,
      failure: r.failure ?? null,
      message: r.message ?? null,
      schedule: r.counterexample?.schedule?.name ?? null,
      cause: r.counterexample?.cause ?? null,
      costs: r.costs ?? null,
    };
  }, text);

const el = (page, fn, arg) => page.evaluate(fn, arg);

test('a learner walks the first three exercises: each starter fails, hints come after a failure, one level at a time, our solution after a pass; progress survives a reload', {
  timeout: TEST_TIMEOUT * 2,
}, async () => {
  const { page, log } = await openCourse();
  await el(page, () => document.querySelector('compaction-playground').resetProgress());
  // No hint before a check.
  assert.equal(await el(page, () => document.querySelector('compaction-playground').hint()), null);
  const walk = [
    ['counter', 'atomic_counter'],
    ['aggregated', 'atomic_aggregated'],
    ['step', 'scan_block'],
  ];
  for (const [id, module] of walk) {
    assert.equal(await el(page, () => document.querySelector('compaction-playground').exercise), id);
    const starter = await el(page, () => document.querySelector('compaction-playground').kernelSource);
    assert.match(starter, /TODO/);
    const failed = await check(page, starter);
    assert.equal(failed.verdict, 'failed', `${id}: the starter fails: ${JSON.stringify(failed)}`);
    const h1 = await el(page, () => document.querySelector('compaction-playground').hint());
    const h2 = await el(page, () => document.querySelector('compaction-playground').hint());
    assert.deepEqual([h1.id, h1.kind, h1.level, h2.level], [id, failed.failure, 1, 2], `${id}: hints of the failure's kind, level by level`);
    assert.ok(h1.text.length > 20 && h1.text !== h2.text);
    // Our solution is still closed (one failed check), then the shipped kernel passes.
    await page.click('compaction-playground >> [data-testid="course-solution"]');
    assert.match(await page.locator('compaction-playground >> [data-testid="course-solution-view"]').textContent(), /opens after a pass/);
    const passed = await check(page, shipped(module));
    assert.equal(passed.verdict, 'passed', `${id}: ours passes`);
    assert.ok(passed.costs && passed.costs.yours.reads > 0 && Math.abs(passed.costs.yours.reads - passed.costs.ours.reads) < 1e-9, `${id}: our costs beside ours ${JSON.stringify(passed.costs)}`);
    await page.click('compaction-playground >> [data-testid="course-solution"]');
    await page.waitForSelector('compaction-playground >> [data-testid="course-diff"]');
    const progress = await el(page, (k) => document.querySelector('compaction-playground').progress[k], id);
    assert.deepEqual(progress, { solved: true, attempts: 2, hintsUsed: 2, solutionSeen: true }, id);
    if (id !== 'step') await page.click('compaction-playground >> [data-testid="course-next"]');
  }
  const events = await el(page, () => window.__events.filter(([type]) => type !== 'check'));
  assert.deepEqual(
    events.map(([type, id]) => `${type}:${id}`),
    ['hint:counter', 'hint:counter', 'solved:counter', 'hint:aggregated', 'hint:aggregated', 'solved:aggregated', 'hint:step', 'hint:step', 'solved:step'],
  );
  // A reload: the progress is this browser's, under the course's key.
  await page.reload();
  await page.waitForFunction(() => document.querySelector('compaction-playground')?.exercises.length === 8, null, { timeout: CHECK_MS });
  const after = await el(page, () => document.querySelector('compaction-playground').exercises.map((e) => e.solved));
  assert.deepEqual(after, [true, true, true, false, false, false, false, false]);
  assert.equal(await el(page, () => document.querySelector('compaction-playground').exercise), 'steps', 'the first one not solved');
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('progress exports and imports as a file, a bad file changes nothing, reset clears it; where storage is refused the course works and says so', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openCourse();
  await el(page, () => document.querySelector('compaction-playground').resetProgress());
  const file = JSON.stringify({ version: 1, exercises: { counter: { solved: true, attempts: 4, hintsUsed: 1, solutionSeen: false, hints: { missing: 1 } } } });
  const input = page.locator('compaction-playground >> [data-testid="course-import-file"]');
  await input.setInputFiles({ name: 'p.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await page.waitForFunction(() => document.querySelector('compaction-playground').progress.counter?.attempts === 4);
  await input.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"version":1,"exercises":{"nope":{}}}') });
  await page.waitForFunction(() => /not this course/.test(document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="course-message"]').textContent));
  assert.equal(await el(page, () => document.querySelector('compaction-playground').progress.counter.attempts), 4);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('compaction-playground >> [data-testid="course-export"]')]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(exported.exercises.counter.attempts, 4);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('compaction-playground')?.progress.counter?.attempts === 4, null, { timeout: CHECK_MS });
  await page.click('compaction-playground >> [data-testid="course-reset"]');
  assert.equal(await el(page, () => document.querySelector('compaction-playground').progress.counter.attempts), 0);
  assert.equal(await page.locator('compaction-playground >> [data-testid="course-storage"]').getAttribute('data-persistent'), 'true');
  await page.close();
  const refused = await openCourse({ storage: false });
  assert.equal(await refused.page.locator('compaction-playground >> [data-testid="course-storage"]').getAttribute('data-persistent'), 'false');
  assert.match(await refused.page.locator('compaction-playground >> [data-testid="course-storage"]').textContent(), /cannot keep anything/);
  assert.deepEqual(pageErrors(log), []);
  assert.deepEqual(pageErrors(refused.log), []);
  await refused.page.close();
});

test('every exercise: its starter fails, our solution passes; a chained add_offsets, right in order, fails the schedule check', { timeout: TEST_TIMEOUT * 4 }, async () => {
  const { page, log } = await openCourse({ exercise: 'steps' });
  const ids = await el(page, () => document.querySelector('compaction-playground').exercises.map((e) => [e.id, e.kernel]));
  for (const [id, module] of ids) {
    await el(
      page,
      (k) => {
        document.querySelector('compaction-playground').exercise = k;
      },
      id,
    );
    await page.waitForFunction((k) => document.querySelector('compaction-playground').exercise === k && document.querySelector('compaction-playground').kernelSource?.includes('TODO'), id);
    const starter = await el(page, () => document.querySelector('compaction-playground').kernelSource);
    const failed = await check(page, starter);
    assert.notEqual(failed.verdict, 'passed', `${id}: the starter`);
    assert.equal((await check(page, shipped(module))).verdict, 'passed', `${id}: ours`);
  }
  // A chained scan without flags: each block takes its offset from the block before, reading that block's first
  // prefix (its offset, once that block has added it) and adding the block's sum: right when the blocks run in
  // order, wrong when a block runs before the one it reads. Bounded: no loop at all.
  const chained = shipped('add_offsets').replace(
    '  prefix[i] = prefix[i] + offsets[block];',
    '  var offset = offsets[block];\n  if (block > 0u) { offset = prefix[(block - 1u) * BLOCK] + (offsets[block] - offsets[block - 1u]); }\n  prefix[i] = prefix[i] + offset;',
  );
  await el(page, () => {
    document.querySelector('compaction-playground').exercise = 'offsets';
  });
  await page.waitForFunction(() => document.querySelector('compaction-playground').exercise === 'offsets');
  const r = await check(page, chained);
  assert.equal(r.verdict, 'failed');
  // On SwiftShader the blocks of one dispatch run side by side, so the chain may break in the GPU's own order too.
  assert.ok(['schedule', 'order', 'missing', 'duplicate', 'count', 'extra', 'unwritten', 'out-of-range', 'nondeterministic'].includes(r.failure), JSON.stringify(r));
  if (r.failure === 'schedule') assert.ok(r.schedule, 'the counterexample names its schedule');
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});
