// What the course panel shows: the exercises in order (each a button, solved
// ones marked), the one chosen (its statement, the concept, what is checked,
// the checks and hints so far), a hint on request, our solution beside the
// learner's line by line, and the progress's controls (export, import,
// reset) with where it is kept. The logic is index.js's.

import { h, replace, scrollBox, uniqueId } from '../../core/dom.js';
import { EXERCISES } from './exercises.js';

export class CourseView {
  /**
   * @param {{ t: any, onChoose: (id: string) => void, onHint: () => void, onSolution: () => void, onNext: () => void,
   *   onExport: () => void, onImport: (file: File) => void, onReset: () => void }} options
   */
  constructor({ t, onChoose, onHint, onSolution, onNext, onExport, onImport, onReset }) {
    this.t = t;
    this.list = h('ol', { class: 'course-list', 'data-testid': 'course-list', 'aria-label': t('course.choose') });
    this.summary = h('p', { class: 'note', 'data-testid': 'course-summary', role: 'status' });
    const titleId = uniqueId('course-title');
    this.title = h('h3', { class: 'course-title', id: titleId, 'data-testid': 'course-title', tabindex: -1 });
    this.statement = h('p', { 'data-testid': 'course-statement' });
    this.concept = h('p', { 'data-testid': 'course-concept' });
    this.checked = h('p', { 'data-testid': 'course-checked' });
    this.attempts = h('p', { class: 'note', 'data-testid': 'course-attempts' });
    this.hintButton = h('button', { type: 'button', 'data-testid': 'course-hint', onclick: onHint }, t('course.hint'));
    this.solutionButton = h('button', { type: 'button', 'data-testid': 'course-solution', onclick: onSolution }, t('course.solution'));
    this.nextButton = h('button', { type: 'button', class: 'primary', 'data-testid': 'course-next', onclick: onNext, hidden: true }, t('course.next'));
    this.hint = h('div', { class: 'course-hint', 'data-testid': 'course-hint-text', role: 'status' });
    this.solution = h('div', { class: 'course-solution', 'data-testid': 'course-solution-view' });
    this.file = h('input', {
      type: 'file',
      accept: 'application/json,.json',
      class: 'visually-hidden',
      tabindex: -1,
      'aria-hidden': 'true',
      'data-testid': 'course-import-file',
      onchange: () => {
        const file = this.file.files?.[0];
        this.file.value = '';
        if (file) onImport(file);
      },
    });
    this.storageNote = h('p', { class: 'note', 'data-testid': 'course-storage' });
    this.message = h('p', { class: 'note', 'data-testid': 'course-message', role: 'status' });
    this.element = h(
      'div',
      { class: 'course-panel' },
      h('div', { class: 'course-head' }, this.list, this.summary),
      h(
        'section',
        { class: 'course-exercise', 'aria-labelledby': titleId },
        this.title,
        h('p', { class: 'course-label' }, t('course.statement')),
        this.statement,
        h('p', { class: 'course-label' }, t('course.concept')),
        this.concept,
        h('p', { class: 'course-label' }, t('course.checked')),
        this.checked,
        this.attempts,
        h('p', { class: 'course-actions' }, this.hintButton, ' ', this.solutionButton, ' ', this.nextButton),
        this.hint,
        this.solution,
      ),
      h(
        'p',
        { class: 'course-progress' },
        h('button', { type: 'button', class: 'link-button', 'data-testid': 'course-export', onclick: onExport }, t('course.export')),
        ' · ',
        this.file,
        h('button', { type: 'button', class: 'link-button', 'data-testid': 'course-import', onclick: () => this.file.click() }, t('course.import')),
        ' · ',
        h('button', { type: 'button', class: 'link-button', 'data-testid': 'course-reset', onclick: onReset }, t('course.reset')),
      ),
      this.storageNote,
      this.message,
    );
    this.section = /** @type {HTMLElement} */ (this.element.querySelector('.course-exercise'));
    this.onChoose = onChoose;
  }

