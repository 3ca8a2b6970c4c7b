// Types of the package `compaction-playground` (dist/compaction-playground.js):
// the <compaction-playground> element and the JS API of its kernels. The
// attributes, events and the API are described in docs/embedding.md and the
// README's "The JS API"; this file is checked by `tsc` against a consumer file
// in `npm test` (tests/js/consumer.ts).

/** A method of the article and beyond it. */
export type Method = 'atomic' | 'aggregated' | 'scan' | 'lookback' | 'lookback-bits' | 'tile-atomic' | 'packed-scan';

/** A panel of the element, as `panels` lists them. */
export type Panel = 'editor' | 'result' | 'draw' | 'scan' | 'tiles' | 'atomic' | 'order' | 'bench' | 'code' | 'course' | 'kernel';

/** A preset of flags: `preset="random 100000 0.5 1"`. */
export interface Preset {
  name: 'article' | 'all' | 'none' | 'random' | 'clustered';
  n: number;
  density: number;
  seed: number;
}

/** `result` event detail, and the element's `result` property. */
export interface ResultDetail {
  method: Method;
  n: number;
  count: number;
  instanceCount: number;
  /**
   * FNV-1a of the index buffer, as an unsigned 32-bit number; in `el.result`, null for the moment a GPU run of
   * 2^20 flags or more shows its count before the rest of its indices are read (the `result` event has it).
   */
  hash: number | null;
  backend: 'gpu' | 'cpu';
}

/** `change` event detail: the flags or the method changed. */
export interface ChangeDetail {
  method: Method;
  n: number;
  visible: number;
  flags: Uint32Array;
  preset: Preset | null;
  source: 'start' | 'edit' | 'text' | 'preset' | 'resize' | 'attribute' | 'method' | 'url' | 'too-large';
}

/** `step` event detail: the stepper shown moved. */
export interface StepDetail {
  view: 'scan' | 'tiles';
  step: number;
  steps: number;
  kind: string | null;
}

export interface CompactionPlaygroundEventMap extends HTMLElementEventMap {
  change: CustomEvent<ChangeDetail>;
  step: CustomEvent<StepDetail>;
  result: CustomEvent<ResultDetail>;
  langchange: CustomEvent<{ lang: 'en' | 'es' }>;
  /** The kernel panel compiled the learner's text. */
  compile: CustomEvent<{ ok: boolean; diagnostics: KernelDiagnostic[] }>;
  /** The kernel panel checked the learner's kernel. */
  check: CustomEvent<KernelReport>;
  /** The course's current exercise passed its check for the first time. */
  solved: CustomEvent<{ id: ExerciseId; attempts: number }>;
  /** The course showed a hint (`hint()` or its button). */
  hint: CustomEvent<CourseHint>;
}

/** The course's exercises, in order (the `exercise` attribute names one). */
export type ExerciseId = 'counter' | 'aggregated' | 'step' | 'steps' | 'load' | 'exclusive' | 'offsets' | 'scatter';

/** One exercise of the course, as `exercises` lists it. */
export interface CourseExercise {
  id: ExerciseId;
  /** Its title, in the element's language. */
  title: string;
  /** The kernel it is written in. */
  kernel: KernelName;
  solved: boolean;
}

/** A learner's progress on one exercise, kept in the browser under the `course` key. */
export interface ExerciseProgress {
  solved: boolean;
  /** Checks made (a compile error among them). */
  attempts: number;
  hintsUsed: number;
  /** Whether our solution was opened. */
  solutionSeen: boolean;
}

/** A hint keyed to the last failed check: its failure kind and level (1 a nudge, 2 the concept, 3 nearly the line). */
export interface CourseHint {
  id: ExerciseId;
  kind: 'missing' | 'extra' | 'duplicate' | 'order' | 'count' | 'out-of-range' | 'unwritten' | 'past-count' | 'nondeterministic' | 'schedule' | 'hung' | 'compile-error';
  level: 1 | 2 | 3;
  text: string;
}

