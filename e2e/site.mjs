// A documentation site of someone else's, made in a temporary folder for the
// embedding tests: the host pages of e2e/fixtures/host/ with the built dist/
// copied under a sub-path (/docs/assets/playground/), served alone by the plain
// static server. (Not a test file.)

import { cp, mkdtemp, mkdir, readFile, rm, writeFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startServer, REPO_ROOT } from './browser.mjs';

export const DIST = path.join(REPO_ROOT, 'dist');
const HOST = path.join(REPO_ROOT, 'e2e', 'fixtures', 'host');
/** Where the site keeps the playground: any sub-path works. */
export const ASSETS = 'docs/assets/playground';

/** The host page without the playgrounds: the same markup, no element, no module. */
export function withoutPlaygrounds(html) {
  return html.replace(/<compaction-playground[^>]*><\/compaction-playground>\s*/g, '').replace(/<script type="module"[^>]*><\/script>\s*/g, '');
}

/**
 * Makes the site and serves it. Returns `{ url(page), dir, write(rel, text), close() }`:
 * `url('guide/index.html')` is the host page, `url('guide/bare.html')` the same without playgrounds.
 */
export async function startSite() {
  await stat(path.join(DIST, 'compaction-playground.js')).catch(() => {
    throw new Error('dist/ is missing: the tests run after `npm run build` (npm test does it)');
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'compaction-site-'));
  await mkdir(path.join(dir, 'docs', 'guide'), { recursive: true });
  await cp(DIST, path.join(dir, ASSETS), { recursive: true });
  for (const f of ['theme.css', 'host.js']) await cp(path.join(HOST, f), path.join(dir, 'docs', f));
  const guide = await readFile(path.join(HOST, 'guide.html'), 'utf8');
  await writeFile(path.join(dir, 'docs', 'guide', 'index.html'), guide);
  await writeFile(path.join(dir, 'docs', 'guide', 'bare.html'), withoutPlaygrounds(guide));
  const server = await startServer({ port: 0, root: dir });
  return {
    dir,
    url: (page) => `${server.url}docs/${page}`,
    assetsUrl: `${server.url}${ASSETS}/`,
    write: (rel, text) => writeFile(path.join(dir, rel), text),
    async close() {
      server.server.closeAllConnections();
      await new Promise((r) => server.server.close(r));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
