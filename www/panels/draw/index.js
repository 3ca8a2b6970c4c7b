// The drawIndirect panel: the visible instances drawn by the GPU (view.js),
// on a canvas or, where presenting fails, an image read back. It exists only
// on the GPU.

import { DrawPanel } from './view.js';
import { lazySheet } from '../shared/sheet.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {{ session: any, t: any }} context */
export function create({ session, t }) {
  const draw = new DrawPanel({ t, onResize: () => session.redraw() });
  return {
    element: draw.element,
    styles: [sheet()],
    attach: (engine, mode) => draw.attach(engine, mode),
    reattach: (pg) => draw.attachTo(pg),
    showResult: (r) => draw.show(r, session.flags.length),
    shown: () => {
      if (draw.mode && draw.fit()) session.redraw();
    },
    destroy: () => draw.destroy(),
  };
}
