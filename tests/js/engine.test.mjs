// Engine.open (www/core/engine.js): a device that misses the start's timeout
// leaves the CPU reference in charge, and takes over if it still comes within
// LATE_TIMEOUT_MS; one later than that is freed. Fake wasm, mocked timers.

import assert from 'node:assert/strict';
import { mock, test } from 'node:test';

import { CREATE_TIMEOUT_MS, Engine, LATE_TIMEOUT_MS } from '../../www/core/engine.js';

/** A wasm whose GPU playground comes when `give()` is called. */
function slowWasm() {
  let give;
  const freed = [];
  const created = new Promise((resolve) => {
    give = () => {
      const pg = { backend: 'gpu', free: () => freed.push(pg) };
      resolve(pg);
      return pg;
    };
  });
  return {
    freed,
    give: () => give(),
    wasm: /** @type {any} */ ({ Playground: { create: () => created, createCpu: () => ({ backend: 'cpu', free() {} }) } }),
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

test('a device later than the start takes over from the CPU reference; one later than LATE_TIMEOUT_MS is freed', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const slow = slowWasm();
    const opening = Engine.open(slow.wasm, () => {});
    mock.timers.tick(CREATE_TIMEOUT_MS);
    const cpu = await opening;
    assert.deepEqual([cpu.backend, cpu.fallback?.kind], ['cpu', 'timeout']);
    assert.ok(cpu.late, 'it still waits for the device');
    mock.timers.tick(LATE_TIMEOUT_MS / 2);
    const pg = slow.give();
    const gpu = await cpu.late;
    assert.equal(gpu?.backend, 'gpu');
    assert.equal(gpu?.pg, pg);
    assert.equal(gpu?.fallback, null);

    const never = slowWasm();
    const opened = Engine.open(never.wasm, () => {});
    mock.timers.tick(CREATE_TIMEOUT_MS);
    const alone = await opened;
    mock.timers.tick(LATE_TIMEOUT_MS);
    assert.equal(await alone.late, null, 'given up');
    const late = never.give();
    await flush();
    assert.deepEqual(never.freed, [late], 'a playground made after that is freed');
  } finally {
    mock.timers.reset();
  }
});

test('a device in time has nothing late; a refusal falls back without waiting', async () => {
  const fast = slowWasm();
  fast.give();
  const gpu = await Engine.open(fast.wasm, () => {});
  assert.deepEqual([gpu.backend, gpu.late], ['gpu', null]);
  const refused = /** @type {any} */ ({ Playground: { create: () => Promise.reject(Object.assign(new Error('no adapter'), { kind: 'no-adapter' })), createCpu: () => ({ backend: 'cpu' }) } });
  const cpu = await Engine.open(refused, () => {});
  assert.deepEqual([cpu.backend, cpu.fallback?.kind, cpu.late], ['cpu', 'no-adapter', null]);
});
