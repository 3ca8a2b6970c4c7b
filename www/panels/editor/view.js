// The flag editor: one button per flag (aria-pressed) for arrays up to
// MAX_CELLS, toggled by click, by dragging across cells (paint) and by keyboard
// (arrows move, Space/Enter toggle); a density strip on a <canvas> for larger
// arrays; presets; and a text box for typed or pasted lists.

import { h, replace, uniqueId } from '../../core/dom.js';
import { MAX_CELLS, DEFAULT_PRESET, flagsText } from '../../core/state.js';
import { layout } from '../../core/layout.js';
import { oneStop } from '../shared/roving.js';

/** The presets that density and seed shape. */
const TUNABLE = new Set(['random', 'clustered']);

/** The wasm's bad-token codes (playground/src/error.rs `BadToken`), by message. */
const TOKEN_ERRORS = {
  'not-decimal': 'editor.token.notDecimal',
  'not-bit': 'editor.token.notBit',
  'too-large': 'editor.token.tooLarge',
  'too-long': 'editor.token.tooLong',
};

export class FlagEditor {
  /**
   * @param {{ onFlags: (flags: Uint32Array, preset: object|null, why: string) => void,
   *           onPreset: (preset: object) => void,
   *           parseFlags: (text: string) => Uint32Array, t: import('../../i18n/i18n.js').Translator }} options
   */
  constructor({ onFlags, onPreset, parseFlags, t }) {
    this.t = t;
    this.onFlags = onFlags;
    this.onPreset = onPreset;
    this.parseFlags = parseFlags;
    this.flags = new Uint32Array(0);
    this.preset = { ...DEFAULT_PRESET };
    this.activePreset = null; // the preset the flags came from, or null when edited
    this.textDirty = false;
    this.paint = null;
    this.build();
  }

