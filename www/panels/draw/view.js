// The drawIndirect panel: a canvas that the GPU draws the visible instances
// into, straight ('canvas') or, where the browser cannot present a WebGPU
// canvas (headless Chromium on SwiftShader loses its device on the first
// present), through an offscreen texture read back into a 2D canvas ('image').

import { h } from '../../core/dom.js';
import { positionColour } from '../shared/palette.js';

export class DrawPanel {
  /** @param {{ onResize: () => void, t: import('../../i18n/i18n.js').Translator }} options  onResize: the canvas changed size, attach again and redraw */
  constructor({ onResize, t }) {
    this.t = t;
    this.mode = null;
    this.canvas = this.newCanvas();
    this.caption = h('figcaption', { 'data-testid': 'draw-caption' });
    // A canvas, not a styled box: the element sets no inline style (a host's CSP may forbid them).
    this.ramp = h('canvas', { class: 'draw-ramp', 'data-testid': 'draw-key', width: 256, height: 1 });
    this.key = h(
      'p',
      { class: 'draw-key', role: 'img', 'aria-label': t('draw.key') },
      h('span', { 'aria-hidden': 'true' }, t('draw.keyFirst')),
      this.ramp,
      h('span', { 'aria-hidden': 'true' }, t('draw.keyLast')),
    );
    this.element = h('figure', { class: 'draw', part: 'draw' }, this.canvas, this.key, this.caption);
    this.observer = new ResizeObserver(() => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        if (this.fit()) onResize();
      }, 200);
    });
  }

  newCanvas() {
    return h('canvas', { class: 'draw-canvas', 'data-testid': 'draw-canvas', role: 'img', 'aria-label': this.t('draw.label') });
  }

  /** Attaches the canvas (or an image of its size) to `engine` in `mode`. */
  async attach(engine, mode) {
    if (this.mode) {
      // A canvas keeps the first context type it was given: start from a fresh one.
      const fresh = this.newCanvas();
      this.observer.unobserve(this.canvas);
      this.canvas.replaceWith(fresh);
      this.canvas = fresh;
    }
    this.mode = mode;
    this.canvas.dataset.mode = mode;
    this.fit();
    await engine.exec((pg) => this.attachTo(pg));
    this.observer.observe(this.canvas);
  }

  /** Binds the canvas to `pg` as it is now. */
  attachTo(pg) {
    return this.mode === 'canvas' ? pg.attachCanvas(this.canvas) : pg.attachImage(this.canvas.width, this.canvas.height);
  }

  /** Sizes the canvas in device pixels; true when the size changed. */
  fit() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(rect.width * dpr));
    const height = Math.max(1, Math.round(rect.height * dpr));
    if (this.canvas.width === width && this.canvas.height === height) return false;
    this.canvas.width = width;
    this.canvas.height = height;
    return true;
  }

  /** Puts a run's read-back pixels on the canvas and says what was drawn. */
  show(r, n) {
    if (r.image && this.mode === 'image') {
      const ctx = this.canvas.getContext('2d');
      const pixels = new Uint8ClampedArray(r.image.buffer, r.image.byteOffset, r.image.length);
      ctx.putImageData(new ImageData(pixels, r.imageWidth, r.imageHeight), 0, 0);
    }
    // The colours the shader gave the first and the last instance drawn, and between.
    const last = Math.max(0, r.instanceCount - 1);
    const ramp = this.ramp.getContext('2d');
    if (ramp) {
      for (let x = 0; x < this.ramp.width; x++) {
        ramp.fillStyle = positionColour((last * x) / (this.ramp.width - 1), n);
        ramp.fillRect(x, 0, 1, 1);
      }
    }
    const readBack = this.mode === 'image' ? this.t('draw.readBack') : '';
    this.caption.textContent = this.t('draw.caption', { count: r.instanceCount, n, readBack });
  }

  destroy() {
    clearTimeout(this.timer);
    this.observer.disconnect();
  }
}
