// The checker (www/panels/kernel/harness.js): the ladder, the comparison and
// the shrinker, with fake buggy kernels judged by the CPU mirror of ours.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { check, compare, LADDER_SIZES, ladder, shrink, UNWRITTEN, VALUES } from '../../www/panels/kernel/harness.js';
import { cpu, wasm } from './kernels.mjs';

const reference = (method) => (flags) => cpu(flags).run(method);
const out = (indices) => ({ indices: Uint32Array.from(indices), count: indices.length, instanceCount: indices.length });
const visibleWhere = (flags, test) => [...flags.keys()].filter((i) => test(flags[i]));

/** A fake kernel: `compute(flags)` gives its indices; probe says no loop ran away unless told. */
function runner(method, compute, probe = () => 0) {
  let calls = 0;
  return {
    runs: () => calls,
    run: async (flags) => {
      calls++;
      return out(compute(flags, calls));
    },
    reference: reference(method),
    probe: async () => probe(),
  };
}

/** The scan with its Hillis-Steele loop one step short (offsets 1 … 64). */
function shortScan(flags) {
  const n = flags.length;
  const prefix = new Uint32Array(n);
  let base = 0;
  for (let b = 0; b * 256 < Math.max(n, 1); b++) {
    const tmp = new Uint32Array(256);
    for (let li = 0; li < 256; li++) tmp[li] = b * 256 + li < n && flags[b * 256 + li] !== 0 ? 1 : 0;
    const v = tmp.slice();
    for (let offset = 1; offset < 128; offset <<= 1) {
      const before = tmp.slice();
      for (let li = offset; li < 256; li++) tmp[li] = before[li] + before[li - offset];
    }
    for (let li = 0; li < 256 && b * 256 + li < n; li++) prefix[b * 256 + li] = base + tmp[li] - v[li];
    base += tmp[255];
  }
  const indices = new Array(base).fill(0);
  for (let i = 0; i < n; i++) if (flags[i] !== 0 && prefix[i] < base) indices[prefix[i]] = i;
  return indices;
}

test('the ladder: every size, smallest first, the same flags every time, every value of a flag', () => {
  const cases = ladder();
  assert.deepEqual([...new Set(cases.map((c) => c.n))], LADDER_SIZES);
  assert.ok(cases.length >= 25 && cases.length <= 45, `${cases.length} cases`);
  assert.deepEqual(ladder(), cases, 'deterministic');
  const values = new Set(cases.flatMap((c) => Array.from(c.flags)));
  for (const v of [0, ...VALUES]) assert.ok(values.has(v), `value ${v}`);
  assert.deepEqual(Array.from(cases.find((c) => c.pattern === 'article').flags), [1, 0, 0, 1, 1, 0, 1, 0, 0, 1]);
  assert.deepEqual(
    ladder([300, 5]).map((c) => c.label),
    ['5 · random-0.5', '5 · ones', '300 · random-0.5', '300 · ones'],
  );
});

test('compare names the failure: never written, out of range, duplicate, extra, missing, count, past the count, order', () => {
  const flags = Uint32Array.from([1, 0, 2, 1]);
  const want = out([0, 2, 3]);
  const failure = (got, mode = 'exact') => compare(flags, want, got, mode)?.failure ?? null;
  assert.equal(failure(out([0, 2, 3])), null);
  assert.equal(failure(out([0, 2, 4])), 'out-of-range');
  assert.equal(failure(out([0, 2, 2])), 'duplicate');
  assert.equal(failure(out([0, 1, 3])), 'extra');
  assert.equal(failure(out([0, 2])), 'missing');
  assert.equal(failure({ ...out([0, 2, 3]), instanceCount: 0 }), 'count');
  assert.equal(failure(out([2, 0, 3])), 'order');
  assert.equal(failure(out([2, 0, 3]), 'unordered'), null);
  assert.deepEqual(compare(flags, want, out([0, 3, 2]), 'exact'), { failure: 'order', at: 1, index: 3 });
  assert.deepEqual(compare(flags, want, { ...out([0, 2, 3]), writtenPast: 3 }, 'exact'), { failure: 'past-count', at: 3, index: -1 });
  assert.equal(failure({ ...out([0, 2, 3]), writtenPast: -1 }), null);
  // A slot the kernel never wrote still holds UNWRITTEN (the wasm's constant): said so, not read as index 0 or past the end.
  assert.equal(UNWRITTEN, wasm.layout().unwritten);
  assert.deepEqual(compare(flags, want, out([0, UNWRITTEN, 3]), 'exact'), { failure: 'unwritten', at: 1, index: -1 });
  assert.equal(failure(out([0, 0, 3]), 'unordered'), 'duplicate');
});

