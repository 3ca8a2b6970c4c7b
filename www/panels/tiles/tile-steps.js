// The tile view's model: turns Playground.tileTrace() (tile states read back from
// the GPU, or the CPU reference; look-back chains simulated on the CPU) into
// steps, and each step into tiles with their states at that moment, the arcs of
// a look-back, the output runs and one paragraph saying what happens and why.
// Pure: no DOM here.

import { layout } from '../../core/layout.js';

/** Where each kind of tile step is in the WGSL, for the look-back methods and for tile-atomic. */
export const TILE_CODE = {
  tiles: { module: 'tiles', fn: 'take_ticket' },
  publish: { module: 'tiles', fn: 'publish_aggregate' },
  lookback: { module: 'tiles', fn: 'look_back' },
  late: { module: 'tiles', fn: 'look_back_to_base', focus: ['blocked_tile()', 'count_past_blocked('] },
  inclusive: { module: 'tiles', fn: 'finish_look_back', focus: ['encode_state(INCLUSIVE'] },
  scatter: { module: 'tiles', fn: 'write_out' },
  result: { module: 'tiles', fn: 'finish_look_back', focus: ['atomicStore(&count[0]', 'indirect[1]'] },
  count: { module: 'tiles', fn: 'tile_atomic', focus: ['scan_rows('] },
  claim: { module: 'tiles', fn: 'tile_atomic', focus: ['atomicAdd(&count[0]'] },
};

/** The tile-atomic's result comes from its own indirect_args dispatch. */
export function tileCode(kind, method) {
  if (method === 'tile-atomic' && kind === 'result') return { module: 'indirect_args', fn: 'indirect_args' };
  if (method === 'tile-atomic' && kind === 'scatter') return { module: 'tiles', fn: 'tile_atomic', focus: ['write_rows('] };
  return TILE_CODE[kind] ?? null;
}

/** Tiles shown at once. */
export const WINDOW = 8;
/** @param {number} code  what a look-back read, by its code from 1 (layout's chainSeen) */
const seen = (code) => layout.chainSeen[code - 1] ?? '';
/** `tiles.status` codes, as read back from the tile states (0, 1, 2). */
const status = (/** @type {number} */ code) => layout.tileStatus[code] ?? 'invalid';

export function tileCount(trace) {
  return trace.tiles.aggregate.length;
}

/** The window of tiles containing tile `first` (windows start at multiples of WINDOW). */
export function windowAt(trace, first) {
  const tiles = tileCount(trace);
  const start = Math.max(0, Math.min(Math.floor(first / WINDOW) * WINDOW, Math.floor(Math.max(tiles - 1, 0) / WINDOW) * WINDOW));
  return { start, end: Math.min(tiles, start + WINDOW), tiles };
}

/** Tile `t`'s look-back as the CPU simulated it, nearest predecessor first. */
export function chainOf(trace, t) {
  const c = trace.chain;
  const links = [];
  let running = 0;
  for (let k = c.start[t]; k < c.start[t + 1]; k++) {
    running += c.value[k];
    links.push({ tile: c.tile[k], seen: seen(c.seen[k]), value: c.value[k], running });
  }
  return links;
}

const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);

/** The steps for the tiles of `win`. */
export function planTileSteps(trace, win) {
  const atomic = trace.method === 'tile-atomic';
  /** @type {{ kind: string, wave?: number, tile?: number, tiles?: number[] }[]} */
  const steps = [{ kind: 'tiles', wave: win.tiles === 0 || atomic ? 0 : trace.chain.wave[win.start] }];
  if (win.tiles === 0) return steps;
  if (atomic) {
    steps.push({ kind: 'count' }, { kind: 'claim' }, { kind: 'scatter' }, { kind: 'result' });
    return steps;
  }
  const { wave, late } = trace.chain;
  const waves = [...new Set(range(win.start, win.end).map((t) => wave[t]))];
  for (const w of waves) {
    const mine = range(win.start, win.end).filter((t) => wave[t] === w);
    const running = mine.filter((t) => !late[t]);
    steps.push({ kind: 'publish', wave: w, tiles: running });
    for (const t of running) if (t > 0) steps.push({ kind: 'lookback', wave: w, tile: t });
    if (running.length) steps.push({ kind: 'inclusive', wave: w, tiles: running });
    for (const t of mine) if (late[t]) steps.push({ kind: 'late', wave: w, tile: t });
  }
  steps.push({ kind: 'scatter' }, { kind: 'result' });
  return steps;
}

