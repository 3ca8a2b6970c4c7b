// The tile view of the single-pass methods (lookback, lookback-bits,
// tile-atomic): the shared step controls, a window of tiles with their states at
// each step, the look-back chain drawn as arcs to the predecessors a tile read,
// and the scatter of each tile's run into the output. The numbers say where they
// come from: read back from the GPU, counted on the CPU, or the CPU's simulation
// of the schedule (www/tile-steps.js builds every step; this file only draws).

import { h, svg, replace, richText, uniqueId } from '../../core/dom.js';
import { StepControls, arrowhead } from '../shared/step-controls.js';
import { WINDOW, planTileSteps, tileStepView, windowAt, tileCount } from './tile-steps.js';
import { layout } from '../../core/layout.js';
import { CodeExcerpt } from '../shared/excerpt.js';
import { exportButtons } from '../shared/export.js';
import { Roving } from '../shared/roving.js';

const IN_FLIGHT = [2, 4, 8];

export class TilesView {
  /**
   * @param {{ onSchedule: (schedule: { inFlight: number, stalled: number|null }) => void,
   *           onSuggest: () => void, onChange?: () => void, onExport: (format: string) => void, t: import('../../i18n/i18n.js').Translator }} options
   *   onSchedule: the visitor changed the simulated schedule (fetch a new trace);
   *   onSuggest: the visitor asked for an array with many tiles.
   */
  constructor({ onSchedule, onSuggest, onChange, onExport, t }) {
    this.t = t;
    /** Numbers that never break across lines. */
    this.num = (n) => t.num(n).replace(/[\s\u2009\u202f]/g, '\u202f');
    this.onExport = onExport;
    this.onSchedule = onSchedule;
    this.onSuggest = onSuggest;
    this.onChange = onChange ?? (() => {});
    this.trace = null;
    this.steps = [];
    this.win = null;
    this.view = null;
    this.schedule = { inFlight: 4, stalled: null };
    /** @type {string | null} the arrowhead marker's id, once drawn */
    this.markerId = null;
    this.build();
  }

  build() {
    const t = this.t;
    const field = (label, select) => h('label', { class: 'block-field' }, label, ' ', select);
    this.windowSelect = h('select', { 'data-testid': 'tile-window', onchange: () => this.setWindow(Number(this.windowSelect.value)) });
    this.windowField = field(t('tiles.window'), this.windowSelect);
    this.inFlightSelect = h(
      'select',
      { 'data-testid': 'tile-in-flight', onchange: () => this.changeSchedule({ inFlight: Number(this.inFlightSelect.value) }) },
      IN_FLIGHT.map((k) => h('option', { value: k, selected: k === this.schedule.inFlight }, t.num(k))),
    );
    this.stallSelect = h('select', { 'data-testid': 'tile-stall', onchange: () => this.changeSchedule({ stalled: this.stallSelect.value === '' ? null : Number(this.stallSelect.value) }) });
    this.controls = new StepControls({
      t,
      label: t('tiles.controls'),
      testPrefix: 'tiles-',
      extra: [this.windowField],
      onGo: () => {
        this.render();
        this.onChange();
      },
      describe: () => this.view?.title ?? '',
      reading: () => this.text.textContent ?? '',
    });
    this.scheduleRow = h('div', { class: 'tile-schedule' }, field(t('tiles.inFlight'), this.inFlightSelect), field(t('tiles.stalled'), this.stallSelect));
    this.sources = h('p', { class: 'tile-sources', 'data-testid': 'tile-sources' });
    this.suggestion = h('p', { class: 'note tile-suggest', 'data-testid': 'tile-suggest', hidden: true });
    this.title = h('h3', { class: 'step-title', 'data-testid': 'tiles-step-title' });
    // Read on demand; the controls announce one short line per step.
    this.text = h('p', { class: 'step-text', 'data-testid': 'tiles-step-text' });
    this.row = h('div', { class: 'tile-row', 'data-testid': 'tile-row', role: 'list', 'aria-label': t('tiles.rowLabel') });
    // One tab stop for the window of tiles: arrows move between them.
    this.roving = new Roving(this.row, {
      items: () => [...this.row.querySelectorAll('.tile')],
      rowOf: () => this.row,
      keyOf: (tile) => tile.dataset.tile,
    });
    this.output = h('div', { class: 'tile-output', hidden: true });
    this.layer = svg('svg', { class: 'tile-arcs', 'aria-hidden': 'true' });
    this.rows = h('div', { class: 'tile-rows' }, this.row, this.output, this.layer);
    this.diagram = h('div', { class: 'diagram tiles-diagram', 'data-testid': 'tiles-diagram' }, this.rows);
    this.why = h('p', { class: 'note why-one-pass', 'data-testid': 'tile-why' });
    this.code = new CodeExcerpt({ t, testid: 'tiles-step-code' });
    this.resizeObserver = new ResizeObserver(() => this.drawArcs());
    this.resizeObserver.observe(this.diagram);
    this.element = h(
      'div',
      // Hidden until the first trace, as the scan's stepper is (www/panels/scan/view.js).
      { class: 'tiles-view', 'data-testid': 'tiles-view', hidden: true },
      this.controls.element,
      this.scheduleRow,
      this.sources,
      this.suggestion,
      this.title,
      this.text,
      this.diagram,
      this.why,
      this.code.element,
      this.controls.shortcuts(),
      exportButtons(t, [['tiles', t('export.tiles')]], (_, format) => this.onExport(format)),
    );
  }

