// The status line above the panels: where the kernels run (GPU, CPU reference,
// starting), why not on the GPU, the alerts (every error the playground meets
// is shown here, never only in the console) and the progress of long work,
// which overlays the line instead of pushing the panels down. A page with
// several elements explains a missing WebGPU once (www/playground/notice.js);
// `quiet` hides the line itself but never an alert.

import { h, shown } from '../core/dom.js';
import { FALLBACK_KINDS, CREATE_TIMEOUT_MS } from '../core/engine.js';
import { claimNotice, releaseNotice } from './notice.js';

export class StatusBar {
  /** @param {{ t: any, langSwitch?: Node | null, quiet?: boolean }} options  the translator; the language switch joins the line */
  constructor({ t, langSwitch = null, quiet = false }) {
    this.t = t;
    this.quiet = quiet;
    this.backendLine = h('p', { class: 'backend', 'data-testid': 'backend', 'data-backend': 'loading' }, t('status.loading'));
    this.fallbackText = h('span', { 'data-testid': 'fallback-text' });
    this.fallbackDetail = h('code', { 'data-testid': 'fallback-detail' });
    this.fallbackDetails = h('details', { class: 'fallback-details', hidden: true }, h('summary', {}, t('status.detail')), this.fallbackDetail);
    this.fallbackLine = h('div', { class: 'fallback', 'data-testid': 'fallback-reason', hidden: true }, h('p', {}, this.fallbackText), this.fallbackDetails);
    this.alerts = h('div', { class: 'alerts', role: 'alert', 'data-testid': 'alerts' });
    this.progressText = h('span', { class: 'progress-text' });
    this.progressLine = h('div', { class: 'progress', role: 'status', 'data-testid': 'progress', hidden: true }, h('progress', {}), this.progressText);
    this.timers = new Set();
    this.row = h('div', { class: 'status-row', hidden: quiet }, this.backendLine, langSwitch, this.progressLine);
    this.element = h('div', { class: `pg-status${quiet ? ' quiet' : ''}`, part: 'status' }, this.row, this.fallbackLine, this.alerts);
  }

  /** The wasm package did not load at all. */
  showNoKernels() {
    this.backendLine.textContent = this.t('status.noKernels');
    this.backendLine.dataset.backend = 'none';
  }

  /** Says where `engine` runs; `root` gets the class `cpu` on the CPU reference. */
  showBackend(engine, root) {
    const t = this.t;
    const gpu = engine.backend === 'gpu';
    const starting = engine.fallback?.kind === 'starting';
    this.backendLine.dataset.backend = starting ? 'starting' : engine.backend;
    this.backendLine.textContent = gpu ? t('status.gpu', { adapter: adapterLabel(engine.pg.adapterName, t) }) : starting ? t('status.starting') : t('status.cpu');
    root.classList.toggle('cpu', !gpu && !starting);
    const cpu = !gpu && !starting;
    if (cpu) {
      const f = engine.fallback ?? { kind: 'no-webgpu', message: '' };
      const kind = FALLBACK_KINDS.includes(f.kind) ? f.kind : 'device';
      this.fallbackLine.dataset.reason = f.kind;
      this.fallbackText.textContent = `${t(`fallback.${kind}`, { seconds: CREATE_TIMEOUT_MS / 1000 })} ${t('fallback.still')}`;
      // What the browser or wgpu said, for whoever debugs it: out of the sentence.
      this.fallbackDetails.hidden = !f.message;
      this.fallbackDetail.textContent = f.message ?? '';
    }
    // One explanation per page: the other elements only say "CPU reference".
    this.fallbackLine.hidden = !(cpu && claimNotice(this));
    if (!cpu) releaseNotice(this);
  }

  /** Another element took over (or gave back) the page's one explanation of the fallback. */
  noticeChanged(owner) {
    this.fallbackLine.hidden = !owner;
  }

  /**
   * Shows `label` with a progress bar after `delay` ms; returns the function
   * that hides it (its `set(text)` changes the label). `near`: an element
   * beside the control that started the work, which shows the same line.
   */
  progress(label, delay, { near = null } = {}) {
    const token = {};
    this.progressToken = token;
    const t0 = performance.now();
    let tick = null;
    const show = () => {
      if (this.progressToken !== token) return;
      this.progressLine.hidden = false;
      this.row.hidden = false;
      const update = () => {
        this.progressLine.dataset.label = label;
        const text = this.t('status.elapsed', { label, seconds: this.t.fixed((performance.now() - t0) / 1000, 1) });
        this.progressText.textContent = text;
        if (near) near.textContent = text;
      };
      update();
      tick = setInterval(update, 250);
      this.timers.add(tick);
    };
    const timer = delay ? setTimeout(show, delay) : null;
    if (!delay) show();
    if (timer) this.timers.add(timer);
    const done = () => {
      clearTimeout(timer);
      clearInterval(tick);
      this.timers.delete(timer);
      this.timers.delete(tick);
      if (this.progressToken === token) {
        this.progressLine.hidden = true;
        this.row.hidden = this.quiet;
      }
      if (near) near.textContent = '';
    };
    done.set = (text) => {
      label = text;
    };
    return done;
  }

  /** Shows `message` (replacing the last of its kind), with buttons `[{ label, testid, onclick }]`. */
  alert(kind, message, actions = []) {
    this.clearAlert(kind);
    const dismiss = h('button', { type: 'button', class: 'dismiss', 'aria-label': this.t('status.dismiss'), onclick: () => box.remove() }, '×');
    const buttons = actions.map((a) => h('button', { type: 'button', class: 'alert-action', 'data-testid': a.testid, onclick: a.onclick }, a.label));
    // A message quotes attributes, links and errors: never longer than a screen, never raw control characters.
    const text = typeof message === 'string' ? shown(message) : message;
    const box = h('div', { class: 'alert', part: 'alert', 'data-kind': kind, 'data-testid': `alert-${kind}` }, h('span', {}, text, buttons), dismiss);
    this.alerts.append(box);
  }

  clearAlert(kind) {
    for (const el of this.alerts.querySelectorAll(`[data-kind="${kind}"]`)) el.remove();
  }

  destroy() {
    releaseNotice(this);
    for (const t of this.timers) {
      clearTimeout(t);
      clearInterval(t);
    }
    this.timers.clear();
  }
}

function adapterLabel(name, t) {
  const clean = (name ?? '').trim();
  if (/^\(Cpu,/.test(clean)) return t('status.softwareAdapter');
  return clean || t('status.webgpuAdapter');
}
