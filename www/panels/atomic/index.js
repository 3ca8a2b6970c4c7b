// The atomic view panel: the slot each visible invocation got from atomicAdd;
// "Run ×R", which repeats the unordered methods beside the scan on the
// visitor's flags; and the search for a size where this adapter does reorder
// them (view.js).

import { AtomicView, movedMethods } from './view.js';
import { layout } from '../../core/layout.js';
import { isSoftwareAdapter } from '../../core/engine.js';
import { lazySheet } from '../shared/sheet.js';
import { atomicTraceOf, pageRunOf } from '../shared/slots.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** The sizes the search for a reordering tries, in turn; runs of each method at each. */
const SEARCH_SIZES = [1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20];
const SEARCH_RUNS = 4;
/** The search's flags at each size: the `random` preset at this density and seed (so the page can show them). */
const SEARCH_DENSITY = 0.5;
const SEARCH_SEED = 1;
/** A software adapter runs workgroups in turn: the search stops here on one (its runs are slow). */
const SOFTWARE_MAX = 1 << 16;

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const atomic = new AtomicView({
    t,
    onMethod: () => context.track(refresh(context.signal())),
    onRepeat: (runs) => context.track(repeat(runs)),
    onSearch: () => context.track(search()),
    onUseFound: (outcome) => context.track(useFound(outcome)),
  });
  /** The search's engine (its own flags), made on its first use. @type {any} */
  let side = null;

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
      // The page's own run where it is of this method: one order in every panel.
      const run = pageRunOf(context, atomic.method);
      const trace = run ? atomicTraceOf(run, flags, layout.noSlot) : await context.withFlags(engine, (pg) => (signal.aborted ? null : pg.atomicTrace(atomic.method)));
      if (trace && !signal.aborted) atomic.showSlots(trace, flags);
    } catch (e) {
      if (signal.aborted) return;
      context.alert('gpu-run', t('work.atomicTraceFailed', { error: e?.message ?? e }));
      // "Run ×R" and the search still work without the slots.
      atomic.element.hidden = false;
    }
  }

  /** The unordered methods and the scan, `runs` times each on the same flags. */
  async function repeat(runs) {
    const engine = context.engine();
    if (!engine) return;
    const signal = context.signal();
    const methods = compared();
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

  /** The unordered methods this playground has, and the scan to compare with. */
  function compared() {
    const available = context.methods();
    const unordered = layout.methods.filter((m) => !m.preservesOrder).map((m) => m.name);
    return [...unordered.filter((m) => available.includes(m)), 'scan'];
  }

  /**
   * Grows the flags until an unordered method gives more than one order in
   * SEARCH_RUNS runs on this adapter, and shows those runs side by side; says
   * plainly where it never does (the CPU reference, a software adapter).
   */
  async function search() {
    const engine = context.engine();
    if (!engine) return;
    if (engine.backend === 'cpu') {
      atomic.showSearch({ found: false, reason: t('atomic.search.cpu') });
      return;
    }
    const methods = compared();
    atomic.setBusy(true);
    const done = context.progress(t('atomic.search.start'), 0, { near: atomic.progress });
    try {
      side ??= await context.sideEngine();
      const adapter = side.pg?.adapterName ?? '';
      const software = isSoftwareAdapter(adapter);
      const sizes = SEARCH_SIZES.filter((n) => !software || n <= SOFTWARE_MAX);
      for (const n of sizes) {
        const flags = context.kernels().presetFlags('random', n, SEARCH_DENSITY, SEARCH_SEED);
        // The search's own engine: its flags stay set for every run at this size.
        await side.exec((pg) => pg.setFlags(flags));
        const results = methods.map((method) => ({ method, runs: [] }));
        for (const entry of results) {
          for (let k = 0; k < SEARCH_RUNS && context.alive(); k++) {
            done.set(t('atomic.search.progress', { n, method: entry.method, k: k + 1, runs: SEARCH_RUNS }));
            const r = await side.exec(async (pg) => {
              await side.compileIn(pg, entry.method);
              return pg.run(entry.method);
            });
            entry.runs.push({ indices: r.indices, hash: r.hash });
          }
        }
        if (!context.alive()) return;
        if (movedMethods(results).length) {
          atomic.showSearch({ found: true, n, results, backend: side.backend, adapter });
          return;
        }
      }
      const max = sizes.at(-1);
      const reason = software ? t('atomic.search.software', { adapter, max, runs: SEARCH_RUNS }) : t('atomic.search.gpu', { max, runs: SEARCH_RUNS });
      atomic.showSearch({ found: false, reason });
    } catch (e) {
      if (context.alive()) context.alert('gpu-run', t('work.repeatFailed', { error: e?.message ?? e }));
    } finally {
      done();
      atomic.setBusy(false);
    }
  }

  /** The flags the search found reordering, on the page, with a method that reordered them (unless the page's did). */
  async function useFound({ n, results }) {
    const moved = movedMethods(results);
    await context.applyPreset({ name: 'random', n, density: SEARCH_DENSITY, seed: SEARCH_SEED });
    if (context.alive() && !moved.includes(context.method())) context.setMethod(moved[0]);
  }

  return {
    element: atomic.element,
    styles: [sheet()],
    refresh,
    methodChanged: (method) => {
      if (method === 'atomic' || method === 'aggregated') atomic.choose(method);
    },
    engineChanged: () => {
      side?.dispose();
      side = null;
    },
    keep: () => (atomic.shown.repeats || atomic.shown.search ? atomic.shown : null),
    restore: (kept) => atomic.restore(kept),
    destroy: () => side?.dispose(),
  };
}
