// The atomic view: which slot each visible invocation got from atomicAdd;
// "run ×R", which repeats the atomic methods and shows every run's output order
// and hash beside the scan's, saying honestly whether the order moved; and the
// search for a size where it does move on this adapter.

import { h, replace, richText, hex32, scrollBox, uniqueId } from '../../core/dom.js';
import { layout } from '../../core/layout.js';
import { whyStable } from '../shared/stable.js';

const SLOT_CELLS = 512; // slots shown cell by cell
const ORDER_SHOWN = 24; // indices of each run's order shown in the table

export class AtomicView {
  /**
   * @param {{ onMethod: (method: string) => void, onRepeat: (runs: number) => void, onSearch: () => void, onUseFound: (outcome: any) => void, t: import('../../i18n/i18n.js').Translator }} options
   */
  constructor({ onMethod, onRepeat, onSearch, onUseFound, t }) {
    this.t = t;
    this.onUseFound = onUseFound;
    this.method = 'atomic';
    /** The runs shown (what a language switch keeps): `{ repeats?, search? }`. */
    this.shown = {};
    this.onMethod = onMethod;
    this.onRepeat = onRepeat;
    const name = uniqueId('slot-method');
    const repeatId = uniqueId('repeat');
    this.radios = ['atomic', 'aggregated'].map((m) =>
      h('input', {
        type: 'radio',
        name,
        value: m,
        checked: m === this.method,
        'data-testid': `slot-method-${m}`,
        onchange: () => {
          this.method = m;
          this.onMethod(m);
        },
      }),
    );
    this.caption = h('p', { class: 'note', 'data-testid': 'slot-caption' });
    this.slots = scrollBox(h('div', { class: 'slot-grid', 'data-testid': 'slot-grid' }), t('atomic.slotsLabel'));
    this.repeatInput = h('input', { id: repeatId, type: 'number', min: 1, max: 64, value: 8, 'data-testid': 'repeat-count', inputmode: 'numeric' });
    this.repeatButton = h('button', { type: 'submit', 'data-testid': 'repeat-run' }, t('atomic.run', { runs: 8 }));
    this.repeatInput.addEventListener('input', () => {
      this.repeatButton.textContent = t('atomic.run', { runs: this.runs() });
    });
    // The progress of "Run ×R", beside its button (the status line may be out of view).
    this.progress = h('span', { class: 'repeat-progress', role: 'status', 'data-testid': 'repeat-progress' });
    this.searchButton = h('button', { type: 'button', 'data-testid': 'reorder-search', onclick: () => onSearch() }, t('atomic.search'));
    this.searchResult = h('p', { class: 'search-result', 'data-testid': 'reorder-result', 'aria-live': 'polite', hidden: true });
    this.table = h('table', { class: 'repeat-table', 'data-testid': 'repeat-table', hidden: true });
    this.verdict = h('div', { class: 'verdict', 'data-testid': 'repeat-verdict', 'aria-live': 'polite' });
    // Hidden until the first slots (or why there are none), as the steppers are (www/panels/scan/view.js).
    this.element = h(
      'div',
      { class: 'atomic-view', hidden: true },
      h(
        'fieldset',
        { class: 'inline-radios' },
        h('legend', {}, t('atomic.slotsFrom')),
        this.radios.map((r) => h('label', {}, r, ` ${r.value}`)),
      ),
      this.caption,
      this.slots,
      h(
        'form',
        {
          class: 'repeat',
          onsubmit: (e) => {
            e.preventDefault();
            this.onRepeat(this.runs());
          },
        },
        h('label', { for: repeatId }, t('atomic.repeat'), ' '),
        this.repeatInput,
        h('span', {}, ' ', t('atomic.times'), ' '),
        this.repeatButton,
        this.progress,
      ),
      h('p', { class: 'search' }, this.searchButton),
      this.searchResult,
      scrollBox(h('div', { class: 'table-scroll' }, this.table), t('atomic.tableLabel')),
      this.verdict,
    );
  }

  runs() {
    const r = Math.floor(Number(this.repeatInput.value));
    return Number.isFinite(r) ? Math.max(1, Math.min(64, r)) : 8;
  }

  /** Shows the slots of `method` (atomic or aggregated) from now on. */
  choose(method) {
    for (const r of this.radios) r.checked = r.value === method;
    this.method = method;
  }

  /** Shows again what another view of this panel showed (`shown`). */
  restore({ repeats, search }) {
    if (search) this.showSearch(search);
    else if (repeats) this.showRepeats(repeats.results, repeats.info);
  }

  setBusy(busy) {
    this.repeatButton.disabled = busy;
    this.searchButton.disabled = busy;
  }

