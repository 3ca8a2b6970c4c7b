// Accessibility helpers of the browser tests (not a test file): axe-core run
// in the page (it reaches into the element's open shadow root), contrast
// ratios computed from computed styles, the live regions a step changes, and
// the pages in the three states the audits cover.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { REPO_ROOT } from './browser.mjs';
import { ready } from './helpers.mjs';

/** The rule sets the audits run: `wcag21a` is the one with label-content-name-mismatch. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

let axeSource = null;

/** axe's violations of impact serious or critical in the page, one line each (with up to three targets). */
export async function seriousViolations(page) {
  axeSource ??= await readFile(path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  // Evaluated through the driver: the pages' CSP forbids inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    // What the page does once a frame is laid out (a scroll box joins the tab
    // order when its content overflows it) happens first, however loaded the machine.
    for (let k = 0; k < 2; k++) await new Promise((r) => requestAnimationFrame(r));
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.nodes
            .slice(0, 3)
            .map((n) => `${n.target.join(' >>> ')}: ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}`)
            .join(' | ')}`,
      );
  }, AXE_TAGS);
}

/**
 * In the page: the contrast failures of every playground: text under 4.5:1
 * (3:1 when large) against the background it is drawn on, and the stepper's
 * indicators (read and write outlines, arrows, look-back arcs) under 3:1.
 * Colours come from computed styles, alpha and opacity composited.
 */
export function contrastFailures() {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/) ?? c.match(/color\(srgb ([^)]+)\)/);
    if (!m) return null;
    const parts = m[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    const scale = c.startsWith('color(') ? 255 : 1;
    return { r: parts[0] * scale, g: parts[1] * scale, b: parts[2] * scale, a: parts.length > 3 ? parts[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const lum = ({ r, g, b }) => {
    const f = (v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (x, y) => {
    const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
    return (a + 0.05) / (b + 0.05);
  };
  const up = (el) => el.parentElement ?? el.getRootNode().host ?? null;
  /** The colour behind `el`: its and its ancestors' backgrounds, composited (the page's white at the end). */
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = up(e)) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) {
        layers.push(c);
        if (c.a >= 1) break;
      }
    }
    return layers.reduceRight((acc, c) => over(c, acc), { r: 255, g: 255, b: 255, a: 1 });
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = up(e)) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const hex = ({ r, g, b }) => `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  const failures = [];
  const check = (what, fg, bg, need) => {
    const r = ratio(fg, bg);
    if (r < need) failures.push(`${what}: ${r.toFixed(2)}:1 < ${need}:1 (${hex(fg)} on ${hex(bg)})`);
  };
  for (const host of document.querySelectorAll('compaction-playground')) {
    const root = host.shadowRoot;
    const theme = root.querySelector('.pg')?.dataset.theme ?? '?';
    for (const el of root.querySelectorAll('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || !el.checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      if (el.closest('[aria-hidden="true"], .visually-hidden, svg') || el.closest('button, input, select')?.disabled) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const cs = getComputedStyle(el);
      const bg = background(el);
      const fg = parse(cs.color);
      if (!fg) continue;
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      const name = `${theme} text "${el.textContent.trim().slice(0, 20)}" (${el.localName}.${[...el.classList].join('.')})`;
      check(name, over({ ...fg, a: fg.a * opacity(el) }, bg), bg, large ? 3 : 4.5);
    }
    const indicator = (selector, property) => {
      for (const el of root.querySelectorAll(selector)) {
        const c = parse(getComputedStyle(el)[property]);
        if (!c) continue;
        const behind = background(el.closest('.diagram') ?? el);
        check(`${theme} ${selector} ${property}`, over({ ...c, a: c.a * opacity(el) }, behind), behind, 3);
      }
    };
    indicator('.cell.reads', 'outlineColor');
    indicator('.cell.writes', 'outlineColor');
    indicator('path.arrow', 'stroke');
    indicator('.arrowhead', 'fill');
    indicator('.tile-arc', 'stroke');
  }
  return failures;
}

/** The stepper's live regions and every other one inside the playgrounds whose text changes while `action` runs. */
export async function announcementsDuring(page, action, settle = 300) {
  await page.evaluate(() => {
    window.__spoken = [];
    const live = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const l = e.getAttribute?.('aria-live');
        if (l) return l !== 'off' ? e : null;
        const role = e.getAttribute?.('role');
        if (role === 'status' || role === 'alert' || role === 'log' || e.localName === 'output') return e;
      }
      return null;
    };
    window.__observers = [...document.querySelectorAll('compaction-playground')].map((host) => {
      const o = new MutationObserver((records) => {
        for (const r of records) {
          const target = r.target.nodeType === 3 ? r.target.parentElement : r.target;
          const region = live(target);
          if (region?.textContent.trim()) window.__spoken.push({ testid: region.dataset.testid ?? region.className, text: region.textContent });
        }
      });
      o.observe(host.shadowRoot, { subtree: true, childList: true, characterData: true });
      return o;
    });
  });
  await action();
  await page.waitForTimeout(settle);
  return page.evaluate(() => {
    for (const o of window.__observers) o.disconnect();
    // One change of a region's text may come as several records: one entry per distinct text.
    const seen = new Map();
    for (const s of window.__spoken) seen.set(`${s.testid}\n${s.text}`, s);
    return [...seen.values()];
  });
}

