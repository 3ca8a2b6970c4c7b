// The flag editor panel: cells (or a density strip), presets and a text box
// (view.js); every edit goes to the session, which compacts again.

import { FlagEditor } from './view.js';
import { lazySheet } from '../shared/sheet.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const editor = new FlagEditor({
    t,
    parseFlags: (text) => context.kernels().parseFlags(text),
    onFlags: (flags, preset, why) => (flags ? context.setFlags(flags, preset, why) : context.alert('input', why)),
    onPreset: (preset) => context.applyPreset(preset),
  });
  return {
    element: editor.element,
    styles: [sheet()],
    showFlags: (flags, preset) => editor.show(flags, preset),
    destroy: () => editor.destroy(),
  };
}
