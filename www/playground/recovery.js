// Device loss and the way back to the GPU, as one state machine: on a loss the
// playground falls back to the CPU reference at once, says so with a retry
// button, and tries a new device after 1 s, then backing off to 30 s; some
// browsers (headless, software adapters) lose the device when a WebGPU canvas
// is presented, so the first loss while drawing to a canvas retries at once,
// drawing offscreen. What it needs of the playground is passed in (`host`),
// so that tests/js/recovery.test.mjs runs it with fakes.

/** After a device loss, the first try to get the GPU back, and the longest wait between tries. */
export const RETRY_FIRST_MS = 1000;
export const RETRY_MAX_MS = 30_000;

/**
 * @typedef {import('../core/engine.js').Engine} Engine
 * @typedef {{
 *   alive(): boolean,
 *   engine(): Engine | null,
 *   drawMode(): string | null,
 *   lostUpload(): void,
 *   open(onEvent: (kind: string, message: string) => void): Promise<Engine>,
 *   useEngine(engine: Engine, drawMode: string | null): Promise<void>,
 *   showEngine(): void,
 *   refresh(): Promise<void>,
 *   track(promise: Promise<unknown>): Promise<unknown>,
 *   later(fn: () => void, ms: number): unknown,
 *   cancel(timer: unknown): void,
 *   alert(kind: string, message: string, actions?: object[]): void,
 *   clearAlert(kind: string): void,
 *   t(key: string, params?: Record<string, unknown>): string,
 * }} RecoveryHost
 */

export class Recovery {
  /** @param {RecoveryHost} host */
  constructor(host) {
    this.host = host;
    /** True once a loss was taken for the canvas's doing: the next device draws offscreen. */
    this.triedImage = false;
    /** The draw mode for the next device. @type {string | null} */
    this.drawMode = null;
    /** The last loss's message. */
    this.lostMessage = '';
    /** The wait before the next try, doubling up to RETRY_MAX_MS. */
    this.retryDelay = RETRY_FIRST_MS;
    /** The next try's timer. @type {unknown} */
    this.retryTimer = null;
    /** True while a new device is being opened. */
    this.reopening = false;
  }

  /** What the device says (`device-lost`, `uncaptured-error`). @param {string} kind  @param {string} message */
  onGpuEvent(kind, message) {
    const host = this.host;
    if (!host.alive()) return;
    if (kind !== 'device-lost') {
      // The lost device's last words (its objects failing) are not news once it is gone.
      if (host.engine()?.backend === 'gpu') host.alert('gpu', host.t('work.gpuError', { error: message }));
      return;
    }
    const lost = host.engine();
    if (lost?.backend !== 'gpu') return;
    host.lostUpload();
    const toImage = host.drawMode() === 'canvas' && !this.triedImage;
    if (toImage) this.triedImage = true;
    this.drawMode = toImage ? 'image' : host.drawMode();
    const swapped = lost.fallBackToCpu({ kind: toImage ? 'starting' : 'device-lost', message });
    host.track(
      swapped.then(() => {
        if (host.engine() !== lost || !host.alive()) return undefined;
        host.showEngine();
        return host.refresh();
      }),
    );
    this.lostMessage = message;
    this.retryDelay = RETRY_FIRST_MS;
    if (!toImage) this.sayLost();
    // The next device once the swap is done: before it, the lost engine still
    // reads as on the GPU, and a retry would take itself for not needed.
    swapped.then(
      () => this.schedule(toImage ? 0 : this.retryDelay),
      () => this.schedule(this.retryDelay),
    );
  }

  /** The loss, the CPU reference meanwhile, the next try and a button to try now. */
  sayLost(next = this.retryDelay) {
    const { t } = this.host;
    const retry = { label: t('work.retry'), testid: 'retry-gpu', onclick: () => this.schedule(0) };
    this.host.alert('device-lost', t('work.lost', { error: this.lostMessage, seconds: Math.round(next / 1000) }), [retry]);
  }

  /** The next try in `delay` ms (replacing one planned). @param {number} delay */
  schedule(delay) {
    if (this.retryTimer !== null) this.host.cancel(this.retryTimer);
    this.retryTimer = this.host.later(() => {
      this.retryTimer = null;
      this.host.track(this.retry());
    }, delay);
  }

  /** On the GPU again: what was said of the lost device goes (the loss, its errors). */
  back() {
    this.host.clearAlert('device-lost');
    this.host.clearAlert('gpu');
  }

  /** Opens a new device; on the GPU again, or another try later (backing off). */
  async retry() {
    const host = this.host;
    if (!host.alive() || this.reopening) return;
    if (host.engine()?.backend === 'gpu') {
      // Back on the GPU by another way (a late device took over): the loss is no longer news.
      this.back();
      return;
    }
    this.reopening = true;
    try {
      const engine = await host.open((kind, message) => this.onGpuEvent(kind, message));
      if (!host.alive()) {
        engine.dispose();
        return;
      }
      if (engine.backend === 'gpu') {
        this.back();
        await host.useEngine(engine, this.drawMode);
        return;
      }
      engine.dispose();
      const current = host.engine();
      if (current?.fallback?.kind === 'starting') {
        current.fallback = { kind: 'device-lost', message: this.lostMessage };
        host.showEngine();
      }
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
      this.sayLost();
      this.schedule(this.retryDelay);
    } finally {
      this.reopening = false;
    }
  }
}
