// The kernel panel: the visitor writes one of the article's kernels. It is
// guarded (instrument.js), compiled by the browser as they type (one compile
// in flight, a newer one supersedes it), run on their GPU through the
// library's own passes on a playground of its own (a side engine holding the
// kernel), checked against the CPU mirror on a ladder of cases (harness.js),
// and the first failure shrunk. "Step through it" gives the smallest case and
// the kernel to the other panels, which then show its real GPU buffers.

import { KernelView } from './view.js';
import { instrument, MAX_DIAGNOSTICS, toSource } from './instrument.js';
import { layout } from '../../core/layout.js';
import { check, ladder } from './harness.js';
import { firstDamage } from './damage.js';
import { MAX_LINK_CHARS, MAX_SOURCE_BYTES, packSource, readBounded, unpackSource } from './link.js';
import { readExercise, sameOrigin, startingText } from './exercise.js';
import { isSoftwareAdapter } from '../../core/engine.js';
import { lazySheet } from '../shared/sheet.js';
import { codeSheet } from '../shared/excerpt.js';
import css from './styles.css';

const sheet = lazySheet(css);

/** After the last keystroke, the wait before a compile. */
export const COMPILE_DELAY_MS = 700;
/** How long a `kernel-src` fetch may take. */
export const SRC_TIMEOUT_MS = 10_000;
/** The flags a passing kernel's costs are counted on, and timed on. */
export const COST_FLAGS = 4096;
export const TIME_FLAGS = 65_536;

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
  // (Read through the context, written through it: the session keeps them across a rebuilt view.)
  const kept = context.kernelState();
  /** @type {import('../../../types/compaction-playground').KernelName} */
  let module = /** @type {any} */ (kept.module ?? FIRST);
  const texts = { get: (key) => context.kernelState().text(key), set: (key, text) => context.keepText(key, text), delete: (key) => context.keepText(key, null) };
  /**
   * An exercise of the page's (the element's kernel, editable, check, cases,
   * kernel-src and script child): its starting text and read-only ranges.
   * @type {{ id: string | null, module: string, check: string | null, cases: number[] | null, text: string, locked: { from: number, to: number }[] } | null}
   */
  let exercise = null;
  const start = () => (exercise && exercise.module === module ? exercise.text : factsOf(module).wgsl);
  /** Where the learner's text is kept: by exercise in a course (several share a module), else by module. */
  const textKey = () => (exercise?.id && exercise.module === module ? exercise.id : module);
  const source = () => texts.get(textKey()) ?? start();
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
  /** The text `lastReport` judged. @type {string | null} */
  let reportText = null;
  /** The element's check() in flight: calls for the same text share it, others wait their turn. @type {{ text: string, promise: Promise<any> } | null} */
  let asked = null;

  const view = new KernelView({
    t,
    kernels: facts,
    onKernel: (name) => {
      module = /** @type {any} */ (name);
      context.keepKernel({ module: name });
      compiled = { text: '', wgsl: '', ok: false, module };
      show();
    },
    onEdit: () => context.track(openEditor()),
    onCheck: () => context.track(compileAndCheck(false)),
    onReset: () => {
      texts.delete(textKey());
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

  /** Which reading of the attributes is the newest: an older one's fetch, answering late, is dropped. */
  let reading = 0;
  /** The exercise the element's attributes ask for (none without them): read, said where wrong, shown. */
  async function readAttributes() {
    const mine = ++reading;
    // A course's exercise (its panel chose it) before the element's own attributes.
    const course = context.exercise();
    if (course) {
      const made = startingText(factsOf(course.module).wgsl, course.editable, null);
      exercise = { id: course.id, module: course.module, check: course.check, cases: null, text: made.text, locked: made.locked };
      module = /** @type {any} */ (course.module);
      context.keepKernel({ module: course.module });
      compiled = { text: '', wgsl: '', ok: false, module };
      show();
      return;
    }
    const attrs = context.attributes();
    const asked = readExercise(attrs, facts);
    const errors = asked.errors.map((e) => t(e.key, e.params));
    let given = asked.script;
    if (!given && asked.src) {
      try {
        given = await fetchSource(asked.src);
      } catch (e) {
        errors.push(t('kernel.badSrc', { src: asked.src.slice(0, 120), error: e?.name === 'TimeoutError' ? t('kernel.srcTimeout', { seconds: SRC_TIMEOUT_MS / 1000 }) : (e?.message ?? e) }));
        given = null;
      }
    }
    if (!context.alive() || mine !== reading) return;
    context.clearAlert('kernel-exercise');
    const name = asked.module ?? (asked.editable.length || given ? module : null);
    if (name) {
      const made = startingText(factsOf(name).wgsl, asked.editable, given);
      if (made.missing.length) errors.push(t('kernel.missingFns', { fns: made.missing.join(', '), module: name }));
      exercise = { id: null, module: name, check: asked.check, cases: asked.cases, text: made.text, locked: made.locked };
      module = /** @type {any} */ (name);
      context.keepKernel({ module: name });
    } else exercise = asked.check || asked.cases ? { id: null, module, check: asked.check, cases: asked.cases, text: factsOf(module).wgsl, locked: [] } : null;
    if (errors.length) context.alert('kernel-exercise', errors.join(' '));
    show();
  }

  /**
   * A `kernel-src` text: this site's only (a redirect to another origin fails
   * the fetch), read as it arrives up to MAX_SOURCE_BYTES, within SRC_TIMEOUT_MS.
   * @param {string} src
   */
  async function fetchSource(src) {
    if (!sameOrigin(src, location.href)) throw new Error(t('kernel.crossOrigin'));
    const response = await fetch(new URL(src, location.href), { mode: 'same-origin', credentials: 'same-origin', signal: AbortSignal.timeout(SRC_TIMEOUT_MS) });
    if (!sameOrigin(response.url, location.href)) throw new Error(t('kernel.crossOrigin'));
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    if (!response.body) return '';
    return readBounded(response.body, MAX_SOURCE_BYTES);
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
          texts.set(textKey(), text);
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
  /** The compile in flight and its text: a second compile of the same text shares it, a newer text supersedes it. */
  let inFlight = /** @type {{ text: string, done: Promise<boolean> } | null} */ (null);
  function compile() {
    const text = source();
    if (inFlight?.text === text) return inFlight.done;
    const done = compileText(text).finally(() => {
      if (inFlight?.done === done) inFlight = null;
    });
    inFlight = { text, done };
    return done;
  }

  /** @param {string} text */
  async function compileText(text) {
    compiling.abort();
    compiling = new AbortController();
    const signal = compiling.signal;
    const f = factsOf(module);
    view.showCompile('compiling');
    const guarded = instrument(text, f.entryPoints, { maxBytes: layout.maxKernelBytes });
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
    let diagnostics;
    try {
      diagnostics = await compileOn(engine, module, guarded.wgsl);
    } catch (e) {
      // The module could not even be made (a lost device, a refusal of the wasm's): said, never left at "Compiling…".
      diagnostics = [{ severity: 'error', message: e?.message ?? String(e), line: 0, column: 0, length: 0 }];
    }
    if (signal.aborted) return false;
    const lineCount = guarded.source.split('\n').length;
    const list = diagnostics
      .slice(0, MAX_DIAGNOSTICS)
      .map((d) => (d.line >= 1 && d.line <= lineCount ? { ...d, ...toSource(guarded.source, guarded.inserts, d.line, d.column) } : { ...d, line: 0, column: 0 }));
    showDiagnostics(list);
    const ok = !list.some((d) => d.severity === 'error');
    context.emit('compile', { ok, diagnostics: list.map(plain) });
    if (ok) await engine.useKernel(module, guarded.wgsl).catch(() => null);
    compiled = { text, wgsl: guarded.wgsl, ok, module };
    if (!ok) report({ verdict: 'compile-error', passed: 0, total: 0, diagnostics: list });
    return ok;
  }

  /** @param {import('./harness.js').KernelReport | null} r */
  function report(r) {
    lastReport = r;
    reportText = r ? compiled.text : null;
    view.showReport(r, mode());
    if (r && r.verdict !== 'compile-error') context.emit('check', structuredClone(r));
    // The course counts the checks of its exercise (a compile error among them).
    if (r && exercise?.id) context.kernelChecked({ ...r, exercise: exercise.id });
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
      if (exercise?.module === module && exercise.check === 'none') {
        report({ verdict: 'compiled', passed: 0, total: 0, diagnostics: [] });
        return;
      }
      await runCheck();
    } catch (e) {
      if (context.alive()) report({ verdict: 'failedToRun', message: e?.message ?? String(e), passed: 0, total: 0, diagnostics: [] });
    }
  }

  async function runCheck() {
    view.showLinked(false);
    const engine = await checker();
    if (!engine) return;
    const method = factsOf(module).method;
    reference ??= wasm.Playground.createCpu();
    const software = isSoftwareAdapter(engine.pg?.adapterName);
    // (The checker's engine holds the kernel: every call on it is watched.)
    const runner = {
      run: (flags) =>
        engine.exec(async (pg) => {
          pg.setFlags(flags);
          const r = await pg.run(method);
          return { ...r, writtenPast: pg.kernelWrittenPast() };
        }),
      reference: (flags) => {
        reference.setFlags(flags);
        return reference.run(method);
      },
      probe: () => engine.exec((pg) => pg.kernelProbe()),
      // The order its workgroups take their ids in (the schedule cases after the ladder).
      schedule: (s) => engine.exec((pg) => pg.setSchedule(s.order, s.a, s.b, s.delayed)),
      // A scan kernel's stepped run against ours: where it first goes wrong.
      damage:
        method === 'scan' && mode() === 'exact'
          ? async (flags) => {
              if (flags.length === 0 || flags.length > layout.maxTraceFlags) return null;
              const yours = await engine.exec(async (pg) => {
                pg.setFlags(flags);
                return pg.scanTrace();
              });
              reference.setFlags(flags);
              return firstDamage(yours, await reference.scanTrace());
            }
          : undefined,
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
      if (r.verdict === 'passed') r.costs = await costs(engine, method, guarded(compiled.text), guarded(factsOf(module).wgsl)).catch(() => null);
      if (r.verdict === 'hung') hung = compiled.text;
      if (r.verdict === 'hung' && r.line === 0) r.message = String(engine.watchdogMs / 1000);
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

  /** `text` guarded as the checker runs it (the instrumented WGSL). @param {string} text */
  const guarded = (text) => {
    const r = instrument(text, factsOf(module).entryPoints, { maxBytes: layout.maxKernelBytes });
    return r.ok ? r.wgsl : '';
  };

  /**
   * What a passing kernel costs beside ours, both instrumented alike, on this
   * GPU: per invocation, the storage reads and writes, atomics and barriers
   * its statements hold (COST_FLAGS random flags), and the median wall time of
   * a run of TIME_FLAGS (with its readback), yours then ours.
   */
  async function costs(engine, method, yours, ours) {
    const flags = wasm.presetFlags('random', COST_FLAGS, 0.5, 3);
    const big = wasm.presetFlags('random', TIME_FLAGS, 0.5, 4);
    const measure = async (wgsl) => {
      await engine.useKernel(module, wgsl);
      const counted = await engine.exec(async (pg) => {
        pg.setFlags(flags);
        await pg.run(method);
        return pg.kernelCosts();
      });
      const times = [];
      for (let k = 0; k < 5; k++) {
        times.push(
          await engine.exec(async (pg) => {
            pg.setFlags(big);
            const t0 = performance.now();
            await pg.run(method);
            return performance.now() - t0;
          }),
        );
      }
      times.sort((a, b) => a - b);
      const per = (x) => x / Math.max(counted?.invocations ?? 1, 1);
      return { reads: per(counted?.reads ?? 0), writes: per(counted?.writes ?? 0), atomics: per(counted?.atomics ?? 0), barriers: per(counted?.barriers ?? 0), ms: times[2] };
    };
    try {
      return { n: COST_FLAGS, timeN: TIME_FLAGS, yours: await measure(yours), ours: await measure(ours) };
    } finally {
      await engine.useKernel(module, yours);
    }
  }

  /** The smallest failing case on the page's flags, the visitor's kernel on the page's playground (the session's stepping). */
  async function stepThrough() {
    const cx = lastReport?.counterexample;
    if (!context.engine() || !cx || !compiled.ok) return;
    const { module: name, text, wgsl } = compiled;
    // The checker's pipelines are the page's too: compiled once, for the check (and the browser's module for its messages).
    const from = await checker().catch(() => null);
    await context.stepKernel({ module: name, text, wgsl, flags: Uint32Array.from(cx.flags), method: factsOf(name).method, schedule: cx.schedule ?? null, from });
  }

  const useOurs = () => context.leaveKernel();

  /**
   * The URL carries the visitor's text (none when it is ours); a text too long
   * for a link is said, with a download of it.
   */
  async function linkTo(name, text) {
    const ours = text === factsOf(name).wgsl;
    const src = ours ? null : await packSource(text);
    if (name !== module || texts.get(textKey()) !== text) return;
    const long = src !== null && src.length > MAX_LINK_CHARS;
    context.keepKernel({ link: ours ? null : { module: name, src: long ? null : src } });
    view.showTooLong(long ? { name, text } : null);
    context.writeUrl();
  }

  /** A kernel a link brought: shown and compiled at once, run only when the visitor presses Check. */
  async function fromLink({ module: name, src }) {
    context.keepKernel({ fromLink: null });
    const f = facts.find((k) => k.module === name);
    let text;
    try {
      if (!f) throw new Error(t('kernel.unknownKernel', { name, kernels: facts.map((k) => k.module).join(', ') }));
      text = src ? await unpackSource(src) : f.wgsl;
    } catch (e) {
      // Nothing of the link is kept: ours stays, as the alert says.
      context.alert('kernel-link', t('kernel.badLink', { error: e?.message ?? e }));
      return;
    }
    if (!context.alive()) return;
    module = /** @type {any} */ (name);
    context.keepKernel({ module: name });
    texts.set(module, text);
    context.keepKernel({ link: { module: name, src } });
    show();
    view.showLinked(true);
    // The link was made here, thousands of pixels below the top: it opens on this panel.
    context.reveal('kernel');
    // Refusals and compile errors are the compile's own messages, on their lines.
    await compile();
  }

  /** The new text of the kernel shown, as if typed (the editor follows); compiled and checked after the same pause. */
  function setSource(text) {
    texts.set(textKey(), text);
    if (editor && editor.text() !== text) editor.setText(text);
    else if (!editor) view.showSource(text, module);
    clearTimeout(timer);
    timer = setTimeout(() => context.track(Promise.all([compileAndCheck(true), linkTo(module, text)])), COMPILE_DELAY_MS);
  }

  /** A check now (after a compile, and after the check in flight), for the element's `check()`. */
  function checkNow() {
    clearTimeout(timer);
    const text = source();
    if (asked?.text === text) return asked.promise;
    const promise = (asked?.promise ?? Promise.resolve())
      .catch(() => null)
      .then(() => checkText(text))
      .finally(() => {
        if (asked?.promise === promise) asked = null;
      });
    asked = { text, promise };
    return promise;
  }

  /** The report on `text`, or one saying a newer text took its place. */
  async function checkText(text) {
    const superseded = () => ({ verdict: 'superseded', passed: 0, total: 0, diagnostics: [] });
    for (let tries = 0; tries < 3; tries++) {
      while (checking) await new Promise((resolve) => afterCheck.push(() => resolve(undefined)));
      if (source() !== text) return superseded();
      await compileAndCheck(false);
      if (lastReport && reportText === text) return structuredClone(lastReport);
    }
    return source() === text ? { verdict: 'failedToRun', message: t('kernel.notChecked'), passed: 0, total: 0, diagnostics: [] } : superseded();
  }

  const pending = context.offerKernel({
    get source() {
      return source();
    },
    setSource,
    shown: () => context.visible('kernel'),
    exerciseChanged: () => context.track(readAttributes()),
    check: () => context.track(checkNow()),
  });
  show();
  context.track(readAttributes().then(() => pending !== null && setSource(pending)));
  return {
    element: view.element,
    styles: [codeSheet(), sheet()],
    kernelStepping: (state) => view.showStepping(state),
    engineChanged: (engine) => {
      // A new engine (a lost device, a retry): the checker is remade.
      checkerPromise?.then((e) => /** @type {any} */ (e).dispose());
      checkerPromise = null;
      // A link's kernel, once the engine is the one the page settles on (not the CPU reference of the start).
      const linked = context.kernelState().fromLink;
      if (linked && engine.fallback?.kind !== 'starting') context.track(fromLink(linked));
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
