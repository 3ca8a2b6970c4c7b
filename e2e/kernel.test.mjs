// The kernel panel in headless Chromium on SwiftShader: the learner's WGSL
// compiled by the browser (messages on their line and UTF-16 column), checked
// on the GPU against the CPU mirror, the article's slip shrunk to one flag, a
// runaway loop stopped by the guard with its line (never an unguarded loop:
// SwiftShader would never stop it), Step through it, Spanish and axe.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { TEST_TIMEOUT, openPlayground, idle, results, pageErrors } from './helpers.mjs';
import { seriousViolations } from './a11y.mjs';
import { useBrowser } from './fixture.mjs';
import { ladder, scheduleCases } from '../www/panels/kernel/harness.js';

/** The schedule cases every check runs after its ladder (a kernel right only in the GPU's own order fails there). */
const SCHEDULED = scheduleCases().length;

const ctx = useBrowser({ server: true, site: true, cpuBrowser: true });
const url = () => `${ctx.server.url}index.html`;
const shipped = (name) => readFileSync(new URL(`../shaders/${name}.wgsl`, import.meta.url), 'utf8');
/** SwiftShader runs the ladder's 65 537-flag cases on the CPU: minutes at worst, with the shrinking. */
const CHECK_MS = 240_000;

/** Opens the kernel panel alone on `kernel`, the editor open. */
async function openKernel(kernel, { lang, panels = 'kernel,result', initScript = null } = {}) {
  const { page, log } = await openPlayground(ctx.browser, url(), `#panels=${panels}`, { initScript });
  if (lang) {
    await page.evaluate((l) => document.querySelector('compaction-playground').setAttribute('lang', l), lang);
    await page.waitForFunction((l) => document.querySelector('compaction-playground').language === l, lang);
    await idle(page);
  }
  await page.selectOption('[data-testid="kernel-module"]', kernel);
  await page.click('[data-testid="kernel-edit"]');
  await page.waitForSelector('[data-testid="kernel-editor"]');
  return { page, log };
}

/** Replaces the editor's whole text, as a visitor pasting it would. */
async function setText(page, text) {
  await page.click('[data-testid="kernel-editor"]');
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

/** The verdict once a check (or a compile) has one: `{ verdict, failure, text, flags }`. */
async function verdict(page) {
  await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="kernel-verdict"]')?.dataset.verdict, null, { timeout: CHECK_MS });
  return page.evaluate(() => {
    const root = document.querySelector('compaction-playground').shadowRoot;
    const v = root.querySelector('[data-testid="kernel-verdict"]');
    const cx = root.querySelector('[data-flags]');
    return {
      verdict: v.dataset.verdict,
      failure: v.dataset.failure ?? null,
      text: v.textContent,
      flags: cx ? cx.dataset.flags.split(',').filter(Boolean).map(Number) : null,
      yours: [...root.querySelectorAll('[data-testid="kernel-yours"]')].map((e) => e.textContent),
    };
  });
}

