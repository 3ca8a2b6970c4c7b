// The kernel panel: the visitor writes one of the article's kernels. It is
// guarded (instrument.js), compiled by the browser as they type (one compile
// in flight, a newer one supersedes it), run on their GPU through the
// library's own passes on a playground of its own (a side engine holding the
// kernel), checked against the CPU mirror on a ladder of cases (harness.js),
// and the first failure shrunk. "Step through it" gives the smallest case and
// the kernel to the other panels, which then show its real GPU buffers.

import { KernelView } from './view.js';
import { instrument, toSource } from './instrument.js';
import { check, ladder } from './harness.js';
import { MAX_LINK_CHARS, MAX_SOURCE_BYTES, packSource, unpackSource } from './link.js';
import { readExercise, sameOrigin, startingText } from './exercise.js';
import { isSoftwareAdapter } from '../../core/engine.js';
import { lazySheet } from '../shared/sheet.js';
import { codeSheet } from '../shared/excerpt.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** After the last keystroke, the wait before a compile. */
export const COMPILE_DELAY_MS = 700;
/**
 * How long one run of the learner's kernel may take before the page gives its
 * GPU device up (the loop guard's second line: a run the guard did not stop).
 * A software adapter runs the largest case in well under a second.
 */
export const WATCHDOG_MS = 10_000;
export const SOFTWARE_WATCHDOG_MS = 30_000;
/**
 * `promise` (a run), unless it takes longer than `ms`: then the page's GPU
 * device is given up (the engine's chain waits on the run, so this bypasses
 * it), which rejects the run and every playground of the page falls back as
 * on any device loss; rejects with `.kind` 'watchdog'.
 */
function watched(engine, promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      engine.pg?.abandonDevice();
      reject(Object.assign(new Error(`a run took more than ${ms / 1000} s`), { kind: 'watchdog' }));
    }, ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** A diagnostic as the element's events give it. */
const plain = ({ severity, message, line, column }) => ({ severity, message, line, column });

/** The kernel shown first: the article's first. */
const FIRST = 'atomic_counter';