test("the article's slip (== 1u for visible) shrinks to one flag of 2 or more", async () => {
  const slip = runner('atomic', (flags) => visibleWhere(flags, (f) => f === 1).reverse());
  const report = await check(slip, { cases: ladder(), mode: 'unordered' });
  assert.equal(report.verdict, 'failed');
  assert.equal(report.failure, 'missing');
  const cx = report.counterexample;
  assert.equal(cx.flags.length, 1, JSON.stringify(cx));
  assert.ok(cx.flags[0] >= 2);
  assert.deepEqual([cx.expected, cx.got], [[0], []]);
  assert.ok(cx.runs > 0 || cx.shrunkFrom === 1);
});

test('a Hillis-Steele loop one step short fails the exact check and shrinks to at most 257 flags', async () => {
  const short = runner('scan', shortScan);
  const report = await check(short, { cases: ladder(), mode: 'exact' });
  assert.equal(report.verdict, 'failed');
  assert.ok(report.counterexample.flags.length <= 257, `${report.counterexample.flags.length} flags`);
  const again = await reference('scan')(Uint32Array.from(report.counterexample.flags));
  assert.deepEqual(report.counterexample.expected, Array.from(again.indices));
  assert.notDeepEqual(report.counterexample.got, report.counterexample.expected);
});

test('the right kernel passes every case; an unordered kernel passes the unordered check only', async () => {
  const right = runner('scan', (flags) => visibleWhere(flags, (f) => f !== 0));
  const report = await check(right, { cases: ladder(), mode: 'exact' });
  assert.deepEqual([report.verdict, report.passed, report.total], ['passed', ladder().length, ladder().length]);
  const shuffled = runner('atomic', (flags) => visibleWhere(flags, (f) => f !== 0).reverse());
  assert.equal((await check(shuffled, { cases: ladder(), mode: 'unordered' })).verdict, 'passed');
  assert.equal((await check(shuffled, { cases: ladder(), mode: 'exact' })).failure, 'order');
});

test('an order-keeping kernel that differs between runs is nondeterministic; a runaway loop is hung with its line; a failed run is a pipeline error', async () => {
  const flaky = runner('scan', (flags, calls) => {
    const v = visibleWhere(flags, (f) => f !== 0);
    return flags.length >= 257 && calls % 3 === 0 ? v.reverse() : v;
  });
  const report = await check(flaky, { cases: ladder(), mode: 'exact' });
  assert.deepEqual([report.verdict, report.failure], ['failed', 'nondeterministic']);
  assert.ok(report.case.startsWith('257'), report.case);

  const runaway = runner(
    'scan',
    (flags) => visibleWhere(flags, (f) => f !== 0),
    () => 12,
  );
  const hung = await check(runaway, { cases: ladder(), mode: 'exact' });
  assert.deepEqual([hung.verdict, hung.line, hung.passed], ['hung', 12, 0]);
  assert.equal(runaway.runs(), 1, 'a runaway loop is not run again');

  const broken = { ...runner('scan', () => []), run: async () => Promise.reject(new Error('Entry point "scan" does not exist')) };
  const pipeline = await check(broken, { cases: ladder(), mode: 'exact' });
  assert.equal(pipeline.verdict, 'pipeline-error');
  assert.match(pipeline.message, /Entry point/);
});

test('shrinking keeps the failure class and stays within its budget', async () => {
  // Fails (missing) only while flag 700 is visible and there are over 600 flags.
  const picky = runner('scan', (flags) => visibleWhere(flags, (f) => f !== 0).filter((i) => !(flags.length > 600 && i === flags.length - 1)));
  const flags = new Uint32Array(4097).fill(1);
  const { flags: small, runs } = await shrink(picky, flags, 'missing', 'exact', { budget: 40 });
  assert.ok(runs <= 40);
  assert.ok(small.length > 600 && small.length < 4097, `${small.length}`);
  assert.equal(small[small.length - 1], 1);
});