  /**
   * The exercises with their progress, `current` chosen.
   * @param {string} current  @param {(id: string) => import('./progress.js').ExerciseProgress} entry
   */
  showList(current, entry) {
    const t = this.t;
    replace(
      this.list,
      EXERCISES.map((ex, k) => {
        const solved = entry(ex.id).solved;
        return h(
          'li',
          { class: solved ? 'solved' : null },
          h(
            'button',
            {
              type: 'button',
              class: 'link-button',
              'data-testid': `course-item-${ex.id}`,
              'data-solved': String(solved),
              'aria-current': ex.id === current ? 'step' : null,
              onclick: () => this.onChoose(ex.id),
            },
            `${k + 1}. ${t(`course.${ex.id}.title`)}`,
            solved ? h('span', { class: 'course-solved' }, ` ✓ `, h('span', { class: 'visually-hidden' }, t('course.solvedMark'))) : null,
          ),
        );
      }),
    );
    this.summary.textContent = t('course.summary', { solved: EXERCISES.filter((ex) => entry(ex.id).solved).length, total: EXERCISES.length });
  }

  /** The exercise chosen and its progress. @param {import('./exercises.js').Exercise} ex  @param {import('./progress.js').ExerciseProgress} e */
  showExercise(ex, e, { solutionOpen }) {
    const t = this.t;
    const k = EXERCISES.indexOf(ex);
    this.section.dataset.exercise = ex.id;
    this.title.textContent = `${t('course.of', { k: k + 1, total: EXERCISES.length })}: ${t(`course.${ex.id}.title`)}`;
    this.statement.textContent = t(`course.${ex.id}.statement`);
    this.concept.textContent = t(`course.${ex.id}.concept`);
    this.checked.textContent = t(`course.${ex.id}.checked`);
    this.showProgress(e, { solutionOpen, last: k === EXERCISES.length - 1 });
  }

  /** @param {import('./progress.js').ExerciseProgress} e */
  showProgress(e, { solutionOpen, last }) {
    const t = this.t;
    this.attempts.textContent = `${t('course.attempts', { attempts: e.attempts, hints: e.hintsUsed })}${e.solved ? ` ${t('course.solvedNow', { attempts: e.attempts })}` : ''}`;
    this.attempts.dataset.solved = String(e.solved);
    // (Not disabled: pressed before it opens, it says when it will.)
    this.solutionButton.dataset.open = String(solutionOpen);
    this.solutionButton.title = solutionOpen ? '' : t('course.solutionLocked', { n: 3 });
    this.nextButton.hidden = !e.solved || last;
  }

  /** A hint (`null`: `why` says why there is none). */
  showHint(hint, why = '') {
    const t = this.t;
    if (!hint) {
      replace(this.hint, why ? h('p', {}, why) : '');
      return;
    }
    this.hint.dataset.kind = hint.kind;
    this.hint.dataset.level = String(hint.level);
    replace(this.hint, h('p', {}, h('strong', {}, t('course.hintLevel', { level: hint.level, kind: t(`course.kind.${hint.kind}`) })), ' ', hint.text));
  }

  /** Our functions beside the learner's, line by line (empty arrays: closed; `locked`: not yet, and why). */
  showSolution(yours, ours, locked = '') {
    const t = this.t;
    if (locked) {
      replace(this.solution, h('p', { class: 'note' }, locked));
      return;
    }
    if (!ours.length) {
      replace(this.solution);
      return;
    }
    const rows = [];
    for (let k = 0; k < Math.max(yours.length, ours.length); k++) {
      const a = yours[k] ?? '';
      const b = ours[k] ?? '';
      rows.push(h('tr', { class: a.trim() === b.trim() ? null : 'differs' }, h('td', { class: 'line' }, String(k + 1)), h('td', {}, h('code', {}, a)), h('td', {}, h('code', {}, b))));
    }
    replace(
      this.solution,
      h('p', { class: 'course-label' }, t('course.solutionTitle')),
      scrollBox(
        h(
          'table',
          { class: 'course-diff', 'data-testid': 'course-diff' },
          h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, t('course.yours')), h('th', { scope: 'col' }, t('course.ours'))),
          rows,
        ),
        t('course.solutionTitle'),
      ),
    );
  }

  /** Where the progress is kept: this browser under `key`, or nowhere (storage refused). */
  showStorage(persistent, key) {
    this.storageNote.textContent = persistent ? this.t('course.kept', { key }) : this.t('course.notKept');
    this.storageNote.dataset.persistent = String(persistent);
  }

  say(text) {
    this.message.textContent = text;
  }
}
