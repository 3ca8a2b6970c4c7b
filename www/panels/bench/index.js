// The benchmark panel: every chosen method over the chosen sizes on the
// visitor's GPU (compile timed apart, calibrate, measure), drawn by view.js
// from bench.js's rows; it runs only when asked, and Cancel stops it after
// the measurement in flight.

import { BenchPanel } from './view.js';
import { isSoftwareAdapter } from '../../core/engine.js';
import { benchCsv, benchRow, repsFor, SAMPLES } from './bench.js';
import { lazySheet } from '../shared/sheet.js';
import { exportSheet, save, toJson } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  /** @type {{ cancelled: boolean, abort: AbortController } | null} */
  let bench = null;
  const panel = new BenchPanel({
    t,
    onRun: () => context.track(run()),
    onCancel: () => cancel(),
    onExport: (format) => save(context.root, panel.rows.length ? { name: 'benchmark', json: () => [toJson(panel.rows)], csv: () => [benchCsv(panel.rows)] } : null, format, context, t),
  });

  async function run() {
    const engine = context.engine();
    if (!engine || bench) return;
    const { methods, sizes, density } = panel.selection();
    const mine = { cancelled: false, abort: new AbortController() };
    bench = mine;
    const total = methods.length * sizes.length;
    panel.start(total);
    let done = 0;
    try {
      for (const method of methods) {
        if (mine.cancelled || !context.alive()) break;
        panel.step(done, t('bench.compiling', { method }));
        await engine.exec((pg) => engine.compileIn(pg, method));
        const compileMs = engine.compiled.get(method) ?? 0;
        panel.setCompile(method, compileMs);
        for (const n of sizes) {
          if (mine.cancelled || !context.alive()) break;
          panel.step(done, t('bench.progress', { method, n, done: done + 1, total }));
          const first = await engine.exec((pg) => pg.benchmark(method, n, 1, 1, mine.abort.signal, density));
          const reps = repsFor(first.samplesNs[0], first.resolutionNs);
          if (mine.cancelled || !context.alive()) break;
          const r = await engine.exec((pg) => pg.benchmark(method, n, reps, SAMPLES, mine.abort.signal, density));
          panel.addRow(benchRow(r, compileMs));
          done++;
          panel.step(done, t('bench.progress', { method, n, done, total }));
        }
      }
      if (context.alive()) panel.finish(mine.cancelled ? 'cancelled' : 'done');
    } catch (e) {
      if (!context.alive()) return;
      if (e?.kind === 'aborted') panel.finish('cancelled');
      else panel.finish(t('bench.failed', { error: e?.message ?? e }));
    } finally {
      bench = null;
    }
  }

  function cancel() {
    if (bench) {
      bench.cancelled = true;
      // The call in flight stops at its next sample.
      bench.abort.abort();
    }
  }

  return {
    element: panel.element,
    styles: [exportSheet(), sheet()],
    engineChanged: (engine) => {
      const methods = Array.from(engine.pg.methods ?? context.methods());
      panel.configure({
        methods,
        maxFlags: engine.pg.maxFlags,
        software: engine.backend !== 'gpu' || isSoftwareAdapter(engine.pg.adapterName),
        adapter: engine.backend === 'gpu' ? engine.pg.adapterName : null,
      });
    },
    keep: () => (panel.rows.length ? { rows: panel.rows } : null),
    restore: ({ rows }) => panel.restore(rows),
    destroy: cancel,
  };
}
