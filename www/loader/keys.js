// Which key presses stay inside the element. A docs site binds keys on its
// window or document (Material's `p`/`n`, mdBook's arrows, VitePress' `/`),
// and every event from inside a shadow root reaches them retargeted to the
// host, so that the site cannot tell that the visitor was typing in the
// element. What stays: every key the element used (a stepper shortcut, a
// grid's arrows), every unmodified key typed into one of its text boxes, and
// the keys a focused control acts on by itself (Enter and Space on a button,
// arrows on a slider, radios or a list), and every unmodified character key
// (`/`, `n`, `p`): a site cannot see which of the element's controls has the
// focus (document.activeElement is the element), so one that skips its
// single-key shortcuts on a focused button (Sphinx's `/`) would act on them
// here. What goes on to the site: Tab and Escape always, shortcuts with
// Ctrl, ⌘ or Alt unless the element used them, and the other keys that mean
// nothing on the focused control (arrows on a button, F-keys). Pure: the
// event is read, never changed.

const NAVIGATION = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown']);
const TEXT_INPUTS = new Set(['text', 'search', 'number', 'email', 'url', 'tel', 'password', '']);

/**
 * What kind of control `target` is: 'text' (typing goes to it), 'list' (a
 * select: letters and arrows), 'slider', 'choice' (radios, checkboxes),
 * 'button', or null.
 * @param {any} target
 */
export function controlKind(target) {
  const tag = target?.localName;
  if (!tag) return null;
  if (tag === 'textarea' || target.isContentEditable) return 'text';
  if (tag === 'select') return 'list';
  if (tag === 'input') {
    const type = String(target.getAttribute('type') ?? '').toLowerCase();
    if (TEXT_INPUTS.has(type)) return 'text';
    if (type === 'range') return 'slider';
    if (type === 'radio' || type === 'checkbox') return 'choice';
    return 'button';
  }
  if (tag === 'button' || tag === 'summary' || tag === 'a' || target.getAttribute?.('role') === 'button') return 'button';
  return null;
}

/**
 * True when `key` acts on the focused control by itself: arrows, Home and End
 * move a radio group's choice or a slider's value, so no shortcut may take them.
 * @param {any} target
 * @param {string} key
 */
export function movesControl(target, key) {
  if (!NAVIGATION.has(key)) return false;
  const kind = controlKind(target);
  return kind === 'slider' || (kind === 'choice' && String(target.getAttribute('type')).toLowerCase() === 'radio');
}

/**
 * True when a key event should not reach the host page.
 * @param {{ key: string, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean }} e
 * @param {any} target  the element inside the shadow root the key went to
 * @param {boolean} used  the element acted on the key (a shortcut, a grid's move)
 */
export function staysInside(e, target, used) {
  if (e.key === 'Tab' || e.key === 'Escape') return false;
  if (used) return true;
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  // A character key (one character, Space included: named keys are longer).
  if ([...e.key].length === 1) return true;
  const activates = e.key === 'Enter' || e.key === ' ';
  switch (controlKind(target)) {
    case 'text':
    case 'list':
      return true;
    case 'slider':
    case 'choice':
      return NAVIGATION.has(e.key) || activates;
    case 'button':
      return activates;
    default:
      return false;
  }
}