  build() {
    const t = this.t;
    const sizeId = uniqueId('size');
    const densityId = uniqueId('density');
    const seedId = uniqueId('seed');
    const textId = uniqueId('flags-text');
    const presetButton = (name, label, title) =>
      h('button', { type: 'button', class: 'preset', 'data-testid': `preset-${name}`, 'data-preset': name, title, onclick: () => this.applyPreset(name) }, label);
    this.sizeInput = h('input', { id: sizeId, type: 'number', min: 1, step: 1, value: 10, inputmode: 'numeric', 'data-testid': 'size', onchange: () => this.resize() });
    this.densityInput = h('input', {
      id: densityId,
      title: t('editor.tunes'),
      type: 'range',
      min: 0,
      max: 1,
      step: 0.01,
      value: DEFAULT_PRESET.density,
      'data-testid': 'density',
      oninput: () => this.tune(),
    });
    this.densityOutput = h('output', { for: densityId, class: 'density-value' }, t.fixed(DEFAULT_PRESET.density, 2));
    this.seedInput = h('input', {
      id: seedId,
      title: t('editor.tunes'),
      type: 'number',
      min: 0,
      max: 0xffffffff,
      step: 1,
      value: DEFAULT_PRESET.seed,
      inputmode: 'numeric',
      'data-testid': 'seed',
      onchange: () => this.tune(),
    });
    this.summary = h('p', { class: 'flag-summary', 'data-testid': 'flag-summary' });
    this.presets = h(
      'div',
      { class: 'presets', role: 'toolbar', 'aria-label': t('editor.presets') },
      layout.presets.map((name) => presetButton(name, t(`preset.${name}`), t(`preset.${name}.title`))),
    );
    oneStop(this.presets, 'button.preset');
    this.grid = h('div', { class: 'flag-grid', role: 'group', 'aria-label': t('editor.gridLabel'), 'data-testid': 'flag-grid' });
    this.strip = h('canvas', { class: 'density-strip', 'data-testid': 'density-strip', hidden: true, role: 'img', 'aria-label': t('editor.stripLabel') });
    this.stripCaption = h('p', { class: 'note strip-caption', hidden: true, 'data-testid': 'strip-caption' });
    this.textArea = h('textarea', {
      id: textId,
      rows: 2,
      spellcheck: 'false',
      autocomplete: 'off',
      'data-testid': 'flag-text',
      placeholder: t('editor.placeholder'),
      oninput: () => {
        this.textDirty = true;
      },
      onkeydown: (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          this.applyText();
        }
      },
    });
    this.textError = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'flag-text-error', id: uniqueId('flags-text-error') });
    this.textArea.setAttribute('aria-describedby', this.textError.id);

    this.grid.addEventListener('pointerdown', (e) => this.paintStart(e));
    this.grid.addEventListener('pointermove', (e) => this.paintMove(e));
    this.grid.addEventListener('click', (e) => this.clickCell(e));
    this.grid.addEventListener('keydown', (e) => this.keyDown(e));
    // Roving tabindex: Tab enters the grid on the cell last used.
    this.grid.addEventListener('focusin', (e) => {
      const cell = e.target.closest('button.flag');
      if (!cell || cell.tabIndex === 0) return;
      for (const c of this.grid.querySelectorAll('button.flag[tabindex="0"]')) c.tabIndex = -1;
      cell.tabIndex = 0;
    });
    const end = () => this.paintEnd();
    this.grid.addEventListener('pointerup', end);
    this.grid.addEventListener('pointercancel', end);
    this.grid.addEventListener('lostpointercapture', end);
    this.resizeObserver = new ResizeObserver(() => this.drawStrip());
    this.resizeObserver.observe(this.strip);

    this.element = h(
      'div',
      { class: 'editor' },
      this.presets,
      h(
        'div',
        { class: 'preset-params' },
        h('label', { for: sizeId }, t('editor.size'), ' ', this.sizeInput),
        h('label', { for: densityId }, t('editor.density'), ' ', this.densityInput, this.densityOutput),
        h('label', { for: seedId }, t('editor.seed'), ' ', this.seedInput),
      ),
      this.summary,
      this.grid,
      this.strip,
      this.stripCaption,
      h(
        'form',
        {
          class: 'flag-text',
          onsubmit: (e) => {
            e.preventDefault();
            this.applyText();
          },
        },
        h('label', { for: textId }, t('editor.textLabel')),
        h('div', { class: 'text-row' }, this.textArea, h('button', { type: 'submit', 'data-testid': 'flag-text-apply' }, t('editor.apply'))),
        this.textError,
      ),
    );
  }

  /** Shows new flags (from the URL, a preset, the text box or an edit elsewhere): the text box shows them, its error goes. */
  show(flags, preset) {
    this.flags = flags;
    this.textDirty = false;
    this.clearTextError();
    this.sizeInput.max = String(layout.maxFlags);
    this.activePreset = preset ? { ...preset } : null;
    if (preset) {
      this.preset = { ...preset };
      this.densityInput.value = String(preset.density);
      this.densityOutput.textContent = this.t.fixed(Number(preset.density), 2);
      this.seedInput.value = String(preset.seed);
    }
    this.sizeInput.value = String(flags.length);
    // Density and seed shape only the random presets: for any other flags they would change nothing.
    const tunable = TUNABLE.has(this.activePreset?.name ?? '');
    this.densityInput.disabled = !tunable;
    this.seedInput.disabled = !tunable;
    for (const b of this.element.querySelectorAll('button.preset')) {
      b.setAttribute('aria-pressed', String(this.activePreset?.name === b.dataset.preset));
    }
    const big = flags.length > MAX_CELLS;
    this.grid.hidden = big;
    this.strip.hidden = !big;
    this.stripCaption.hidden = !big;
    if (big) {
      replace(this.grid);
      this.drawStrip();
    } else {
      this.renderCells();
    }
    this.textArea.value = big ? '' : flagsText(flags);
    this.textArea.placeholder = big ? this.t('editor.placeholderBig', { n: flags.length }) : this.t('editor.placeholder');
    this.updateSummary();
  }

  updateSummary() {
    let visible = 0;
    for (const f of this.flags) if (f !== 0) visible++;
    const from = this.activePreset ? this.t('editor.fromPreset', { name: this.t(`presetName.${this.activePreset.name}`) }) : '';
    this.summary.textContent = this.t('editor.summary', { n: this.flags.length, visible, from });
    this.summary.dataset.n = String(this.flags.length);
    this.summary.dataset.visible = String(visible);
  }

  renderCells() {
    const active = this.grid.getRootNode().activeElement;
    const focusedIndex = this.grid.contains(active) ? Number(active.dataset.index) : 0;
    const cells = [];
    this.grid.classList.toggle('dense', this.flags.length > 64);
    for (let i = 0; i < this.flags.length; i++) {
      const cell = h('button', {
        type: 'button',
        class: 'flag',
        'data-testid': 'flag-cell',
        'data-index': i,
        tabindex: i === Math.min(focusedIndex, this.flags.length - 1) ? 0 : -1,
      });
      this.paintCell(cell, this.flags[i]);
      cells.push(cell);
    }
    replace(this.grid, cells);
    this.cells = cells;
  }

  paintCell(cell, value) {
    cell.setAttribute('aria-pressed', String(value !== 0));
    // The name carries the visible value (WCAG 2.5.3: what is seen is what is spoken).
    cell.setAttribute('aria-label', this.t('editor.cell', { i: String(cell.dataset.index), value: String(value) }));
    cell.textContent = String(value);
    cell.dataset.value = String(value);
  }

  /** Sets flag i (a user edit): the flags stop being a preset. */
  setFlag(i, value) {
    if (this.flags[i] === value) return;
    const next = this.flags.slice();
    next[i] = value;
    this.flags = next;
    this.paintCell(this.cells[i], value);
    this.activePreset = null;
    for (const b of this.element.querySelectorAll('button.preset')) b.setAttribute('aria-pressed', 'false');
    this.textDirty = false;
    this.textArea.value = flagsText(this.flags);
    this.clearTextError();
    this.updateSummary();
    this.onFlags(this.flags, null, 'edit');
  }

  cellAt(x, y) {
    // The grid's root: the element's shadow root, where the document would only see the host.
    const el = this.grid.getRootNode().elementFromPoint(x, y);
    return el?.closest?.('button.flag') && this.grid.contains(el) ? el.closest('button.flag') : null;
  }

  paintStart(e) {
    const cell = e.target.closest('button.flag');
    if (!cell || e.button !== 0) return;
    const i = Number(cell.dataset.index);
    this.paint = { value: this.flags[i] === 0 ? 1 : 0, pointer: e.pointerId };
    // The grid keeps the pointer until it is released, wherever it goes: no window listener.
    this.grid.setPointerCapture?.(e.pointerId);
    this.setFlag(i, this.paint.value);
  }

  paintMove(e) {
    if (!this.paint || e.pointerId !== this.paint.pointer) return;
    const cell = this.cellAt(e.clientX, e.clientY);
    if (cell) this.setFlag(Number(cell.dataset.index), this.paint.value);
  }

  paintEnd() {
    this.paint = null;
  }

  /** Keyboard (and assistive technology) clicks have detail 0; pointer clicks were handled on pointerdown. */
  clickCell(e) {
    const cell = e.target.closest('button.flag');
    if (!cell || e.detail !== 0) return;
    const i = Number(cell.dataset.index);
    this.setFlag(i, this.flags[i] === 0 ? 1 : 0);
  }

  columns() {
    const cells = this.cells;
    if (!cells?.length) return 1;
    const top = cells[0].offsetTop;
    let k = 1;
    while (k < cells.length && cells[k].offsetTop === top) k++;
    return k;
  }

  keyDown(e) {
    const cell = e.target.closest('button.flag');
    if (!cell) return;
    const i = Number(cell.dataset.index);
    const n = this.flags.length;
    let j = null;
    switch (e.key) {
      case 'ArrowRight':
        j = i + 1;
        break;
      case 'ArrowLeft':
        j = i - 1;
        break;
      case 'ArrowDown':
        j = i + this.columns();
        break;
      case 'ArrowUp':
        j = i - this.columns();
        break;
      case 'Home':
        j = 0;
        break;
      case 'End':
        j = n - 1;
        break;
      default:
        return;
    }
    e.preventDefault();
    this.focusCell(Math.max(0, Math.min(n - 1, j)));
  }

  focusCell(i) {
    for (const c of this.grid.querySelectorAll('button.flag[tabindex="0"]')) c.tabIndex = -1;
    const cell = this.cells[i];
    cell.tabIndex = 0;
    cell.focus();
  }

  destroy() {
    clearTimeout(this.tuneTimer);
    this.resizeObserver.disconnect();
  }

  /** The density of visible flags along the array, one bucket per device pixel. */
  drawStrip() {
    if (this.strip.hidden || this.flags.length <= MAX_CELLS) return;
    const rect = this.strip.getBoundingClientRect();
    if (rect.width === 0) return;
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(rect.width * dpr));
    const height = Math.max(1, Math.round(rect.height * dpr));
    this.strip.width = width;
    this.strip.height = height;
    const ctx = this.strip.getContext('2d');
    const flags = this.flags;
    const n = flags.length;
    const style = getComputedStyle(this.strip);
    ctx.fillStyle = style.getPropertyValue('--strip-empty').trim() || '#ddd';
    ctx.fillRect(0, 0, width, height);
    ctx.fillStyle = style.getPropertyValue('--strip-full').trim() || '#26f';
    let total = 0;
    for (let x = 0; x < width; x++) {
      const a = Math.floor((x * n) / width);
      const b = Math.max(a + 1, Math.floor(((x + 1) * n) / width));
      let visible = 0;
      for (let i = a; i < b; i++) if (flags[i] !== 0) visible++;
      total += visible;
      const bar = Math.round((visible / (b - a)) * height);
      ctx.fillRect(x, height - bar, 1, bar);
    }
    this.stripCaption.textContent = this.t('editor.strip', { n, visible: total, neighbours: Math.round(n / width) });
  }

  presetFromInputs(name) {
    const n = Number(this.sizeInput.value);
    return {
      name,
      n: Number.isInteger(n) && n >= 1 ? Math.min(n, layout.maxFlags) : this.flags.length || DEFAULT_PRESET.n,
      density: Number(this.densityInput.value),
      seed: Math.min(0xffffffff, Math.max(0, Math.floor(Number(this.seedInput.value) || 0))),
    };
  }

  applyPreset(name) {
    // A tune still waiting would make the same flags again, or older ones.
    clearTimeout(this.tuneTimer);
    const preset = this.presetFromInputs(name);
    if (name === 'article') preset.n = 10;
    this.onPreset(preset);
  }

  /** The size box: presets regenerate; edited flags are cut or padded with zeros. */
  resize() {
    const n = Number(this.sizeInput.value);
    if (!Number.isInteger(n) || n < 1 || n > layout.maxFlags) {
      this.onFlags(null, null, this.t('editor.badSize', { max: layout.maxFlags, got: this.sizeInput.value }));
      this.sizeInput.value = String(this.flags.length);
      return;
    }
    if (n === this.flags.length) return;
    const active = this.activePreset?.name;
    if (active && active !== 'article') {
      this.onPreset({ ...this.presetFromInputs(active) });
    } else if (n > MAX_CELLS) {
      // Past MAX_CELLS the array cannot be edited cell by cell: it comes from a preset.
      this.onPreset({ ...this.presetFromInputs('random') });
    } else {
      const next = new Uint32Array(n);
      next.set(this.flags.subarray(0, Math.min(n, this.flags.length)));
      this.textDirty = false;
      this.show(next, null);
      this.onFlags(next, null, 'resize');
    }
  }

  /** Density or seed changed: regenerate when the flags are a random preset. */
  tune() {
    this.densityOutput.textContent = this.t.fixed(Number(this.densityInput.value), 2);
    const active = this.activePreset?.name;
    if (TUNABLE.has(active ?? '')) {
      clearTimeout(this.tuneTimer);
      this.tuneTimer = setTimeout(() => this.onPreset(this.presetFromInputs(active)), 120);
    }
  }

  applyText() {
    const text = this.textArea.value;
    let flags;
    try {
      flags = this.parseFlags(text);
    } catch (e) {
      // A token that is no flag is said in the page's language, counted from 0 as the grid counts.
      const key = TOKEN_ERRORS[e?.why];
      const error = key ? this.t(key, { at: e.at, token: e.token }) : e.message;
      this.showTextError(this.t('editor.parseError', { error }));
      return;
    }
    if (flags.length === 0) {
      this.showTextError(this.t('editor.empty'));
      return;
    }
    this.clearTextError();
    this.textDirty = false;
    this.show(flags, null);
    this.onFlags(flags, null, 'text');
  }

  showTextError(message) {
    this.textError.textContent = message;
    this.textArea.setAttribute('aria-invalid', 'true');
  }

  clearTextError() {
    this.textError.textContent = '';
    this.textArea.removeAttribute('aria-invalid');
  }
}
