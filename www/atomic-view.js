// The atomic view: which slot each visible invocation got from atomicAdd, and
// "run ×R", which repeats the atomic methods and shows every run's output order
// and hash beside the scan's, saying honestly whether the order moved.

import { h, replace, grouped, hex32, uniqueId } from './dom.js';
import { layout } from './layout.js';
import { isSoftwareAdapter } from './status.js';

const SLOT_CELLS = 512; // slots shown cell by cell
const ORDER_SHOWN = 24; // indices of each run's order shown in the table

export class AtomicView {
  /**
   * @param {{ onMethod: (method: string) => void, onRepeat: (runs: number) => void }} options
   */
  constructor({ onMethod, onRepeat }) {
    this.method = 'atomic';
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
    this.slots = h('div', { class: 'slot-grid', 'data-testid': 'slot-grid' });
    this.repeatInput = h('input', { id: repeatId, type: 'number', min: 1, max: 64, value: 8, 'data-testid': 'repeat-count', inputmode: 'numeric' });
    this.repeatButton = h('button', { type: 'submit', 'data-testid': 'repeat-run' }, 'Run ×8');
    this.repeatInput.addEventListener('input', () => {
      this.repeatButton.textContent = `Run ×${this.runs()}`;
    });
    this.table = h('table', { class: 'repeat-table', 'data-testid': 'repeat-table', hidden: true });
    this.verdict = h('div', { class: 'verdict', 'data-testid': 'repeat-verdict', 'aria-live': 'polite' });
    this.element = h(
      'div',
      { class: 'atomic-view' },
      h(
        'fieldset',
        { class: 'inline-radios' },
        h('legend', {}, 'Slots from'),
        this.radios.map((r) => h('label', {}, r, ` ${r.value}`)),
      ),
      this.caption,
      this.slots,
      h(
        'form',
        { class: 'repeat', onsubmit: (e) => (e.preventDefault(), this.onRepeat(this.runs())) },
        h('label', { for: repeatId }, 'Repeat each method '),
        this.repeatInput,
        h('span', {}, ' times '),
        this.repeatButton,
      ),
      h('div', { class: 'table-scroll' }, this.table),
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

  setBusy(busy) {
    this.repeatButton.disabled = busy;
  }

  /** The slot each flag's invocation received (`trace.slots`), or a reason why not. */
  showSlots(trace, flags, unavailable = null) {
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
            class: `slot${visible ? ' visible' : ''} wg${Math.floor(i / 64) % 2}`,
            'data-testid': 'slot-cell',
            'data-i': i,
            'data-slot': visible ? slot : '',
            title: visible ? `invocation ${i} got slot ${slot}` : `flag ${i} is invisible: no slot`,
          },
          h('span', { class: 'slot-i' }, String(i)),
          h('span', { class: 'slot-v' }, visible ? String(slot) : '·'),
        ),
      );
    }
    replace(this.slots, cells);
    const more = flags.length > shown ? ` The first ${grouped(shown)} of ${grouped(flags.length)} flags are shown.` : '';
    const how =
      trace.method === 'atomic'
        ? 'Each visible invocation did atomicAdd(&counter, 1) and got back the value before its increment: that number is its slot (bottom of each cell).'
        : 'Each workgroup of 64 counts its visibles with a workgroup-local atomic, then invocation 0 reserves the whole run with one global atomicAdd; within a workgroup (shaded alternately) slots follow the local atomic order.';
    this.caption.textContent = `${how} Output order: ${orderText(trace.indices, 32)}.${more}`;
  }

  /** Rows `{ method, runs: [{ indices, hash }] }` for atomic, aggregated and scan. */
  showRepeats(results, { backend, adapter, n }) {
    const runs = results[0].runs.length;
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col' }, 'run'),
      results.map((r) => h('th', { scope: 'col', colspan: r.method === 'scan' ? 1 : 2 }, r.method)),
    );
    const sub = h(
      'tr',
      { class: 'sub' },
      h('th', {}, ''),
      results.map((r) => (r.method === 'scan' ? [h('th', {}, 'hash')] : [h('th', {}, 'order'), h('th', {}, 'hash')])),
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
            return r.method === 'scan' ? [hash] : [h('td', { class: 'order', 'data-testid': `repeat-order-${r.method}` }, orderText(run.indices, ORDER_SHOWN)), hash];
          }),
        ),
      );
    }
    replace(this.table, h('thead', {}, head, sub), h('tbody', {}, body));
    this.table.hidden = false;

    const lines = results.map((r) => {
      const distinct = new Set(r.runs.map((run) => run.hash)).size;
      const p = h('p', { 'data-testid': `verdict-${r.method}`, 'data-distinct': distinct });
      if (r.method === 'scan') {
        p.textContent =
          distinct === 1
            ? `scan: the same buffer, hash ${hex32(r.runs[0].hash)}, in all ${runs} runs — by construction, since every slot is decided by the prefix sum.`
            : `scan: ${distinct} different hashes in ${runs} runs — that should never happen; please report it.`;
      } else if (distinct > 1) {
        p.textContent = `${r.method}: ${distinct} different orders in ${runs} runs — the same indices, placed in the order the hardware happened to schedule the ${r.method === 'atomic' ? 'invocations' : 'workgroups'}.`;
      } else {
        p.textContent = `${r.method}: the same order in all ${runs} runs here. That is luck, not a guarantee: ${whyStable(backend, adapter, n)} Nothing in the kernel fixes the order; on a busy GPU with many workgroups in flight it moves.`;
      }
      return p;
    });
    replace(this.verdict, lines);
  }
}

function whyStable(backend, adapter, n) {
  if (backend === 'cpu') return 'the CPU reference runs the invocations one after another, in index order, so its "atomic" order is the sequential one.';
  const size = n <= 64 ? `with ${grouped(n)} flags every invocation sits in one workgroup` : `with ${grouped(n)} flags`;
  const software = isSoftwareAdapter(adapter);
  return software
    ? `this adapter is WebGPU implemented on the CPU (like SwiftShader), which tends to run workgroups in a fixed order, and ${size}.`
    : `${size}, the workgroups happened to finish in the same order on this GPU.`;
}

function orderText(indices, max) {
  const shown = Array.from(indices.subarray(0, max)).join(' ');
  return indices.length > max ? `${shown} … (${grouped(indices.length)})` : shown || '(empty)';
}