  get step() {
    return this.controls.index + 1;
  }

  /** The first tile of the window shown. */
  get firstTile() {
    return this.win?.start ?? 0;
  }

  handleKey(e) {
    return this.controls.handleKey(e);
  }

  destroy() {
    this.controls.pause();
    this.resizeObserver.disconnect();
  }

  changeSchedule(change) {
    this.schedule = { ...this.schedule, ...change };
    this.onSchedule(this.schedule);
  }

  /** A new trace from Playground.tileTrace(); keeps the step and window when they still exist. */
  setTrace(trace, { step = null, tile = null } = {}) {
    this.element.hidden = false;
    this.trace = trace;
    const tiles = tileCount(trace);
    const atomic = trace.method === 'tile-atomic';
    this.element.dataset.tiles = String(tiles);
    this.element.dataset.method = trace.method;
    this.element.dataset.states = trace.source.states;
    this.scheduleRow.hidden = atomic;
    this.rows.classList.toggle('no-arcs', atomic);
    this.why.textContent = this.t(atomic ? 'tiles.why.atomic' : 'tiles.why');
    if (!atomic) this.schedule = { inFlight: trace.chain.inFlight, stalled: trace.chain.stalled };
    this.inFlightSelect.value = String(this.schedule.inFlight);
    this.win = windowAt(trace, tile ?? this.win?.start ?? 0);
    const windows = Math.ceil(tiles / WINDOW);
    replace(
      this.windowSelect,
      Array.from({ length: windows }, (_, w) => {
        const a = w * WINDOW;
        const b = Math.min(tiles, a + WINDOW) - 1;
        const flags = this.t('tiles.flags', { first: trace.tiles.firstFlag[a], last: trace.tiles.firstFlag[b] + trace.tiles.flags[b] - 1 });
        return h('option', { value: a, selected: a === this.win.start, title: flags }, a === b ? String(a) : `${a}–${b}`);
      }),
    );
    this.windowField.hidden = windows <= 1;
    this.suggestion.hidden = tiles > 1;
    replace(
      this.suggestion,
      this.t(tiles === 1 ? 'tiles.suggest.one' : 'tiles.suggest.none', { size: trace.tileSize }),
      ' ',
      h('button', { type: 'button', 'data-testid': 'tile-suggest-button', onclick: () => this.onSuggest() }, this.t('tiles.suggest', { n: 100_000, tiles: 25 })),
    );
    this.replan(step !== null ? step - 1 : this.controls.index);
  }

  setWindow(start) {
    this.win = windowAt(this.trace, start);
    this.replan(this.controls.index);
    this.onChange();
  }

  replan(index) {
    const trace = this.trace;
    this.steps = planTileSteps(trace, this.win);
    const stalled = this.schedule.stalled;
    replace(
      this.stallSelect,
      h('option', { value: '', selected: stalled === null }, this.t('tiles.stalled.none')),
      Array.from({ length: this.win.end - this.win.start }, (_, k) => this.win.start + k).map((t) => h('option', { value: t, selected: t === stalled }, this.t('tiles.one', { t: String(t) }))),
      stalled !== null && (stalled < this.win.start || stalled >= this.win.end) ? h('option', { value: stalled, selected: true }, this.t('tiles.one', { t: String(stalled) })) : null,
    );
    this.controls.set(this.steps.length, index);
    this.render();
  }

  render() {
    if (!this.trace) return;
    const view = tileStepView(this.trace, this.steps, this.controls.index, this.win, this.t);
    this.view = view;
    this.controls.label.dataset.kind = view.step.kind;
    this.title.textContent = view.title;
    richText(this.text, view.text);
    this.code.show(view.code, this.trace.method);
    this.renderSources(view.sources);
    const refocus = this.roving.hasFocus();
    replace(
      this.row,
      view.tiles.map((tile) => this.renderTile(tile, view)),
    );
    this.roving.refresh(refocus);
    this.output.hidden = !view.runs;
    this.drawArcs();
    this.revealFocus();
  }

