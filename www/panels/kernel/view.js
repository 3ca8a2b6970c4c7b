// What the kernel panel shows: the kernel chosen, its code (read-only until
// Edit, then the editor), the compiler's messages on their lines, the check's
// progress and verdict, and the smallest failing case, ours beside yours
// around the first difference. The logic is index.js's.

import { h, replace, scrollBox, uniqueId } from '../../core/dom.js';
import { codeLines } from '../shared/excerpt.js';
import { budget } from './instrument.js';
import { UNWRITTEN } from './harness.js';

/** The most cells of a row of the counterexample. */
const SHOWN = 32;

export class KernelView {
  /**
   * @param {{ t: any, kernels: { module: string, method: string }[],
   *   onKernel: (module: string) => void, onEdit: () => void, onCheck: () => void,
   *   onReset: () => void, onStep: () => void, onOurs: () => void }} options
   */
  constructor({ t, kernels, onKernel, onEdit, onCheck, onReset, onStep, onOurs }) {
    this.t = t;
    const id = uniqueId('kernel-module');
    this.select = h(
      'select',
      { id, 'data-testid': 'kernel-module', onchange: () => onKernel(this.select.value) },
      kernels.map((k) => h('option', { value: k.module }, k.module)),
    );
    this.method = h('span', { class: 'note' });
    this.edit = h('button', { type: 'button', 'data-testid': 'kernel-edit', onclick: onEdit }, t('kernel.edit'));
    this.checkButton = h('button', { type: 'button', 'data-testid': 'kernel-check', onclick: onCheck }, t('kernel.check'));
    this.reset = h('button', { type: 'button', 'data-testid': 'kernel-reset', onclick: onReset }, t('kernel.reset'));
    this.code = h('div', { class: 'kernel-code', 'data-testid': 'kernel-code' });
    this.compile = h('p', { class: 'kernel-compile', 'data-testid': 'kernel-compile' });
    this.diagnostics = h('ul', { class: 'kernel-diagnostics', 'data-testid': 'kernel-diagnostics' });
    this.progress = h('p', { class: 'note kernel-progress', 'data-testid': 'kernel-progress' });
    this.verdict = h('div', { class: 'kernel-verdict', 'data-testid': 'kernel-verdict', role: 'status' });
    this.counterexample = h('div', { class: 'kernel-cx', 'data-testid': 'kernel-counterexample' });
    this.stepButton = h('button', { type: 'button', 'data-testid': 'kernel-step', onclick: onStep, hidden: true }, t('kernel.step'));
    this.stepSchedule = h('span', { 'data-testid': 'kernel-step-schedule' });
    this.stepNote = h(
      'p',
      { class: 'note', hidden: true },
      t('kernel.stepNote'),
      ' ',
      this.stepSchedule,
      ' ',
      h('button', { type: 'button', 'data-testid': 'kernel-ours', onclick: onOurs }, t('kernel.useOurs')),
    );
    this.linked = h('p', { class: 'note', 'data-testid': 'kernel-linked', hidden: true }, t('kernel.linked'));
    this.leftNote = h('p', { class: 'note', 'data-testid': 'kernel-left', role: 'status', hidden: true });
    this.tooLong = h('p', { class: 'note', 'data-testid': 'kernel-too-long', hidden: true });
    this.element = h(
      'div',
      { class: 'kernel-panel' },
      h('p', { class: 'kernel-choose' }, h('label', { for: id }, t('kernel.choose'), ' ', this.select), ' ', this.method),
      h('p', { class: 'kernel-actions' }, this.edit, this.checkButton, this.reset),
      h('p', { class: 'note' }, t('kernel.keys')),
      this.linked,
      this.code,
      this.tooLong,
      this.compile,
      this.diagnostics,
      // The check's outcome has its room from the start (what it will show is said there until then): a
      // verdict seconds after Check must not push the host's page down.
      h(
        'div',
        { class: 'kernel-outcome', 'data-testid': 'kernel-outcome' },
        h('p', { class: 'note kernel-idle' }, t('kernel.idle')),
        this.progress,
        this.verdict,
        this.counterexample,
        h('p', {}, this.stepButton),
        this.stepNote,
      ),
      this.leftNote,
    );
  }

  /** The kernel chosen, the method that runs it; an exercise's kernel is not for choosing. */
  showKernel(module, method, fixed = false) {
    this.select.value = module;
    this.select.disabled = fixed;
    this.method.textContent = this.t('kernel.method', { method });
  }

  /** The code, read-only (before the first Edit). */
  showSource(text, module) {
    const lines = text.split('\n');
    replace(
      this.code,
      scrollBox(
        h(
          'pre',
          { class: 'code-lines' },
          codeLines(lines, 0, lines.length, () => null, 'kernel-line'),
        ),
        this.t('kernel.sourceLabel', { module }),
      ),
    );
  }

