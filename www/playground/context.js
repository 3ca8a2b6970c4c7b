// What a panel gets (`create(context)`): what it may read of the session, the
// calls it may make, and the step it may ask for. No panel sees the session
// itself or writes its fields; stale work is told by an AbortSignal (each run
// has one, aborted when a newer run starts or the playground goes away).

/**
 * @typedef {import('../core/engine.js').Engine} Engine
 * @typedef {import('../i18n/i18n.js').Translator} Translator
 * @typedef {{ step: number | null, block: number | null, tile: number | null }} StartAt
 * @typedef {{
 *   t: Translator,
 *   root: HTMLElement,
 *   kernels(): any,
 *   flags(): Uint32Array,
 *   preset(): { name: string, n: number, density: number, seed: number } | null,
 *   method(): string,
 *   methods(): string[],
 *   lastRun(): any,
 *   engine(): Engine | null,
 *   signal(): AbortSignal,
 *   alive(): boolean,
 *   withFlags<T>(engine: Engine, fn: (pg: any) => T | Promise<T>): Promise<T>,
 *   traceEngine(): Promise<Engine>,
 *   sideEngine(): Promise<Engine>,
 *   track<T>(promise: Promise<T>): Promise<T | void>,
 *   progress(label: string, delay: number, options?: object): any,
 *   alert(kind: string, message: string): void,
 *   clearAlert(kind: string): void,
 *   setFlags(flags: Uint32Array, preset: object | null, why: string): void,
 *   applyPreset(preset: object): Promise<void>,
 *   setMethod(method: string): void,
 *   run(options?: { traces?: boolean, slots?: boolean }): Promise<void>,
 *   redraw(): void,
 *   showResult(r: any): void,
 *   takeStart(parts: (keyof StartAt)[]): StartAt,
 *   traced(flags: Uint32Array, method: string): void,
 *   cardTitle(panel: string, title: string): void,
 *   stepChanged(): void,
 *   reveal(panel: string): void,
 *   tileMethod(): string,
 *   currentMark(): { ref: any, method: string },
 *   visible(panel: string): boolean,
 *   emit(type: string, detail: object): void,
 *   offerKernel(api: KernelApi | null): string | null,
 *   offerCourse(api: any): void,
 *   exercise(): { id: string, module: string, editable: string[], check: string } | null,
 *   setExercise(exercise: { id: string, module: string, editable: string[], check: string }): void,
 *   kernelChecked(report: object): void,
 *   kernelSource(): string | null,
 *   kernelState(): { module: string | null, text(key: string): string | null,
 *     link: { module: string, src: string | null } | null, fromLink: { module: string, src: string | null } | null },
 *   keepKernel(patch: { module?: string, link?: { module: string, src: string | null } | null, fromLink?: { module: string, src: string | null } | null }): void,
 *   keepText(key: string, text: string | null): void,
 *   stepKernel(stepped: { module: string, text: string, wgsl: string, flags: Uint32Array, method: string, schedule?: any, from?: any }): Promise<void>,
 *   leaveKernel(): Promise<void>,
 *   stepping(): import('./stepping.js').SteppingState,
 *   takeOpenAtWrong(): boolean,
 *   writeUrl(): void,
 *   attributes(): Record<string, string | null>,
 * }} PanelContext
 * @typedef {{ source: string, setSource(text: string): void, shown(): boolean, check(): Promise<object>, exerciseChanged(): void }} KernelApi
 *   what the kernel panel gives the element (`kernelSource`, `check()`)
 */

/**
 * The context of every panel of `view`, over `session`.
 * @param {import('./session.js').Session} session  @param {import('./playground.js').Playground} view
 * @returns {PanelContext}
 */
export function panelContext(session, view) {
  return {
    t: view.t,
    root: view.root,
    kernels: () => session.wasm,
    flags: () => session.flags,
    preset: () => session.preset,
    method: () => session.method,
    methods: () => session.methods(),
    lastRun: () => session.lastRun,
    engine: () => session.engine,
    signal: () => session.runSignal(),
    alive: () => !session.destroyed,
    withFlags: (engine, fn) => session.withFlags(engine, fn),
    traceEngine: () => session.traceEngine(),
    sideEngine: () => session.sideEngine(),
    track: (promise) => session.track(promise),
    progress: (label, delay, options) => session.progress(label, delay, options),
    alert: (kind, message) => session.alert(kind, message),
    clearAlert: (kind) => session.clearAlert(kind),
    setFlags: (flags, preset, why) => session.setFlags(flags, preset, why),
    applyPreset: (preset) => session.applyPreset(preset),
    setMethod: (method) => session.setMethod(method),
    run: (options) => session.refresh(options),
    redraw: () => session.redraw(),
    showResult: (r) => session.showResult(r),
    takeStart: (parts) => session.takeStart(parts),
    traced: (flags, method) => session.setTraced(flags, method),
    cardTitle: (panel, title) => view.setCardTitle(panel, title),
    stepChanged: () => view.stepChanged(),
    reveal: (panel) => view.reveal(panel),
    tileMethod: () => view.tileMethod(),
    currentMark: () => view.currentMark(),
    visible: (panel) => Boolean(view.visible?.[panel]),
    emit: (type, detail) => session.emit(type, detail),
    offerKernel: (api) => session.offerKernel(api),
    offerCourse: (api) => session.offerCourse(api),
    exercise: () => session.exercise,
    setExercise: (exercise) => session.setExercise(exercise),
    kernelChecked: (report) => view.each('kernelChecked', report),
    kernelSource: () => session.kernelSource,
    kernelState: () => {
      const { module, link, fromLink, texts } = session.kernelState;
      return Object.freeze({ module, link, fromLink, text: (key) => texts.get(key) ?? null });
    },
    keepKernel: (patch) => {
      for (const key of ['module', 'link', 'fromLink']) if (key in patch) session.kernelState[key] = patch[key];
    },
    keepText: (key, text) => {
      if (text === null) session.kernelState.texts.delete(key);
      else session.kernelState.texts.set(key, text);
    },
    stepKernel: (stepped) => session.steppingRoom().then((room) => room.enter(stepped)),
    leaveKernel: () => session.stepping?.leave('asked') ?? Promise.resolve(),
    stepping: () => session.stepping?.state() ?? { active: false, module: null },
    takeOpenAtWrong: () => session.stepping?.takeOpenAtWrong() ?? false,
    writeUrl: () => session.writeUrl(),
    attributes: () => ({ ...session.attributes }),
  };
}
