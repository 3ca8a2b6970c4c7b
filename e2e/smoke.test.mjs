// Smoke tests for the test harness itself: the static server (MIME types,
// 404s, no path traversal) and the browser launcher (Chromium starts, WebGPU
// is there when asked for and absent when not).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, writeFile, mkdir, readFile, rm, symlink, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { launchBrowser, newLoggedPage, startServer, REPO_ROOT } from './browser.mjs';

// Raw GET, so that `..` and `%2e%2e` reach the server exactly as written
// (fetch() would normalise them away).
function rawGet(port, requestPath, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: requestPath, method: 'GET', headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let repo; // server on the repository root
let fixture; // server on a temp dir with a page and a wasm module
let fixtureDir;

// The smallest valid wasm module: magic number and version, no sections.
const EMPTY_WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

before(async () => {
  repo = await startServer({ port: 0, root: REPO_ROOT });
  fixtureDir = await mkdtemp(path.join(os.tmpdir(), 'compaction-e2e-'));
  await mkdir(path.join(fixtureDir, 'pkg'));
  await writeFile(path.join(fixtureDir, 'index.html'), '<!doctype html><title>fixture</title><script type="module" src="main.mjs"></script>');
  await writeFile(path.join(fixtureDir, 'main.mjs'), 'globalThis.moduleLoaded = true;\n');
  await writeFile(path.join(fixtureDir, 'pkg', 'empty.wasm'), EMPTY_WASM);
  fixture = await startServer({ port: 0, root: fixtureDir });
});

after(async () => {
  for (const s of [repo, fixture]) {
    if (s) {
      s.server.closeAllConnections();
      await new Promise((r) => s.server.close(r));
    }
  }
  if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
});

test('server: serves the page with its MIME type, no-cache, and its CSP and frame-ancestors as headers', async () => {
  const res = await rawGet(repo.port, '/');
  assert.equal(res.status, 200);
  assert.match(res.headers['content-type'], /^text\/html\b/);
  assert.equal(res.headers['cache-control'], 'no-cache');
  assert.deepEqual(res.body, await readFile(path.join(REPO_ROOT, 'index.html')));
  assert.match(res.headers['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'.*frame-ancestors 'self'/);
  assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
  // The iframe route is meant to be framed by other sites.
  const embed = await rawGet(repo.port, '/dist/embed.html');
  assert.equal(embed.status, 200);
  assert.match(embed.headers['content-security-policy'], /frame-ancestors \*/);
  assert.equal(embed.headers['x-frame-options'], undefined);
});

test('server: only what the page needs, from the repository: no .git, target, node_modules, scripts or dotfiles', async () => {
  for (const p of [
    '/.git/config',
    '/.git/',
    '/target/release/compact',
    '/node_modules/playwright-core/package.json',
    '/package.json',
    '/scripts/serve.mjs',
    '/src/lib.rs',
    '/.gitignore',
    '/www/.hidden',
    '/Cargo.toml',
  ]) {
    const res = await rawGet(repo.port, p);
    assert.equal(res.status, 404, `${p} -> ${res.status}`);
  }
  for (const p of ['/index.html', '/dist/compaction-playground.js', '/www/loader/base.css']) {
    assert.equal((await rawGet(repo.port, p)).status, 200, p);
  }
});

test('server: a symlink inside a served folder to a repository file that is not served is refused', async () => {
  const link = path.join(REPO_ROOT, 'dist', `symlink-test-${process.pid}.toml`);
  await symlink(path.join(REPO_ROOT, 'Cargo.toml'), link);
  try {
    const res = await rawGet(repo.port, `/dist/${path.basename(link)}`);
    assert.equal(res.status, 403);
    assert.doesNotMatch(res.body.toString(), /\[package\]|\[workspace\]/);
  } finally {
    await unlink(link);
  }
});

test('server: answers only requests addressed to it (no DNS rebinding) and never redirects to another host', async () => {
  for (const host of ['evil.example', 'localhost.evil.example:8080', 'www', 'cafe', `facade:${repo.port}`, 'beef']) {
    const res = await rawGet(repo.port, '/', { Host: host });
    assert.equal(res.status, 421, `Host: ${host}`);
  }
  for (const host of [`localhost:${repo.port}`, `127.0.0.1:${repo.port}`, `[::1]:${repo.port}`]) {
    assert.equal((await rawGet(repo.port, '/', { Host: host })).status, 200, host);
  }
  // `//www` must not become a protocol-relative `//www/` (the host "www").
  for (const p of ['//www', '//www/', '///www', '/www']) {
    const res = await rawGet(repo.port, p);
    assert.equal(res.status, 301, p);
    assert.equal(res.headers.location, '/www/', `${p} -> ${res.headers.location}`);
  }
});

test('server: JavaScript modules and wasm get the MIME types browsers require', async () => {
  const js = await rawGet(repo.port, '/dist/compaction-playground.js');
  assert.equal(js.status, 200);
  assert.match(js.headers['content-type'], /^text\/javascript\b/);
  const wasm = await rawGet(fixture.port, '/pkg/empty.wasm');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers['content-type'], 'application/wasm');
  assert.deepEqual(wasm.body, EMPTY_WASM);
  const html = await rawGet(fixture.port, '/');
  assert.equal(html.status, 200);
  assert.match(html.headers['content-type'], /^text\/html\b/);
});

test('server: 404 for a missing file', async () => {
  const res = await rawGet(repo.port, '/no/such/file.js');
  assert.equal(res.status, 404);
  // It quotes the path: plain text, never sniffed as a page.
  const html = await rawGet(repo.port, '/%3Cscript%3Ealert(1)%3C%2Fscript%3E.html');
  assert.equal(html.status, 404);
  assert.match(html.headers['content-type'], /^text\/plain/);
  assert.equal(html.headers['x-content-type-options'], 'nosniff');
});

test('server: refuses path traversal', async () => {
  // fixtureDir's parent is the temp dir; the repo root's parent is /work or similar.
  for (const p of ['/../package.json', '/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/scripts/..%2f..%2f..%2fetc%2fpasswd', `/pkg/../../${path.basename(fixtureDir)}/index.html`]) {
    const res = await rawGet(p.startsWith('/pkg') ? fixture.port : repo.port, p);
    assert.ok(res.status === 403 || res.status === 400 || res.status === 404, `${p} -> ${res.status}`);
    assert.doesNotMatch(res.body.toString(), /root:|<title>fixture/, `${p} leaked a file`);
  }
});

test('browser: Chromium loads a module page and instantiates wasm via instantiateStreaming', async () => {
  const browser = await launchBrowser({ webgpu: false });
  try {
    const { page, log } = await newLoggedPage(browser);
    await page.goto(fixture.url);
    await page.waitForFunction(() => globalThis.moduleLoaded === true, null, { timeout: 10_000 });
    // instantiateStreaming rejects unless the response is application/wasm.
    const exportsCount = await page.evaluate(async () => {
      const { instance } = await WebAssembly.instantiateStreaming(fetch('pkg/empty.wasm'));
      return Object.keys(instance.exports).length;
    });
    assert.equal(exportsCount, 0, log.join('\n'));
  } finally {
    await browser.close();
  }
});

test('browser: WebGPU adapter (SwiftShader) runs a compute shader', async () => {
  const browser = await launchBrowser({ webgpu: true });
  try {
    const { page, log } = await newLoggedPage(browser);
    await page.goto(fixture.url);
    const result = await page.evaluate(async () => {
      if (!navigator.gpu) return { error: 'navigator.gpu is undefined' };
      const adapter = await navigator.gpu.requestAdapter();
      if (!adapter) return { error: 'requestAdapter() returned null' };
      const device = await adapter.requestDevice();
      const module = device.createShaderModule({
        code: `@group(0) @binding(0) var<storage, read_write> o: array<u32>;
               @compute @workgroup_size(64)
               fn main(@builtin(global_invocation_id) g: vec3u) { o[g.x] = g.x * 3u; }`,
      });
      const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
      const n = 256;
      const buf = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
      const readback = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const bindGroup = device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [{ binding: 0, resource: { buffer: buf } }],
      });
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(n / 64);
      pass.end();
      enc.copyBufferToBuffer(buf, 0, readback, 0, n * 4);
      device.queue.submit([enc.finish()]);
      await readback.mapAsync(GPUMapMode.READ);
      const out = Array.from(new Uint32Array(readback.getMappedRange()));
      return { architecture: adapter.info?.architecture, ok: out.every((v, i) => v === i * 3) };
    });
    assert.equal(result.error, undefined, `${result.error}\n${log.join('\n')}`);
    assert.equal(result.ok, true);
  } finally {
    await browser.close();
  }
});

