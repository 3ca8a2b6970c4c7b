#!/usr/bin/env node
// The page's own wasm on this machine's GPU, as a visitor's Chrome runs it:
// the built wasm (dist/, the optimised one a page downloads) and its glue,
// in Node, on Dawn (the npm package `webgpu`: dawn.node, Chrome's WebGPU).
// First every method against a reference on arrays up to what the adapter
// binds (the count and every index, exact or as a set for the atomics); then
// the page's own benchmark (Playground.benchmark: the benchmark panel's
// calibration, timestamps between many compactions) at 2^14 … 2^26, densities
// 0.5 and 0.1. Prints the adapter and Dawn's toggles, then a table, and writes
// everything as JSON with --json FILE.
//
//   node scripts/gpu/harness.mjs [--check] [--bench] [--json FILE [--append]] [--toggles a,b] [--sizes 14,16,…]
//
// --check: the correctness part alone (npm test runs it: "skipped: no adapter"
// where Dawn finds none, as on machines without a GPU Dawn takes). Without
// --check or --bench, both. --toggles: Dawn's (`enable-dawn-features=…`,
// `disable-dawn-features=timestamp_quantization`, …), as create() takes them.
// --append: add this run's checks and rows to FILE's (one process a size, as
// device.sh runs it). Each row carries its wall-clock start and end (ms since
// the epoch), to be read beside a log of the GPU's clocks.
// On a GPU machine without Node, scripts/gpu/device.sh runs it with a carried
// Node (scripts/gpu/pack.sh).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { median, repsFor } from '../../www/panels/bench/bench.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function options(argv) {
  const o = { check: false, bench: false, json: null, append: false, toggles: [], sizes: [14, 16, 18, 20, 22, 24, 26], densities: [0.5, 0.1] };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--check') o.check = true;
    else if (a === '--bench') o.bench = true;
    else if (a === '--json') o.json = argv[++k];
    else if (a === '--append') o.append = true;
    else if (a === '--toggles') o.toggles = argv[++k].split(/\s+/).filter(Boolean);
    else if (a === '--sizes') o.sizes = argv[++k].split(',').map(Number);
    else if (a === '--densities') o.densities = argv[++k].split(',').map(Number);
    else throw new Error(`gpu-harness: unknown argument ${a}`);
  }
  if (!o.check && !o.bench) o.check = o.bench = true;
  return o;
}

/**
 * The `webgpu` package: the one scripts/gpu/pack.sh carries in .gpu/, else node_modules'. A copy that
 * does not load (a pack for another machine, half unpacked) is passed over for the next.
 */
async function dawn() {
  for (const dir of [path.join(ROOT, '.gpu', 'webgpu'), path.join(ROOT, 'node_modules', 'webgpu')]) {
    if (!existsSync(path.join(dir, 'index.js'))) continue;
    try {
      return await import(pathToFileURL(path.join(dir, 'index.js')).href);
    } catch (e) {
      console.log(`gpu-harness: ${path.relative(ROOT, dir)} does not load (${String(e?.message ?? e).split('\n')[0]}); trying the next`);
    }
  }
  return null;
}

/** The page's wasm: dist/'s (what a page downloads), else www/pkg's; its glue from www/pkg. */
async function pageWasm() {
  const glue = path.join(ROOT, 'www', 'pkg', 'compaction_playground.js');
  const bytes = [path.join(ROOT, 'dist', 'compaction_playground_bg.wasm'), path.join(ROOT, 'www', 'pkg', 'compaction_playground_bg.wasm')].find(existsSync);
  if (!existsSync(glue) || !bytes) throw new Error('gpu-harness: build first (npm run build): www/pkg/ and dist/ are missing');
  const wasm = await import(pathToFileURL(glue).href);
  wasm.initSync({ module: readFileSync(bytes) });
  return { wasm, file: path.relative(ROOT, bytes) };
}

