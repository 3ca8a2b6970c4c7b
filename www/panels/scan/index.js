// The scan stepper panel: the real scan's steps (steps.js) drawn by view.js.
// Its trace is read back from the GPU after every run; arrays past
// maxTraceFlags are traced on a window of their first blocks, on an engine of
// their own.

import { Stepper } from './view.js';
import { firstWrong } from './steps.js';
import { layout } from '../../core/layout.js';
import { lazySheet } from '../shared/sheet.js';
import { stepsSheet } from '../shared/step-controls.js';
import { codeSheet } from '../shared/excerpt.js';
import { exportSheet, exportFiles, save } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  /** The CPU mirror the learner's trace is marked against. @type {any} */
  let mirror = null;
  const stepper = new Stepper({
    t,
    onChange: () => context.stepChanged(),
    onExport: (format) => save(context.root, stepper.trace && exportFiles('scan', stepper.trace), format, context, t),
  });

  /** The scan's trace of the current flags (or of a window of them). @param {AbortSignal} signal */
  async function refresh(signal) {
    const flags = context.flags();
    const max = layout.maxTraceFlags;
    let trace;
    let note = null;
    if (flags.length <= max) {
      const engine = context.engine();
      if (!engine) return;
      trace = await context.withFlags(engine, (pg) => (signal.aborted ? null : pg.scanTrace()));
    } else {
      const engine = await context.traceEngine();
      const window = flags.subarray(0, max);
      trace = await engine.exec(async (pg) => {
        if (signal.aborted) return null;
        pg.setFlags(window);
        return pg.scanTrace();
      });
      note = t('work.traceWindow', { n: flags.length, max, blocks: max / layout.block });
    }
    if (!trace || signal.aborted) return;
    // The learner's kernel runs on the page (the kernel panel's Step through it): its buffers against ours.
    const learner = context.kernelState().active;
    let reference = null;
    let start = context.takeStart(['step', 'block']);
    if (learner && context.engine()?.backend === 'gpu' && flags.length <= max) {
      mirror ??= context.kernels().Playground.createCpu();
      mirror.setFlags(flags);
      reference = await mirror.scanTrace();
      if (signal.aborted) return;
      if (learner.openAtWrong) {
        learner.openAtWrong = false;
        start = { ...start, ...firstWrong(trace, reference, t) };
      }
      note = [note, t('scan.learner')].filter(Boolean).join(' ');
    }
    context.traced(flags);
    stepper.setTrace(trace, { note, step: start.step, block: start.block, reference });
    context.stepChanged();
  }

  return {
    element: stepper.element,
    styles: [stepsSheet(), codeSheet(), exportSheet(), sheet()],
    stepper,
    refresh,
    engineChanged: (_engine, sources) => stepper.code.setSources(sources),
    destroy: () => {
      stepper.destroy();
      mirror?.free();
    },
  };
}