/** @param {import('../../playground/context.js').PanelContext} context */
export function create(context) {
  const { t } = context;
  const wasm = context.kernels();
  /** @type {{ module: string, method: string, path: string, wgsl: string, entryPoints: { name: string, bindings: string[] }[] }[]} */
  const facts = wasm.kernelFacts();
  const factsOf = (name) => facts.find((f) => f.module === name) ?? facts[0];
  // The visitor's kernel and text of each, kept by the session (a language switch rebuilds the panel).
  const kept = context.kernelState();
  /** @type {import('../../../types/compaction-playground').KernelName} */
  let module = /** @type {any} */ (kept.module ?? FIRST);
  const texts = kept.texts;
  /**
   * An exercise of the page's (the element's kernel, editable, check, cases,
   * kernel-src and script child): its starting text and read-only ranges.
   * @type {{ module: string, check: string | null, cases: number[] | null, text: string, locked: { from: number, to: number }[] } | null}
   */
  let exercise = null;
  const start = () => (exercise && exercise.module === module ? exercise.text : factsOf(module).wgsl);
  const source = () => texts.get(module) ?? start();
  const mode = () => (exercise?.check === 'exact' || exercise?.check === 'unordered' ? exercise.check : factsOf(module).method === 'scan' ? 'exact' : 'unordered');

  /** @type {ReturnType<typeof import('./editor.js').createEditor> | null} */
  let editor = null;
  /** @type {Promise<unknown> | null} */
  let checkerPromise = null;
  /** @type {any} the CPU mirror the checker judges by */
  let reference = null;
  /** What the last compile came to: the text and whether it has no error. */
  /** @type {{ text: string, wgsl: string, ok: boolean, module: import('../../../types/compaction-playground').KernelName }} */
  let compiled = { text: '', wgsl: '', ok: false, module };
  let compiling = new AbortController();
  /** A text whose loop ran away: never run again by itself. */
  let hung = '';
  let timer = 0;
  let checking = false;
  /** A compile asked for while a check ran ('auto': by typing), run once it ends. @type {'auto' | 'asked' | null} */
  let queued = null;
  /** Who waits for the check in flight to end (the element's check()). @type {(() => void)[]} */
  const afterCheck = [];
  /** @type {import('./harness.js').KernelReport | null} */
  let lastReport = null;

  const view = new KernelView({
    t,
    kernels: facts,
    onKernel: (name) => {
      module = /** @type {any} */ (name);
      kept.module = name;
      compiled = { text: '', wgsl: '', ok: false, module };
      show();
    },
    onEdit: () => context.track(openEditor()),
    onCheck: () => context.track(compileAndCheck(false)),
    onReset: () => {
      texts.delete(module);
      hung = '';
      if (editor) editor.setText(source(), locked());
      else show();
    },
    onStep: () => context.track(stepThrough()),
    onOurs: () => context.track(useOurs()),
  });

  function show() {
    const f = factsOf(module);
    view.showKernel(module, f.method, Boolean(exercise));
    report(null);
    view.showCompile('none');
    if (editor) editor.setText(source(), locked());
    else view.showSource(source(), module);
  }

  /** The ranges the learner may not change: an exercise's, while its text keeps them. */
  const locked = () => (exercise && exercise.module === module && source() === exercise.text ? exercise.locked : []);

  /** The exercise the element's attributes ask for (none without them): read, said where wrong, shown. */
  async function readAttributes() {
    const attrs = context.attributes();
    context.clearAlert('kernel-exercise');
    const asked = readExercise(attrs, facts);
    const errors = asked.errors.map((e) => t(e.key, e.params));
    let given = asked.script;
    if (!given && asked.src) {
      try {
        if (!sameOrigin(asked.src, location.href)) throw new Error(t('kernel.crossOrigin'));
        const response = await fetch(new URL(asked.src, location.href));
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        given = await response.text();
        if (given.length > MAX_SOURCE_BYTES) throw new Error(`more than ${MAX_SOURCE_BYTES} bytes`);
      } catch (e) {
        errors.push(t('kernel.badSrc', { src: asked.src.slice(0, 120), error: e?.message ?? e }));
        given = null;
      }
    }
    if (!context.alive()) return;
    const name = asked.module ?? (asked.editable.length || given ? module : null);
    if (name) {
      const made = startingText(factsOf(name).wgsl, asked.editable, given);
      if (made.missing.length) errors.push(t('kernel.missingFns', { fns: made.missing.join(', '), module: name }));
      exercise = { module: name, check: asked.check, cases: asked.cases, text: made.text, locked: made.locked };
      module = /** @type {any} */ (name);
      kept.module = name;
    } else exercise = asked.check || asked.cases ? { module, check: asked.check, cases: asked.cases, text: factsOf(module).wgsl, locked: [] } : null;
    if (errors.length) context.alert('kernel-exercise', errors.join(' '));
    show();
  }

  async function openEditor() {
    view.say(t('kernel.loadingEditor'));
    try {
      const { createEditor } = await import('./editor.js');
      const root = /** @type {ShadowRoot} */ (context.root.getRootNode());
      editor = createEditor({
        parent: view.editorHost(),
        root,
        text: source(),
        readOnly: locked(),
        label: t('kernel.editorLabel', { module }),
        onChange: (text) => {
          texts.set(module, text);
          clearTimeout(timer);
          timer = setTimeout(() => context.track(Promise.all([compileAndCheck(true), linkTo(module, text)])), COMPILE_DELAY_MS);
        },
      });
      editor.focus();
    } catch (e) {
      view.say(t('kernel.editorFailed', { error: e?.message ?? e }));
    }
  }

  /** The side engine the checks run on, holding the kernel; null without WebGPU. */
  async function checker() {
    checkerPromise ??= context.sideEngine();
    const engine = /** @type {any} */ (await checkerPromise);
    if (engine.backend !== 'gpu') return null;
    return engine;
  }

  /**
   * Compiles the current text (guarded) on the checker; shows the messages in
   * the visitor's lines. Resolves to whether it compiled; false when a newer
   * compile took over.
   */
  async function compile() {
    compiling.abort();
    compiling = new AbortController();
    const signal = compiling.signal;
    const text = source();
    const f = factsOf(module);
    view.showCompile('compiling');
    const guarded = instrument(text, f.entryPoints);
    if ('diagnostics' in guarded) {
      const list = guarded.diagnostics.map((d) => ({ ...d, message: t(d.key, d.params) }));
      showDiagnostics(list);
      context.emit('compile', { ok: false, diagnostics: list.map(plain) });
      report({ verdict: 'compile-error', passed: 0, total: 0, diagnostics: list });
      return false;
    }
    const engine = await checker();
    if (signal.aborted) return false;
    if (!engine) {
      view.showCompile('none');
      report({ verdict: 'unavailable', passed: 0, total: 0, diagnostics: [] });
      return false;
    }
    const diagnostics = await compileOn(engine, module, guarded.wgsl);
    if (signal.aborted) return false;
    const lineCount = text.split('\n').length;
    const list = diagnostics.map((d) => (d.line >= 1 && d.line <= lineCount ? { ...d, ...toSource(text, guarded.inserts, d.line, d.column) } : { ...d, line: 0, column: 0 }));
    showDiagnostics(list);
    const ok = !list.some((d) => d.severity === 'error');
    context.emit('compile', { ok, diagnostics: list.map(plain) });
    if (ok) await engine.exec((pg) => pg.setKernel(module, guarded.wgsl, true));
    compiled = { text, wgsl: guarded.wgsl, ok, module };
    if (!ok) report({ verdict: 'compile-error', passed: 0, total: 0, diagnostics: list });
    return ok;
  }

  /** @param {import('./harness.js').KernelReport | null} r */
  function report(r) {
    lastReport = r;
    view.showReport(r, mode());
    if (r && r.verdict !== 'compile-error') context.emit('check', structuredClone(r));
  }

  /**
   * The browser's messages on `wgsl` in place of `name`'s file: lines of the
   * whole module, UTF-16 columns, as `getCompilationInfo()` gives them.
   */
  async function compileOn(engine, name, wgsl) {
    const made = await engine.exec((pg) => pg.kernelModule(name, wgsl));
    // The scope's error is the module's not compiling: the messages say where.
    await made.scope.catch(() => null);
    const info = await made.module.getCompilationInfo();
    return [...info.messages].map((m) => ({ severity: m.type, message: m.message, line: m.lineNum, column: m.linePos, length: m.length }));
  }

  function showDiagnostics(list) {
    view.showCompile(list.some((d) => d.severity === 'error') ? 'errors' : 'ok', list);
    editor?.show(list);
  }

  /** Compiles, then checks: `auto` (after typing) skips a text that hung. Asked during a check, it runs after it. */
  async function compileAndCheck(auto) {
    if (checking) {
      queued = !auto || queued === 'asked' ? 'asked' : 'auto';
      return;
    }
    try {
      if (!(await compile())) return;
      if (auto && compiled.text === hung) return;
      // An exercise that asks no check: compiling is the whole of it.
      if (exercise?.module === module && exercise.check === 'none') return;
      await runCheck();
    } catch (e) {
      if (context.alive()) view.showReport({ verdict: 'failedToRun', message: e?.message ?? String(e), passed: 0, total: 0, diagnostics: [] }, mode());
    }
  }

  async function runCheck() {
    view.showLinked(false);
    const engine = await checker();
    if (!engine) return;
    const method = factsOf(module).method;
    reference ??= wasm.Playground.createCpu();
    const software = isSoftwareAdapter(engine.pg?.adapterName);
    const limit = software ? SOFTWARE_WATCHDOG_MS : WATCHDOG_MS;
    const runner = {
      run: (flags) =>
        watched(
          engine,
          engine.exec(async (pg) => {
            pg.setFlags(flags);
            const r = await pg.run(method);
            return { ...r, writtenPast: pg.kernelWrittenPast() };
          }),
          limit,
        ),
      reference: (flags) => {
        reference.setFlags(flags);
        return reference.run(method);
      },
      probe: () => engine.exec((pg) => pg.kernelProbe()),
    };
    checking = true;
    view.setBusy(true);
    try {
      const r = await check(runner, {
        cases: ladder(exercise?.module === module ? exercise.cases : null),
        mode: mode(),
        shrinkMs: software ? 12_000 : 3000,
        onCase: (k, total, label) => view.showProgress(t('kernel.checking', { k: k + 1, total, label })),
      });
      if (r.verdict === 'hung') hung = compiled.text;
      if (r.verdict === 'hung' && r.line === 0) r.message = String(limit / 1000);
      if (context.alive()) report(r);
    } finally {
      checking = false;
      view.setBusy(false);
      for (const resolve of afterCheck.splice(0)) resolve();
      // What was typed (or asked) while it ran: the newest text, now.
      const next = queued;
      queued = null;
      if (next && context.alive() && (next === 'asked' || source() !== compiled.text)) context.track(compileAndCheck(next === 'auto'));
    }
  }

  /** The smallest failing case on the page's flags, the visitor's kernel on the page's playground. */
  async function stepThrough() {
    const cx = lastReport?.counterexample;
    const engine = context.engine();
    if (!engine || !cx || !compiled.ok) return;
    const flags = Uint32Array.from(cx.flags);
    if (engine.backend === 'gpu') {
      await engine.exec((pg) => pg.setKernel(compiled.module, compiled.wgsl, true));
      kept.active = { module: compiled.module, openAtWrong: true };
      view.showStepping(true);
    }
    if (context.method() !== factsOf(compiled.module).method) context.setMethod(factsOf(compiled.module).method);
    context.setFlags(flags, null, 'counterexample');
  }

  async function useOurs() {
    const engine = context.engine();
    kept.active = null;
    view.showStepping(false);
    if (engine?.backend === 'gpu') await engine.exec((pg) => pg.clearKernel());
    await context.run();
  }

  /**
   * The URL carries the visitor's text (none when it is ours); a text too long
   * for a link is said, with a download of it.
   */
  async function linkTo(name, text) {
    const ours = text === factsOf(name).wgsl;
    const src = ours ? null : await packSource(text);
    if (name !== module || texts.get(name) !== text) return;
    const long = src !== null && src.length > MAX_LINK_CHARS;
    kept.link = ours ? null : { module: name, src: long ? null : src };
    view.showTooLong(long ? { name, text } : null);
    context.writeUrl();
  }

  /** A kernel a link brought: shown and compiled at once, run only when the visitor presses Check. */
  async function fromLink({ module: name, src }) {
    kept.fromLink = null;
    const f = facts.find((k) => k.module === name);
    try {
      if (!f) throw new Error(t('kernel.unknownKernel', { name, kernels: facts.map((k) => k.module).join(', ') }));
      const text = src ? await unpackSource(src) : f.wgsl;
      if (!context.alive()) return;
      module = /** @type {any} */ (name);
      kept.module = name;
      texts.set(module, text);
      kept.link = { module: name, src };
      show();
      view.showLinked(true);
      await compile();
    } catch (e) {
      context.alert('kernel-link', t('kernel.badLink', { error: e?.message ?? e }));
    }
  }

  /** The new text of the kernel shown, as if typed (the editor follows); compiled and checked after the same pause. */
  function setSource(text) {
    texts.set(module, text);
    if (editor && editor.text() !== text) editor.setText(text);
    else if (!editor) view.showSource(text, module);
    clearTimeout(timer);
    timer = setTimeout(() => context.track(Promise.all([compileAndCheck(true), linkTo(module, text)])), COMPILE_DELAY_MS);
  }

  /** A check now (after a compile, and after the check in flight), for the element's `check()`. */
  async function checkNow() {
    clearTimeout(timer);
    while (checking) await new Promise((resolve) => afterCheck.push(() => resolve(undefined)));
    await compileAndCheck(false);
  }

  const pending = context.offerKernel({
    get source() {
      return source();
    },
    setSource,
    shown: () => context.visible('kernel'),
    exerciseChanged: () => context.track(readAttributes()),
    check: () => context.track(checkNow()).then(() => structuredClone(lastReport)),
  });
  show();
  context.track(readAttributes().then(() => pending !== null && setSource(pending)));
  return {
    element: view.element,
    styles: [codeSheet(), sheet()],
    engineChanged: (engine) => {
      // A new engine (a lost device, a retry): its playground runs our kernels; the checker is remade.
      kept.active = null;
      view.showStepping(false);
      checkerPromise?.then((e) => /** @type {any} */ (e).dispose());
      checkerPromise = null;
      // A link's kernel, once the engine is the one the page settles on (not the CPU reference of the start).
      if (kept.fromLink && engine.fallback?.kind !== 'starting') context.track(fromLink(kept.fromLink));
    },
    destroy: () => {
      context.offerKernel(null);
      clearTimeout(timer);
      compiling.abort();
      editor?.destroy();
      checkerPromise?.then((e) => /** @type {any} */ (e).dispose());
      reference?.free();
    },
  };
}