/** What the run must give: the visible indices in order. */
function visible(flags) {
  let k = 0;
  for (let i = 0; i < flags.length; i++) if (flags[i] !== 0) k++;
  const out = new Uint32Array(k);
  k = 0;
  for (let i = 0; i < flags.length; i++) if (flags[i] !== 0) out[k++] = i;
  return out;
}

/** Where `got` differs from `want`: null when exact (ordered) or the same set (an atomic method). */
function differs(got, want, ordered, n) {
  if (got.length !== want.length) return `${got.length} indices, ${want.length} visible`;
  if (ordered) {
    for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return `slot ${i}: ${got[i]}, expected ${want[i]}`;
    return null;
  }
  const seen = new Uint8Array(n);
  for (const v of want) seen[v] = 1;
  for (let i = 0; i < got.length; i++) {
    if (got[i] >= n || seen[got[i]] !== 1) return `slot ${i}: ${got[i]} is not a visible index, or twice`;
    seen[got[i]] = 2;
  }
  return null;
}

/**
 * A learner's kernel that never ends, guarded as the kernel panel guards it
 * (www/panels/kernel/instrument.js): nested loops in a helper and the entry,
 * `live` shadowed. On a real GPU the budget must end it, naming its line. (No
 * unguarded loop is ever run here: a real GPU may hang for good.)
 */
async function runaway(wasm, pg) {
  const { instrument } = await import('../../www/panels/kernel/instrument.js');
  const facts = wasm.kernelFacts().find((f) => f.module === 'atomic_counter');
  const text = `fn spin(n : u32) -> u32 {\n  var s = 0u;\n  loop { s = s + n; }\n  return s;\n}\n${facts.wgsl.replace(
    '  let slot = atomicAdd(&counter, 1u);',
    '  let live = vec4<u32>(0x3fffffffu);\n  var t = 0u;\n  loop { loop { t = t + spin(live.x); } }\n  let slot = atomicAdd(&counter, 1u + t * 0u);',
  )}`;
  const guarded = instrument(text, facts.entryPoints);
  if (!guarded.ok) throw new Error(`gpu-harness: the runaway kernel did not instrument: ${JSON.stringify(guarded.diagnostics)}`);
  const results = [];
  for (const n of [1, 65_537, 1 << 20]) {
    pg.setKernel('atomic_counter', guarded.wgsl, true);
    pg.setFlags(new Uint32Array(n).fill(1));
    const t0 = performance.now();
    await pg.run('atomic');
    const ms = performance.now() - t0;
    const line = pg.kernelProbe();
    results.push({ n, ms, line });
    console.log(`  runaway kernel, guarded: n=${n} stopped after ${ms.toFixed(1)} ms, the probe names line ${line} (the loop in spin: line 3)`);
  }
  pg.clearKernel();
  return results;
}

