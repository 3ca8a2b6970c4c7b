// The function a stepper's step runs, from the WGSL the GPU compiled
// (Playground.kernelSources()), its step's lines marked: shown under the scan
// stepper and the tile view. codeLines is also how the code panel shows a module.

import { h, replace, scrollBox } from '../../core/dom.js';
import { locate, moduleOf } from './wgsl.js';
import { lazySheet } from './sheet.js';
import css from './code.css';

/** The code boxes' styles (the steppers' excerpts and the code panel). */
export const codeSheet = lazySheet(css);

/** `<code>` of `lines[from, to)`, one span per line (numbered by CSS), marked by `mark(k)`. */
/**
 * @param {string[]} lines  @param {number} from  @param {number} to
 * @param {(k: number) => string | null} [mark]  @param {string | null} [testid]
 */
export function codeLines(lines, from, to, mark = () => null, testid = null) {
  const spans = [];
  for (let k = from; k < to; k++) {
    const cls = ['line'];
    const m = mark(k);
    if (m) cls.push(m);
    if (/^\s*\/\//.test(lines[k])) cls.push('comment');
    spans.push(h('span', { class: cls.join(' '), 'data-line': k + 1 }, lines[k]), k < to - 1 ? '\n' : null);
  }
  return h('code', { 'data-testid': testid }, spans);
}

export class CodeExcerpt {
  constructor({ t, testid }) {
    this.t = t;
    this.testid = testid;
    this.sources = null;
    this.summary = h('summary', {}, t('code.step'));
    this.pre = h('pre', { class: 'code-lines' });
    this.element = h('details', { class: 'code', open: true }, this.summary, this.pre);
  }

  setSources(sources) {
    this.sources = sources;
  }

  /** The function `ref` ({ module, fn, focus }) of `method`'s sources, focus lines marked. */
  show(ref, method) {
    const module = ref && moduleOf(this.sources, method, ref.module);
    const at = module && locate(module.wgsl, ref.fn, ref.focus);
    this.element.hidden = !at;
    if (!at) return;
    const lines = module.wgsl.split('\n');
    this.summary.textContent = this.t('code.stepIn', { fn: ref.fn, module: module.label });
    scrollBox(this.pre, this.summary.textContent);
    replace(
      this.pre,
      codeLines(lines, at.start, at.end, (k) => (at.focus.has(k) ? 'focus' : null), this.testid),
    );
    this.pre.dataset.module = module.label;
    this.pre.dataset.fn = ref.fn;
  }
}
