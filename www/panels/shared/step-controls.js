// Stepper controls shared by the scan stepper and the tile view: first, back,
// play/pause, forward, last, speed, a scrubber and "step k of N", plus the
// keyboard shortcuts. The owner renders; the controls only keep the index and
// speak one short line per step the visitor takes (none while playing: the
// step reached is spoken on pause).

import { h, svg, uniqueId } from '../../core/dom.js';
import { lazySheet } from './sheet.js';
import { stepMs } from './pace.js';
import css from './steps.css';

/** The step controls' and step texts' styles (both steppers). */
export const stepsSheet = lazySheet(css);

const SPEEDS = [0.5, 1, 2, 4];

/** The longest announcement: a screen reader says it before the next step. */
export const ANNOUNCE_MAX = 240;

export class StepControls {
  /**
   * @param {{ label: string, onGo: (index: number) => void, describe?: () => string, reading?: () => string, extra?: Node[], testPrefix?: string, t: import('../../i18n/i18n.js').Translator }} options
   *   onGo is called whenever the visitor (or play) moves to another step;
   *   describe names the step shown (its title), for the announcement;
   *   reading is the step's text, which play leaves time to read;
   *   extra elements join the toolbar; testPrefix prefixes every data-testid.
   */
  constructor({ label, onGo, describe = () => '', reading = () => '', extra = [], testPrefix = '', t }) {
    this.t = t;
    this.onGo = onGo;
    this.describe = describe;
    this.reading = reading;
    this.count = 0;
    this.index = 0; // 0-based
    this.speed = 1;
    this.timer = null;
    const id = (name) => `${testPrefix}${name}`;
    const scrubId = uniqueId('scrub');
    const speedId = uniqueId('speed');
    const button = (text, testid, title, onclick) => h('button', { type: 'button', class: 'ctl', 'data-testid': id(testid), title, 'aria-label': title, onclick }, text);
    this.firstButton = button('|◀◀', 'step-first', t('controls.first'), () => this.go(0));
    this.backButton = button('|◀', 'step-back', t('controls.back'), () => this.go(this.index - 1));
    this.playButton = button('▶', 'step-play', t('controls.play'), () => this.togglePlay());
    this.forwardButton = button('▶|', 'step-forward', t('controls.forward'), () => this.go(this.index + 1));
    this.lastButton = button('▶▶|', 'step-last', t('controls.last'), () => this.go(this.count - 1));
    this.speedSelect = h(
      'select',
      { id: speedId, 'data-testid': id('step-speed'), onchange: () => this.setSpeed(Number(this.speedSelect.value)) },
      SPEEDS.map((s) => h('option', { value: s, selected: s === this.speed }, `${t.num(s)}×`)),
    );
    this.scrubber = h('input', {
      type: 'range',
      id: scrubId,
      min: 1,
      max: 1,
      value: 1,
      'data-testid': id('scrubber'),
      'aria-label': t('controls.step'),
      oninput: () => this.go(Number(this.scrubber.value) - 1),
    });
    // An <output> is a live region of its own: silenced, the announcement below says the step once.
    this.label = h('output', { class: 'step-label', 'data-testid': id('step-label'), for: scrubId, 'aria-live': 'off' }, t('controls.none'));
    this.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true', 'data-testid': id('step-announce') });
    this.element = h(
      'div',
      { class: 'stepper-controls', role: 'toolbar', 'aria-label': label },
      h('div', { class: 'ctl-group' }, this.firstButton, this.backButton, this.playButton, this.forwardButton, this.lastButton),
      h('div', { class: 'ctl-group scrub' }, this.scrubber, this.label),
      h('div', { class: 'ctl-group' }, h('label', { for: speedId }, t('controls.speed'), ' '), this.speedSelect, ...extra),
      this.live,
    );
    this.update();
  }

  /** The keyboard help line (a new element each call). */
  shortcuts() {
    const t = this.t;
    const k = (key) => h('kbd', {}, key);
    return h(
      'p',
      { class: 'shortcuts' },
      t('controls.keys'),
      ' ',
      k('←'),
      ' / ',
      k('→'),
      ` ${t('controls.keyStep')}, `,
      k(t('controls.keyHome')),
      ' / ',
      k(t('controls.keyEnd')),
      ` ${t('controls.keyEnds')}, `,
      k('P'),
      ` ${t('controls.keyPlay')}, `,
      k('+'),
      ' / ',
      k('−'),
      ` ${t('controls.keySpeed')}.`,
    );
  }