  /** Where the editor goes (emptied). */
  editorHost() {
    const host = h('div', { class: 'kernel-editor' });
    replace(this.code, host);
    this.edit.hidden = true;
    return host;
  }

  say(text) {
    replace(this.code, h('p', { class: 'note' }, text));
  }

  /**
   * The compiler's messages (already in the learner's lines), `state` what the compile came to.
   * @param {'none' | 'compiling' | 'ok' | 'errors'} state  @param {{ severity: string, message: string, line: number, column: number }[]} list
   */
  showCompile(state, list = []) {
    const t = this.t;
    const errors = list.filter((d) => d.severity === 'error').length;
    this.compile.dataset.state = state;
    this.compile.textContent =
      state === 'none'
        ? ''
        : state === 'compiling'
          ? t('kernel.compiling')
          : errors
            ? t('kernel.errors', { count: errors })
            : list.length
              ? t('kernel.compiledWarnings', { count: list.length })
              : t('kernel.compiled');
    replace(
      this.diagnostics,
      list.map((d) =>
        h(
          'li',
          { class: `kernel-diagnostic ${d.severity}`, 'data-testid': 'kernel-diagnostic', 'data-severity': d.severity, 'data-line': String(d.line), 'data-column': String(d.column) },
          h('span', { class: 'kernel-where' }, d.line > 0 ? t('kernel.where', { line: d.line, column: d.column }) : t('kernel.appended')),
          ` ${d.severity}: `,
          d.message,
        ),
      ),
    );
  }

  setBusy(busy) {
    this.checkButton.disabled = busy;
    this.select.inert = busy;
  }

  showProgress(text) {
    this.progress.textContent = text;
  }

  /** A check's report (`harness.js` KernelReport), or null to clear. */
  showReport(report, mode) {
    const t = this.t;
    this.progress.textContent = '';
    this.stepButton.hidden = true;
    replace(this.counterexample);
    if (!report) {
      replace(this.verdict);
      delete this.verdict.dataset.verdict;
      return;
    }
    this.verdict.dataset.verdict = report.verdict;
    if (report.failure) this.verdict.dataset.failure = report.failure;
    else delete this.verdict.dataset.failure;
    const cx = report.counterexample;
    const lines = [];
    if (report.verdict === 'passed') lines.push(t('kernel.verdict.passed', { total: report.total, from: report.from, to: report.to, how: t(`kernel.how.${mode}`) }));
    else if (report.verdict === 'failed') {
      lines.push(t('kernel.verdict.failed', { case: report.case, passed: report.passed, total: report.total }));
      const got = cx?.gotCount ?? cx?.got.length;
      const schedule = cx?.schedule ? t(`kernel.schedule.${cx.schedule.name}`) : '';
      lines.push(t(`kernel.failure.${report.failure}`, { index: cx?.index, at: cx?.at, got, expected: cx?.expectedCount ?? cx?.expected.length, schedule, cause: cx?.cause ?? '' }));
      if (cx?.damage) lines.push(this.damageLine(cx.damage));
      if (cx) {
        const one = cx.flags.length === 1 ? '.one' : '';
        const params = { from: cx.shrunkFrom, n: cx.flags.length, runs: cx.runs };
        lines.push(t(cx.flags.length < cx.shrunkFrom ? `kernel.shrunk${one}` : `kernel.notShrunk${one}`, params));
      }
    } else {
      const key = report.verdict === 'hung' && !report.line ? 'watchdog' : report.verdict;
      lines.push(t(`kernel.verdict.${key}`, { line: report.line, case: report.case, budget: budget(report.n ?? 0), message: report.message ?? '', seconds: report.message ?? '' }));
    }
    replace(
      this.verdict,
      lines.map((l) => h('p', {}, l)),
      report.costs ? this.renderCosts(report.costs) : null,
    );
    if (cx) {
      replace(this.counterexample, this.renderCounterexample(cx));
      this.stepButton.hidden = false;
    }
  }

