#!/usr/bin/env node
// Dependency-free static file server for the repository root.
//
//   node scripts/serve.mjs            -> http://127.0.0.1:8080/
//   PORT=9000 HOST=0.0.0.0 node scripts/serve.mjs
//   node scripts/serve.mjs --check    only check that the port is free (exit 0/1)
//
// Also usable as a module (the browser tests do this):
//   import { startServer } from '../scripts/serve.mjs';
//   const { server, port, url } = await startServer({ port: 0 });
//   ...
//   await new Promise((r) => server.close(r));

import { createServer } from 'node:http';
import { createReadStream, promises as fsp } from 'node:fs';
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
    ...extraHeaders,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function handle(root, realRoot, req, res) {
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
  if (decoded.split('/').includes('..')) {
    sendText(req, res, 403, 'Forbidden: path traversal');
    return;
  }

  let filePath = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (!isInside(root, filePath)) {
    sendText(req, res, 403, 'Forbidden');
    return;
  }

  let stat;
  try {
    stat = await fsp.stat(filePath);
    if (stat.isDirectory()) {
      if (!rawPath.endsWith('/')) {
        sendText(req, res, 301, 'Moved Permanently', { Location: `${rawPath}/` });
        return;
      }
      filePath = path.join(filePath, 'index.html');
      stat = await fsp.stat(filePath);
    }
    // Symlinks must not lead out of the root either.
    const real = await fsp.realpath(filePath);
    if (!isInside(realRoot, real)) {
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
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(filePath);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/**
 * Start the static server.
 * @param {{port?: number, host?: string, root?: string}} [options]
 *   port 0 picks a free port; host defaults to 127.0.0.1; root to the repository root.
 * @returns {Promise<{server: import('node:http').Server, port: number, host: string, url: string}>}
 *   Rejects with the listen error (e.g. code EADDRINUSE) if the port cannot be bound.
 */
export async function startServer({ port = 8080, host = '127.0.0.1', root = REPO_ROOT } = {}) {
  const absRoot = path.resolve(root);
  const realRoot = await fsp.realpath(absRoot);
  const server = createServer((req, res) => {
    handle(absRoot, realRoot, req, res).catch((err) => {
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
      console.error(
        `serve: port ${port} on ${host} is already in use (another server running?). ` +
          `Stop it or pick another port, e.g. PORT=8081 npm start`,
      );
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
