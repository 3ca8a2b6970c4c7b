// Downloads of what the playground computed: the flags, the last run, the scan
// trace and the tile trace, each as JSON (every field, typed arrays as arrays)
// and as CSV (one row per element). The files are made from the very objects
// the panels show, read back from the GPU (or the CPU reference).

import { h } from '../../core/dom.js';
import { lazySheet } from './sheet.js';
import { oneStop } from './roving.js';
import css from './exports.css';

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

/** Saves `text` as `filename` through a link inside `root` (the element's shadow root: nothing is added to the host page). */
export function download(root, filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: url, download: filename, hidden: true });
  root.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** JSON with typed arrays as plain arrays. */
export function toJson(value) {
  return `${JSON.stringify(value, (_, v) => (ArrayBuffer.isView(v) ? Array.from(/** @type {any} */ (v)) : v), 2)}\n`;
}

function csv(header, rows) {
  return `${[header, ...rows].map((r) => r.join(',')).join('\n')}\n`;
}

/** The files for `what` (`flags`, `result`, `scan`, `tiles`) from `data`: `{ name, json, csv }`. */
export function exportFiles(what, data) {
  switch (what) {
    case 'flags': {
      const { flags, preset } = data;
      return {
        name: 'flags',
        json: toJson({ n: flags.length, preset, flags }),
        csv: csv(
          ['i', 'flag'],
          Array.from(flags, (f, i) => [i, f]),
        ),
      };
    }
    case 'result': {
      const r = data;
      const { image, imageWidth, imageHeight, ...run } = r;
      return {
        name: `result-${r.method}`,
        json: toJson(run),
        csv: csv(
          ['slot', 'index'],
          Array.from(r.indices, (index, slot) => [slot, index]),
        ),
      };
    }
    case 'scan': {
      const trace = data;
      const rows = [];
      trace.levels.forEach((level, l) => {
        for (let i = 0; i < level.input.length; i++) {
          rows.push([l, i, level.input[i], ...level.steps.map((s) => s[i]), level.blockPrefix[i], level.prefix[i]]);
        }
      });
      const steps = trace.levels[0]?.steps.map((_, k) => `tmp_${k}`) ?? [];
      return { name: 'scan-trace', json: toJson(trace), csv: csv(['level', 'i', 'input', ...steps, 'block_prefix', 'prefix'], rows) };
    }
    case 'tiles': {
      const trace = data;
      const T = trace.tiles;
      const rows = Array.from(T.aggregate, (_, t) => [t, T.firstFlag[t], T.flags[t], T.aggregate[t], T.exclusive[t], T.inclusive[t], T.status[t]]);
      return {
        name: `tile-trace-${trace.method}`,
        json: toJson(trace),
        csv: csv(['tile', 'first_flag', 'flags', 'aggregate', 'exclusive', 'inclusive', 'status'], rows),
      };
    }
    default:
      throw new Error(`nothing to export as ${what}`);
  }
}

/**
 * Downloads `files[format]` (`{ name, json, csv }`) as `compaction-<name>.<format>`
 * from inside `root`; nothing to download is said through `alert`.
 */
export function save(root, files, format, alert) {
  if (!files) {
    alert();
    return;
  }
  const type = format === 'json' ? 'application/json' : 'text/csv';
  download(root, `compaction-${files.name}.${format}`, files[format], type);
}
