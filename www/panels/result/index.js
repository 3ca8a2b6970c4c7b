// The result panel: the method, "Run again", and what the run gave (view.js);
// the flags and the run download as JSON and CSV.

import { ResultPanel } from './view.js';
import { lazySheet } from '../shared/sheet.js';
import { exportSheet, exportFiles, save } from '../shared/export.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {{ session: any, t: any, view: any }} context */
export function create({ session, t, view }) {
  const onExport = (what, format) => {
    const data = what === 'flags' ? { flags: session.flags, preset: session.preset } : session.lastRun;
    return save(view.root, data && exportFiles(what, data), format, session, t);
  };
  const result = new ResultPanel({ t, onMethod: (m) => session.setMethod(m), onRun: () => session.refresh({ traces: false }), onExport });
  return {
    element: result.element,
    styles: [exportSheet(), sheet()],
    showMethods: (methods, method) => result.showMethods(methods, method),
    methodChanged: (method) => result.check(method),
    showResult: (r) => result.show(r, session.engine?.compiled.get(r.method) ?? null),
  };
}
