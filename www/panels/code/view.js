// The code panel: every module of a method, exactly as the GPU compiled it
// (Playground.kernelSources()), copyable, with the current step's lines marked.

import { h, replace, richText, scrollBox, uniqueId } from '../../core/dom.js';
import { locate } from '../shared/wgsl.js';
import { codeLines } from '../shared/excerpt.js';

/** The article's names of our kernels' modules (Compactar los visibles), where it has one. */
const ARTICLE_NAMES = {
  atomic_counter: 'compactar',
  atomic_aggregated: 'compactarAgregado',
  scan_block: 'scanBloque',
  add_offsets: 'sumarDesplazamiento',
  scatter: 'dispersar',
};

export class CodePanel {
  /** @param {{ t: import('../../i18n/i18n.js').Translator, onCopy: (text: string) => Promise<boolean> }} options  onCopy: true when the text reached the clipboard */
  constructor({ t, onCopy }) {
    this.t = t;
    this.onCopy = onCopy;
    this.sources = null;
    this.method = 'scan';
    this.followed = true;
    this.marked = null;
    const selectId = uniqueId('code-method');
    this.select = h('select', {
      id: selectId,
      'data-testid': 'code-method',
      onchange: () => {
        this.followed = false;
        this.method = this.select.value;
        this.render();
      },
    });
    this.note = h('p', { class: 'note', 'data-testid': 'code-note' });
    this.modules = h('div', { class: 'code-modules', 'data-testid': 'code-modules' });
    this.element = h('div', { class: 'code-panel' }, h('p', { class: 'lead' }, t('code.lead')), h('label', { for: selectId }, t('code.method'), ' ', this.select), this.note, this.modules);
  }

  /** New sources (a new engine); `backend` says whose compilation they are. */
  setSources(sources, backend) {
    this.sources = sources;
    this.backend = backend;
    replace(
      this.select,
      sources.map((s) => h('option', { value: s.method, selected: s.method === this.method }, s.method)),
    );
    this.render();
  }

  /** The playground's method changed: shown unless the visitor chose another here. */
  follow(method) {
    if (!this.followed || method === this.method) return;
    this.method = method;
    this.select.value = method;
    this.render();
  }

  /** The active stepper's step: `ref` ({ module, fn, focus }) of `method`, or null. */
  mark(ref, method) {
    this.marked = ref ? { ...ref, method } : null;
    this.render();
  }

  render() {
    const t = this.t;
    const entry = this.sources?.find((s) => s.method === this.method);
    if (!entry) {
      replace(this.modules);
      return;
    }
    const subgroups = entry.modules.some((m) => m.files.some((f) => f.includes('subgroups')));
    this.note.textContent = `${t(this.backend === 'gpu' ? 'code.compiled' : 'code.cpu')} ${subgroups ? t('code.subgroups') : ''}`.trim();
    replace(
      this.modules,
      entry.modules.map((module) => this.renderModule(module)),
    );
  }

  renderModule(module) {
    const t = this.t;
    const lines = module.wgsl.split('\n');
    // Only the stepped method's marks: another method may have a module of the
    // same label (packed-scan's `tiles` holds no look-back).
    const marked = this.marked && this.marked.method === this.method && this.marked.module === module.label;
    const mark = marked ? locate(module.wgsl, this.marked.fn, this.marked.focus) : null;
    const marks = (k) => (mark && k >= mark.start && k < mark.end ? (mark.focus.has(k) ? 'marked focus' : 'marked') : null);
    const status = h('span', { class: 'copy-status', role: 'status' });
    const copy = h(
      'button',
      {
        type: 'button',
        'data-testid': `code-copy-${module.label}`,
        onclick: async () => {
          status.textContent = (await this.onCopy(module.wgsl)) ? t('code.copied') : t('code.copyFailed');
        },
      },
      t('code.copy'),
    );
    const pipelines = module.pipelines.map((p) => {
      const constants = Object.entries(p.constants)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ');
      return h('li', {}, h('code', {}, p.label), ' — ', t('code.entry', { entry: p.entryPoint }), constants ? [' · ', t('code.constants'), ' ', h('code', {}, constants)] : null);
    });
    const pre = scrollBox(h('pre', { class: 'code-lines', 'data-module': module.label }, codeLines(lines, 0, lines.length, marks, `code-${module.label}`)), t('code.source', { module: module.label }));
    const section = h(
      'section',
      { class: 'code-module', 'data-testid': 'code-module', 'data-module': module.label, 'data-files': module.files.join(' ') },
      h('h3', {}, module.label, ' ', h('span', { class: 'code-files' }, module.files.join(' + '))),
      ARTICLE_NAMES[module.label] ? richText(h('p', { class: 'note', 'data-testid': 'code-article-name' }), t('code.articleName', { ours: module.label, name: ARTICLE_NAMES[module.label] })) : null,
      h('ul', { class: 'code-pipelines' }, pipelines),
      h('p', { class: 'code-actions' }, copy, status, mark ? h('span', { class: 'note' }, t('code.markedNote', { fn: this.marked.fn })) : null),
      pre,
    );
    // The marked lines scrolled into the code box itself, never the page.
    if (mark) {
      requestAnimationFrame(() => {
        const first = pre.querySelector('.marked');
        if (first) pre.scrollTop = Math.max(0, first.offsetTop - pre.offsetTop - 24);
      });
    }
    return section;
  }
}
