// What a playground does beyond its runs and traces (www/work.js): the code
// panel's sources, the downloads, the order panel's frames and the benchmark
// loop, each on the visitor's GPU (or the CPU reference). The base of
// PlaygroundApp (app.js), which builds the panels these methods fill.

import { Engine } from './engine.js';
import { methodNames } from './layout.js';
import { PlaygroundWork } from './work.js';
import { download, exportFiles, toJson } from './export.js';
import { isSoftwareAdapter } from './status.js';
import { whyStable } from './atomic-view.js';
import { benchCsv, benchRow, repsFor, SAMPLES } from './bench.js';

export class PlaygroundTools extends PlaygroundWork {
  /** A new engine: its kernels' sources and what the benchmark offers; earlier order results are stale. */
  engineChanged() {
    const engine = this.engine;
    const sources = engine.pg.kernelSources();
    this.stepper.code.setSources(sources);
    this.tilesView.code.setSources(sources);
    this.codePanel.setSources(sources, engine.backend);
    const methods = Array.from(engine.pg.methods ?? methodNames());
    this.benchPanel.configure({ methods, maxFlags: engine.pg.maxFlags, software: engine.backend !== 'gpu' || isSoftwareAdapter(engine.pg.adapterName) });
    this.orderEngine?.dispose();
    this.orderEngine = null;
    if (this.visible?.order) this.orderShown();
  }

  /** Puts `text` on the clipboard; false when the browser refuses. */
  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }

  /** Downloads `what` (flags, result, scan, tiles, order, bench) as `format` (json, csv). */
  exportData(what, format) {
    const data = {
      flags: { flags: this.flags, preset: this.preset },
      result: this.lastRun,
      scan: this.stepper.trace,
      tiles: this.tilesView.trace,
      order: this.orderPanel.results,
      bench: this.benchPanel.rows,
    }[what];
    if (!data || (Array.isArray(data) && !data.length)) {
      this.alert('export', this.t('export.nothing'));
      return;
    }
    const files = what === 'order' ? orderFiles(data) : what === 'bench' ? { name: 'benchmark', json: toJson(data), csv: benchCsv(data) } : exportFiles(what, data);
    const type = format === 'json' ? 'application/json' : 'text/csv';
    download(this.root, `compaction-${files.name}.${format}`, files[format], type);
  }

  /** The order panel is shown: run it once it scrolls into view (it compiles every method). */
  orderShown() {
    this.orderObserver?.disconnect();
    this.orderObserver = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting) || this.orderPanel.results || !this.engine || this.orderRunning) return;
      this.orderObserver.disconnect();
      this.track(this.runOrder());
    });
    this.orderObserver.observe(this.orderPanel.element);
  }

  /** Every method on the order scene, frame after frame, on an engine of its own (its own flags). */
  async runOrder() {
    if (!this.engine || this.orderRunning) return;
    this.orderRunning = true;
    const t = this.t;
    const panel = this.orderPanel;
    const scene = panel.scene();
    panel.setBusy(true);
    try {
      if (!this.orderEngine) {
        this.orderEngine =
          this.engine.backend === 'gpu' ? await Engine.open(this.wasm, (kind, message) => this.onGpuEvent(kind, message)) : Engine.cpu(this.wasm, this.engine.fallback);
      }
      const engine = this.orderEngine;
      const flags = this.wasm.presetFlags('random', scene.n, scene.density, scene.seed);
      const { width, height } = panel.imageSize();
      const methods = Array.from(engine.pg.methods ?? methodNames());
      const runs = [];
      for (const method of methods) {
        const frames = [];
        let first = null;
        for (let f = 0; f < scene.frames && !this.destroyed; f++) {
          panel.showProgress(t('order.progress', { method, frame: f + 1, frames: scene.frames }));
          const r = await engine.exec(async (pg) => {
            if (f === 0) {
              pg.setFlags(flags);
              await engine.compileIn(pg, method);
              return pg.drawOrder(method, width, height, scene.groups);
            }
            return pg.run(method);
          });
          if (f === 0) first = r;
          frames.push(r.indices);
        }
        if (this.destroyed) return;
        runs.push({ method, frames, image: first.image, imageWidth: first.imageWidth, imageHeight: first.imageHeight });
      }
      panel.show(runs, scene, { backend: engine.backend, why: whyStable(t, engine.backend, engine.pg?.adapterName, scene.n) });
      panel.showProgress(t('order.done', { methods: runs.length, frames: scene.frames }));
      this.clearAlert('order');
    } catch (e) {
      if (!this.destroyed) {
        panel.showProgress('');
        this.alert('order', t('order.failed', { error: e?.message ?? e }));
      }
    } finally {
      this.orderRunning = false;
      panel.setBusy(false);
    }
  }

  /** Every chosen method over the chosen sizes: compile (timed apart), calibrate, measure. */
  async runBenchmark() {
    if (!this.engine || this.bench) return;
    const t = this.t;
    const panel = this.benchPanel;
    const { methods, sizes } = panel.selection();
    const engine = this.engine;
    const bench = { cancelled: false };
    this.bench = bench;
    const total = methods.length * sizes.length;
    panel.start(total);
    let done = 0;
    try {
      for (const method of methods) {
        if (bench.cancelled || this.destroyed) break;
        panel.step(done, t('bench.compiling', { method }));
        await engine.exec((pg) => engine.compileIn(pg, method));
        const compileMs = engine.compiled.get(method) ?? 0;
        panel.setCompile(method, compileMs);
        for (const n of sizes) {
          if (bench.cancelled || this.destroyed) break;
          panel.step(done, t('bench.progress', { method, n, done: done + 1, total }));
          const first = await engine.exec((pg) => pg.benchmark(method, n, 1, 1));
          const reps = repsFor(first.samplesNs[0], first.resolutionNs);
          if (bench.cancelled || this.destroyed) break;
          const r = await engine.exec((pg) => pg.benchmark(method, n, reps, SAMPLES));
          panel.addRow(benchRow(r, compileMs));
          done++;
          panel.step(done, t('bench.progress', { method, n, done, total }));
        }
      }
      if (!this.destroyed) panel.finish(bench.cancelled ? 'cancelled' : 'done');
    } catch (e) {
      if (!this.destroyed) panel.finish(t('bench.failed', { error: e?.message ?? e }));
    } finally {
      this.bench = null;
    }
  }

  /** Stops the benchmark after the measurement in flight. */
  cancelBenchmark() {
    if (this.bench) this.bench.cancelled = true;
  }

  destroyTools() {
    this.cancelBenchmark();
    this.orderObserver?.disconnect();
    this.orderEngine?.dispose();
    this.orderEngine = null;
  }
}

/** The order panel's draw orders: every frame's index buffer of every method. */
function orderFiles({ scene, runs }) {
  const rows = [];
  for (const run of runs) run.frames.forEach((frame, f) => frame.forEach((index, slot) => rows.push([run.method, f, slot, index])));
  return {
    name: 'draw-orders',
    json: toJson({ scene, runs: runs.map((r) => ({ method: r.method, frames: r.frames })) }),
    csv: `${['method,frame,slot,index', ...rows.map((r) => r.join(','))].join('\n')}\n`,
  };
}
