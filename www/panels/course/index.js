// The course panel: the exercises in order (exercises.js), the one chosen set
// as the kernel panel's exercise through the context, the kernel panel's
// checks recorded as progress (progress.js: attempts, solved, hints, the
// solution seen), a hint of the failure's kind on request after a failed
// check, our solution beside the learner's after a pass or three failed
// checks, and the element's course API (`exercises`, `exercise`, `progress`,
// `hint()`, `resetProgress()`; events `solved`, `hint`). Drawn by view.js.

import { CourseView } from './view.js';
import { EXERCISES, exerciseById, failureKind, nextHint, SOLUTION_AFTER } from './exercises.js';
import { ProgressStore, storageKey } from './progress.js';
import { functionText } from '../kernel/exercise.js';
import { lazySheet } from '../shared/sheet.js';
import { exportSheet, save } from '../shared/export.js';
import { stepsSheet } from '../shared/step-controls.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const key = context.attributes().course ?? '';
  const store = new ProgressStore(key);
  const facts = context.kernels().kernelFacts();
  /** The last check of the current exercise: its report (null before any). */
  let last = null;
  /** Whether our solution is shown for the current exercise. */
  let solutionShown = false;
  let current = pickStart();

  const view = new CourseView({
    t,
    onChoose: (id) => choose(id),
    onHint: () => context.track(showHint()),
    onSolution: () => showSolution(),
    onNext: () => choose(EXERCISES[EXERCISES.indexOf(current) + 1]?.id ?? current.id),
    onExport: () => save(context.root, { name: `course-${key || 'progress'}`, json: () => [store.exportJson()], csv: () => [] }, 'json', context, t),
    onImport: (file) => context.track(importFile(file)),
    onReset: () => api.resetProgress(),
  });

  /** The exercise the element names, or the first one not solved yet. */
  function pickStart() {
    const asked = context.attributes().exercise;
    if (asked) {
      const ex = exerciseById(asked);
      if (ex) return ex;
      context.alert('course', t('course.unknownExercise', { id: asked, ids: EXERCISES.map((e) => e.id).join(', ') }));
    }
    return EXERCISES.find((e) => !store.entry(e.id).solved) ?? EXERCISES[0];
  }

  const solutionOpen = () => {
    const e = store.entry(current.id);
    return e.solved || e.attempts >= SOLUTION_AFTER;
  };

  function render() {
    view.showList(current.id, (id) => store.entry(id));
    view.showExercise(current, store.entry(current.id), { solutionOpen: solutionOpen() });
    view.showStorage(store.persistent, storageKey(key));
  }

  /** @param {string} id */
  function choose(id) {
    const ex = exerciseById(id);
    if (!ex) return;
    current = ex;
    last = null;
    solutionShown = false;
    view.showHint(null);
    view.showSolution([], []);
    context.setExercise(ex);
    render();
    view.title.focus();
  }

  /** A check of the kernel panel: counted for the exercise it was of. */
  function checked(report) {
    if (!report || report.exercise !== current.id) return;
    if (!['passed', 'failed', 'hung', 'compile-error', 'pipeline-error'].includes(report.verdict)) return;
    last = report;
    const was = store.entry(current.id).solved;
    const e = store.update(current.id, (p) => {
      p.attempts++;
      if (report.verdict === 'passed') p.solved = true;
    });
    if (e.solved && !was) context.emit('solved', { id: current.id, attempts: e.attempts });
    view.showHint(null);
    if (solutionShown) showSolution();
    render();
  }

  /** The next hint of the last check's failure kind: recorded, shown, told (`hint` event); null where none is due. */
  async function showHint() {
    const kind = failureKind(last);
    if (!kind) {
      view.showHint(null, t(last?.verdict === 'passed' ? 'course.hintPassed' : 'course.hintNone'));
      return null;
    }
    const used = store.entry(current.id).hints[kind] ?? 0;
    const next = nextHint(current, kind, used) ?? nextHint(current, kind, used - 1);
    if (!next) return null;
    store.update(current.id, (p) => {
      p.hints[kind] = Math.max(p.hints[kind] ?? 0, next.level);
    });
    const hint = { id: current.id, kind, level: next.level, text: t(next.key) };
    view.showHint(hint);
    if (used >= 3) view.say(t('course.hintsDone'));
    context.emit('hint', { ...hint });
    render();
    return hint;
  }

  /** Our editable functions beside the learner's, once a pass or three failed checks open them. */
  function showSolution() {
    if (!solutionOpen()) {
      view.showSolution([], [], t('course.solutionLocked', { n: SOLUTION_AFTER }));
      return;
    }
    const shipped = facts.find((f) => f.module === current.module)?.wgsl ?? '';
    const text = context.kernelSource() ?? '';
    const lines = (source) => current.editable.flatMap((fn) => functionText(source, fn).split('\n'));
    solutionShown = true;
    store.update(current.id, (p) => {
      p.solutionSeen = true;
    });
    view.showSolution(lines(text), lines(shipped));
    render();
  }

  /** @param {File} file */
  async function importFile(file) {
    try {
      store.importJson(await file.text());
      view.say(t('course.imported'));
    } catch {
      view.say(t('course.badImport'));
    }
    render();
  }

  /** What the element's course properties and methods answer. */
  const api = {
    exercises: () => EXERCISES.map((ex) => ({ id: ex.id, title: t(`course.${ex.id}.title`), kernel: ex.module, solved: store.entry(ex.id).solved })),
    get exercise() {
      return current.id;
    },
    set exercise(id) {
      if (exerciseById(id)) choose(id);
      else context.alert('course', t('course.unknownExercise', { id: String(id).slice(0, 60), ids: EXERCISES.map((e) => e.id).join(', ') }));
    },
    progress: () =>
      Object.fromEntries(
        EXERCISES.map((ex) => {
          const { solved, attempts, hintsUsed, solutionSeen } = store.entry(ex.id);
          return [ex.id, { solved, attempts, hintsUsed, solutionSeen }];
        }),
      ),
    hint: () => showHint(),
    resetProgress: () => {
      store.reset();
      view.say(t('course.resetDone'));
      render();
    },
  };
  context.offerCourse(api);
  context.setExercise(current);
  render();

  return {
    element: view.element,
    styles: [exportSheet(), stepsSheet(), sheet()],
    kernelChecked: (report) => checked(report),
    destroy: () => context.offerCourse(null),
  };
}
