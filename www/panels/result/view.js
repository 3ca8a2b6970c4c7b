// The result panel: the method choice, "Run again", and what the last run gave
// (count, instanceCount read back from the indirect buffer, the index buffer's
// hash, where it ran, how long the run took and, apart, how long its first
// compilation took) with the dense list itself, and the downloads.

import { layout } from '../../core/layout.js';
import { h, replace, hex32, scrollBox, uniqueId } from '../../core/dom.js';
import { exportButtons } from '../shared/export.js';

export class ResultPanel {
  /**
   * @param {{ onMethod: (method: string) => void, onRun: () => void,
   *           onExport: (what: string, format: string) => void, t: import('../../i18n/i18n.js').Translator }} options
   */
  constructor({ onMethod, onRun, onExport, t }) {
    this.t = t;
    this.onMethod = onMethod;
    this.methodName = uniqueId('method');
    // One line per method would push the result below the fold: the names form a
    // grid, and the chosen method's description sits under it (each name's
    // description is also its tooltip).
    this.methodAbout = h('p', { class: 'method-about', id: uniqueId('method-about'), 'data-testid': 'chosen-method-info', 'aria-live': 'polite' });
    this.methodRadios = h('div', { class: 'methods', role: 'radiogroup', 'aria-label': t('result.method'), 'aria-describedby': this.methodAbout.id });
    this.runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'run', onclick: onRun }, t('result.run'));
    const stat = (label, testid, cls = null) => {
      const dd = h('dd', { 'data-testid': testid, class: cls }, '–');
      return [h('div', {}, h('dt', {}, label), dd), dd];
    };
    const [countBox, count] = stat(t('result.count'), 'count');
    const [instanceBox, instanceCount] = stat(t('result.instanceCount'), 'instance-count');
    const [hashBox, hash] = stat(t('result.hash'), 'hash');
    const [onBox, ranOn] = stat(t('result.ranOn'), 'run-backend', 'ran-on');
    // Its line is kept while empty (the CPU's start): the GPU's first answer fills it without moving the list below.
    this.compiled = h('p', { class: 'note compile-time', 'data-testid': 'compile-time' });
    this.count = count;
    this.instanceCount = instanceCount;
    this.hash = hash;
    this.ranOn = ranOn;
    this.list = scrollBox(h('ol', { class: 'result-list', 'data-testid': 'result-list' }), t('result.listTitle'));
    this.more = h('p', { class: 'note', 'data-testid': 'result-more', hidden: true });
    this.element = h(
      'div',
      { class: 'result-panel' },
      h('div', { class: 'method-row' }, this.methodRadios, this.methodAbout, this.runButton),
      h('dl', { class: 'results' }, countBox, instanceBox, hashBox, onBox),
      this.compiled,
      h('p', { class: 'list-title' }, t('result.listTitle')),
      this.list,
      this.more,
      exportButtons(
        t,
        [
          ['flags', t('export.flags')],
          ['result', t('export.result')],
        ],
        onExport,
      ),
    );
  }

  /** One radio per method the engine offers, `method` checked. */
  showMethods(methods, method) {
    replace(
      this.methodRadios,
      methods.map((m) =>
        h(
          'label',
          { class: 'method', title: this.t(`method.${m}.info`) },
          h('input', {
            type: 'radio',
            name: this.methodName,
            value: m,
            checked: m === method,
            'data-testid': `method-${m}`,
            onchange: () => {
              this.describe(m);
              this.onMethod(m);
            },
          }),
          h('span', { class: 'method-name' }, m),
        ),
      ),
    );
    this.describe(method);
  }

  check(method) {
    for (const r of this.methodRadios.querySelectorAll('input')) r.checked = r.value === method;
    this.describe(method);
  }

  /** The chosen method's description, under the names. */
  describe(method) {
    this.methodAbout.textContent = this.t(`method.${method}.info`);
    this.methodAbout.dataset.method = method;
  }

  /** A run; `compileMs`: the compilation that came first, timed apart (null: none was needed). */
  show(r, compileMs = null) {
    const t = this.t;
    this.count.textContent = t.num(r.count);
    this.count.dataset.value = String(r.count);
    this.instanceCount.textContent = t.num(r.instanceCount);
    this.instanceCount.dataset.value = String(r.instanceCount);
    // A large run's hash comes with the rest of its indices, a moment after its count.
    this.hash.textContent = r.partial ? '…' : hex32(r.hash);
    this.hash.dataset.value = r.partial ? '' : String(r.hash >>> 0);
    const where = r.backend === 'gpu' ? t('result.gpu') : t('status.cpuTag');
    this.ranOn.textContent =
      r.ms !== undefined
        ? t(r.backend === 'gpu' ? 'result.ranIn' : 'result.ranInCpu', { where, method: r.method, ms: r.ms < 10 ? t.fixed(r.ms, 1) : t.num(Math.round(r.ms)) })
        : t('result.ran', { where, method: r.method });
    this.ranOn.dataset.ms = r.ms === undefined ? '' : String(r.ms);
    // A learner's kernel in ours' place (Step through it): the description says whose run this is.
    if (r.kernel) {
      this.methodAbout.textContent = t('result.learner', { module: r.kernel, method: r.method });
      this.methodAbout.dataset.learner = r.kernel;
    } else if (this.methodAbout.dataset.learner) {
      delete this.methodAbout.dataset.learner;
      this.describe(r.method);
    }
    this.compiled.dataset.ms = compileMs === null ? '' : String(compileMs);
    this.compiled.textContent = compileMs === null ? '' : t('result.compiled', { method: r.method, seconds: t.fixed(compileMs / 1000, 2) });
    const shown = Math.min(r.indices.length, layout.resultHead);
    const items = [];
    for (let k = 0; k < shown; k++) items.push(h('li', { 'data-testid': 'result-item' }, String(r.indices[k])));
    replace(this.list, items);
    this.list.dataset.method = r.method;
    this.list.dataset.count = String(r.count);
    this.list.dataset.backend = r.backend;
    this.more.hidden = r.count <= shown;
    this.more.textContent = t('result.more', { rest: r.count - shown, shown });
    if (r.count === 0) {
      this.more.hidden = false;
      this.more.textContent = t('result.none');
    }
  }
}