/** Checks `method`'s radio where the page has it and waits for the run; false where it has none. */
async function choose(page, method) {
  const radio = await page.$(`[data-testid="method-${method}"]`);
  if (!radio) return false;
  await radio.check();
  await ready(page);
  return true;
}

/** The states the audits cover, in order, on a page opened and ready: initial, after a run, mid-way through the stepper, and the tile view where the page has the method. */
export async function* auditStates(page) {
  yield 'initial';
  await choose(page, 'atomic');
  yield 'after a run';
  await choose(page, 'scan');
  const forward = await page.$('[data-testid="step-forward"]');
  if (forward) {
    for (let k = 0; k < 3 && (await forward.isEnabled()); k++) await forward.click();
    // The inspector's read and write outlines, shown for the focused cell.
    const cell = await page.$('[data-testid="diagram"] [data-testid="cell"][data-row]:not([data-row="li"])');
    await cell?.focus();
  }
  await ready(page);
  yield 'mid-way through the stepper';
  if (await choose(page, 'lookback')) {
    const tiles = await page.$('[data-testid="tiles-step-forward"]');
    if (tiles && (await tiles.isEnabled())) await tiles.click();
    await ready(page);
    yield 'the tile view';
  }
}

/** Pages at every array size: 10 flags, past one block (the block chooser), past MAX_CELLS (the strip), the tile view. */
export const REFLOW_PAGES = [
  'index.html#flags=1001101001&method=scan',
  'index.html#preset=random&n=1000&method=scan',
  'index.html#preset=random&n=100000&method=lookback',
  'embed.html#preset=random&n=1000&method=scan&panels=editor,result,scan',
];

/** In the page: how far the document scrolls sideways, and the widest boxes that stick out unclipped. */
export function sideways() {
  const w = document.documentElement.clientWidth;
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const b = el.getBoundingClientRect();
      if (b.right > w + 0.5 && el.checkVisibility()) {
        let clipped = false;
        for (let p = el.parentElement; p && !clipped; p = p.parentElement) clipped = getComputedStyle(p).overflowX !== 'visible';
        if (!clipped) out.push(`${el.localName}.${[...el.classList].join('.')} to ${Math.round(b.right)}px`);
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return { by: document.documentElement.scrollWidth - w, boxes: out.slice(0, 6) };
}

/** Writes docs/guide/two.html into `site` (e2e/site.mjs): a host page with two playgrounds; returns its URL. */
export async function twoElementHost(site) {
  await site.write(
    'docs/guide/two.html',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Two playgrounds</title>
<script type="module" src="../assets/playground/compaction-playground.js"></script></head>
<body><main><h1>Two playgrounds</h1>
<compaction-playground flags="1001101001" method="scan" panels="editor result scan" loading="eager"></compaction-playground>
<compaction-playground flags="0110" method="scan" panels="editor result scan code" loading="eager"></compaction-playground>
</main></body></html>`,
  );
  return site.url('guide/two.html');
}
