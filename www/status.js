// The status line above the panels: where the kernels run (GPU, CPU reference,
// starting), why not on the GPU, the alerts (every error the playground meets
// is shown here, never only in the console) and the progress of long work.

import { h } from './dom.js';
import { FALLBACK_REASONS } from './engine.js';

export class StatusBar {
  constructor() {
    this.backendLine = h('p', { class: 'backend', 'data-testid': 'backend', 'data-backend': 'loading' }, 'Loading the compiled kernels…');
    this.fallbackLine = h('p', { class: 'fallback', 'data-testid': 'fallback-reason', hidden: true });
    this.alerts = h('div', { class: 'alerts', role: 'alert', 'data-testid': 'alerts' });
    this.progressText = h('span', { class: 'progress-text' });
    this.progressLine = h('div', { class: 'progress', role: 'status', 'data-testid': 'progress', hidden: true }, h('progress', {}), this.progressText);
    this.timers = new Set();
    this.element = h('div', { class: 'pg-status', part: 'status' }, this.backendLine, this.fallbackLine, this.alerts, this.progressLine);
  }

  /** The wasm package did not load at all. */
  showNoKernels() {
    this.backendLine.textContent = 'The compiled kernels did not load.';
    this.backendLine.dataset.backend = 'none';
  }

  /** Says where `engine` runs; `root` gets the class `cpu` on the CPU reference. */
  showBackend(engine, root) {
    const gpu = engine.backend === 'gpu';
    const starting = engine.fallback?.kind === 'starting';
    this.backendLine.dataset.backend = starting ? 'starting' : engine.backend;
    this.backendLine.textContent = gpu
      ? `Running on the GPU: ${adapterLabel(engine.pg.adapterName)}`
      : starting
        ? 'Starting WebGPU and compiling its pipelines… meanwhile the CPU reference answers'
        : 'CPU reference — the Rust mirror of every kernel, compiled to wasm';
    root.classList.toggle('cpu', !gpu && !starting);
    this.fallbackLine.hidden = gpu || starting;
    if (!gpu && !starting) {
      const f = engine.fallback ?? { kind: 'no-webgpu', message: '' };
      const reason = FALLBACK_REASONS[f.kind] ?? FALLBACK_REASONS.device;
      this.fallbackLine.dataset.reason = f.kind;
      const detail = f.message && !reason.includes(f.message) ? ` (${f.message})` : '';
      this.fallbackLine.textContent = `${reason}${detail} You can still edit the flags and step through every stage: the values come from the CPU reference, which computes exactly what the kernels compute. Nothing is drawn with drawIndirect without a GPU.`;
    }
  }

  /** Shows `label` with a progress bar after `delay` ms; returns the function that hides it. */
  progress(label, delay) {
    const token = {};
    this.progressToken = token;
    const t0 = performance.now();
    let tick = null;
    const show = () => {
      if (this.progressToken !== token) return;
      this.progressLine.hidden = false;
      const update = () => {
        this.progressLine.dataset.label = label;
        this.progressText.textContent = `${label} ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      };
      update();
      tick = setInterval(update, 250);
      this.timers.add(tick);
    };
    const timer = delay ? setTimeout(show, delay) : (show(), null);
    if (timer) this.timers.add(timer);
    const done = () => {
      clearTimeout(timer);
      clearInterval(tick);
      this.timers.delete(timer);
      this.timers.delete(tick);
      if (this.progressToken === token) this.progressLine.hidden = true;
    };
    done.set = (text) => {
      label = text;
    };
    return done;
  }

  /** Shows `message` (replacing the last of its kind), with buttons `[{ label, testid, onclick }]`. */
  alert(kind, message, actions = []) {
    this.clearAlert(kind);
    const dismiss = h('button', { type: 'button', class: 'dismiss', 'aria-label': 'Dismiss', onclick: () => box.remove() }, '×');
    const buttons = actions.map((a) => h('button', { type: 'button', class: 'alert-action', 'data-testid': a.testid, onclick: a.onclick }, a.label));
    const box = h('div', { class: 'alert', part: 'alert', 'data-kind': kind, 'data-testid': `alert-${kind}` }, h('span', {}, message, buttons), dismiss);
    this.alerts.append(box);
  }

  clearAlert(kind) {
    for (const el of this.alerts.querySelectorAll(`[data-kind="${kind}"]`)) el.remove();
  }

  destroy() {
    for (const t of this.timers) {
      clearTimeout(t);
      clearInterval(t);
    }
    this.timers.clear();
  }
}

/** Software adapters (SwiftShader, lavapipe) report device type Cpu: "… (Cpu, BrowserWebGpu)". */
export function isSoftwareAdapter(name) {
  return /\(Cpu,|swiftshader|llvmpipe|lavapipe/i.test(name ?? '');
}

function adapterLabel(name) {
  const clean = (name ?? '').trim();
  if (/^\(Cpu,/.test(clean)) return 'a software adapter (device type Cpu, e.g. SwiftShader)';
  return clean || 'WebGPU adapter';
}