  /** A passing kernel's costs beside ours (`costs` of the report). */
  renderCosts(c) {
    const t = this.t;
    const kinds = ['reads', 'writes', 'atomics', 'barriers', 'ms'];
    const cell = (x) => (Number.isFinite(x) ? t.fixed(x, x < 10 ? 2 : 1) : '—');
    return h(
      'div',
      { class: 'kernel-costs', 'data-testid': 'kernel-costs' },
      h('p', { class: 'note' }, t('kernel.costs.title', { n: c.n, timeN: c.timeN })),
      h(
        'table',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, ''),
          kinds.map((k) => h('th', { scope: 'col' }, t(`kernel.costs.${k}`))),
        ),
        [
          ['yours', c.yours],
          ['expected', c.ours],
        ].map(([who, v]) =>
          h(
            'tr',
            { 'data-who': who },
            h('th', { scope: 'row' }, t(`kernel.${who}`)),
            kinds.map((k) => h('td', { 'data-kind': k }, cell(v[k]))),
          ),
        ),
      ),
    );
  }

  /** Where the stepped run first differs from ours, in the stepper's own step numbers. */
  damageLine(d) {
    const t = this.t;
    const what = t(`kernel.damage.${d.kind}`, { s: d.s ?? 0, level: d.level });
    const value = (v) => (v === null ? '—' : v === UNWRITTEN ? t('kernel.notRecorded') : t.num(v));
    return t(d.index < 0 ? 'kernel.damageCount' : 'kernel.damage', { step: d.step, what, index: d.index, yours: value(d.yours), ours: value(d.ours) });
  }

  /** The flags around the index at fault, then the output slots around the first difference. */
  renderCounterexample(cx) {
    const t = this.t;
    const around = (length, centre) => {
      const from = Math.max(0, Math.min(centre - SHOWN / 2, length - SHOWN));
      return [from, Math.min(length, from + SHOWN)];
    };
    const [f0, f1] = around(cx.flags.length, Math.max(cx.index, 0));
    const flagRow = [];
    for (let i = f0; i < f1; i++) flagRow.push(h('td', { class: i === cx.index ? 'at' : null }, String(cx.flags[i])));
    const slots = Math.max(cx.expected.length, cx.got.length);
    const [s0, s1] = around(slots, cx.at);
    const heads = [];
    const ours = [];
    const yours = [];
    for (let k = s0; k < s1; k++) {
      const differs = cx.expected[k] !== cx.got[k];
      heads.push(h('th', { scope: 'col' }, String(k)));
      ours.push(h('td', { class: differs ? 'differs' : null }, cx.expected[k] === undefined ? '—' : String(cx.expected[k])));
      yours.push(h('td', { class: differs ? 'differs' : null, 'data-testid': 'kernel-yours' }, cx.got[k] === undefined ? '—' : String(cx.got[k])));
    }
    const indexHeads = [];
    for (let i = f0; i < f1; i++) indexHeads.push(h('th', { scope: 'col' }, String(i)));
    return scrollBox(
      h(
        'div',
        { class: 'kernel-cx-tables', 'data-flags': cx.flags.join(',') },
        h('table', {}, h('tr', {}, h('th', { scope: 'row' }, t('kernel.index')), indexHeads), h('tr', {}, h('th', { scope: 'row' }, t('kernel.flags')), flagRow)),
        slots
          ? h(
              'table',
              {},
              h('tr', {}, h('th', { scope: 'row' }, t('kernel.slot')), heads),
              h('tr', {}, h('th', { scope: 'row' }, t('kernel.expected')), ours),
              h('tr', {}, h('th', { scope: 'row' }, t('kernel.yours')), yours),
            )
          : null,
      ),
      t('kernel.cxLabel'),
    );
  }

  /** Whether the kernel shown came with the link and waits for Check. */
  showLinked(on) {
    this.linked.hidden = !on;
  }

  /** `{ name, text }` too long for a link: said, with the text as a .wgsl download; null: nothing to say. */
  showTooLong(kernel) {
    this.tooLong.hidden = !kernel;
    if (this.download) URL.revokeObjectURL(this.download);
    this.download = null;
    if (!kernel) return;
    const href = URL.createObjectURL(new Blob([kernel.text], { type: 'text/plain' }));
    this.download = href;
    const link = h('a', { href, download: `${kernel.name}.wgsl`, 'data-testid': 'kernel-download' }, this.t('kernel.download', { file: `${kernel.name}.wgsl` }));
    replace(this.tooLong, this.t('kernel.tooLong'), ' ', link);
  }

  /**
   * The other panels run the learner's kernel (after Step through it), or ours
   * again: when the page brought ours back by itself (other flags, another
   * method, a new device), said.
   * @param {import('../../playground/stepping.js').SteppingState} state
   */
  showStepping(state) {
    this.stepNote.hidden = !state.active;
    this.stepSchedule.textContent = state.schedule ? this.t('kernel.stepSchedule', { schedule: this.t(`kernel.schedule.${state.schedule.name}`) }) : '';
    const left = !state.active && state.left && state.left !== 'asked' ? this.t(`kernel.left.${state.left}`) : '';
    this.leftNote.textContent = left;
    this.leftNote.hidden = !left;
  }
}
