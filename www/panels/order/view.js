// The order panel: why order matters, from real GPU runs. A scene of instances
// pre-sorted by material and front to back is culled, compacted by every method
// and drawn with the same drawIndirect in draw order (Playground.drawOrder);
// under each draw, the state changes and front-to-back inversions of that
// order, and a per-instance history keyed by instance_index over several
// frames with unchanged flags. The numbers come from www/order.js.

import { h, replace, uniqueId } from '../../core/dom.js';
import { exportButtons } from '../shared/export.js';
import { hue } from '../shared/palette.js';
import { SCENE, SIZES, fewestStateChanges, history, inversions, pairs, stateChanges } from './order.js';

const IMAGE_HEIGHT = 56;

export class OrderPanel {
  /** @param {{ t: import('../../i18n/i18n.js').Translator, onRun: () => void, onExport: (format: string) => void }} options */
  constructor({ t, onRun, onExport }) {
    this.t = t;
    this.onRun = onRun;
    this.results = null;
    const sizeId = uniqueId('order-size');
    this.sizeSelect = h(
      'select',
      { id: sizeId, 'data-testid': 'order-size' },
      SIZES.map((n) => h('option', { value: n, selected: n === SCENE.n }, t.num(n))),
    );
    this.runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'order-run', onclick: () => this.onRun() }, t('order.run'));
    this.progress = h('span', { class: 'repeat-progress', role: 'status', 'data-testid': 'order-progress' });
    this.note = h('p', { class: 'note', 'data-testid': 'order-note' });
    this.rows = h('div', { class: 'order-rows', 'data-testid': 'order-rows' });
    this.element = h(
      'div',
      { class: 'order-panel' },
      h('p', { class: 'lead' }, t('order.lead', { groups: SCENE.groups, frames: SCENE.frames, density: SCENE.density })),
      h('p', { class: 'order-controls' }, h('label', { for: sizeId }, t('order.size'), ' '), this.sizeSelect, ' ', this.runButton, ' ', this.progress),
      this.note,
      this.rows,
      exportButtons(t, [['order', t('export.order')]], (_, format) => onExport(format)),
    );
  }

  /** The scene to run: `{ n, groups, density, seed, frames }`. */
  scene() {
    return { ...SCENE, n: Number(this.sizeSelect.value) };
  }

  setBusy(busy) {
    this.runButton.disabled = busy;
    this.sizeSelect.disabled = busy;
  }

  /** The size, in device pixels, to ask the GPU's image for. */
  imageSize() {
    const width = Math.max(64, Math.round((this.rows.clientWidth || 640) * (globalThis.devicePixelRatio || 1)));
    return { width: Math.min(width, 2048), height: IMAGE_HEIGHT };
  }

  /**
   * `runs`: `[{ method, frames: [Uint32Array …], image, imageWidth, imageHeight }]`
   * for `scene` on `backend` (`adapter`'s name); `stable(method)`: why an unordered
   * method kept its order here (www/atomic-view.js), for the note.
   */
  show(runs, scene, { backend, why }) {
    const t = this.t;
    this.results = { scene, runs };
    const { n, groups } = scene;
    const rows = runs.map((run) => {
      const order = run.frames[0];
      const changes = stateChanges(order, n, groups);
      const fewest = fewestStateChanges(order, n, groups);
      const inv = inversions(order);
      const hist = history(run.frames, n);
      const image = h('canvas', { class: 'order-image', 'data-testid': 'order-image', role: 'img', 'aria-label': t('order.imageLabel', { method: run.method }) });
      if (run.image) {
        image.width = run.imageWidth;
        image.height = run.imageHeight;
        const pixels = new Uint8ClampedArray(run.image.buffer, run.image.byteOffset, run.image.length);
        image.getContext('2d').putImageData(new ImageData(pixels, run.imageWidth, run.imageHeight), 0, 0);
      } else image.hidden = true;
      const stat = (testid, label, value, extra = {}) => h('div', {}, h('dt', {}, label), h('dd', { 'data-testid': testid, ...extra }, value));
      return h(
        'section',
        {
          class: 'order-row',
          'data-testid': 'order-row',
          'data-method': run.method,
          'data-state-changes': changes,
          'data-fewest': fewest,
          'data-inversions': inv,
          'data-changed': hist.changed,
          'data-error': hist.error,
        },
        h('h3', {}, run.method),
        image,
        this.historyStrip(hist.history, run.method),
        h(
          'dl',
          { class: 'order-stats' },
          stat('order-changes', t('order.changes'), t('order.changesValue', { changes, fewest })),
          stat('order-inversions', t('order.inversions'), t('order.inversionsValue', { inversions: inv, pairs: pairs(order.length) })),
          stat('order-changed', t('order.changed'), t('order.percent', { value: t.fixed(100 * hist.changed, 1) })),
          stat('order-error', t('order.error'), t.fixed(hist.error, 4)),
        ),
      );
    });
    replace(this.rows, rows);
    const unordered = runs.filter((r) => r.method === 'atomic' || r.method === 'aggregated');
    const kept = unordered.filter((r) => inversions(r.frames[0]) === 0 && r.frames.every((f) => f.every((v, k) => v === r.frames[0][k])));
    const parts = [t(backend === 'gpu' ? 'order.noteGpu' : 'order.noteCpu', { n, visible: runs[0]?.frames[0].length ?? 0, frames: scene.frames })];
    if (kept.length) parts.push(t('order.kept', { methods: kept.map((r) => r.method).join(', '), why }));
    this.note.textContent = parts.join(' ');
  }

  /**
   * Before a run: each method's row as it will be, its picture and numbers not
   * there yet, so that the card shows what it holds (and keeps its height)
   * instead of a blank.
   */
  showPending(methods) {
    if (this.results) return;
    const t = this.t;
    const stat = (label) => h('div', {}, h('dt', {}, label), h('dd', {}, '…'));
    replace(
      this.rows,
      methods.map((method) =>
        h(
          'section',
          { class: 'order-row pending', 'data-testid': 'order-pending', 'data-method': method },
          h('h3', {}, method),
          h('div', { class: 'order-image' }),
          h('div', { class: 'order-history' }),
          h('dl', { class: 'order-stats' }, stat(t('order.changes')), stat(t('order.inversions')), stat(t('order.changed')), stat(t('order.error'))),
        ),
      ),
    );
    this.note.textContent = t('order.pending');
  }

  /** The history of each instance_index as one pixel per slot, in the draw's grid. */
  historyStrip(values, method) {
    const canvas = h('canvas', { class: 'order-history', 'data-testid': 'order-history', role: 'img', 'aria-label': this.t('order.historyLabel', { method }) });
    const count = Math.max(1, values.length);
    const cols = Math.min(count, Math.ceil(Math.sqrt((count * 640) / IMAGE_HEIGHT)));
    const rows = Math.ceil(count / cols);
    canvas.width = cols;
    canvas.height = rows;
    const image = new ImageData(cols, rows);
    for (let k = 0; k < values.length; k++) {
      const [r, g, b] = hue(values[k]);
      image.data.set([r, g, b, 255], 4 * k);
    }
    canvas.getContext('2d').putImageData(image, 0, 0);
    return canvas;
  }

  showProgress(text) {
    this.progress.textContent = text;
  }
}