test('browser: launchBrowser({ webgpu: false }) gives no adapter; removeNavigatorGpu hides the API', async () => {
  const browser = await launchBrowser({ webgpu: false });
  try {
    const { page } = await newLoggedPage(browser);
    await page.goto(fixture.url);
    const adapter = await page.evaluate(async () => (navigator.gpu ? String(await navigator.gpu.requestAdapter()) : 'no api'));
    // Chromium keeps navigator.gpu but finds no adapter.
    assert.ok(adapter === 'null' || adapter === 'no api', `unexpected adapter: ${adapter}`);

    const { page: bare } = await newLoggedPage(browser, { removeNavigatorGpu: true });
    await bare.goto(fixture.url);
    assert.deepEqual(await bare.evaluate(() => [typeof navigator.gpu, 'gpu' in navigator]), ['undefined', false]);
  } finally {
    await browser.close();
  }
});

test('a download abandoned mid-file closes the file: the server keeps no descriptor for it', async () => {
  const big = path.join(fixtureDir, 'big.bin');
  await writeFile(big, Buffer.alloc(8 << 20, 1));
  const open = async () => (await import('node:fs/promises')).readdir('/proc/self/fd').then((fds) => fds.length);
  const before = await open();
  for (let k = 0; k < 40; k++) {
    await new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: fixture.port, path: '/big.bin' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', resolve);
    });
  }
  // The server sees each reader go away a moment later.
  let now = await open();
  for (let k = 0; k < 50 && now > before + 5; k++) {
    await new Promise((r) => setTimeout(r, 100));
    now = await open();
  }
  assert.ok(now <= before + 5, `40 abandoned downloads left ${now - before} descriptors open`);
});
