// The atomic view panel: the slot each visible invocation got from atomicAdd,
// and "Run ×R", which repeats the unordered methods beside the scan (view.js).

import { AtomicView } from './view.js';
import { layout } from '../../core/layout.js';
import { lazySheet } from '../shared/sheet.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const atomic = new AtomicView({
    t,
    onMethod: () => context.track(refresh(context.signal())),
    onRepeat: (runs) => context.track(repeat(runs)),
  });

  /** The slots of the chosen atomic method on the current flags. @param {AbortSignal} signal */
  async function refresh(signal) {
    const flags = context.flags();
    const engine = context.engine();
    const max = layout.maxTraceFlags;
    if (flags.length > max) {
      atomic.showSlots(null, flags, t('work.slotsTooMany', { max, n: flags.length }));
      return;
    }
    if (!engine) return;
    try {
      const trace = await context.withFlags(engine, (pg) => (signal.aborted ? null : pg.atomicTrace(atomic.method)));
      if (trace && !signal.aborted) atomic.showSlots(trace, flags);
    } catch (e) {
      if (!signal.aborted) context.alert('gpu-run', t('work.atomicTraceFailed', { error: e?.message ?? e }));
    }
  }

  /** The unordered methods and the scan, `runs` times each on the same flags. */
  async function repeat(runs) {
    const engine = context.engine();
    if (!engine) return;
    const signal = context.signal();
    const available = context.methods();
    const unordered = layout.methods.filter((m) => !m.preservesOrder).map((m) => m.name);
    const methods = [...unordered.filter((m) => available.includes(m)), 'scan'];
    const results = methods.map((method) => ({ method, runs: [] }));
    atomic.setBusy(true);
    const done = context.progress(t('work.repeating', { runs }), 0, { near: atomic.progress });
    try {
      for (let k = 0; k < runs && context.alive(); k++) {
        done.set(t('work.repeatRun', { k: k + 1, runs, methods: methods.join(', '), n: context.flags().length }));
        for (const entry of results) {
          const r = await context.withFlags(engine, async (pg) => {
            await engine.compileIn(pg, entry.method);
            return pg.run(entry.method);
          });
          entry.runs.push({ indices: r.indices, hash: r.hash });
        }
      }
      if (!context.alive()) return;
      atomic.showRepeats(results, { backend: engine.backend, adapter: engine.pg?.adapterName, n: context.flags().length });
      // The canvas and the results show the chosen method again.
      if (!signal.aborted) {
        const r = await context.withFlags(engine, (pg) => pg.run(context.method()));
        context.showResult(r);
      }
    } catch (e) {
      if (context.alive()) context.alert('gpu-run', t('work.repeatFailed', { error: e?.message ?? e }));
    } finally {
      done();
      atomic.setBusy(false);
    }
  }

  return {
    element: atomic.element,
    styles: [sheet()],
    refresh,
    methodChanged: (method) => {
      if (method === 'atomic' || method === 'aggregated') atomic.choose(method);
    },
  };
}
