// The stepper: the shared step controls (www/step-controls.js) with a block
// chooser, the sentence for each step, the WGSL function that runs in it (from
// the source the GPU compiled), and the diagram of cells with arrows drawn from
// measured cell positions. Hovering or focusing a cell highlights what its
// invocation reads and writes. What it steps is a model (steps.js `StepModel`):
// the scan's, the atomic methods' (atomic-steps.js) or packed-scan's
// (packed-steps.js), each from its own trace.

import { h, svg, replace, richText, uniqueId } from '../../core/dom.js';
import { arrowhead } from '../shared/step-controls.js';
import { markWrong, scanModel } from './steps.js';
import { StepControls } from '../shared/step-controls.js';
import { CodeExcerpt } from '../shared/excerpt.js';
import { exportButtons } from '../shared/export.js';
import { Roving } from '../shared/roving.js';

const exportButtonsFor = (t, onExport) => exportButtons(t, [['scan', t('export.scan')]], (_, format) => onExport(format));

export class Stepper {
  /**
   * @param {{ onChange?: (step: number, block: number) => void, onExport: (format: string) => void, t: import('../../i18n/i18n.js').Translator }} options
   */
  constructor({ onChange, onExport, t }) {
    this.t = t;
    this.onExport = onExport;
    this.onChange = onChange ?? (() => {});
    this.trace = null;
    /** @type {import('./steps.js').StepModel} */
    this.model = scanModel;
    /** The visitor picked the block: a step no longer moves it to where the step does something. */
    this.blockChosen = false;
    this.steps = [];
    this.block = 0;
    this.view = null;
    this.cellsByKey = new Map();
    /** @type {string | null} the arrowhead marker's id, once drawn */
    this.markerId = null;
    this.build();
  }

  build() {
    const t = this.t;
    const blockId = uniqueId('block');
    this.blockSelect = h('select', {
      id: blockId,
      'data-testid': 'block-select',
      onchange: () => {
        this.blockChosen = true;
        this.setBlock(Number(this.blockSelect.value));
      },
    });
    this.blockName = h('span', {}, t('scan.block'));
    this.blockField = h('label', { class: 'block-field', hidden: true }, this.blockName, ' ', this.blockSelect);
    this.controls = new StepControls({
      t,
      label: t('scan.controls'),
      extra: [this.blockField],
      onGo: () => {
        this.openOnBusyBlock();
        this.render();
        this.onChange(this.step, this.block);
      },
      describe: () => this.view?.title ?? '',
      reading: () => this.text.textContent ?? '',
    });
    this.label = this.controls.label;
    // Which method and kernels the steps are of.
    this.stepping = h('p', { class: 'stepping', 'data-testid': 'stepping' });
    this.title = h('h3', { class: 'step-title', 'data-testid': 'step-title' });
    // Read on demand, not spoken at each step: the controls announce one short line (StepControls.announce).
    this.text = h('p', { class: 'step-text', 'data-testid': 'step-text' });
    this.note = h('p', { class: 'note', 'data-testid': 'stepper-note', hidden: true });
    this.code = new CodeExcerpt({ t, testid: 'step-code' });
    this.inspector = h('p', { class: 'inspector', 'data-testid': 'inspector' }, t('scan.inspector'));
    this.rows = h('div', { class: 'diagram-rows', role: 'grid', 'aria-label': t('scan.diagram') });
    // One tab stop for the whole diagram: arrows move between cells.
    this.roving = new Roving(this.rows, {
      items: () => [...this.rows.querySelectorAll('[data-testid="cell"]')],
      rowOf: (cell) => cell.closest('.drow'),
      keyOf: (cell) => `${cell.dataset.row}:${cell.dataset.col}`,
    });
    this.diagram = h('div', { class: 'diagram', 'data-testid': 'diagram' }, this.rows);
    this.rows.addEventListener('pointerover', (e) => this.inspect(e.target));
    this.rows.addEventListener('focusin', (e) => this.inspect(e.target));
    this.rows.addEventListener('pointerleave', () => this.inspect(this.rows.getRootNode().activeElement));
    this.resizeObserver = new ResizeObserver(() => this.drawArrows());
    this.resizeObserver.observe(this.diagram);

    // Hidden until the first trace (or message): its empty controls and diagram, shown for a frame, would move
    // when the steps come in (a layout shift inside the card's reserved height, seen on a loaded machine).
    this.element = h(
      'div',
      { class: 'stepper', 'data-testid': 'stepper', hidden: true },
      this.controls.element,
      this.stepping,
      this.note,
      this.title,
      this.text,
      this.diagram,
      this.inspector,
      this.code.element,
      this.controls.shortcuts(),
      exportButtonsFor(t, this.onExport),
    );
  }

