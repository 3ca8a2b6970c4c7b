// Downloads of what the playground computed: the flags, the last run, the scan
// trace and the tile trace, each as JSON (every field, typed arrays as arrays)
// and as CSV (one row per element). The files are made from the very objects
// the panels show, read back from the GPU (or the CPU reference).

import { h, hex32 } from '../../core/dom.js';
import { lazySheet } from './sheet.js';
import { oneStop } from './roving.js';
import { csvChunks, jsonChunks } from './chunks.js';
import { layout } from '../../core/layout.js';
import css from './exports.css';

export { csvChunks, toJson } from './chunks.js';

/** The download buttons' styles. */
export const exportSheet = lazySheet(css);

const FORMATS = ['json', 'csv'];

/** "Download: label JSON CSV · label JSON CSV" for `items` `[[what, label]]`: a toolbar, one tab stop, arrows inside. */
export function exportButtons(t, items, onExport) {
  const bar = h(
    'div',
    { class: 'exports', role: 'toolbar', 'aria-label': t('export.title') },
    h('span', { class: 'exports-title' }, t('export.title')),
    items.map(([what, label]) =>
      h(
        'span',
        { class: 'export-group' },
        h('span', {}, label),
        FORMATS.map((format) =>
          h(
            'button',
            { type: 'button', class: 'link-button', 'data-testid': `export-${what}-${format}`, 'aria-label': `${label} ${format.toUpperCase()}`, onclick: () => onExport(what, format) },
            format.toUpperCase(),
          ),
        ),
      ),
    ),
  );
  oneStop(bar, 'button');
  return bar;
}

/** The longest the page's main thread works on a file before it lets the page go on. */
const SLICE_MS = 25;

/** Saves the parts of a file (Blobs) as `filename` through a link inside `root` (the element's shadow root: nothing is added to the host page). */
function download(root, filename, parts, type) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = h('a', { href: url, download: filename, hidden: true });
  root.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `jsonChunks(value)` and its closing newline. */
function* jsonFile(value) {
  yield* jsonChunks(value);
  yield '\n';
}

/** The files for `what` (`flags`, `result`, `scan`, `tiles`) from `data`: `{ name, json(), csv() }`, each a chunk generator. */
export function exportFiles(what, data) {
  switch (what) {
    case 'flags': {
      const { flags, preset } = data;
      return {
        name: 'flags',
        json: () => jsonFile({ n: flags.length, preset, flags }),
        csv: () => csvChunks(['i', 'flag'], flags.length, (i) => `${i},${flags[i]}`),
      };
    }
    case 'result': {
      const r = data;
      const { image, imageWidth, imageHeight, ...run } = r;
      return {
        name: `result-${r.method}`,
        json: () => jsonFile(hexHash(run)),
        csv: () => csvChunks(['slot', 'index'], r.indices.length, (slot) => `${slot},${r.indices[slot]}`),
      };
    }
    case 'scan': {
      const trace = data;
      const steps = trace.levels[0]?.steps.map((_, k) => `tmp_${k}`) ?? [];
      // The rows of every level, one after the other: row k is level l's element k - start[l].
      const starts = [];
      let total = 0;
      for (const level of trace.levels) {
        starts.push(total);
        total += level.input.length;
      }
      const row = (k) => {
        let l = starts.length - 1;
        while (starts[l] > k) l--;
        const level = trace.levels[l];
        const i = k - starts[l];
        return [l, i, level.input[i], ...level.steps.map((s) => s[i]), level.blockPrefix[i], level.prefix[i]].join(',');
      };
      return { name: 'scan-trace', json: () => jsonFile(hexHash(trace)), csv: () => csvChunks(['level', 'i', 'input', ...steps, 'block_prefix', 'prefix'], total, row) };
    }
    case 'atomic':
    case 'aggregated': {
      const trace = data;
      const slot = (i) => (trace.slots[i] === layout.noSlot ? '' : trace.slots[i]);
      return { name: `slot-trace-${what}`, json: () => jsonFile(hexHash(trace)), csv: () => csvChunks(['i', 'flag', 'slot'], trace.flags.length, (i) => `${i},${trace.flags[i]},${slot(i)}`) };
    }
    case 'packed-scan': {
      const trace = data;
      const slotOf = new Map();
      trace.indices.forEach((index, k) => {
        slotOf.set(index, k);
      });
      return {
        name: 'packed-trace',
        json: () => jsonFile(hexHash(trace)),
        csv: () => csvChunks(['i', 'flag', 'bit', 'slot'], trace.flags.length, (i) => `${i},${trace.flags[i]},${(trace.bits[i >> 5] >>> (i & 31)) & 1},${slotOf.get(i) ?? ''}`),
      };
    }
    case 'tiles': {
      const trace = data;
      const T = trace.tiles;
      return {
        name: `tile-trace-${trace.method}`,
        json: () => jsonFile(trace),
        csv: () =>
          csvChunks(['tile', 'first_flag', 'flags', 'aggregate', 'exclusive', 'inclusive', 'status'], T.aggregate.length, (t) =>
            [t, T.firstFlag[t], T.flags[t], T.aggregate[t], T.exclusive[t], T.inclusive[t], T.status[t]].join(','),
          ),
      };
    }
    default:
      throw new Error(`nothing to export as ${what}`);
  }
}

/** `o` with its FNV-1a `hash` written as the page shows it (eight hex digits), not as a number. */
function hexHash(o) {
  return o.hash === undefined ? o : { ...o, hash: hex32(o.hash) };
}

/** Lets the page paint and answer between the chunks of a file. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Downloads `files[format]()` (`{ name, json(), csv() }`) as
 * `compaction-<name>.<format>` from inside `root`, a chunk at a time, a progress
 * line while it takes long; nothing to download is said in the status.
 * @param {{ alert: Function, progress: Function }} session  @param {Function} t
 */
export async function save(root, files, format, session, t) {
  if (!files) {
    session.alert('export', t('export.nothing'));
    return;
  }
  const filename = `compaction-${files.name}.${format}`;
  const done = session.progress(t('export.preparing', { file: filename }), 300);
  try {
    const parts = [];
    let text = '';
    let slice = performance.now();
    for (const chunk of files[format]()) {
      text += chunk;
      // Blobs of about 1 MB: the text of a chunk is let go as soon as it is in one.
      if (text.length >= 1 << 20) {
        parts.push(new Blob([text]));
        text = '';
      }
      if (performance.now() - slice > SLICE_MS) {
        await pause();
        slice = performance.now();
      }
    }
    parts.push(new Blob([text]));
    download(root, filename, parts, format === 'json' ? 'application/json' : 'text/csv');
  } catch (e) {
    session.alert('export', t('export.failed', { file: filename, error: e?.message ?? e }));
  } finally {
    done();
  }
}
