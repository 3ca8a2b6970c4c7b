// Device loss and the way back (www/playground/recovery.js), driven with fake
// engines and a fake clock: the fallback at once, the first retry after 1 s,
// doubling to 30 s, a retry now on the button, the canvas's loss retried at
// once drawing offscreen, nothing after the playground is gone.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Recovery, RETRY_FIRST_MS, RETRY_MAX_MS } from '../../www/playground/recovery.js';

/** An engine on `backend`; `fallBackToCpu` turns it into the CPU reference. */
function engine(backend) {
  const e = {
    backend,
    fallback: null,
    disposed: false,
    fallBackToCpu(fallback) {
      e.backend = 'cpu';
      e.fallback = fallback;
      return Promise.resolve();
    },
    dispose() {
      e.disposed = true;
    },
  };
  return e;
}

/** A playground around the recovery: its engine, alerts, a clock of planned calls, and what `open` gives next. */
function harness({ drawMode = 'image', opens = [] } = {}) {
  const h = {
    alive: true,
    current: engine('gpu'),
    drawMode,
    alerts: new Map(),
    timers: [],
    used: [],
    refreshed: 0,
    opened: 0,
    work: [],
  };
  h.recovery = new Recovery({
    alive: () => h.alive,
    engine: () => h.current,
    drawMode: () => h.drawMode,
    lostUpload: () => {},
    open: async () => {
      h.opened++;
      return opens.shift() ?? engine('cpu');
    },
    useEngine: async (e, mode) => {
      h.current = e;
      h.used.push(mode);
    },
    showEngine: () => {},
    refresh: async () => {
      h.refreshed++;
    },
    track: (p) => {
      h.work.push(p);
      return p;
    },
    later: (fn, ms) => {
      const timer = { fn, ms, cancelled: false };
      h.timers.push(timer);
      return timer;
    },
    cancel: (timer) => {
      timer.cancelled = true;
    },
    alert: (kind, message, actions = []) => h.alerts.set(kind, { message, actions }),
    clearAlert: (kind) => h.alerts.delete(kind),
    t: (key, params = {}) => `${key}${JSON.stringify(params)}`,
  });
  /** Lets the promises settle. */
  h.settle = async () => {
    for (let k = 0; k < 5; k++) await Promise.all(h.work.splice(0));
    await new Promise((r) => setTimeout(r, 0));
    await Promise.all(h.work.splice(0));
  };
  /** The next planned call (the one not cancelled), run. */
  h.tick = async () => {
    const timer = h.timers.filter((x) => !x.cancelled).shift();
    h.timers = h.timers.filter((x) => x !== timer);
    timer.fn();
    await h.settle();
    return timer.ms;
  };
  return h;
}

test('a loss falls back to the CPU at once, says so, and retries after 1 s, backing off to 30 s', async () => {
  const h = harness();
  h.recovery.onGpuEvent('device-lost', 'gone');
  await h.settle();
  assert.equal(h.current.backend, 'cpu');
  assert.equal(h.current.fallback.kind, 'device-lost');
  assert.equal(h.refreshed, 1, 'the CPU reference answers at once');
  assert.match(h.alerts.get('device-lost').message, /work\.lost.*"seconds":1/);
  const waits = [];
  for (let k = 0; k < 7; k++) waits.push(await h.tick());
  assert.deepEqual(waits, [RETRY_FIRST_MS, 2000, 4000, 8000, 16_000, RETRY_MAX_MS, RETRY_MAX_MS]);
  assert.equal(h.opened, 7);
  assert.match(h.alerts.get('device-lost').message, /"seconds":30/);
});

test('back on the GPU: the alert goes, the new engine is used, no more tries', async () => {
  const gpu = engine('gpu');
  const h = harness({ opens: [engine('cpu'), gpu] });
  h.recovery.onGpuEvent('device-lost', 'gone');
  await h.settle();
  await h.tick();
  assert.ok(h.alerts.has('device-lost'));
  await h.tick();
  assert.equal(h.current, gpu);
  assert.equal(h.alerts.has('device-lost'), false);
  assert.equal(h.timers.filter((x) => !x.cancelled).length, 0);
});

test('back on the GPU, nothing said of the lost device stays: its errors after the loss are not shown, those before go', async () => {
  const gpu = engine('gpu');
  const h = harness({ opens: [gpu] });
  h.recovery.onGpuEvent('uncaptured-error', 'Buffer is invalid');
  assert.ok(h.alerts.has('gpu'), 'an error of a live device is shown');
  h.recovery.onGpuEvent('device-lost', 'gone');
  await h.settle();
  h.recovery.onGpuEvent('uncaptured-error', 'Parent device is lost');
  assert.doesNotMatch(h.alerts.get('gpu').message, /Parent device is lost/);
  await h.tick();
  assert.equal(h.current, gpu);
  assert.deepEqual([...h.alerts.keys()], []);
});

test('back on the GPU by another way (a late device): the next try clears the loss message and opens nothing', async () => {
  const h = harness();
  h.recovery.onGpuEvent('device-lost', 'gone');
  await h.settle();
  assert.ok(h.alerts.has('device-lost'));
  h.current = engine('gpu');
  await h.tick();
  assert.equal(h.opened, 0);
  assert.equal(h.alerts.has('device-lost'), false);
});

test('the retry button tries now, replacing the planned try', async () => {
  const h = harness({ opens: [engine('gpu')] });
  h.recovery.onGpuEvent('device-lost', 'gone');
  await h.settle();
  const planned = h.timers[0];
  h.alerts.get('device-lost').actions[0].onclick();
  assert.equal(planned.cancelled, true);
  assert.equal(await h.tick(), 0);
  assert.equal(h.current.backend, 'gpu');
});

test('a canvas’s first loss retries at once, drawing offscreen, without a loss message; the second is a loss', async () => {
  const h = harness({ drawMode: 'canvas', opens: [engine('gpu')] });
  h.recovery.onGpuEvent('device-lost', 'presented');
  await h.settle();
  assert.equal(h.current.fallback.kind, 'starting');
  assert.equal(h.alerts.has('device-lost'), false);
  assert.equal(await h.tick(), 0);
  assert.deepEqual(h.used, ['image']);
  h.recovery.onGpuEvent('device-lost', 'again');
  await h.settle();
  assert.ok(h.alerts.has('device-lost'), 'only the first loss is taken for the canvas');
});

test('a failed try after the canvas’s loss says it was lost', async () => {
  const h = harness({ drawMode: 'canvas' });
  h.recovery.onGpuEvent('device-lost', 'presented');
  await h.settle();
  await h.tick();
  assert.equal(h.current.fallback.kind, 'device-lost');
  assert.ok(h.alerts.has('device-lost'));
});

test('errors other than a loss are said; nothing happens once the playground is gone or on the CPU', async () => {
  const h = harness();
  h.recovery.onGpuEvent('uncaptured-error', 'bad');
  assert.match(h.alerts.get('gpu').message, /work\.gpuError/);
  h.current = engine('cpu');
  h.recovery.onGpuEvent('device-lost', 'gone');
  await h.settle();
  assert.equal(h.timers.length, 0);
  const gone = harness({ opens: [engine('gpu')] });
  gone.recovery.onGpuEvent('device-lost', 'gone');
  await gone.settle();
  gone.alive = false;
  const opened = gone.opened;
  await gone.tick();
  assert.equal(gone.opened, opened, 'no device opened for a playground that is gone');
});