async function main() {
  const o = options(process.argv.slice(2));
  const webgpu = await dawn();
  if (!webgpu) {
    console.log('gpu-harness: skipped: the npm package webgpu is not installed');
    return 0;
  }
  const gpu = webgpu.create(o.toggles);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    console.log('gpu-harness: skipped: no adapter (Dawn finds no GPU it takes here)');
    return 0;
  }
  // What a page's global has and Node's lacks: WebGPU's classes and enums, navigator.gpu, and a scope wgpu
  // recognises (it reads navigator.gpu from a Window or a WorkerGlobalScope; the wasm itself asks only for navigator.gpu).
  Object.assign(globalThis, webgpu.globals);
  globalThis.navigator ??= /** @type {any} */ ({});
  Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, configurable: true });
  globalThis.WorkerGlobalScope ??= class WorkerGlobalScope {};
  const { wasm, file } = await pageWasm();
  const pg = await wasm.Playground.create(() => {});
  const info = adapter.info;
  const report = {
    adapter: pg.adapterName,
    info: { vendor: info.vendor, architecture: info.architecture, device: info.device, description: info.description },
    toggles: o.toggles,
    wasm: file,
    maxFlags: pg.maxFlags,
    features: [...adapter.features].sort(),
    checks: [],
    bench: [],
  };
  console.log(`gpu-harness: ${report.adapter}; Dawn toggles: ${o.toggles.join(' ') || '(Chrome defaults)'}; ${file}; the page binds up to ${pg.maxFlags} flags`);
  const methods = wasm.layout().methods;
  let failures = 0;
  if (o.check) {
    const max = pg.maxFlags;
    // Edges of a workgroup, a block, a tile; past 65 535 workgroups of 64 (the per-dimension limit); the largest.
    const sizes = [0, 1, 64, 65, 4097, 65_535 * 64 + 1, 1 << 22, 1 << 24, max].filter((n, k, all) => n <= max && all.indexOf(n) === k);
    for (const n of sizes) {
      for (const density of n >= 1 << 24 ? [0.5] : [0.5, 0.1]) {
        const flags = wasm.presetFlags('random', n, density, 7);
        const want = visible(flags);
        pg.setFlags(flags);
        for (const { name, preservesOrder } of methods) {
          // As a Run: the count and the first indices (what the result lists), then the rest on demand.
          const t0 = performance.now();
          const r = await pg.run(name);
          const ms = performance.now() - t0;
          const rest = r.partial ? await pg.readRun() : null;
          const restMs = performance.now() - t0 - ms;
          const indices = rest ? rest.indices : r.indices;
          const wrong = r.count !== want.length ? `count ${r.count}, ${want.length} visible` : differs(indices, want, preservesOrder, n);
          if (wrong) failures++;
          report.checks.push({ method: name, n, density, ok: !wrong, wrong, runMs: ms, partial: r.partial, restMs: rest ? restMs : null });
          const timing = `run ${ms.toFixed(1)} ms${rest ? ` (count and first ${r.indices.length}; the rest ${restMs.toFixed(1)} ms after)` : ''}`;
          console.log(`  ${wrong ? 'WRONG' : 'ok   '} ${name.padEnd(13)} n=${String(n).padStart(9)} d=${density} ${timing}${wrong ? `: ${wrong}` : ''}`);
        }
      }
    }
    console.log(`gpu-harness: ${report.checks.length - failures} of ${report.checks.length} runs right`);
    report.runaway = await runaway(wasm, pg);
  }
  if (o.bench) {
    console.log("gpu-harness: the page's benchmark (median µs per compaction; timer; the timestamps' quantum)");
    for (const density of o.densities) {
      for (const log2 of o.sizes) {
        const n = 2 ** log2;
        if (n > pg.maxFlags) continue;
        for (const { name } of methods) {
          const startedAt = Date.now();
          const first = await pg.benchmark(name, n, 1, 1, null, density);
          const reps = repsFor(first.samplesNs[0], first.resolutionNs);
          const r = await pg.benchmark(name, n, reps, 7, null, density);
          const row = {
            method: name,
            n,
            density,
            medianUs: median(r.samplesNs) / 1e3,
            timer: r.timer,
            wallBecause: r.wallBecause,
            reps,
            resolutionNs: r.resolutionNs,
            check: r.check,
            startedAt,
            endedAt: Date.now(),
          };
          report.bench.push(row);
          console.log(
            `  ${name.padEnd(13)} 2^${log2} d=${density}  ${row.medianUs.toFixed(1).padStart(9)} µs  ${r.timer}${r.wallBecause ? ` (${r.wallBecause})` : ''} ×${reps}  quantum ${r.resolutionNs ?? '-'} ns  ${r.check}`,
          );
        }
      }
    }
  }
  pg.free();
  if (o.json) {
    const out = o.append && existsSync(o.json) ? JSON.parse(readFileSync(o.json, 'utf8')) : report;
    if (out !== report) {
      out.checks.push(...report.checks);
      out.bench.push(...report.bench);
      out.runaway ??= report.runaway;
    }
    writeFileSync(o.json, JSON.stringify(out, null, 1));
  }
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`gpu-harness: ${e?.stack ?? e}`);
    process.exit(2);
  },
);
