// The scan stepper panel: the real scan's steps (steps.js) drawn by view.js.
// Its trace is read back from the GPU after every run; arrays past
// maxTraceFlags are traced on a window of their first blocks, on an engine of
// their own.

import { Stepper } from './view.js';
import { layout } from '../../core/layout.js';
import { lazySheet } from '../shared/sheet.js';
import { stepsSheet } from '../shared/step-controls.js';
import { codeSheet } from '../shared/excerpt.js';
import { exportSheet, exportFiles, save } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {{ session: any, t: any, view: any }} context */
export function create({ session, t, view }) {
  const stepper = new Stepper({
    t,
    onChange: () => view.stepChanged(),
    onExport: (format) => save(view.root, stepper.trace && exportFiles('scan', stepper.trace), format, session, t),
  });

  /** The scan's trace of the current flags (or of a window of them). */
  async function refresh(generation) {
    const flags = session.flags;
    const max = layout.maxTraceFlags;
    let trace;
    let note = null;
    if (flags.length <= max) {
      trace = await session.withFlags(session.engine, (pg) => (generation === session.generation ? pg.scanTrace() : null));
    } else {
      const engine = await session.traceEngine();
      const window = flags.subarray(0, max);
      trace = await engine.exec(async (pg) => {
        if (generation !== session.generation) return null;
        pg.setFlags(window);
        return pg.scanTrace();
      });
      note = t('work.traceWindow', { n: flags.length, max, blocks: max / layout.block });
    }
    if (!trace || generation !== session.generation) return;
    session.traced = flags;
    const { step, block } = session.pending;
    stepper.setTrace(trace, { note, step, block });
    session.pending.step = null;
    session.pending.block = null;
    view.stepChanged();
  }

  return {
    element: stepper.element,
    styles: [stepsSheet(), codeSheet(), exportSheet(), sheet()],
    stepper,
    refresh,
    engineChanged: (_engine, sources) => stepper.code.setSources(sources),
    destroy: () => stepper.destroy(),
  };
}
