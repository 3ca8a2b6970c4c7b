// Where a learner's scan first goes wrong (www/panels/kernel/damage.js): the
// first differing buffer of a trace, numbered as the scan stepper numbers its
// steps (www/panels/scan/steps.js planSteps), on real CPU-mirror traces.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { firstDamage } from '../../www/panels/kernel/damage.js';
import { planSteps } from '../../www/panels/scan/steps.js';
import { cpu } from './kernels.mjs';

const traceOf = async (flags) => cpu(flags).scanTrace();
/** A deep copy whose typed arrays can be changed. */
const copy = (trace) => structuredClone(trace);

test('every kind of damage is found at the step the stepper shows it, and a clean trace has none', async () => {
  const flags = Uint32Array.from({ length: 8000 }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const ours = await traceOf(flags);
  assert.equal(firstDamage(copy(ours), ours), null);
  const steps = planSteps(ours);
  const at = (d) => steps[d.step - 1];
  const cases = [
    ['load', (t) => (t.levels[0].steps[0][5] ^= 1)],
    ['hs', (t) => (t.levels[0].steps[3][3000] += 1)],
    ['exclusive', (t) => (t.levels[0].blockPrefix[9] += 1)],
    ['blocksum', (t) => (t.levels[0].blockSums[20] = 1626)],
    ['blocksum', (t) => (t.levels[1].blockSums[0] += 1)],
    ['offsets', (t) => (t.levels[0].prefix[7999] += 1)],
    ['scatter', (t) => (t.indices[7] = 8)],
    ['result', (t) => (t.count += 1)],
  ];
  for (const [kind, spoil] of cases) {
    const yours = copy(ours);
    spoil(yours);
    const d = firstDamage(yours, ours);
    assert.equal(d?.kind, kind, kind);
    assert.equal(at(d).kind, kind, `${kind}: the stepper's step ${d.step}`);
    assert.equal(at(d).level, d.level, `${kind}: its level`);
    if (kind === 'hs') assert.equal(at(d).s, 3);
  }
  const race = copy(ours);
  race.levels[0].blockSums[20] = 1626;
  assert.deepEqual(firstDamage(race, ours), { step: 11, kind: 'blocksum', s: undefined, level: 0, index: 20, yours: 1626, ours: ours.levels[0].blockSums[20] });
});

test('a loop one step short: the eighth step is the first damage, never recorded', async () => {
  const ours = await traceOf(new Uint32Array(300).fill(1));
  const yours = copy(ours);
  yours.levels[0].steps[8].fill(0xffffffff);
  const d = firstDamage(yours, ours);
  assert.deepEqual([d?.kind, d?.s, d?.step, d?.yours], ['hs', 8, 9, 0xffffffff]);
});