test('a run the watchdog gave up on is hung without a line, and nothing more is asked of the device', async () => {
  let probes = 0;
  const gaveUp = {
    run: async () => Promise.reject(Object.assign(new Error('a run took more than 30 s'), { kind: 'watchdog' })),
    reference: reference('scan'),
    probe: async () => {
      probes++;
      return 0;
    },
  };
  const report = await check(gaveUp, { cases: ladder(), mode: 'exact' });
  assert.deepEqual([report.verdict, report.line, report.passed, probes], ['hung', 0, 0, 0]);
});

test('the shrinker keeps a case whose stepped run shows the damage, and the report says where; passing cases say the sizes they ran', async () => {
  // A race of sorts: every run drops the last visible index, but its stepped run shows it only from 40 flags on.
  const racy = runner('scan', (flags) => visibleWhere(flags, (f) => f !== 0).slice(0, -1));
  let traced = 0;
  racy.damage = async (flags) => {
    traced++;
    return flags.length >= 40 ? { step: 11, kind: 'blocksum', level: 0, index: 0, yours: 1626, ours: 40 } : null;
  };
  const report = await check(racy, { cases: ladder([300]), mode: 'exact' });
  assert.equal(report.failure, 'missing');
  assert.ok(report.counterexample.flags.length >= 40, `${report.counterexample.flags.length} flags`);
  assert.ok(report.counterexample.flags.length < 300);
  assert.equal(report.counterexample.damage.kind, 'blocksum');
  assert.ok(traced > 1);
  // Without a stepped run to show it, it shrinks as far as the failure goes.
  const plain = runner('scan', (flags) => visibleWhere(flags, (f) => f !== 0).slice(0, -1));
  const shrunk = await check(plain, { cases: ladder([300]), mode: 'exact' });
  assert.equal(shrunk.counterexample.flags.length, 1);
  assert.equal(shrunk.counterexample.damage, null);
  // The count told is the run's own count, beside ours.
  assert.equal(shrunk.counterexample.gotCount, 0);
  assert.equal(shrunk.counterexample.expectedCount, 1);
  const passed = await check(
    runner('scan', (flags) => visibleWhere(flags, (f) => f !== 0)),
    { cases: ladder([1, 255, 256, 257, 4097]), mode: 'exact' },
  );
  assert.deepEqual([passed.verdict, passed.total, passed.from, passed.to], ['passed', 10, 1, 4097]);
});

test('the schedule as an adversary: a kernel right only in the GPU’s own order fails as schedule, its case shrunk and its schedule named; ours passes', async () => {
  const { SCHEDULES, IN_ORDER } = await import('../../www/panels/kernel/harness.js');
  /** A chained scan without flags, as a fake: right when workgroups run in order, its last block lost otherwise. */
  const chained = (flags, schedule) => {
    const visible = visibleWhere(flags, (f) => f !== 0);
    return schedule.order === 0 ? visible : visible.filter((i) => i < Math.floor((flags.length - 1) / 256) * 256);
  };
  let schedule = IN_ORDER;
  const seen = [];
  const fake = runner('scan', (flags) => chained(flags, schedule));
  fake.schedule = async (s) => {
    schedule = s;
    seen.push(s.name);
  };
  const report = await check(fake, { cases: ladder([1, 300]), mode: 'exact' });
  assert.equal(report.verdict, 'failed');
  assert.equal(report.failure, 'schedule');
  assert.equal(report.counterexample.schedule.name, SCHEDULES[0].name, 'the simplest schedule that fails');
  assert.equal(report.counterexample.cause, 'missing');
  assert.ok(report.counterexample.flags.length < 1000, `shrunk to ${report.counterexample.flags.length}`);
  assert.equal(seen.at(-1), 'in-order', 'the GPU’s own order again afterwards');
  // Ours: every schedule passes, and the total counts them.
  let ours = IN_ORDER;
  const right = runner('scan', (flags) => visibleWhere(flags, (f) => f !== 0));
  right.schedule = async (s) => {
    ours = s;
  };
  const passed = await check(right, { cases: ladder([1, 300]), mode: 'exact' });
  assert.equal(passed.verdict, 'passed');
  assert.equal(passed.total, ladder([1, 300]).length + SCHEDULES.length * 2);
  assert.equal(ours.name, 'in-order');
});