  /** On a narrow screen the row scrolls: keep the tile that looks back in sight. */
  revealFocus() {
    const focus = this.row.querySelector('.tile.role-focus');
    const pane = this.diagram;
    if (!focus || pane.scrollWidth <= pane.clientWidth) return;
    const left = focus.offsetLeft;
    const right = left + focus.offsetWidth;
    if (right > pane.scrollLeft + pane.clientWidth) pane.scrollLeft = right - pane.clientWidth + 12;
    else if (left < pane.scrollLeft) pane.scrollLeft = Math.max(0, left - 12);
  }

  renderSources(sources) {
    const gpu = this.trace.source.states === 'gpu';
    const atomic = this.trace.method === 'tile-atomic';
    const t = this.t;
    const tag = (kind) => h('span', { class: `src src-${kind}` }, t(`tiles.src.${kind}`));
    replace(
      this.sources,
      gpu ? [tag('gpu'), ' ', t(atomic ? 'tiles.sources.gpuAtomic' : 'tiles.sources.gpu'), ' '] : [tag('cpu'), ' ', t('tiles.sources.cpuOnly'), ' '],
      gpu ? [tag('cpu'), ' ', t('tiles.sources.cpu'), ' '] : null,
      atomic ? null : [tag('simulation'), ' ', t('tiles.sources.simulation', { inFlight: this.schedule.inFlight })],
    );
    this.sources.dataset.states = sources.state;
  }