test('a compile error on line 5, after a comment of characters outside ASCII, lands on line 5 at its UTF-16 column, in the gutter and the list', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('add_offsets');
  const lines = [
    '// ñandú 𝄞: a comment outside ASCII',
    '@group(0) @binding(0) var<storage, read_write> prefix : array<u32>;',
    '@group(0) @binding(1) var<storage, read> offsets : array<u32>;',
    'fn two() -> u32 {',
    '  let a = 1u; return a + ;',
    '}',
  ];
  await setText(page, lines.join('\n'));
  const item = page.locator('[data-testid="kernel-diagnostic"][data-severity="error"]').first();
  await item.waitFor({ timeout: 60_000 });
  assert.equal(await item.getAttribute('data-line'), '5');
  const column = Number(await item.getAttribute('data-column'));
  const expected = [lines[4].indexOf('+') + 1, lines[4].lastIndexOf(';') + 1];
  assert.ok(expected.includes(column), `column ${column}, expected one of ${expected}`);
  assert.ok(await page.locator('.cm-lint-marker-error').count(), 'a marker in the gutter');
  assert.equal((await verdict(page)).verdict, 'compile-error');
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test("the article's slip (a flag is visible when it equals 1) shrinks to one flag of 2 or more: ours [0], yours empty; Step through it runs it on the page", { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('atomic_counter');
  await setText(page, shipped('atomic_counter').replace('visible[i] == 0u', 'visible[i] != 1u'));
  const v = await verdict(page);
  assert.deepEqual([v.verdict, v.failure], ['failed', 'missing'], v.text);
  assert.equal(v.flags?.length, 1, v.text);
  assert.ok(v.flags[0] >= 2, `flags ${v.flags}`);
  assert.deepEqual(v.yours, ['—']);
  const before = await page.evaluate(() => ({ flags: document.querySelector('compaction-playground').flags, method: document.querySelector('compaction-playground').method }));
  await page.click('[data-testid="kernel-step"]');
  await page.waitForFunction(
    (n) =>
      document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="result-list"]')?.dataset.count === '0' &&
      document.querySelector('compaction-playground').flags.length === n,
    1,
  );
  await idle(page);
  const r = await results(page);
  assert.deepEqual([r.method, r.count, r.indices], ['atomic', 0, []], 'the page runs the learner’s kernel on the case');
  // The result says whose run it is.
  const about = await page.evaluate(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="chosen-method-info"]').dataset.learner);
  assert.equal(about, 'atomic_counter');
  // Our kernel again: the learner's flags and method come back, with our run of them.
  await page.click('[data-testid="kernel-ours"]');
  await page.waitForFunction((b) => document.querySelector('compaction-playground').flags === b.flags && document.querySelector('compaction-playground').method === b.method, before);
  await idle(page);
  const ours = await results(page);
  assert.equal(ours.count, before.flags.split(/[,\s]*/).filter((f) => f !== '' && f !== '0').length);
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('a Hillis-Steele loop one step short: its smallest case, then Step through it opens the scan stepper on the first step where its GPU buffers differ from ours, the wrong cells marked with our values', {
  timeout: TEST_TIMEOUT,
}, async () => {
  const { page, log } = await openKernel('scan_block', { panels: 'kernel,result,scan' });
  const short = shipped('scan_block').replaceAll('offset < BLOCK; offset = offset << 1u', 'offset < BLOCK / 2u; offset = offset << 1u');
  await setText(page, short);
  const v = await verdict(page);
  assert.equal(v.verdict, 'failed', v.text);
  assert.ok(v.flags.length <= 257, `${v.flags.length} flags`);
  await page.click('[data-testid="kernel-step"]');
  await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="stepper"] .cell.wrong'), null, { timeout: 120_000 });
  const shown = await page.evaluate(() => {
    const root = document.querySelector('compaction-playground').shadowRoot;
    const wrong = [...root.querySelectorAll('[data-testid="stepper"] .cell.wrong')];
    return { kind: root.querySelector('[data-testid="stepper"] [data-kind]')?.dataset.kind, wrong: wrong.map((c) => [c.dataset.value, c.dataset.expected]) };
  });
  assert.equal(shown.kind, 'hs', 'a Hillis-Steele step');
  assert.ok(shown.wrong.length > 0 && shown.wrong.every(([got, ours]) => got !== ours && ours !== undefined), JSON.stringify(shown.wrong));
  // The verdict names that step: the eighth Hillis-Steele step, which the learner's loop never took.
  assert.match(v.text, /first goes wrong at step 9 \(Hillis–Steele step 8, level 0\)/);
  // The page agrees with itself: its flags are the case, and the stepper was brought into view.
  const page2 = await page.evaluate(() => {
    const el = document.querySelector('compaction-playground');
    const card = el.shadowRoot.querySelector('[data-testid="stepper"]').closest('.card');
    const box = card.getBoundingClientRect();
    return { flags: el.flags, top: box.top, height: innerHeight };
  });
  assert.equal(page2.flags.replaceAll(',', '').length, v.flags.length);
  assert.ok(page2.top >= -1 && page2.top < page2.height, `the stepper's card at ${page2.top} px`);
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('a kernel that writes past the count fails as past-count, its slot named', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('atomic_counter');
  const past = shipped('atomic_counter').replace(
    '  indices[slot] = object_index(i);',
    '  indices[slot] = object_index(i);\n  if (slot == 0u && arrayLength(&indices) > 1u) { indices[arrayLength(&indices) - 1u] = 1u; }',
  );
  await setText(page, past);
  const v = await verdict(page);
  assert.deepEqual([v.verdict, v.failure], ['failed', 'past-count'], v.text);
  assert.match(v.text, /wrote slot 1, past the count/);
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('the shipped scan_block passes every case of the ladder', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('scan_block');
  const t0 = Date.now();
  await page.click('[data-testid="kernel-check"]');
  const v = await verdict(page);
  assert.equal(v.verdict, 'passed', v.text);
  assert.match(v.text, new RegExp(`${ladder().length + SCHEDULED} cases`));
  console.log(`scan_block: the ladder in ${Date.now() - t0} ms`);
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('what is typed while a check runs is compiled once it ends: the newest text wins', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('scan_block');
  await page.click('[data-testid="kernel-check"]');
  await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="kernel-check"]').disabled);
  await setText(page, `${shipped('scan_block')}\nfn broken() -> u32 { return ; }\n`);
  await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="kernel-compile"]')?.dataset.state === 'errors', null, { timeout: CHECK_MS });
  const line = shipped('scan_block').split('\n').length + 1;
  assert.equal(await page.locator('[data-testid="kernel-diagnostic"][data-severity="error"]').first().getAttribute('data-line'), String(line));
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('a loop that never ends is stopped by the guard: hung, with its line; not run again by itself; ours passes after it', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('atomic_counter');
  const text = shipped('atomic_counter').replace('  let slot = atomicAdd(&counter, 1u);', '  var spin = 0u;\n  loop { spin = spin + 1u; }\n  let slot = atomicAdd(&counter, 1u);');
  const line = text.split('\n').findIndex((l) => l.includes('loop {')) + 1;
  await setText(page, text);
  const v = await verdict(page);
  assert.equal(v.verdict, 'hung', v.text);
  assert.match(v.text, new RegExp(`line ${line}\\b`));
  // The page's own playground never ran it: its result is still right.
  const r = await results(page);
  assert.equal(r.backend, 'gpu');
  assert.deepEqual(r.indices, [0, 3, 4, 6, 9]);
  await page.click('[data-testid="kernel-reset"]');
  await page.click('[data-testid="kernel-check"]');
  await page.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="kernel-verdict"]')?.dataset.verdict === 'passed', null, {
    timeout: CHECK_MS,
  });
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('the guard bounds an invocation’s total work: nested loops in a helper and the entry, with `live` shadowed, end as hung on the inner loop’s line, in seconds, the page on its GPU', {
  timeout: TEST_TIMEOUT,
}, async () => {
  const { page, log } = await openKernel('atomic_counter');
  // Bounded either way (a guard that failed must end the test, not the browser): one invocation runs
  // 300 × 300 × 300 iterations, which a guard of one limit a loop let through; a budget an invocation stops it.
  const helper = 'fn spin(n : u32) -> u32 {\n  var s = 0u;\n  for (var c = 0u; c < n; c++) { s = s + c; }\n  return s;\n}\n';
  const text =
    helper +
    shipped('atomic_counter').replace(
      '  let slot = atomicAdd(&counter, 1u);',
      '  let live = vec4<u32>(0x3fffffffu);\n  var t = 0u;\n  if (i == 0u) {\n    for (var a = 0u; a < 300u; a++) {\n      for (var b = 0u; b < 300u; b++) { t = t + spin(300u); }\n    }\n  }\n  let slot = atomicAdd(&counter, 1u + t * 0u);',
    );
  const line = text.split('\n').findIndex((l) => l.includes('for (var c')) + 1;
  const started = Date.now();
  await setText(page, text);
  const v = await verdict(page);
  assert.equal(v.verdict, 'hung', v.text);
  assert.match(v.text, new RegExp(`line ${line}\\b`));
  assert.ok(Date.now() - started < 60_000, `${Date.now() - started} ms`);
  assert.equal((await results(page)).backend, 'gpu', 'the page kept its device');
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('what the guard could not lex alike is refused on its line, never run: a line break the editor does not show, a @binding other than a literal below 15', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('atomic_counter');
  const runs = () => page.evaluate(() => document.querySelector('compaction-playground').result?.hash);
  const before = await runs();
  for (const [text, line] of [
    [`// a comment\u2028loop { }\n${shipped('atomic_counter')}`, 1],
    [
      shipped('atomic_counter').replace('@binding(0)', '@binding(0xf)'),
      shipped('atomic_counter')
        .split('\n')
        .findIndex((l) => l.includes('@binding(0)')) + 1,
    ],
  ]) {
    await setText(page, text);
    // (The refusal comes from the guard's lexer, before any compile: the list says it on its line.)
    await page.waitForFunction(
      (line) => {
        const list = [...document.querySelector('compaction-playground').shadowRoot.querySelectorAll('[data-testid="kernel-diagnostic"]')];
        return list.length === 1 && Number(list[0].dataset.line) === line;
      },
      line,
      { timeout: CHECK_MS },
    );
    const v = await verdict(page);
    assert.equal(v.verdict, 'compile-error', v.text);
  }
  assert.equal(await runs(), before);
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('the watchdog: a run that never ends (mapAsync stubbed never to settle: never a real unguarded loop) gives the device up: hung, the CPU reference meanwhile, the GPU again; the kernel is not run again', {
  timeout: TEST_TIMEOUT,
}, async () => {
  // Stubbed before the page loads (the wasm's boundary captures mapAsync then), switched on below.
  const { page, log } = await openKernel('atomic_counter', {
    initScript: () => {
      const real = GPUBuffer.prototype.mapAsync;
      window.__hang = false;
      GPUBuffer.prototype.mapAsync = function (...args) {
        return window.__hang ? new Promise(() => {}) : real.apply(this, args);
      };
    },
  });
  await page.evaluate(() => {
    window.__hang = true;
  });
  await page.evaluate(() => {
    window.__checks = 0;
    document.querySelector('compaction-playground').addEventListener('check', () => window.__checks++);
  });
  await page.click('[data-testid="kernel-check"]');
  const v = await verdict(page);
  assert.equal(v.verdict, 'hung', v.text);
  assert.match(v.text, /did not end within 30 s/);
  await page.evaluate(() => {
    window.__hang = false;
  });
  // The device-loss path: the CPU reference, then a new device.
  await page.waitForFunction(() => document.querySelector('compaction-playground').backend === 'gpu' && document.querySelector('compaction-playground').busy === false, null, { timeout: 120_000 });
  await idle(page);
  const r = await results(page);
  assert.deepEqual([r.backend, r.indices], ['gpu', [0, 3, 4, 6, 9]]);
  assert.equal(await page.evaluate(() => window.__checks), 1, 'not run again by itself');
  assert.deepEqual(
    pageErrors(log).filter((l) => !/device|lost|destroyed/i.test(l)),
    [],
  );
  await page.close();
});

test('a link carries the learner’s kernel: it comes back compiled and waits for Check; one too long for a link offers its .wgsl instead', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openKernel('atomic_counter');
  const slip = shipped('atomic_counter').replace('visible[i] == 0u', 'visible[i] != 1u');
  await setText(page, slip);
  await page.waitForFunction(() => /[#&]kernel=atomic_counter&src=/.test(location.hash));
  await verdict(page);
  const link = page.url();
  const { page: again, log: log2 } = await openPlayground(ctx.browser, link);
  await again.waitForSelector('[data-testid="kernel-linked"]:not([hidden])');
  await again.waitForFunction(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="kernel-compile"]')?.dataset.state === 'ok');
  assert.equal(await again.evaluate(() => document.querySelector('compaction-playground').kernelSource), slip);
  await idle(again);
  // The link was made in the kernel panel, below the top: it opens there, the card at the top of the window.
  const card = await again.evaluate(() => {
    const r = document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="kernel-card"]').getBoundingClientRect();
    return { top: r.top, scrolled: window.scrollY };
  });
  assert.ok(card.scrolled > 0 && Math.abs(card.top) < 2, `the kernel card brought to the top: ${JSON.stringify(card)}`);
  assert.equal(
    await again.evaluate(() => document.querySelector('compaction-playground').shadowRoot.querySelector('[data-testid="kernel-verdict"]').dataset.verdict ?? null),
    null,
    'not run by itself',
  );
  await again.click('[data-testid="kernel-check"]');
  assert.equal((await verdict(again)).failure, 'missing');
  // Text that does not compress: past 8 000 characters packed.
  let x = 7;
  const letter = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return String.fromCharCode(97 + (x % 26));
  };
  const noise = Array.from({ length: 20_000 }, letter).join('');
  await setText(page, `${shipped('atomic_counter')}\n// ${noise}\n`);
  await page.waitForSelector('[data-testid="kernel-too-long"]:not([hidden]) [data-testid="kernel-download"]');
  await page.waitForFunction(() => /[#&]kernel=atomic_counter(&|$)/.test(location.hash) && !location.hash.includes('src='));
  assert.equal(await page.getAttribute('[data-testid="kernel-download"]', 'download'), 'atomic_counter.wgsl');
  assert.deepEqual([...pageErrors(log), ...pageErrors(log2)], []);
  await page.close();
  await again.close();
});

test('the element’s contract: kernelSource compiles and checks as typing would, with compile and check events; check() resolves to the report; without a kernel panel it rejects', {
  timeout: TEST_TIMEOUT,
}, async () => {
  const { page, log } = await openPlayground(ctx.browser, url(), '#panels=kernel,result');
  const slip = shipped('atomic_counter').replace('visible[i] == 0u', 'visible[i] != 1u');
  const seen = await page.evaluate(async (text) => {
    const el = document.querySelector('compaction-playground');
    const events = [];
    const got = new Promise((resolve) => {
      el.addEventListener('compile', (e) => events.push(['compile', e.detail.ok, e.detail.diagnostics.length]));
      el.addEventListener('check', (e) => {
        events.push(['check', e.detail.verdict, e.detail.failure]);
        resolve();
      });
    });
    el.kernelSource = text;
    await got;
    const report = await el.check();
    return { events, report: { verdict: report.verdict, failure: report.failure, flags: report.counterexample?.flags.length }, source: el.kernelSource === text };
  }, slip);
  assert.deepEqual(seen.events.slice(0, 2), [
    ['compile', true, 0],
    ['check', 'failed', 'missing'],
  ]);
  assert.deepEqual(seen.report, { verdict: 'failed', failure: 'missing', flags: 1 });
  assert.equal(seen.source, true);
  // Twenty calls at once: every one resolves to a report, one check for the one text; a call whose text
  // changed before its turn says it was superseded.
  const many = await page.evaluate(async (ours) => {
    const el = document.querySelector('compaction-playground');
    const same = await Promise.all(Array.from({ length: 20 }, () => el.check()));
    const first = el.check();
    el.kernelSource = ours;
    const second = el.check();
    return { same: same.map((r) => r?.verdict), first: (await first).verdict, second: (await second).verdict };
  }, shipped('atomic_counter'));
  assert.deepEqual(many.same, Array(20).fill('failed'));
  assert.deepEqual([many.first, many.second], ['superseded', 'passed']);
  const { page: plain } = await openPlayground(ctx.browser, url(), '#panels=result');
  const refused = await plain.evaluate(() =>
    document
      .querySelector('compaction-playground')
      .check()
      .then(
        () => null,
        (e) => e.kind,
      ),
  );
  assert.equal(refused, 'no-kernel');
  assert.deepEqual(pageErrors(log), []);
  await page.close();
  await plain.close();
});

test('exercises: kernel, editable, check and cases make a template with a TODO, the rest read-only; a script child or kernel-src brings the learner’s start', { timeout: TEST_TIMEOUT }, async () => {
  const step =
    'fn step(li : u32, offset : u32) {\n  var sum = tmp[li];\n  if (li >= offset) {\n    sum = sum + tmp[li - offset];\n  }\n  workgroupBarrier();\n  tmp[li] = sum;\n  workgroupBarrier();\n}';
  await ctx.site.write('docs/guide/step.wgsl', step);
  const attrs = 'panels="kernel" kernel="scan_block" editable="step" check="exact" cases="1 255 256 257"';
  await ctx.site.write(
    'docs/guide/exercise.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>exercise</title><script type="module" src="../assets/playground/compaction-playground.js"></script></head><body>
<compaction-playground id="todo" ${attrs}></compaction-playground>
<compaction-playground id="inline" ${attrs}><script type="text/wgsl">${step}</script></compaction-playground>
<compaction-playground id="fetched" ${attrs} kernel-src="step.wgsl"></compaction-playground>
</body></html>`,
  );
  const { page, log } = await openPlayground(ctx.browser, ctx.site.url('guide/exercise.html'), '', { viewport: { width: 1100, height: 4000 } });
  const source = (id) => page.evaluate((id) => document.getElementById(id).kernelSource, id);
  await page.waitForFunction(() => ['todo', 'inline', 'fetched'].every((id) => document.getElementById(id).kernelSource?.includes('fn step(')));
  const todo = await source('todo');
  assert.match(todo, /fn step\(li : u32, offset : u32\) \{\n {2}\/\/ TODO: write this function\.\n\}/);
  assert.ok(todo.includes('fn publish('), 'the other functions as shipped');
  assert.equal(await page.$eval('#todo', (e) => e.shadowRoot.querySelector('[data-testid="kernel-module"]').disabled), true, 'the exercise’s kernel is not for choosing');
  // The TODO fails (its scan adds nothing), on the exercise's own cases only.
  const failed = await page.evaluate(() => document.getElementById('todo').check());
  assert.deepEqual([failed.verdict, failed.total], ['failed', 4 + 4 + SCHEDULED]);
  // The read-only part refuses a keystroke; the TODO takes one.
  await page.click('#todo >> [data-testid="kernel-edit"]');
  const editor = page.locator('#todo >> [data-testid="kernel-editor"]');
  await editor.waitFor();
  await editor.locator('.cm-line').first().click();
  await page.keyboard.type('XYZ');
  assert.equal(await source('todo'), todo, 'the first line is read-only');
  for (const id of ['inline', 'fetched']) {
    assert.ok((await source(id)).includes(step), `${id}: the learner’s step spliced in`);
    const report = await page.evaluate((id) => document.getElementById(id).check(), id);
    assert.deepEqual([id, report.verdict, report.passed], [id, 'passed', 8 + SCHEDULED]);
  }
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('without WebGPU the panel says checking needs it and keeps the text', { timeout: TEST_TIMEOUT }, async () => {
  const { page, log } = await openPlayground(ctx.cpuBrowser, url(), '#panels=kernel,result');
  await page.click('[data-testid="kernel-edit"]');
  await page.waitForSelector('[data-testid="kernel-editor"]');
  const mine = `${shipped('atomic_counter')}\n// mine\n`;
  await setText(page, mine);
  const v = await verdict(page);
  assert.equal(v.verdict, 'unavailable');
  assert.match(v.text, /needs WebGPU/);
  assert.equal(await page.evaluate(() => document.querySelector('compaction-playground').kernelSource), mine);
  assert.deepEqual(pageErrors(log), []);
  await page.close();
});

test('in Spanish, with a verdict on screen: the panel speaks Spanish and axe finds nothing serious', { timeout: TEST_TIMEOUT }, async () => {
  const { page } = await openKernel('atomic_counter', { lang: 'es' });
  await setText(page, shipped('atomic_counter').replace('visible[i] == 0u', 'visible[i] != 1u'));
  const v = await verdict(page);
  assert.match(v.text, /Falló en el caso/);
  assert.equal(await page.locator('[data-testid="kernel-step"]').textContent(), 'Recorrerlo paso a paso');
  assert.deepEqual(await seriousViolations(page), []);
  await page.close();
});
