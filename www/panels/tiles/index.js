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

/** @param {{ session: any, t: any, view: any }} context */
export function create({ session, t, view }) {
  const tiles = new TilesView({
    t,
    onSchedule: () => session.track(refresh(session.generation)),
    onSuggest: () => session.applyPreset({ ...MANY_TILES }),
    onChange: () => view.stepChanged(),
    onExport: (format) => save(view.root, tiles.trace && exportFiles('tiles', tiles.trace), format, session, t),
  });

  /** One run of the tile view's method with its tile states. */
  async function refresh(generation) {
    const method = view.tileMethod();
    const count = Math.ceil(session.flags.length / layout.tile);
    const { inFlight, stalled } = tiles.schedule;
    try {
      const trace = await session.withFlags(session.engine, (pg) => {
        if (generation !== session.generation || method !== view.tileMethod()) return null;
        return pg.tileTrace(method, inFlight, stalled !== null && stalled < count ? stalled : undefined);
      });
      if (!trace || generation !== session.generation || method !== view.tileMethod()) return;
      tiles.setTrace(trace, { step: session.pending.step, tile: session.pending.tile });
      session.pending.step = null;
      session.pending.tile = null;
      view.stepChanged();
    } catch (e) {
      if (generation === session.generation) session.alert('gpu-run', t('work.tileTraceFailed', { error: e?.message ?? e }));
    }
  }

  return {
    element: tiles.element,
    styles: [stepsSheet(), codeSheet(), exportSheet(), sheet()],
    stepper: tiles,
    refresh,
    engineChanged: (_engine, sources) => tiles.code.setSources(sources),
    destroy: () => tiles.destroy(),
  };
}