  /**
   * The search's end: `{ found: true, n, results, backend, adapter }` (the runs
   * at the first size that reordered, shown in the table) or `{ found: false, reason }`.
   */
  showSearch(outcome) {
    const t = this.t;
    this.shown.search = outcome;
    this.searchResult.hidden = false;
    this.searchResult.dataset.found = String(outcome.found);
    if (!outcome.found) {
      this.searchResult.textContent = outcome.reason;
      return;
    }
    const moved = movedMethods(outcome.results);
    // The size found, offered to the page: the result and the steppers then show those flags.
    const use = h('button', { type: 'button', 'data-testid': 'reorder-use', onclick: () => this.onUseFound(outcome) }, t('atomic.search.use', { n: outcome.n }));
    replace(this.searchResult, t('atomic.search.found', { n: outcome.n, methods: moved.join(', '), runs: outcome.results[0].runs.length }), ' ', use);
    this.showRepeats(outcome.results, outcome);
  }

  /** The slot each flag's invocation received (`trace.slots`), or a reason why not. */
  showSlots(trace, flags, unavailable = null) {
    this.element.hidden = false;
    if (!trace) {
      replace(this.slots);
      this.caption.textContent = unavailable ?? '';
      return;
    }
    const shown = Math.min(flags.length, SLOT_CELLS);
    const cells = [];
    for (let i = 0; i < shown; i++) {
      const slot = trace.slots[i];
      const visible = slot !== layout.noSlot;
      cells.push(
        h(
          'span',
          {
            class: `slot${visible ? ' visible' : ''} wg${Math.floor(i / layout.atomicWorkgroup) % 2}`,
            'data-testid': 'slot-cell',
            'data-i': i,
            'data-slot': visible ? slot : '',
            title: visible ? this.t('atomic.slotTitle', { i: String(i), slot: String(slot) }) : this.t('atomic.noSlot', { i: String(i) }),
          },
          h('span', { class: 'slot-i' }, String(i)),
          h('span', { class: 'slot-v' }, visible ? String(slot) : '·'),
        ),
      );
    }
    replace(this.slots, cells);
    const t = this.t;
    const more = flags.length > shown ? t('atomic.more', { shown, n: flags.length }) : '';
    const how = t(trace.method === 'atomic' ? 'atomic.how.atomic' : 'atomic.how.aggregated');
    richText(this.caption, t('atomic.caption', { how, order: orderText(t, trace.indices, 32), more }));
  }

  /** Rows `{ method, runs: [{ indices, hash }] }` for atomic, aggregated and scan. */
  showRepeats(results, { backend, adapter, n }) {
    const t = this.t;
    this.shown.repeats = { results, info: { backend, adapter, n } };
    const runs = results[0].runs.length;
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col' }, t('atomic.th.run')),
      results.map((r) => h('th', { scope: 'col', colspan: r.method === 'scan' ? 1 : 2 }, r.method)),
    );
    const sub = h(
      'tr',
      { class: 'sub' },
      h('th', {}, ''),
      results.map((r) => (r.method === 'scan' ? [h('th', {}, t('atomic.th.hash'))] : [h('th', {}, t('atomic.th.order')), h('th', {}, t('atomic.th.hash'))])),
    );
    const body = [];
    for (let k = 0; k < runs; k++) {
      body.push(
        h(
          'tr',
          { 'data-testid': 'repeat-row', 'data-run': k + 1 },
          h('th', { scope: 'row' }, String(k + 1)),
          results.map((r) => {
            const run = r.runs[k];
            const hash = h('td', { class: 'hash', 'data-testid': `repeat-hash-${r.method}` }, hex32(run.hash));
            return r.method === 'scan' ? [hash] : [h('td', { class: 'order', 'data-testid': `repeat-order-${r.method}` }, orderText(t, run.indices, ORDER_SHOWN)), hash];
          }),
        ),
      );
    }
    replace(this.table, h('thead', {}, head, sub), h('tbody', {}, body));
    this.table.hidden = false;

    let stayed = 0;
    const lines = results.map((r) => {
      const distinct = new Set(r.runs.map((run) => run.hash)).size;
      const p = h('p', { 'data-testid': `verdict-${r.method}`, 'data-distinct': distinct });
      if (r.method === 'scan') {
        p.textContent = distinct === 1 ? t('atomic.verdict.scan', { hash: hex32(r.runs[0].hash), runs }) : t('atomic.verdict.scanBroken', { distinct, runs });
      } else if (distinct > 1) {
        p.textContent = t(r.method === 'atomic' ? 'atomic.verdict.moved.invocations' : 'atomic.verdict.moved.workgroups', { method: r.method, distinct, runs });
      } else {
        stayed++;
        p.textContent = t('atomic.verdict.same', { method: r.method, runs });
      }
      return p;
    });
    // Why an order stayed, once for every method it stayed for.
    const why = stayed ? h('p', { 'data-testid': 'verdict-why' }, t('atomic.verdict.why', { why: whyStable(t, backend, adapter, n) })) : null;
    replace(this.verdict, lines, why);
  }
}

function orderText(t, indices, max) {
  const shown = Array.from(indices.subarray(0, max)).join(' ');
  return indices.length > max ? `${shown} … (${t.num(indices.length)})` : shown || t('atomic.empty');
}

/** The methods whose runs gave more than one buffer (the scan never does). @param {{ method: string, runs: { hash: number }[] }[]} results */
export function movedMethods(results) {
  return results.filter((r) => r.method !== 'scan' && new Set(r.runs.map((run) => run.hash)).size > 1).map((r) => r.method);
}
