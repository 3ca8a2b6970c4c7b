// The playground's own styles (type, controls, the status line, paper) as
// constructable sheets, made once per page and adopted by every element's
// shadow root: no .css file that a site's bundler would take for its own.

import styles from './styles.css';
import status from './status.css';
import print from './print.css';
import { sheetOf } from '../panels/shared/sheet.js';

/** @type {CSSStyleSheet[] | null} */
let made = null;

export function sheets() {
  made ??= [sheetOf(styles), sheetOf(status), sheetOf(print)];
  return made;
}
