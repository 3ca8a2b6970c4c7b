// The result panel: the method, "Run again", and what the run gave (view.js);
// the flags and the run download as JSON and CSV.

import { ResultPanel } from './view.js';
import { lazySheet } from '../shared/sheet.js';
import { exportSheet, exportFiles, save } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const onExport = async (what, format) => {
    let data = what === 'flags' ? { flags: context.flags(), preset: context.preset() } : context.lastRun();
    // A large run whose rest is still on its way: every index first (the download is of all of them).
    if (data?.partial) {
      const rest = await context.engine()?.exec((pg) => pg.readRun());
      data = rest ? { ...data, indices: rest.indices, hash: rest.hash, partial: false } : data;
    }
    return save(context.root, data && exportFiles(what, data), format, context, t);
  };
  const result = new ResultPanel({ t, onMethod: (m) => context.setMethod(m), onRun: () => context.run({ traces: false }), onExport });
  return {
    element: result.element,
    styles: [exportSheet(), sheet()],
    showMethods: (methods, method) => result.showMethods(methods, method),
    methodChanged: (method) => result.check(method),
    showResult: (r) => result.show(r, context.engine()?.compiled.get(r.method) ?? null),
  };
}
