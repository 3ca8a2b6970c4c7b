// The benchmark panel: every method over sizes 2^10 … 2^24 on the visitor's
// GPU, timed by GPU timestamps where the browser grants `timestamp-query`
// (many compactions between two stamps, so the browser's quantised stamps
// still measure well) and by the wall clock otherwise, always labelled. Each
// method's pipeline compilation is timed apart. Progress and Cancel while it
// runs; an SVG chart (time and GB/s against N, log axes) and a table, which
// downloads as CSV or JSON. The loop itself is PlaygroundWork.runBenchmark.

import { h, svg, replace, scrollBox, uniqueId } from '../../core/dom.js';
import { Roving } from '../shared/roving.js';
import { benchSizes, DENSITIES, logRange, logTicks } from './bench.js';
import { layout } from '../../core/layout.js';

/** Three significant digits, in the language's format. */
function significant(t, x) {
  if (!Number.isFinite(x) || x === 0) return t.num(x);
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return t.fixed(x, Math.min(digits, 6));
}

const CHART = { width: 640, height: 240, left: 56, right: 12, top: 12, bottom: 36 };

export class BenchPanel {
  /** @param {{ t: import('../../i18n/i18n.js').Translator, onRun: () => void, onCancel: () => void, onExport: (format: string) => void }} options */
  constructor({ t, onRun, onCancel, onExport }) {
    this.t = t;
    this.rows = [];
    this.compile = new Map();
    const maxId = uniqueId('bench-max');
    this.maxSelect = h('select', { id: maxId, 'data-testid': 'bench-max' });
    const densityId = uniqueId('bench-density');
    this.densitySelect = h(
      'select',
      { id: densityId, 'data-testid': 'bench-density' },
      DENSITIES.map((d) => h('option', { value: d, selected: d === DENSITIES[0] }, t.num(d))),
    );
    this.adapter = h('p', { class: 'note', 'data-testid': 'bench-adapter' });
    // One tab stop for the methods: arrows between the boxes, Space ticks.
    this.methodBoxes = h('span', { class: 'bench-methods', 'data-testid': 'bench-methods', role: 'toolbar', 'aria-label': t('bench.methods') });
    this.methodStops = new Roving(this.methodBoxes, {
      items: () => [...this.methodBoxes.querySelectorAll('input')],
      rowOf: () => this.methodBoxes,
      keyOf: (box) => /** @type {HTMLInputElement} */ (box).value,
    });
    this.runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'bench-run', onclick: onRun }, t('bench.run'));
    this.cancelButton = h('button', { type: 'button', 'data-testid': 'bench-cancel', disabled: true, onclick: onCancel }, t('bench.cancel'));
    this.bar = h('progress', { max: 1, value: 0, hidden: true, 'data-testid': 'bench-bar' });
    this.progress = h('span', { class: 'repeat-progress', role: 'status', 'data-testid': 'bench-progress' });
    this.timerNote = h('p', { class: 'note', 'data-testid': 'bench-timer' });
    this.compileList = h('ul', { class: 'bench-compile', 'data-testid': 'bench-compile' });
    this.chart = h('div', { class: 'bench-charts', 'data-testid': 'bench-chart' });
    this.table = h('table', { class: 'bench-table', 'data-testid': 'bench-table', hidden: true });
    this.exports = h(
      'p',
      { class: 'exports', hidden: true },
      h('span', { class: 'exports-title' }, t('export.title')),
      t('export.bench'),
      ['csv', 'json'].map((f) => h('button', { type: 'button', class: 'link-button', 'data-testid': `export-bench-${f}`, onclick: () => onExport(f) }, f.toUpperCase())),
    );
    this.element = h(
      'div',
      { class: 'bench-panel' },
      h('p', { class: 'lead' }, t('bench.lead')),
      this.adapter,
      h(
        'p',
        { class: 'bench-controls' },
        h('label', { for: maxId }, t('bench.max'), ' '),
        this.maxSelect,
        ' ',
        h('label', { for: densityId }, t('bench.density'), ' '),
        this.densitySelect,
        ' ',
        this.methodBoxes,
      ),
      h('p', { class: 'bench-controls' }, this.runButton, ' ', this.cancelButton, ' ', this.bar, ' ', this.progress),
      this.timerNote,
      h('div', { class: 'bench-compile-box' }, h('h3', {}, t('bench.compileTitle')), this.compileList),
      this.chart,
      scrollBox(h('div', { class: 'table-scroll' }, this.table), t('bench.tableLabel')),
      this.exports,
    );
  }

  /** The methods and sizes on offer for this engine (`software`: a CPU adapter, whose default is smaller). */
  configure({ methods, maxFlags, software, adapter }) {
    const t = this.t;
    this.software = software;
    // The adapter as the browser reports it: the numbers below are this one's.
    this.adapter.textContent = adapter ? t('bench.adapter', { adapter }) : '';
    const sizes = benchSizes(maxFlags);
    const chosen = Math.min(sizes[sizes.length - 1] ?? 1024, software ? 2 ** 18 : 2 ** 24);
    replace(
      this.maxSelect,
      sizes.map((n) => h('option', { value: n, selected: n === chosen }, `2^${Math.log2(n)} (${t.num(n)})`)),
    );
    replace(
      this.methodBoxes,
      methods.map((m) => h('label', {}, h('input', { type: 'checkbox', value: m, checked: true, 'data-testid': `bench-method-${m}` }), ` ${m}`)),
    );
    this.methodStops.refresh();
  }

  /** `{ methods, sizes }` as chosen. */
  selection() {
    const methods = [...this.methodBoxes.querySelectorAll('input:checked')].map((b) => b.value);
    return { methods, sizes: benchSizes(Number(this.maxSelect.value)), density: Number(this.densitySelect.value) };
  }

  /** A run starts: `total` measurements to make. */
  start(total) {
    this.rows = [];
    this.compile = new Map();
    replace(this.compileList);
    this.total = total;
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.bar.hidden = false;
    this.bar.max = total;
    this.bar.value = 0;
    this.render();
  }

  step(done, text) {
    this.bar.value = done;
    this.progress.textContent = text;
  }

  /** The run ended (`how`: 'done', 'cancelled' or an error message). */
  finish(how) {
    this.runButton.disabled = false;
    this.cancelButton.disabled = true;
    this.bar.hidden = true;
    this.progress.textContent = how === 'done' ? this.t('bench.done', { rows: this.rows.length }) : how === 'cancelled' ? this.t('bench.cancelled', { rows: this.rows.length }) : how;
    this.progress.dataset.state = how === 'done' || how === 'cancelled' ? how : 'failed';
  }

  setCompile(method, ms) {
    this.compile.set(method, ms);
    this.compileList.append(h('li', { 'data-testid': 'bench-compile-item', 'data-method': method, 'data-ms': ms }, this.t('bench.compiled', { method, ms: this.t.num(Math.round(ms)) })));
  }

  addRow(row) {
    this.rows.push(row);
    this.render();
  }

  /** The rows another view of this panel showed (a language switch), drawn once. */
  restore(rows) {
    this.rows = [...rows];
    this.render();
  }

  render() {
    const t = this.t;
    const rows = this.rows;
    this.table.hidden = rows.length === 0;
    this.exports.hidden = rows.length === 0;
    const timers = [...new Set(rows.map((r) => r.timer))];
    const resolution = rows.find((r) => r.resolutionNs)?.resolutionNs;
    this.timerNote.dataset.timer = timers.join(' ');
    // Times from the CPU (a software adapter, or the reference) say nothing of a GPU's.
    const caveat = this.software ? t('bench.softwareCaveat') : '';
    this.timerNote.dataset.software = String(Boolean(this.software));
    this.timerNote.textContent = rows.length
      ? [
          timers.map((k) => t(k === 'wall' && rows.some((r) => r.wallBecause === 'slices') ? 'bench.timer.wallSliced' : `bench.timer.${k}`)).join(' '),
          resolution ? t(resolution < 1e3 ? 'bench.resolutionNs' : 'bench.resolution', { ns: t.num(resolution), us: t.num(resolution / 1e3) }) : '',
          caveat,
        ]
          .join(' ')
          .trim()
      : '';
    const head = h(
      'tr',
      {},
      ['method', 'n', 'median', 'gbps', 'timer', 'reps', 'check'].map((c) => h('th', { scope: 'col' }, t(`bench.th.${c}`))),
    );
    const body = rows.map((r) =>
      h(
        'tr',
        { 'data-testid': 'bench-row', 'data-method': r.method, 'data-n': r.n, 'data-us': r.medianUs, 'data-timer': r.timer },
        h('td', {}, r.method),
        h('td', {}, t.num(r.n)),
        h('td', {}, t.fixed(r.medianUs, r.medianUs < 100 ? 1 : 0)),
        h('td', {}, significant(t, r.gbps)),
        h('td', {}, t(`bench.timerShort.${r.timer}`)),
        h('td', {}, t.num(r.reps)),
        h('td', {}, r.check),
      ),
    );
    replace(this.table, h('thead', {}, head), h('tbody', {}, body));
    replace(this.chart, rows.length ? [this.plot(rows, 'medianUs', t('bench.axis.time')), this.plot(rows, 'gbps', t('bench.axis.gbps'))] : null);
  }

  /** One log-log chart of `field` against N, a line per method. */
  plot(rows, field, label) {
    const t = this.t;
    const { width, height, left, right, top, bottom } = CHART;
    const [xlo, xhi] = logRange(rows.map((r) => r.n));
    const [ylo, yhi] = logRange(rows.map((r) => r[field]));
    const x = (v) => left + ((Math.log(v) - Math.log(xlo)) / (Math.log(xhi) - Math.log(xlo))) * (width - left - right);
    const y = (v) => height - bottom - ((Math.log(v) - Math.log(ylo)) / (Math.log(yhi) - Math.log(ylo))) * (height - top - bottom);
    const methods = [...new Set(rows.map((r) => r.method))];
    const grid = [
      ...logTicks(xlo, xhi, 2)
        .filter((_, k, all) => all.length <= 8 || k % 2 === 0)
        .map((v) => [
          svg('line', { class: 'grid', x1: x(v), x2: x(v), y1: top, y2: height - bottom }),
          svg('text', { class: 'tick', x: x(v), y: height - bottom + 14, 'text-anchor': 'middle' }, `2^${Math.round(Math.log2(v))}`),
        ]),
      ...logTicks(ylo, yhi).map((v) => [
        svg('line', { class: 'grid', x1: left, x2: width - right, y1: y(v), y2: y(v) }),
        svg('text', { class: 'tick', x: left - 4, y: y(v) + 4, 'text-anchor': 'end' }, t.num(v)),
      ]),
    ];
    const series = methods.map((m) => {
      const points = rows.filter((r) => r.method === m).sort((a, b) => a.n - b.n);
      return svg(
        'g',
        { class: `series ${seriesClass(m)}`, 'data-method': m },
        svg('polyline', { points: points.map((p) => `${x(p.n).toFixed(1)},${y(p[field]).toFixed(1)}`).join(' ') }),
        points.map((p) => svg('circle', { cx: x(p.n).toFixed(1), cy: y(p[field]).toFixed(1), r: 3 }, svg('title', {}, `${m}, N = ${t.num(p.n)}: ${significant(t, p[field])}`))),
      );
    });
    const legend = methods.map((m) => h('span', { class: `legend-item ${seriesClass(m)}` }, m));
    return h(
      'figure',
      { class: 'bench-chart', 'data-field': field },
      svg(
        'svg',
        { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
        grid,
        series,
        svg('text', { class: 'axis', x: left + (width - left - right) / 2, y: height - 4, 'text-anchor': 'middle' }, 'N'),
      ),
      h('figcaption', {}, label, ' · ', legend),
    );
  }
}

/** A method's colour class: its place among every method (styles.css has one per method), whichever are drawn. */
function seriesClass(method) {
  return `series-${layout.methods.findIndex((m) => m.name === method)}`;
}
