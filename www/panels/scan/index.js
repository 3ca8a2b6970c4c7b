// The stepper panel: the chosen method's steps from its own trace, drawn by
// view.js: the scan's (steps.js), the atomic methods' (atomic-steps.js),
// packed-scan's (packed-steps.js); the tile methods step in the tile view,
// and where it is not shown, this panel steps the scan and says so. The trace
// is read back from the GPU after every run; arrays past maxTraceFlags are
// traced on a window of their first flags, on an engine of their own.

import { Stepper } from './view.js';
import { firstWrong, scanModel } from './steps.js';
import { layout } from '../../core/layout.js';
import { SCAN_STEPPER } from '../../core/panels.js';
import { lazySheet } from '../shared/sheet.js';
import { atomicTraceOf, pageRunOf } from '../shared/slots.js';
import { stepsSheet } from '../shared/step-controls.js';
import { codeSheet } from '../shared/excerpt.js';
import { exportSheet, exportFiles, save } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/**
 * The model and the trace call of each method this panel steps. The other
 * methods' models are fetched when one is chosen: a page that steps the scan
 * does not download them.
 */
const MODELS = {
  scan: { model: () => scanModel, trace: (pg) => pg.scanTrace() },
  atomic: { model: once(() => import('./atomic-steps.js').then((m) => m.atomicModel('atomic'))), trace: (pg) => pg.atomicTrace('atomic'), unordered: true },
  aggregated: { model: once(() => import('./atomic-steps.js').then((m) => m.atomicModel('aggregated'))), trace: (pg) => pg.atomicTrace('aggregated'), unordered: true },
  'packed-scan': { model: once(() => import('./packed-steps.js').then((m) => m.packedModel())), trace: (pg) => pg.packedTrace() },
};

/** `make()`'s promise, made on the first call. @template T @param {() => Promise<T>} make */
function once(make) {
  /** @type {Promise<T> | null} */
  let made = null;
  return () => (made ??= make());
}

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  /** The CPU mirror the learner's trace is marked against. @type {any} */
  let mirror = null;
  const stepper = new Stepper({
    t,
    onChange: () => context.stepChanged(),
    onExport: (format) => save(context.root, stepper.trace && exportFiles(stepper.method, stepper.trace), format, context, t),
  });

  /** The chosen method's trace of the current flags (or of a window of them). @param {AbortSignal} signal */
  async function refresh(signal) {
    const flags = context.flags();
    const max = layout.maxTraceFlags;
    const method = context.method();
    const { model: modelOf, trace: traceOf, unordered } = MODELS[method] ?? MODELS.scan;
    const model = await modelOf();
    if (signal.aborted) return;
    let trace;
    /** @type {string | null} */
    let note = MODELS[method] ? null : t('scan.tileMethodHere', { method });
    let traced = flags;
    // An unordered method's steps are read from the page's own run of it: the result's order, not a new one.
    const run = unordered ? pageRunOf(context, method) : null;
    if (run && flags.length <= max) trace = atomicTraceOf(run, flags, layout.noSlot);
    else if (flags.length <= max) {
      const engine = context.engine();
      if (!engine) return;
      trace = await context.withFlags(engine, (pg) => (signal.aborted ? null : traceOf(pg)));
    } else {
      const engine = await context.traceEngine();
      traced = flags.subarray(0, max);
      trace = await engine.exec(async (pg) => {
        if (signal.aborted) return null;
        pg.setFlags(traced);
        return traceOf(pg);
      });
      note = [note, t('work.traceWindow', { n: flags.length, max, blocks: max / model.windowSize() })].filter(Boolean).join(' ');
    }
    if (!trace || signal.aborted) return;
    // The atomic and packed traces leave the flags out: they are the ones traced.
    trace.flags ??= traced;
    // The learner's kernel runs on the page (the kernel panel's Step through it): its buffers against ours.
    const learner = context.stepping().active;
    let reference = null;
    let start = context.takeStart(['step', 'block']);
    if (learner && context.engine()?.backend === 'gpu' && flags.length <= max && model.ordered) {
      mirror ??= context.kernels().Playground.createCpu();
      mirror.setFlags(flags);
      reference = await traceOf(mirror);
      if (signal.aborted) return;
      reference.flags ??= flags;
      if (context.takeOpenAtWrong()) start = { ...start, ...firstWrong(trace, reference, t, model) };
      note = [note, t('scan.learner')].filter(Boolean).join(' ');
    } else if (learner && context.engine()?.backend === 'gpu') {
      note = [note, t('scan.learnerUnordered')].filter(Boolean).join(' ');
    }
    context.traced(flags, model.method);
    context.cardTitle(SCAN_STEPPER, t('scan.card', { method: model.method }));
    stepper.setTrace(trace, { note, step: start.step, block: start.block, reference, model });
    context.stepChanged();
  }

  return {
    element: stepper.element,
    styles: [stepsSheet(), codeSheet(), exportSheet(), sheet()],
    stepper,
    refresh,
    engineChanged: (_engine, sources) => stepper.code.setSources(sources),
    sourcesChanged: (sources) => stepper.code.setSources(sources),
    destroy: () => {
      stepper.destroy();
      mirror?.free();
    },
  };
}
