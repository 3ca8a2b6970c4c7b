// The atomic view panel: the slot each visible invocation got from atomicAdd,
// and "Run ×R", which repeats the unordered methods beside the scan (view.js).

import { AtomicView } from './view.js';
import { layout } from '../../core/layout.js';
import { lazySheet } from '../shared/sheet.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {{ session: any, t: any }} context */
export function create({ session, t }) {
  const atomic = new AtomicView({
    t,
    onMethod: () => session.track(refresh(session.generation)),
    onRepeat: (runs) => session.track(repeat(runs)),
  });

  async function refresh(generation) {
    const flags = session.flags;
    const max = layout.maxTraceFlags;
    if (flags.length > max) {
      atomic.showSlots(null, flags, t('work.slotsTooMany', { max, n: flags.length }));
      return;
    }
    try {
      const trace = await session.withFlags(session.engine, (pg) => (generation === session.generation ? pg.atomicTrace(atomic.method) : null));
      if (trace && generation === session.generation) atomic.showSlots(trace, flags);
    } catch (e) {
      if (generation === session.generation) session.alert('gpu-run', t('work.atomicTraceFailed', { error: e?.message ?? e }));
    }
  }

  /** The unordered methods and the scan, `runs` times each on the same flags. */
  async function repeat(runs) {
    const engine = session.engine;
    if (!engine) return;
    const generation = session.generation;
    const available = session.methods();
    const unordered = layout.methods.filter((m) => !m.preservesOrder).map((m) => m.name);
    const methods = [...unordered.filter((m) => available.includes(m)), 'scan'];
    const results = methods.map((method) => ({ method, runs: [] }));
    atomic.setBusy(true);
    const done = session.progress(t('work.repeating', { runs }), 0, { near: atomic.progress });
    try {
      for (let k = 0; k < runs && !session.destroyed; k++) {
        done.set(t('work.repeatRun', { k: k + 1, runs, methods: methods.join(', '), n: session.flags.length }));
        for (const entry of results) {
          const r = await session.withFlags(engine, async (pg) => {
            await engine.compileIn(pg, entry.method);
            return pg.run(entry.method);
          });
          entry.runs.push({ indices: r.indices, hash: r.hash });
        }
      }
      if (session.destroyed) return;
      atomic.showRepeats(results, { backend: engine.backend, adapter: engine.pg?.adapterName, n: session.flags.length });
      // The canvas and the results show the chosen method again.
      if (generation === session.generation) {
        const r = await session.withFlags(engine, (pg) => pg.run(session.method));
        session.showResult(r);
      }
    } catch (e) {
      if (!session.destroyed) session.alert('gpu-run', t('work.repeatFailed', { error: e?.message ?? e }));
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