/** Where a step sits in the simulated timeline: the wave running, and how far it got. */
function stage(step) {
  switch (step.kind) {
    case 'tiles':
      // Before the window's first wave starts: earlier waves are done.
      return { wave: step.wave, done: false, started: false };
    case 'publish':
    case 'lookback':
      return { wave: step.wave, done: false };
    case 'inclusive':
      return { wave: step.wave, done: true, lateDone: false };
    case 'late':
      return { wave: step.wave, done: true, lateDone: true };
    default:
      return { wave: Infinity, done: true };
  }
}

/** Tile `u`'s published state at `step` (look-back methods): `{ status, value }`. */
function stateAt(trace, u, step) {
  const { wave, late } = trace.chain;
  const s = stage(step);
  // After its wave: what the tile's state word said when the run was read back.
  const final = { status: status(trace.tiles.status[u]), value: trace.tiles.inclusive[u] };
  if (wave[u] < s.wave) return final;
  if (wave[u] > s.wave || s.started === false) return { status: 'invalid', value: null };
  if (late[u]) return s.lateDone ? final : { status: 'invalid', value: null };
  if (s.done || u === 0) return final;
  return { status: 'aggregate', value: trace.tiles.aggregate[u] };
}

/** Whether tile `u` knows its exclusive prefix at `step`. */
function knowsPrefix(trace, u, step, steps) {
  if (trace.method === 'tile-atomic') return !['tiles', 'count'].includes(step.kind);
  if (stateAt(trace, u, step).status === 'inclusive') return true;
  // Inside its wave: after its own look-back step.
  const own = steps.findIndex((s) => s.kind === 'lookback' && s.tile === u);
  return own >= 0 && steps.indexOf(step) >= own;
}

/**
 * Everything the tile view draws for `step`, in the language of `tr` (www/i18n.js):
 * `{ title, text, code: { module, fn, focus? } (www/code-map.js), tiles: [{ t, first, last, flags, aggregate, status, value, exclusive,
 *    inclusive, wave, late, role, seen?, added?, running? }], arcs: [{ from, to, seen, value, running }],
 *    runs: [{ t, exclusive, inclusive, first, last }] | null, sources }`.
 * `sources` says where each kind of number came from: 'gpu', 'cpu' or 'simulation'.
 */
