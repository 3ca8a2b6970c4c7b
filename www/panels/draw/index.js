// The drawIndirect panel: the visible instances drawn by the GPU (view.js),
// on a canvas or, where presenting fails, an image read back. It exists only
// on the GPU.

import { DrawPanel } from './view.js';
import { lazySheet } from '../shared/sheet.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const draw = new DrawPanel({ t, onResize: () => context.redraw() });
  return {
    element: draw.element,
    styles: [sheet()],
    attach: (engine, mode) => draw.attach(engine, mode),
    reattach: (pg) => draw.attachTo(pg),
    showResult: (r) => draw.show(r, context.flags().length),
    shown: () => {
      if (draw.mode && draw.fit()) context.redraw();
    },
    destroy: () => draw.destroy(),
  };
}