  /** 0-based index of the step shown. */
  get index() {
    return this.controls.index;
  }

  /** The method stepped (its model's). */
  get method() {
    return this.model.method;
  }

  /**
   * A new trace (or null with a message) of `model`'s method. Keeps the step
   * and block when they still exist and the method is the same.
   */
  setTrace(trace, { note = null, step = null, block = null, reference = null, model = this.model } = {}) {
    const newMethod = model !== this.model;
    if (newMethod) {
      this.model = model;
      this.blockChosen = false;
      if (step === null) step = 1;
      this.block = 0;
    }
    this.trace = trace;
    /** The CPU mirror's trace of the same flags, where the trace is a learner's kernel's: its differences marked. */
    this.reference = reference;
    this.element.hidden = false;
    this.note.hidden = !note;
    this.note.textContent = note ?? '';
    if (!trace) {
      this.steps = [];
      this.controls.set(0);
      replace(this.rows);
      this.view = null;
      this.title.textContent = '';
      this.text.textContent = '';
      return;
    }
    this.steps = model.planSteps(trace);
    const blocks = model.blockCount(trace);
    // A block asked for (a link's) is the visitor's choice: steps do not move it.
    if (block !== null) {
      this.block = block;
      this.blockChosen = true;
    }
    this.block = Math.max(0, Math.min(this.block, blocks - 1));
    richText(this.stepping, this.t('scan.stepping', { method: model.method, kernels: model.kernels }));
    this.blockName.textContent = this.t(model.blockLabel);
    const size = model.windowSize();
    replace(
      this.blockSelect,
      Array.from({ length: blocks }, (_, b) => {
        const first = b * size;
        const last = Math.min(trace.flags.length, first + size) - 1;
        return h('option', { value: b, selected: b === this.block }, this.t('scan.blockOption', { b: String(b), first, last }));
      }),
    );
    this.blockField.hidden = blocks <= 1;
    this.controls.set(this.steps.length, step !== null ? step - 1 : this.index);
    if (block === null) this.openOnBusyBlock();
    this.render();
  }

  /** Unless the visitor picked a block: the block where the step shown does something. */
  openOnBusyBlock() {
    if (!this.trace || this.blockChosen) return;
    const busy = this.model.firstBlock?.(this.trace, this.steps[this.index]);
    if (busy === null || busy === undefined) return;
    this.block = busy;
    this.blockSelect.value = String(busy);
  }

  /** 1-based step number, as the URL and the label show it. */
  get step() {
    return this.index + 1;
  }

  go(index) {
    this.controls.go(index);
  }

  setBlock(block) {
    this.block = block;
    this.render();
    this.onChange(this.step, this.block);
  }

  /** Keyboard shortcuts; returns true when the key was used. */
  handleKey(e) {
    return this.controls.handleKey(e);
  }

  destroy() {
    this.controls.pause();
    this.resizeObserver.disconnect();
  }

  render() {
    if (!this.trace) return;
    const step = this.steps[this.index];
    const { model } = this;
    const view = model.stepView(this.trace, step, this.block, this.t);
    if (this.reference && model.ordered) markWrong(view, model.stepView(this.reference, step, this.block, this.t));
    this.view = view;
    this.label.dataset.kind = step.kind;
    this.label.dataset.level = String(step.level);
    if (step.offset) this.label.dataset.offset = String(step.offset);
    else delete this.label.dataset.offset;
    this.title.textContent = view.title;
    richText(this.text, view.text);
    this.code.show(view.code, model.method);
    this.cellsByKey = new Map();
    const refocus = this.roving.hasFocus();
    // Column numbers over the widest row (the per-invocation one).
    const widest = view.rows.reduce((a, b) => (b.cells.length > a.cells.length ? b : a), view.rows[0] ?? { cells: [] });
    const header = view.rows.length
      ? this.renderRow({
          key: 'li',
          label: view.header ?? (step.kind === 'result' ? 'k' : 'li'),
          cells: widest.cells.map((c) => ({ col: c.col, value: c.col, inv: -2, tail: c.tail })),
          header: true,
        })
      : null;
    replace(
      this.rows,
      header,
      view.rows.map((row) => this.renderRow(row)),
      svg('svg', { class: 'arrows', 'aria-hidden': 'true' }),
    );
    this.inspector.textContent = this.t('scan.inspector');
    this.roving.refresh(refocus);
    this.drawArrows();
  }

