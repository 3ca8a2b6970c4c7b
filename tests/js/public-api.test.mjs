// scripts/public-api.mjs's verdict: a listing that differs from the committed
// one fails until it is written again; what the newest tag had and the
// listing lacks fails unless the version's minor (0.x) or major went up.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, line } from '../../scripts/public-api.mjs';

const listing = (version, ...items) => `# wgpu-compaction ${version} public API\n${items.join('\n')}\n`;
const A = 'fn wgpu_compaction::Compactor::new(device: &wgpu::Device, queue: &wgpu::Queue) -> Compactor';
const B = "fn wgpu_compaction::CompactionDesc::with_label(self, label: &'a str) -> Self";
const C = 'fn wgpu_compaction::Compactor::grow(&self) -> Result<()>';

test('what semver keeps compatible: 0.x by its minor, then by the major', () => {
  assert.deepEqual(['0.3.0', '0.3.7', '0.4.0', '1.2.3', '2.0.0'].map(line), ['0.3', '0.3', '0.4', '1', '2']);
});

test('the listing as committed passes; any difference fails until it is written again', () => {
  const same = listing('0.3.0', A, B);
  assert.equal(judge({ current: same, version: '0.3.0', committed: same }).ok, true);
  const added = judge({ current: listing('0.3.0', A, B, C), version: '0.3.0', committed: same });
  assert.equal(added.ok, false);
  assert.match(added.problems[0], /0 line\(s\) gone or changed, 1 new/);
  assert.equal(judge({ current: same, version: '0.3.0', committed: null }).ok, false, 'no listing committed');
});

test('an item of the newest tag gone (a deliberate break) fails under the same minor, passes under a new one', () => {
  const tagged = listing('0.3.0', A, B);
  const broken = listing('0.3.0', A);
  const verdict = judge({ current: broken, version: '0.3.0', committed: broken, tagged, tag: 'v0.3.0' });
  assert.equal(verdict.ok, false);
  assert.match(verdict.problems[0], /1 item\(s\) of v0\.3\.0 \(0\.3\.0\) are gone or changed, and the version is still 0\.3\.0: a break needs a new minor/);
  assert.ok(verdict.problems[0].includes(B));
  assert.equal(judge({ current: listing('0.3.1', A), version: '0.3.1', committed: listing('0.3.1', A), tagged, tag: 'v0.3.0' }).ok, false, 'a patch is no bump for a break');
  assert.equal(judge({ current: listing('0.4.0', A), version: '0.4.0', committed: listing('0.4.0', A), tagged, tag: 'v0.3.0' }).ok, true);
  // A changed signature is a line gone and a line new.
  const changed = listing('0.3.0', A, B.replace('-> Self', '-> Option<Self>'));
  assert.equal(judge({ current: changed, version: '0.3.0', committed: changed, tagged, tag: 'v0.3.0' }).ok, false);
  // Additions under the same version are no break.
  const grown = listing('0.3.0', A, B, C);
  assert.equal(judge({ current: grown, version: '0.3.0', committed: grown, tagged, tag: 'v0.3.0' }).ok, true);
});