/** A compiler's message on the learner's text: 1-based line (0: no place) and UTF-16 column. */
export interface KernelDiagnostic {
  severity: 'error' | 'warning' | 'info';
  message: string;
  line: number;
  column: number;
}

/** What a check of the learner's kernel found. */
export interface KernelReport {
  /**
   * `compiled`: an exercise with `check="none"` compiled; `superseded`: the text changed before this
   * check's turn (a newer call has the newer text's report).
   */
  verdict: 'passed' | 'failed' | 'compile-error' | 'pipeline-error' | 'hung' | 'unavailable' | 'failedToRun' | 'compiled' | 'superseded';
  /** How it failed: `count`, `missing`, `extra`, `duplicate`, `order`, `out-of-range`, `past-count`, `nondeterministic`. */
  failure?: string;
  passed: number;
  total: number;
  /** The case it failed on (`'257 · ones'`). */
  case?: string;
  /** The line of the loop that ran past the budget (`hung`; 0: the watchdog stopped a run). */
  line?: number;
  /** The sizes of the cases run, in flags (`passed`). */
  from?: number;
  to?: number;
  /** The pipeline's or the run's error. */
  message?: string;
  diagnostics: KernelDiagnostic[];
  /** The shrunk case: its flags, our indices and the learner's, the first position that differs. */
  counterexample?: { flags: number[]; expected: number[]; got: number[]; at: number; index: number; shrunkFrom: number; runs: number };
}