  renderRow(row) {
    const cells = [];
    let previous = -1;
    for (const cell of row.cells) {
      if (cell.col > previous + 1) {
        cells.push(h('span', { class: 'cell gap', 'aria-hidden': 'true' }, '…'));
      }
      previous = cell.col;
      if (row.header) {
        cells.push(h('span', { class: 'cell index', role: 'columnheader' }, String(cell.value)));
        continue;
      }
      const classes = ['cell'];
      if (cell.mark) classes.push(cell.mark);
      if (cell.tail) classes.push('tail');
      const digits = String(cell.value).length;
      if (digits > 6) classes.push('word');
      else if (digits > 3) classes.push('wide');
      const name = `${row.key}[${cell.i}]`;
      const ours = cell.expected === undefined ? '' : ` (${this.t('scan.ours', { value: cell.expected })})`;
      const el = h(
        'span',
        {
          class: classes.join(' '),
          role: 'gridcell',
          tabindex: -1,
          'data-testid': 'cell',
          'data-row': row.key,
          'data-col': cell.col,
          'data-i': cell.i,
          'data-inv': cell.inv,
          'data-value': cell.value,
          'data-expected': cell.expected,
          title: `${row.label} — ${name} = ${cell.value}${ours}`,
          'aria-label': `${row.label}, ${cell.i}: ${cell.value}${ours}`,
        },
        String(cell.value),
      );
      this.cellsByKey.set(`${row.key}:${cell.col}`, el);
      cells.push(el);
    }
    return h(
      'div',
      { class: `drow${row.header ? ' header' : ''}`, role: 'row', 'data-row': row.key },
      h('span', { class: 'drow-label', role: row.header ? 'columnheader' : 'rowheader' }, row.label),
      h('div', { class: 'dcells', role: 'none' }, cells),
    );
  }

  /** Arrows between measured cell centres; redrawn on resize. */
  drawArrows() {
    const view = this.view;
    const layer = this.rows.querySelector('svg.arrows');
    if (!view || !layer) return;
    const box = this.rows.getBoundingClientRect();
    if (box.width === 0) return;
    layer.setAttribute('width', String(this.rows.scrollWidth));
    layer.setAttribute('height', String(this.rows.scrollHeight));
    this.markerId ??= uniqueId('arrowhead');
    const markerId = this.markerId;
    const paths = [];
    for (const arrow of view.arrows) {
      const from = this.cellsByKey.get(`${arrow.from[0]}:${arrow.from[1]}`);
      const to = this.cellsByKey.get(`${arrow.to[0]}:${arrow.to[1]}`);
      if (!from || !to) continue;
      const a = from.getBoundingClientRect();
      const b = to.getBoundingClientRect();
      const x1 = a.left + a.width / 2 - box.left;
      const y1 = a.bottom - box.top + 1;
      const x2 = b.left + b.width / 2 - box.left;
      const y2 = b.top - box.top - 2;
      const bend = (y2 - y1) / 2;
      paths.push(
        svg('path', {
          class: `arrow ${arrow.kind}`,
          'data-inv': arrow.inv,
          d: `M${x1.toFixed(1)},${y1.toFixed(1)} C${x1.toFixed(1)},${(y1 + bend).toFixed(1)} ${x2.toFixed(1)},${(y2 - bend).toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}`,
          'marker-end': `url(#${markerId})`,
        }),
      );
    }
    replace(layer, arrowhead(markerId), paths);
    this.arrowPaths = paths;
  }

  /** Highlights what the invocation owning `target`'s cell reads and writes. */
  inspect(target) {
    for (const el of this.rows.querySelectorAll('.reads, .writes, .hot, .self')) {
      el.classList.remove('reads', 'writes', 'hot', 'self');
    }
    const cell = target?.closest?.('.cell[data-inv]');
    if (!cell || !this.rows.contains(cell) || !this.view) {
      return;
    }
    const inv = Number(cell.dataset.inv);
    const op = this.view.ops.get(inv);
    cell.classList.add('self');
    if (!op) {
      this.inspector.textContent = this.t('scan.inspect.none', { cell: cell.title });
      return;
    }
    const describe = ([row, col]) => {
      const el = this.cellsByKey.get(`${row}:${col}`);
      return el ? `${el.dataset.row}[${el.dataset.i}] = ${el.dataset.value}` : `${row}[${col}]`;
    };
    for (const key of op.reads) this.cellsByKey.get(`${key[0]}:${key[1]}`)?.classList.add('reads');
    for (const key of op.writes) this.cellsByKey.get(`${key[0]}:${key[1]}`)?.classList.add('writes');
    for (const path of this.arrowPaths ?? []) {
      if (Number(path.dataset.inv) === inv) path.classList.add('hot');
    }
    const writes = op.writes.length ? this.t('scan.inspect.writes', { writes: op.writes.map(describe).join(', ') }) : this.t('scan.inspect.writesNothing');
    this.inspector.textContent = this.t('scan.inspect', { inv: String(inv), reads: op.reads.map(describe).join(', '), writes });
  }
}
