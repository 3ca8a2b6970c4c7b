// The flag editor panel: cells (or a density strip), presets and a text box
// (view.js); every edit goes to the session, which compacts again.

import { FlagEditor } from './view.js';
import { lazySheet } from '../shared/sheet.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {{ session: any, t: any }} context */
export function create({ session, t }) {
  const editor = new FlagEditor({
    t,
    parseFlags: (text) => session.wasm.parseFlags(text),
    onFlags: (flags, preset, why) => (flags ? session.setFlags(flags, preset, why) : session.alert('input', why)),
    onPreset: (preset) => session.applyPreset(preset),
  });
  return {
    element: editor.element,
    styles: [sheet()],
    showFlags: (flags, preset) => editor.show(flags, preset),
    destroy: () => editor.destroy(),
  };
}