/** <compaction-playground>: every attribute is reactive and mirrored by a property. */
export declare class CompactionPlaygroundElement extends HTMLElement {
  /** This module's URL (embed snippets point next to it). */
  static readonly moduleUrl: string;
  /** The flags as the `flags` attribute takes them; null when a preset too large to list made them. */
  flags: string | null;
  /** The preset the flags came from (`random 100000 0.5 1`), or null. */
  preset: string | null;
  method: Method | string;
  /** The step (1-based) of the stepper shown, or null. */
  step: number | string | null;
  /** The panels shown, space-separated (all when none is named). */
  panels: string;
  theme: 'auto' | 'light' | 'dark' | string;
  syncUrl: boolean;
  /** `'lazy'` (the default: start when about to be seen) or `'eager'`. */
  loading: 'lazy' | 'eager' | string;
  /** Resolves once the element has compacted on its final backend with its panels built. */
  readonly ready: Promise<void>;
  readonly isReady: boolean;
  readonly busy: boolean;
  readonly result: ResultDetail | null;
  readonly backend: 'gpu' | 'cpu' | null;
  readonly resolvedTheme: 'light' | 'dark' | null;
  /** The language shown, or null before the element is on a page. */
  readonly language: 'en' | 'es' | null;
  /** The state in embed.html's hash form. */
  readonly stateHash: string | null;
  /** The kernel panel's WGSL: setting it compiles and checks it as typing would. */
  kernelSource: string | null;
  /** Checks the kernel panel's kernel (rejects with `.kind` 'no-kernel' without one). */
  check(): Promise<KernelReport>;
  /** The course's exercises in order (empty without a `course` attribute, or before its panel is built). */
  readonly exercises: CourseExercise[];
  /** The course's current exercise; setting it (or the attribute) moves the course there. */
  exercise: ExerciseId | string | null;
  /** The course's progress by exercise id. */
  readonly progress: Partial<Record<ExerciseId, ExerciseProgress>>;
  /** The next hint for the last failed check of the current exercise, or null where none is due (rejects with `.kind` 'no-course' without a course). */
  hint(): Promise<CourseHint | null>;
  /** Clears the course's progress in this browser. */
  resetProgress(): void;
  addEventListener<K extends keyof CompactionPlaygroundEventMap>(
    type: K,
    listener: (this: CompactionPlaygroundElement, ev: CompactionPlaygroundEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof CompactionPlaygroundEventMap>(
    type: K,
    listener: (this: CompactionPlaygroundElement, ev: CompactionPlaygroundEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'compaction-playground': CompactionPlaygroundElement;
  }
}

/** What a run gives. */
export interface RunResult {
  method: Method;
  /** Every visible index; its first `resultHead` where `partial`. */
  indices: Uint32Array;
  count: number;
  instanceCount: number;
  vertexCount: number;
  /** A GPU run of 2^20 flags or more: its first indices came back at once, the rest with `readRun()`. */
  partial: boolean;
  /** FNV-1a over the indices; null where `partial` (`readRun()` gives it). */
  hash: number | null;
  backend: 'gpu' | 'cpu';
  /** RGBA pixels of the offscreen draw (attachImage), or null. */
  image: Uint8Array | null;
  imageWidth: number;
  imageHeight: number;
}

/** An Error the kernels throw or reject with: `kind` says which. */
export interface KernelError extends Error {
  kind: 'type' | 'range' | 'parse' | 'too-large' | 'unknown-method' | 'unknown-kernel' | 'gpu' | 'device-lost' | 'no-webgpu' | 'no-adapter' | 'device' | string;
}

export interface BenchmarkResult {
  method: Method;
  n: number;
  /** The flags' density (0.5 unless asked). */
  density: number;
  count: number;
  reps: number;
  timer: 'gpu' | 'wall' | 'cpu';
  /** Why a GPU was timed by the wall clock: its runs go in slices (a software adapter), or it grants no timestamp-query. */
  wallBecause: 'slices' | 'no-timestamps' | null;
  samplesNs: number[];
  resolutionNs: number | null;
  check: 'exact' | 'count+sum';
}

export interface KernelModule {
  label: string;
  files: string[];
  pipelines: { label: string; entryPoint: string; constants: Record<string, number> }[];
  wgsl: string;
}

/** One page's playground of the kernels: on the GPU (`create`) or the CPU mirror (`createCpu`). */
export declare class Playground {
  /** Every Playground of a page shares one device; `onEvent` hears this one's device losses and errors. */
  static create(onEvent?: (kind: 'device-lost' | 'uncaptured-error', message: string) => void): Promise<Playground>;
  static createCpu(): Playground;
  readonly backend: 'gpu' | 'cpu';
  readonly adapterName: string;
  readonly maxFlags: number;
  readonly maxTraceFlags: number;
  readonly methods: Method[];
  setFlags(flags: Uint32Array | ArrayLike<number>): void;
  attachCanvas(canvas: HTMLCanvasElement): void;
  attachImage(width: number, height: number): void;
  run(method: Method): Promise<RunResult>;
  /** The rest of the last run where it came back `partial`: every index and the hash; null where it came back whole. */
  readRun(): Promise<{ indices: Uint32Array; hash: number } | null>;
  scanTrace(): Promise<Record<string, unknown>>;
  atomicTrace(method: 'atomic' | 'aggregated'): Promise<Record<string, unknown>>;
  /** packed-scan kernel by kernel: bits, tileCounts, tileSlots, indices (Uint32Array each), count, instanceCount, hash, tileSize. */
  packedTrace(): Promise<Record<string, unknown>>;
  tileTrace(method: 'lookback' | 'lookback-bits' | 'tile-atomic', inFlight?: number, stalled?: number): Promise<Record<string, unknown>>;
  kernelSources(): { method: Method; modules: KernelModule[] }[];
  compile(method: Method): Promise<void>;
  /** Each sample is its own turn on the page's GPU: other playgrounds' calls run between samples, and `signal` aborting rejects it (`.kind` 'aborted') before the next. */
  benchmark(method: Method, n: number, reps: number, samples: number, signal?: AbortSignal | null, density?: number): Promise<BenchmarkResult>;
  drawOrder(method: Method, width: number, height: number, groups: number): Promise<RunResult>;
  /**
   * The browser's shader module of `wgsl` in place of `module`'s file (the files
   * it appends after, shaders/live.wgsl, too): its `getCompilationInfo()` gives
   * the messages in the learner's lines and UTF-16 columns; `scope` settles with
   * the validation error of a module that does not compile. GPU only.
   */
  kernelModule(module: KernelName, wgsl: string): { module: GPUShaderModule; scope: Promise<GPUError | null> };
  /** Later runs and traces use `wgsl` in place of `module`'s file; `probed`: it declares the loop guard's probe (binding 15). GPU only. */
  setKernel(module: KernelName, wgsl: string, probed?: boolean): void;
  /** Back to the library's kernels. */
  clearKernel(): void;
  /** Destroys the page's GPU device (a watchdog's last resort): every playground of the page hears 'device-lost'. */
  abandonDevice(): void;
  /** The line of the guarded loop that ran away in the last run (0: none); cleared. */
  kernelProbe(): number;
  /** The first slot past the count that the last run of a learner's kernel wrote (-1: none); cleared. */
  kernelWrittenPast(): number;
  /** The order the learner's kernel's workgroups take their ids in, from its next run (order 0 their own, 1 reversed, 2 `(a·k + b) mod n`; `delayed` -1 for none). */
  setSchedule(order: number, a: number, b: number, delayed: number): void;
  /** Later runs use the learner's kernel `from` (another playground of the page) holds, compiled once; false where it holds none. */
  shareKernel(from: Playground): boolean;
  /** What the instrumentation counted in the last run of the learner's kernel (over all invocations), or null. */
  kernelCosts(): { reads: number; writes: number; atomics: number; barriers: number; invocations: number } | null;
  free(): void;
}

/** The article's kernels a learner may replace. */
export type KernelName = 'atomic_counter' | 'atomic_aggregated' | 'scan_block' | 'add_offsets' | 'scatter';

/** What `kernelFacts()` says of each of them. */
export interface KernelFacts {
  module: KernelName;
  method: Method;
  path: string;
  wgsl: string;
  /** Each entry point and the bindings the host binds to it by name (`live` where it reads the uniform). */
  entryPoints: { name: string; bindings: string[] }[];
  /** The files the module appends after the learner's text, in order (`shaders/live.wgsl`). */
  appended: { path: string; wgsl: string }[];
}

export interface Layout {
  block: number;
  tile: number;
  /** Invocations of a workgroup of the atomic kernels (`aggregated` reserves once for each). */
  atomicWorkgroup: number;
  /** A tile state's status by its code: `['invalid', 'aggregate', 'inclusive']`. */
  tileStatus: string[];
  /** What a look-back read, by its code from 1: `['aggregate', 'inclusive', 'counted itself']`. */
  chainSeen: string[];
  /** The presets' names. */
  presets: Preset['name'][];
  noSlot: number;
  spinLimit: number;
  maxTraceFlags: number;
  /** The longest kernel the wasm takes (a learner's, with the loop guard's code), in UTF-8 bytes. */
  maxKernelBytes: number;
  /** The indices a large run (2^20 flags or more, on the GPU) lists at once; `readRun()` reads the rest. */
  resultHead: number;
  /** What a learner's index buffer holds before a run: a slot still holding it was never written. */
  unwritten: number;
  maxFlags: number;
  methods: { name: Method; preservesOrder: boolean; usesTiles: boolean }[];
}

/** The wasm module's exports, loaded and initialised once per page. */
export interface Kernels {
  Playground: typeof Playground;
  kernelFacts(): KernelFacts[];
  parseFlags(text: string): Uint32Array;
  encodeFlags(flags: Uint32Array | ArrayLike<number>): string;
  decodeFlags(text: string): Uint32Array;
  presetFlags(name: Preset['name'], n: number, density: number, seed: number): Uint32Array;
  hashWords(words: Uint32Array | ArrayLike<number>): number;
  layout(): Layout;
}

/** Loads the kernels (the wasm beside this module) once per page. */
export declare function kernels(): Promise<Kernels>;
