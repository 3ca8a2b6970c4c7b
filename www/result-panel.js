// The result panel: the method choice, "Run again", and what the last run gave
// (count, instanceCount read back from the indirect buffer, the index buffer's
// hash, where it ran) with the dense list itself.

import { h, replace, grouped, hex32, uniqueId } from './dom.js';

const RESULT_ITEMS = 1024;

const METHOD_INFO = {
  atomic: 'one global atomicAdd per visible flag: fast, order varies',
  aggregated: 'one workgroup-local atomic per flag, one global atomicAdd per 64: order varies between workgroups',
  scan: 'exclusive prefix sum, then scatter: the input order, the same buffer every run',
  lookback: 'one pass: tiles of 4096 chained by a decoupled look-back: the input order, the same buffer every run',
  'lookback-bits': 'the look-back reading one bit per flag',
  'tile-atomic': 'one global atomicAdd per tile of 4096: order kept inside a tile, not between tiles',
};

export class ResultPanel {
  /** @param {{ onMethod: (method: string) => void, onRun: () => void }} options */
  constructor({ onMethod, onRun }) {
    this.onMethod = onMethod;
    this.methodName = uniqueId('method');
    this.methodRadios = h('div', { class: 'methods', role: 'radiogroup', 'aria-label': 'Method' });
    this.runButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'run', onclick: onRun }, 'Run again');
    const stat = (label, testid, cls = null) => {
      const dd = h('dd', { 'data-testid': testid, class: cls }, '–');
      return [h('div', {}, h('dt', {}, label), dd), dd];
    };
    const [countBox, count] = stat('count', 'count');
    const [instanceBox, instanceCount] = stat('instanceCount (read back from the indirect buffer)', 'instance-count');
    const [hashBox, hash] = stat('hash of the index buffer (FNV-1a)', 'hash');
    const [onBox, ranOn] = stat('ran on', 'run-backend', 'ran-on');
    Object.assign(this, { count, instanceCount, hash, ranOn });
    this.list = h('ol', { class: 'result-list', 'data-testid': 'result-list' });
    this.more = h('p', { class: 'note', 'data-testid': 'result-more', hidden: true });
    this.element = h(
      'div',
      { class: 'result-panel' },
      h('div', { class: 'method-row' }, this.methodRadios, this.runButton),
      h('dl', { class: 'results' }, countBox, instanceBox, hashBox, onBox),
      h('p', { class: 'list-title' }, 'The dense list (slot: index)'),
      this.list,
      this.more,
    );
  }

  /** One radio per method the engine offers, `method` checked. */
  showMethods(methods, method) {
    replace(
      this.methodRadios,
      methods.map((m) =>
        h(
          'label',
          { class: 'method' },
          h('input', {
            type: 'radio',
            name: this.methodName,
            value: m,
            checked: m === method,
            'data-testid': `method-${m}`,
            onchange: () => this.onMethod(m),
          }),
          h('span', { class: 'method-name' }, m),
          h('span', { class: 'method-info' }, METHOD_INFO[m] ?? ''),
        ),
      ),
    );
  }

  check(method) {
    for (const r of this.methodRadios.querySelectorAll('input')) r.checked = r.value === method;
  }

  show(r) {
    this.count.textContent = grouped(r.count);
    this.count.dataset.value = String(r.count);
    this.instanceCount.textContent = grouped(r.instanceCount);
    this.instanceCount.dataset.value = String(r.instanceCount);
    this.hash.textContent = hex32(r.hash);
    this.hash.dataset.value = String(r.hash >>> 0);
    const time = r.ms !== undefined ? ` in ${r.ms < 10 ? r.ms.toFixed(1) : Math.round(r.ms)} ms (with readback)` : '';
    this.ranOn.textContent = `${r.backend === 'gpu' ? 'GPU' : 'CPU reference'}: ${r.method}${time}`;
    const shown = Math.min(r.indices.length, RESULT_ITEMS);
    const items = [];
    for (let k = 0; k < shown; k++) items.push(h('li', { 'data-testid': 'result-item' }, String(r.indices[k])));
    replace(this.list, items);
    this.list.dataset.method = r.method;
    this.list.dataset.count = String(r.indices.length);
    this.list.dataset.backend = r.backend;
    this.more.hidden = r.indices.length <= shown;
    this.more.textContent = `… and ${grouped(r.indices.length - shown)} more (the first ${grouped(shown)} are listed).`;
    if (r.count === 0) {
      this.more.hidden = false;
      this.more.textContent = 'No visible flags: the list is empty and instanceCount is 0, so drawIndirect draws nothing.';
    }
  }
}
