// The tile view panel of the single-pass methods: the tiles' states read back
// from the GPU, the look-back chains of a simulated schedule (tile-steps.js),
// drawn by view.js.

import { TilesView } from './view.js';
import { layout } from '../../core/layout.js';
import { lazySheet } from '../shared/sheet.js';
import { stepsSheet } from '../shared/step-controls.js';
import { codeSheet } from '../shared/excerpt.js';
import { exportSheet, exportFiles, save } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** What the tile view suggests when the array has a single tile. */
export const MANY_TILES = Object.freeze({ name: 'random', n: 100_000, density: 0.5, seed: 1 });

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const tiles = new TilesView({
    t,
    onSchedule: () => context.track(refresh(context.signal())),
    onSuggest: () => context.applyPreset({ ...MANY_TILES }),
    onChange: () => context.stepChanged(),
    onExport: (format) => save(context.root, tiles.trace && exportFiles('tiles', tiles.trace), format, context, t),
  });

  /** One run of the tile view's method with its tile states. @param {AbortSignal} signal */
  async function refresh(signal) {
    const method = context.tileMethod();
    const count = Math.ceil(context.flags().length / layout.tile);
    const { inFlight, stalled } = tiles.schedule;
    const engine = context.engine();
    if (!engine) return;
    const stale = () => signal.aborted || method !== context.tileMethod();
    try {
      const trace = await context.withFlags(engine, (pg) => {
        if (stale()) return null;
        return pg.tileTrace(method, inFlight, stalled !== null && stalled < count ? stalled : undefined);
      });
      if (!trace || stale()) return;
      // A method whose order varies run to run (tile-atomic): its tiles ran again here, so the result shows
      // this run, the one the tiles show (the draw places each object at its own cell, in any order).
      const shown = context.lastRun();
      if (!layout.methods.find((m) => m.name === method)?.preservesOrder && shown?.method === method && shown.hash !== trace.hash) {
        context.showResult({ ...shown, indices: trace.indices, count: trace.count, instanceCount: trace.instanceCount, hash: trace.hash });
      }
      const { step, tile } = context.takeStart(['step', 'tile']);
      tiles.setTrace(trace, { step, tile });
      context.stepChanged();
    } catch (e) {
      if (signal.aborted) return;
      context.alert('gpu-run', t('work.tileTraceFailed', { error: e?.message ?? e }));
      // Its schedule can still be changed and tried again.
      tiles.element.hidden = false;
    }
  }

  return {
    element: tiles.element,
    styles: [stepsSheet(), codeSheet(), exportSheet(), sheet()],
    stepper: tiles,
    refresh,
    engineChanged: (_engine, sources) => tiles.code.setSources(sources),
    sourcesChanged: (sources) => tiles.code.setSources(sources),
    destroy: () => tiles.destroy(),
  };
}