  /** New steps (without calling onGo): `count` of them, showing `index` (clamped). */
  set(count, index = this.index) {
    this.count = count;
    this.index = Math.max(0, Math.min(index, count - 1));
    if (count === 0) this.pause();
    this.update();
  }

  go(index) {
    if (!this.count) return;
    const next = Math.max(0, Math.min(index, this.count - 1));
    if (next === this.index) return;
    this.index = next;
    this.update();
    this.onGo(next);
    if (!this.timer) this.announce();
  }

  /** Says the step shown, once: "Step k of N: title", cut to ANNOUNCE_MAX. */
  announce() {
    if (!this.count) return;
    const line = `${this.t('controls.label', { step: this.index + 1, steps: this.count })}: ${this.describe()}`;
    this.live.textContent = line.length > ANNOUNCE_MAX ? `${line.slice(0, ANNOUNCE_MAX - 1)}…` : line;
  }

  setSpeed(speed) {
    this.speed = speed;
    this.speedSelect.value = String(speed);
    if (this.timer) {
      this.pause();
      this.play();
    }
  }

  togglePlay() {
    if (this.timer) this.pause();
    else this.play();
  }

  play() {
    if (!this.count) return;
    if (this.index >= this.count - 1) this.go(0);
    const next = () => {
      this.timer = setTimeout(
        () => {
          if (this.index >= this.count - 1) this.pause();
          else {
            this.go(this.index + 1);
            if (this.timer) next();
          }
        },
        stepMs(`${this.describe()} ${this.reading()}`, this.speed),
      );
    };
    next();
    this.update();
  }

  pause() {
    const playing = Boolean(this.timer);
    clearTimeout(this.timer);
    this.timer = null;
    this.update();
    if (playing) this.announce();
  }

  /** Keyboard shortcuts; returns true when the key was used. */
  handleKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return false;
    const k = SPEEDS.indexOf(this.speed);
    switch (e.key) {
      case 'ArrowRight':
        this.go(this.index + 1);
        return true;
      case 'ArrowLeft':
        this.go(this.index - 1);
        return true;
      case 'Home':
        this.go(0);
        return true;
      case 'End':
        this.go(this.count - 1);
        return true;
      case 'p':
      case 'P':
        this.togglePlay();
        return true;
      case '+':
      case '=':
        this.setSpeed(SPEEDS[Math.min(k + 1, SPEEDS.length - 1)]);
        return true;
      case '-':
      case '_':
        this.setSpeed(SPEEDS[Math.max(k - 1, 0)]);
        return true;
      default:
        return false;
    }
  }

  update() {
    const n = this.count;
    const none = n === 0;
    // A button that is about to be disabled would drop the focus to the page:
    // the scrubber takes it (the arrow keys go on stepping there).
    const focused = this.element?.getRootNode().activeElement;
    this.firstButton.disabled = none || this.index === 0;
    this.backButton.disabled = none || this.index === 0;
    this.forwardButton.disabled = none || this.index >= n - 1;
    this.lastButton.disabled = none || this.index >= n - 1;
    this.playButton.disabled = none;
    this.scrubber.disabled = none;
    this.scrubber.max = String(Math.max(n, 1));
    this.scrubber.value = String(this.index + 1);
    const playing = Boolean(this.timer);
    this.playButton.textContent = playing ? '||' : '▶';
    this.playButton.title = playing ? this.t('controls.pause') : this.t('controls.play');
    this.playButton.setAttribute('aria-label', this.playButton.title);
    this.playButton.setAttribute('aria-pressed', String(playing));
    this.label.textContent = none ? this.t('controls.none') : this.t('controls.label', { step: this.index + 1, steps: n });
    this.label.dataset.step = none ? '' : String(this.index + 1);
    this.label.dataset.steps = String(n);
    if (focused?.disabled && this.element.contains(focused)) (this.scrubber.disabled ? this.playButton : this.scrubber).focus();
  }
}

/** The arrowhead both steppers' diagrams end their arrows with: `<defs>` of one marker, `id`. */
export function arrowhead(id) {
  return svg(
    'defs',
    {},
    svg('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' }, svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' })),
  );
}