  renderTile(tile, view) {
    const t = this.t;
    const num = this.num;
    const value = (field, text, source) =>
      h('dd', { 'data-field': field, 'data-source': text === null ? null : source, 'data-value': text === null ? '' : String(text) }, text === null ? '–' : num(text));
    const status = tile.status.toUpperCase();
    const valueSource = tile.status === 'inclusive' ? view.sources.inclusive : 'cpu';
    const badge = h(
      'p',
      { class: `badge status-${tile.status}`, 'data-field': 'state', 'data-status': tile.status, 'data-state-source': view.sources.state },
      status,
      tile.value !== null ? h('span', { class: 'badge-value', 'data-source': valueSource, 'data-value': tile.value }, num(tile.value)) : null,
    );
    const frac = tile.aggregate === null ? 0 : tile.aggregate / Math.max(1, tile.flags);
    const bar = svg(
      'svg',
      { class: 'tile-bar', viewBox: '0 0 100 6', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
      svg('rect', { class: 'tile-bar-bg', x: 0, y: 0, width: 100, height: 6 }),
      svg('rect', { class: 'tile-bar-fill', x: 0, y: 0, width: (100 * frac).toFixed(2), height: 6 }),
    );
    const read =
      tile.role === 'read'
        ? h(
            'p',
            {
              class: `tile-read seen-${tile.seen.replace(' ', '-')}`,
              'data-testid': 'tile-read',
              'data-seen': tile.seen,
              'data-added': tile.added,
              'data-running': tile.running,
              'data-source': 'simulation',
            },
            h('span', {}, tile.seen === 'counted itself' ? t('tiles.saw.counted') : t('tiles.saw', { state: tile.seen.toUpperCase() })),
            h('span', {}, `+${num(tile.added)} → ${num(tile.running)}`),
          )
        : null;
    const claim =
      tile.role === 'claim'
        ? h(
            'p',
            { class: 'tile-read', 'data-testid': 'tile-claim', 'data-claim': tile.claim, 'data-source': view.sources.exclusive },
            h('span', {}, `atomicAdd #${tile.claim}`),
            h('span', {}, t('tiles.returned', { value: num(tile.exclusive) })),
          )
        : null;
    const run = view.runs?.find((r) => r.t === tile.t);
    const out = run
      ? h(
          'p',
          {
            class: 'tile-run',
            'data-testid': 'tile-run',
            'data-exclusive': run.exclusive,
            'data-inclusive': run.inclusive,
            'data-first': run.first,
            'data-last': run.last,
            'data-source': view.sources.output,
          },
          h('span', {}, t('tiles.slots', { a: num(run.exclusive), b: num(run.inclusive - 1) })),
          h('span', {}, `= ${num(run.first)} … ${num(run.last)}`),
        )
      : null;
    const wave = tile.wave === null ? null : h('span', { class: 'tile-wave' }, t(tile.late ? 'tiles.wave.stalled' : 'tiles.wave', { wave: String(tile.wave) }));
    return h(
      'div',
      {
        class: `tile${tile.stub ? ' stub' : ''}${tile.role ? ` role-${tile.role}` : ''}${tile.late ? ' late' : ''}`,
        'data-testid': tile.stub ? 'tile-before' : 'tile',
        'data-tile': tile.t,
        'data-status': tile.status,
        'data-role': tile.role ?? '',
        role: 'listitem',
        tabindex: -1,
        'aria-label': `${t('tiles.one', { t: String(tile.t) })}: ${status}${tile.value !== null ? ` ${tile.value}` : ''}`,
      },
      h('div', { class: 'tile-head' }, h('strong', {}, t('tiles.one', { t: String(tile.t) })), wave),
      h('div', { class: 'tile-flags' }, t('tiles.flags', { first: num(tile.first), last: num(tile.last) })),
      bar,
      badge,
      h(
        'dl',
        {},
        h('div', {}, h('dt', {}, t('tiles.dt.aggregate')), value('aggregate', tile.aggregate, view.sources.aggregate)),
        h(
          'div',
          {},
          h('dt', {}, t(this.trace.method === 'tile-atomic' ? 'tiles.dt.start' : 'tiles.dt.exclusive')),
          value('exclusive', tile.exclusive === layout.noSlot ? null : tile.exclusive, view.sources.exclusive),
        ),
      ),
      read,
      claim,
      out,
    );
  }

  /** Look-back arcs above the tiles, and the scatter's output bar below them, from measured positions. */
  drawArcs() {
    const view = this.view;
    if (!view) return;
    const box = this.rows.getBoundingClientRect();
    if (box.width === 0) return;
    const width = this.rows.scrollWidth;
    const height = this.rows.scrollHeight;
    this.layer.setAttribute('width', String(width));
    this.layer.setAttribute('height', String(height));
    this.layer.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const at = (t) => this.row.querySelector(`.tile[data-tile="${t}"]`)?.getBoundingClientRect();
    this.markerId ??= uniqueId('tile-arrow');
    const markerId = this.markerId;
    const shapes = [];
    view.arcs.forEach((arc, k) => {
      const a = at(arc.from);
      const b = at(arc.to);
      if (!a || !b) return;
      // Farther predecessors' arcs leave a little further right: nested, never crossing.
      const x1 = a.left + Math.min(a.width / 2 + 7 * k, a.width - 6) - box.left;
      const x2 = b.left + b.width / 2 - box.left;
      const y = a.top - box.top;
      const lift = Math.min(y - 4, 14 + 0.18 * Math.abs(x1 - x2));
      shapes.push(
        svg('path', {
          class: `tile-arc seen-${arc.seen.replace(' ', '-')}`,
          d: `M${x1.toFixed(1)},${y.toFixed(1)} C${x1.toFixed(1)},${(y - lift).toFixed(1)} ${x2.toFixed(1)},${(y - lift).toFixed(1)} ${x2.toFixed(1)},${(y - 2).toFixed(1)}`,
          'marker-end': `url(#${markerId})`,
        }),
      );
    });
    if (view.runs?.length) shapes.push(...this.outputBar(view.runs, box));
    replace(this.layer, arrowhead(markerId), shapes);
  }

  /** The output slots the window's runs fill, as one bar, each run joined to its tile. */
  outputBar(runs, box) {
    const out = this.output.getBoundingClientRect();
    const rowBox = this.row.getBoundingClientRect();
    const lo = Math.min(...runs.map((r) => r.exclusive));
    const hi = Math.max(...runs.map((r) => r.inclusive));
    const left = rowBox.left - box.left;
    const span = Math.max(1, rowBox.width);
    const x = (slot) => left + ((slot - lo) / Math.max(1, hi - lo)) * span;
    const top = out.top - box.top + out.height * 0.4;
    const barHeight = out.height * 0.3;
    const shapes = [svg('text', { class: 'tile-out-label', x: left, y: top + barHeight + 13 }, this.t('tiles.output', { a: lo, b: hi - 1 }))];
    for (const run of runs) {
      const tile = this.row.querySelector(`.tile[data-tile="${run.t}"]`)?.getBoundingClientRect();
      const x1 = x(run.exclusive);
      const x2 = x(run.inclusive);
      shapes.push(svg('rect', { class: `tile-out-run run${run.t % 2}`, x: x1.toFixed(1), y: top.toFixed(1), width: Math.max(1, x2 - x1).toFixed(1), height: barHeight.toFixed(1) }));
      if (tile) {
        const tx = tile.left + tile.width / 2 - box.left;
        const ty = tile.bottom - box.top;
        const mx = (x1 + x2) / 2;
        shapes.push(svg('path', { class: 'tile-out-link', d: `M${tx.toFixed(1)},${ty.toFixed(1)} L${mx.toFixed(1)},${(top - 1).toFixed(1)}` }));
      }
    }
    return shapes;
  }
}
