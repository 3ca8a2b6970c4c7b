// The order panel: why order matters, from real GPU runs (view.js draws, the
// numbers are order.js's). It runs once it scrolls into view, on an engine of
// its own (its own flags: the scene), and on its button.

import { OrderPanel } from './view.js';
import { whyStable } from '../shared/stable.js';
import { lazySheet } from '../shared/sheet.js';
import { csvChunks, exportSheet, save, toJson } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** The order panel's draw orders: every frame's index buffer of every method. */
function orderFiles({ scene, runs }) {
  const rows = [];
  for (const run of runs) {
    run.frames.forEach((frame, f) => {
      frame.forEach((index, slot) => {
        rows.push(`${run.method},${f},${slot},${index}`);
      });
    });
  }
  return {
    name: 'draw-orders',
    json: () => [toJson({ scene, runs: runs.map((r) => ({ method: r.method, frames: r.frames })) })],
    csv: () => csvChunks(['method', 'frame', 'slot', 'index'], rows.length, (k) => rows[k]),
  };
}

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  /** @type {any} */
  let engine = null;
  let running = false;
  /** Where the results shown were run (a language switch shows them again). */
  let shownOn = { backend: 'gpu', adapter: '' };
  /** @type {IntersectionObserver | null} */
  let observer = null;
  const panel = new OrderPanel({
    t,
    onRun: () => context.track(run()),
    onExport: (format) => save(context.root, panel.results && orderFiles(panel.results), format, context, t),
  });
  panel.showPending(context.methods());

  /** Runs once it scrolls into view (it compiles every method). */
  function shown() {
    observer?.disconnect();
    observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting) || panel.results || !context.engine() || running) return;
      observer?.disconnect();
      context.track(run());
    });
    observer.observe(panel.element);
  }

  /** Every method on the order scene, frame after frame. */
  async function run() {
    if (!context.engine() || running) return;
    running = true;
    const scene = panel.scene();
    panel.setBusy(true);
    try {
      engine ??= await context.sideEngine();
      const flags = context.kernels().presetFlags('random', scene.n, scene.density, scene.seed);
      const { width, height } = panel.imageSize();
      const methods = Array.from(engine.pg.methods ?? context.methods());
      const runs = [];
      for (const method of methods) {
        const frames = [];
        let first = null;
        for (let f = 0; f < scene.frames && context.alive(); f++) {
          panel.showProgress(t('order.progress', { method, frame: f + 1, frames: scene.frames }));
          const r = await engine.exec(async (pg) => {
            if (f === 0) {
              pg.setFlags(flags);
              await engine.compileIn(pg, method);
              return pg.drawOrder(method, width, height, scene.groups);
            }
            return pg.run(method);
          });
          if (f === 0) first = r;
          frames.push(r.indices);
        }
        if (!context.alive()) return;
        runs.push({ method, frames, image: first.image, imageWidth: first.imageWidth, imageHeight: first.imageHeight });
      }
      shownOn = { backend: engine.backend, adapter: engine.pg?.adapterName ?? '' };
      panel.show(runs, scene, { backend: engine.backend, why: whyStable(t, engine.backend, shownOn.adapter, scene.n) });
      panel.showProgress(t('order.done', { methods: runs.length, frames: scene.frames }));
      context.clearAlert('order');
    } catch (e) {
      if (context.alive()) {
        panel.showProgress('');
        context.alert('order', t('order.failed', { error: e?.message ?? e }));
      }
    } finally {
      running = false;
      panel.setBusy(false);
    }
  }

  return {
    element: panel.element,
    styles: [exportSheet(), sheet()],
    shown,
    /** A new engine: earlier results are stale, the scene runs again on the next look. */
    engineChanged: () => {
      engine?.dispose();
      engine = null;
      panel.showPending(context.methods());
      if (context.visible('order')) shown();
    },
    keep: () => (panel.results ? { ...panel.results, ...shownOn } : null),
    restore: ({ runs, scene, backend, adapter }) => {
      shownOn = { backend, adapter };
      panel.show(runs, scene, { backend, why: whyStable(t, backend, adapter, scene.n) });
    },
    destroy: () => {
      observer?.disconnect();
      engine?.dispose();
      engine = null;
    },
  };
}
