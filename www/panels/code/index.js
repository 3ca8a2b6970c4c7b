// The code panel: every kernel's WGSL as the GPU compiled it (view.js),
// following the chosen method, with the visible stepper's lines marked.

import { CodePanel } from './view.js';
import { lazySheet } from '../shared/sheet.js';
import { codeSheet } from '../shared/excerpt.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** Puts `text` on the clipboard; false when the browser refuses. */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const code = new CodePanel({ t, onCopy: copy });
  return {
    element: code.element,
    styles: [codeSheet(), sheet()],
    engineChanged: (engine, sources) => {
      code.setSources(sources, engine.backend);
      // The visible stepper's step, if it came first.
      const mark = context.currentMark();
      if (mark.ref) code.mark(mark.ref, mark.method);
    },
    sourcesChanged: (sources) => code.setSources(sources, context.engine()?.backend ?? 'cpu'),
    showResult: (r) => code.follow(r.method),
    mark: (ref, method) => code.mark(ref, method),
  };
}
