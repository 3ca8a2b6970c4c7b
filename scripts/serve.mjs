#!/usr/bin/env node
// Dependency-free static file server for the playground.
//
//   node scripts/serve.mjs            -> http://127.0.0.1:8080/
//   PORT=9000 HOST=0.0.0.0 node scripts/serve.mjs
//   node scripts/serve.mjs --check    only check that the port is free (exit 0/1)
//
// From the repository it serves what the page needs and nothing else:
// index.html, www/ and dist/ (never .git, target, node_modules or any dotfile).
// It answers only requests addressed to itself (the Host header: no DNS
// rebinding), never redirects off its own origin, and sends the page's CSP and
// frame-ancestors as headers (embed.html may be framed anywhere; the rest only by
// itself). Any other root (the tests' sites) is served as it is, dotfiles excepted.
//
// Also usable as a module (the browser tests do this):
//   import { startServer } from '../scripts/serve.mjs';
//   const { server, port, url } = await startServer({ port: 0 });
//   ...
//   await new Promise((r) => server.close(r));

import { createServer } from 'node:http';
import { createReadStream, promises as fsp } from 'node:fs';
import { pipeline } from 'node:stream';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (this file lives in <root>/scripts/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Extension -> Content-Type. Anything else is served as application/octet-stream. */
export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.wgsl': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** What the repository root serves: the page, its modules, the built package. */
export const REPO_PATHS = ['index.html', 'www/', 'dist/'];

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

/** Security headers for a file: the CSP and who may frame it. */
function pageHeaders(filePath) {
  const embed = path.basename(filePath) === 'embed.html';
  const html = /\.html?$/i.test(filePath);
  return {
    'Referrer-Policy': 'no-referrer',
    ...(html ? { 'Content-Security-Policy': `${CSP}; frame-ancestors ${embed ? '*' : "'self'"}` } : {}),
    ...(html && !embed ? { 'X-Frame-Options': 'SAMEORIGIN' } : {}),
  };
}

/** Whether `host` (the Host header) names this server: a loopback name, an IP literal, or `extra`. */
export function hostAllowed(host, extra = []) {
  if (!host) return false;
  const name = host
    .replace(/:\d+$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost') || extra.includes(name)) return true;
  // An address, not a name a DNS rebinding could point here (an IPv6 literal has
  // colons: `cafe` or `facade` are names).
  return /^(\d{1,3}\.){3}\d{1,3}$/.test(name) || (name.includes(':') && /^[0-9a-f:.]+$/.test(name));
}

export function mimeTypeFor(filePath) {
  return MIME_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

function isInside(root, candidate) {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function sendText(req, res, status, message, extraHeaders = {}) {
  const body = `${message}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache',
    // An error page quotes the path it was asked for: never sniffed as HTML.
    'X-Content-Type-Options': 'nosniff',
    ...extraHeaders,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function handle({ root, realRoot, allow, hosts }, req, res) {
  if (!hostAllowed(req.headers.host, hosts)) {
    sendText(req, res, 421, 'Misdirected Request: this server answers only for its own address');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendText(req, res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
    return;
  }

  // Only the path part of the request target; the query string is ignored.
  const rawPath = (req.url ?? '/').split(/[?#]/, 1)[0];
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    sendText(req, res, 400, 'Bad Request: malformed URL');
    return;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) {
    sendText(req, res, 400, 'Bad Request');
    return;
  }
  // Refuse any `..` segment outright rather than silently normalising it away.
  const segments = decoded.split('/');
  if (segments.includes('..')) {
    sendText(req, res, 403, 'Forbidden: path traversal');
    return;
  }
  // One leading slash, no empty segments: `//www` is `/www`, never another host.
  const clean = `/${segments.filter(Boolean).join('/')}`;
  const relative = clean.slice(1);
  if (segments.some((s) => s.startsWith('.')) || (allow && !allowed(relative, allow))) {
    sendText(req, res, 404, `Not Found: ${clean}`);
    return;
  }

  let filePath = path.resolve(root, `.${clean}`);
  if (!isInside(root, filePath)) {
    sendText(req, res, 403, 'Forbidden');
    return;
  }

  let stat;
  try {
    stat = await fsp.stat(filePath);
    if (stat.isDirectory()) {
      const canonical = clean === '/' ? '/' : `${clean}/`;
      if (rawPath !== canonical) {
        sendText(req, res, 301, 'Moved Permanently', { Location: canonical });
        return;
      }
      filePath = path.join(filePath, 'index.html');
      stat = await fsp.stat(filePath);
    }
    // Symlinks must not lead out of the root, nor inside it to a file that is not served.
    const real = await fsp.realpath(filePath);
    const realRelative = path.relative(realRoot, real).split(path.sep).join('/');
    if (!isInside(realRoot, real) || (allow && (!allowed(realRelative, allow) || realRelative.split('/').some((s) => s.startsWith('.'))))) {
      sendText(req, res, 403, 'Forbidden');
      return;
    }
  } catch {
    sendText(req, res, 404, `Not Found: ${rawPath}`);
    return;
  }
  if (!stat.isFile()) {
    sendText(req, res, 404, `Not Found: ${rawPath}`);
    return;
  }

  res.writeHead(200, {
    'Content-Type': mimeTypeFor(filePath),
    'Content-Length': stat.size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    // The playground's own pages; another root (a test's docs site) sets its own policy.
    ...(allow ? pageHeaders(filePath) : {}),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // pipeline, not pipe: a reader that goes away mid-file (an abandoned
  // download) closes the file too, where pipe kept its descriptor open for good.
  pipeline(createReadStream(filePath), res, () => {});
}

/** Whether a path relative to the root is one of `allow` (files, or folders ending in /). */
function allowed(relative, allow) {
  if (relative === '') return true; // the index
  return allow.some((a) => (a.endsWith('/') ? relative === a.slice(0, -1) || relative.startsWith(a) : relative === a));
}

/**
 * Start the static server.
 * @param {{port?: number, host?: string, root?: string, allow?: string[]}} [options]
 *   port 0 picks a free port; host defaults to 127.0.0.1; root to the repository
 *   root, where only REPO_PATHS are served, plus `allow` (e.g. the tests' fixtures).
 * @returns {Promise<{server: import('node:http').Server, port: number, host: string, url: string}>}
 *   Rejects with the listen error (e.g. code EADDRINUSE) if the port cannot be bound.
 */
export async function startServer({ port = 8080, host = '127.0.0.1', root = REPO_ROOT, allow = [] } = {}) {
  const absRoot = path.resolve(root);
  const realRoot = await fsp.realpath(absRoot);
  const site = {
    root: absRoot,
    realRoot,
    allow: absRoot === path.resolve(REPO_ROOT) ? [...REPO_PATHS, ...allow] : null,
    hosts: [host.toLowerCase()],
  };
  const server = createServer((req, res) => {
    handle(site, req, res).catch((err) => {
      if (!res.headersSent) sendText(req, res, 500, 'Internal Server Error');
      else res.destroy();
      console.error(`serve: ${req.url}: ${err?.stack ?? err}`);
    });
  });
  await new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
  const actualPort = server.address().port;
  const urlHost = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return { server, port: actualPort, host, url: `http://${urlHost}:${actualPort}/` };
}

async function main() {
  const rawPort = process.env.PORT ?? '8080';
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: PORT must be an integer 0-65535, got ${JSON.stringify(rawPort)}`);
    process.exit(2);
  }
  const host = process.env.HOST || '127.0.0.1';
  let started;
  try {
    started = await startServer({ port, host });
  } catch (err) {
    if (err?.code === 'EADDRINUSE') {
      console.error(`serve: port ${port} on ${host} is already in use (another server running?). Stop it or pick another port, e.g. PORT=8081 npm start`);
    } else if (err?.code === 'EACCES') {
      console.error(`serve: not allowed to listen on ${host}:${port}; try a port above 1024, e.g. PORT=8081`);
    } else {
      console.error(`serve: cannot listen on ${host}:${port}: ${err?.message ?? err}`);
    }
    process.exit(1);
  }
  if (process.argv.includes('--check')) {
    started.server.close();
    return;
  }
  console.log(`Serving ${REPO_ROOT} on ${host}:${started.port}`);
  console.log(`Playground: http://localhost:${started.port}/`);
  console.log(`Built package (dist/, what docs sites copy): http://localhost:${started.port}/dist/`);
  console.log('Press Ctrl+C to stop.');
  const stop = () => {
    started.server.close(() => process.exit(0));
    started.server.closeAllConnections(); // browsers keep connections open
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main();
}