export function tileStepView(trace, steps, index, win, tr) {
  const step = steps[index];
  const gpu = trace.source.states === 'gpu';
  const T = trace.tiles;
  const atomic = trace.method === 'tile-atomic';
  const sources = {
    aggregate: 'cpu',
    // When a state was published is the simulation's; the final words are read back.
    state: atomic || stage(step).wave === Infinity ? (gpu ? 'gpu' : 'cpu') : 'simulation',
    inclusive: gpu ? 'gpu' : 'cpu',
    exclusive: gpu ? 'gpu' : 'cpu',
    chain: 'simulation',
    output: gpu ? 'gpu' : 'cpu',
  };
  // The window, and before it whatever its look-backs read (one tile when the
  // waves line up with the window).
  let from = win.start;
  if (!atomic && win.start > 0) {
    from = win.start - 1;
    for (const t of range(win.start, win.end)) for (const link of chainOf(trace, t)) from = Math.min(from, link.tile);
  }
  const view = { step, title: '', text: '', code: tileCode(step.kind, trace.method), tiles: [], arcs: [], runs: null, sources };
  for (const t of range(from, win.end)) {
    const state = atomic ? { status: 'invalid', value: null } : stateAt(trace, t, step);
    const started = atomic ? step.kind !== 'tiles' : state.status !== 'invalid';
    view.tiles.push({
      t,
      first: T.firstFlag[t],
      last: T.firstFlag[t] + T.flags[t] - 1,
      flags: T.flags[t],
      aggregate: started ? T.aggregate[t] : null,
      status: state.status,
      value: state.value,
      exclusive: knowsPrefix(trace, t, step, steps) ? T.exclusive[t] : null,
      inclusive: T.inclusive[t],
      wave: atomic ? null : trace.chain.wave[t],
      late: atomic ? false : Boolean(trace.chain.late[t]),
      stub: t < win.start,
      role: null,
    });
  }
  const shown = view.tiles.map((x) => x.t);
  const tile = (t) => view.tiles.find((x) => x.t === t);
  const n = trace.n;
  const inFlight = atomic ? 0 : trace.chain.inFlight;
  const windowTiles = win.end - win.start;
  const which = windowTiles === 1 ? tr('tiles.one', { t: String(win.start) }) : tr('tiles.range', { a: String(win.start), b: String(win.end - 1) });
  const many = win.tiles > windowTiles ? tr('tiles.many', { which, tiles: win.tiles }) : '';

  switch (step.kind) {
    case 'tiles': {
      const tickets = tr.plural(gpu ? 'tiles.tickets.gpu' : 'tiles.tickets.cpu', trace.tickets);
      const done = win.start > 0 && !atomic ? tr('tiles.tiles.before', { last: String(win.start - 1) }) : tr('tiles.tiles.nothing');
      view.title = tr.plural('tiles.tiles.title', win.tiles, { size: trace.tileSize });
      view.text = tr('tiles.tiles', { n, size: trace.tileSize, many, tickets, done });
      if (win.tiles === 1) view.text += tr('tiles.tiles.single');
      break;
    }
    case 'count': {
      view.title = tr('tiles.count.title');
      view.text = tr(gpu ? 'tiles.count.gpu' : 'tiles.count.cpu');
      break;
    }
    case 'claim': {
      view.title = tr('tiles.claim.title');
      const order = shown.filter((t) => T.exclusive[t] !== layout.noSlot).sort((a, b) => T.exclusive[a] - T.exclusive[b]);
      order.forEach((t, k) => {
        Object.assign(tile(t), { role: 'claim', claim: k + 1 });
      });
      const swapped = order.some((t, k) => k > 0 && t < order[k - 1]);
      view.text = tr('tiles.claim', { tile: layout.tile, swapped: swapped ? tr('tiles.claim.swapped') : '', readBack: gpu ? tr('tiles.claim.readBack') : '' });
      break;
    }
    case 'publish': {
      const tiles = step.tiles;
      for (const t of tiles) tile(t).role = 'publish';
      const stalled = shown.filter((t) => trace.chain.wave[t] === step.wave && trace.chain.late[t]);
      for (const t of stalled) tile(t).role = 'stalled';
      const zero = tiles.includes(0) ? tr('tiles.publish.zero') : '';
      const late = stalled.length ? tr('tiles.publish.late', { t: String(stalled[0]) }) : '';
      view.title = tr('tiles.publish.title', { wave: String(step.wave), a: String(tiles[0] ?? stalled[0]), b: String(tiles[tiles.length - 1] ?? stalled[0]) });
      view.text = tr('tiles.publish', { inFlight, zero, late });
      break;
    }
    case 'lookback':
    case 'late': {
      const t = step.tile;
      const links = chainOf(trace, t);
      tile(t).role = 'focus';
      for (const link of links) {
        const x = tile(link.tile);
        if (x) Object.assign(x, { role: 'read', seen: link.seen, added: link.value, running: link.running });
        view.arcs.push({ from: t, to: link.tile, seen: link.seen, value: link.value, running: link.running });
      }
      const parts = links.map((l) => {
        const at = { t: String(l.tile), value: l.value };
        if (l.seen === 'aggregate') return tr('tiles.link.aggregate', at);
        if (l.seen === 'inclusive') return tr('tiles.link.inclusive', at);
        return tr('tiles.link.counted', { ...at, polls: layout.spinLimit });
      });
      const sum = links.length ? links[links.length - 1].running : 0;
      const end = links.length && links[links.length - 1].seen !== 'inclusive' ? tr('tiles.look.end') : '';
      const waited = links.some((l) => l.seen === 'counted itself');
      // Only a look-back that found every predecessor published went without waiting.
      const after = waited ? tr('tiles.look.fallback') : tr('tiles.look.noWait');
      view.title = step.kind === 'late' ? tr('tiles.late.title', { t: String(t) }) : tr('tiles.look.title', { t: String(t) });
      const intro = step.kind === 'late' ? tr('tiles.late.intro', { t: String(t), aggregate: T.aggregate[t] }) : tr('tiles.look.intro', { t: String(t) });
      view.text = tr('tiles.look', { intro, parts: parts.join('; '), sum, end, after });
      break;
    }
    case 'inclusive': {
      for (const t of step.tiles) tile(t).role = 'publish';
      view.title = tr('tiles.inclusive.title', { wave: String(step.wave) });
      view.text = tr('tiles.inclusive', { readBack: gpu ? tr('tiles.inclusive.readBack') : '' });
      break;
    }
    case 'scatter': {
      const order = shown.filter((t) => t >= win.start && T.exclusive[t] !== layout.noSlot);
      view.runs = order.map((t) => ({
        t,
        exclusive: T.exclusive[t],
        inclusive: T.inclusive[t],
        first: trace.indices[T.exclusive[t]],
        last: trace.indices[T.inclusive[t] - 1],
      }));
      for (const t of order) tile(t).role = 'scatter';
      view.title = tr('tiles.scatter.title');
      view.text = tr(atomic ? 'tiles.scatter.atomic' : 'tiles.scatter');
      break;
    }
    case 'result': {
      view.title = tr('steps.result.title');
      view.text = tr(atomic ? 'tiles.result.atomic' : 'tiles.result', { count: trace.count, n, instanceCount: trace.instanceCount });
      break;
    }
    default:
      throw new Error(`unknown tile step ${step.kind}`);
  }
  return view;
}
