// The element's attributes after start-up: each change applied to the
// session, a bad value said and the state kept (the `theme`, `lang` and
// `panels` attributes are the view's: ./mount.js).

import { methodNames } from '../core/layout.js';
import { attributeFlags } from './startup.js';
import { tooBig } from '../core/state.js';

/**
 * An observed attribute changed (`value` null: removed). Before start-up ends,
 * start-up reads them all (./startup.js).
 * @param {import('./session.js').Session} session  @param {string} name  @param {string | null} value
 */
export function attributeChanged(session, name, value) {
  session.attributes[name] = value;
  if (!session.started || !session.engine) return;
  session.clearAlert('attributes');
  const errors = [];
  switch (name) {
    case 'kernel':
    case 'editable':
    case 'check':
    case 'cases':
    case 'kernel-src':
      session.kernel?.exerciseChanged();
      break;
    case 'exercise':
      if (session.course && value && session.course.exercise !== value) session.course.exercise = value;
      break;
    case 'flags':
    case 'preset': {
      const made = attributeFlags(session.attributes, { t: session.t, wasm: session.wasm }, errors);
      if (!made) break;
      const wanted = { flags: made.flags ?? null, preset: made.preset ?? null };
      const n = tooBig(wanted);
      if (n) session.askFirst(n, () => session.applyMade(wanted, 'attribute'));
      else session.applyMade(wanted, 'attribute');
      break;
    }
    case 'method':
      if (value === null) break;
      if (methodNames().includes(value)) session.setMethod(value, 'attribute');
      else errors.push(session.t('app.unknownMethodKept', { method: value, methods: methodNames().join(', ') }));
      break;
    case 'step': {
      const k = Number(value);
      if (value === null) break;
      if (Number.isInteger(k) && k >= 1) session.view?.goToStep(k);
      else errors.push(session.t('app.badStep', { step: value }));
      break;
    }
    case 'sync-url':
      if (value === null) {
        session.url?.destroy();
        session.url = null;
      } else {
        session.startUrlSync();
        session.updateUrl();
      }
      break;
    default:
      break;
  }
  if (errors.length) session.alert('attributes', errors.join(' '));
}
