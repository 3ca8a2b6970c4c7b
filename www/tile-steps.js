// The tile view's model: turns Playground.tileTrace() (tile states read back from
// the GPU, or the CPU reference; look-back chains simulated on the CPU) into
// steps, and each step into tiles with their states at that moment, the arcs of
// a look-back, the output runs and one paragraph saying what happens and why.
// Pure: no DOM here.

import { grouped } from './dom.js';
import { layout } from './layout.js';

/** Tiles shown at once. */
export const WINDOW = 8;
export const SEEN = ['', 'aggregate', 'inclusive', 'counted itself'];
/** `tiles.status` codes, as read back from the tile states (0, 1, 2). */
const STATUS = ['invalid', 'aggregate', 'inclusive'];

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
    links.push({ tile: c.tile[k], seen: SEEN[c.seen[k]], value: c.value[k], running });
  }
  return links;
}

const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);

/** The steps for the tiles of `win`. */
export function planTileSteps(trace, win) {
  const atomic = trace.method === 'tile-atomic';
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
  const final = { status: STATUS[trace.tiles.status[u]] ?? 'invalid', value: trace.tiles.inclusive[u] };
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
 * Everything the tile view draws for `step`:
 * `{ title, text, tiles: [{ t, first, last, flags, aggregate, status, value, exclusive,
 *    inclusive, wave, late, role, seen?, added?, running? }], arcs: [{ from, to, seen, value, running }],
 *    runs: [{ t, exclusive, inclusive, first, last }] | null, sources }`.
 * `sources` says where each kind of number came from: 'gpu', 'cpu' or 'simulation'.
 */
export function tileStepView(trace, steps, index, win) {
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
  const view = { step, title: '', text: '', tiles: [], arcs: [], runs: null, sources };
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
  const n = grouped(trace.n);
  const inFlight = atomic ? 0 : trace.chain.inFlight;
  const windowTiles = win.end - win.start;
  const many = win.tiles > windowTiles ? ` (${windowTiles === 1 ? `tile ${win.start}` : `tiles ${win.start}–${win.end - 1}`} of ${grouped(win.tiles)} shown)` : '';

  switch (step.kind) {
    case 'tiles': {
      const tickets = `${gpu ? 'read back' : 'CPU reference'}: ${grouped(trace.tickets)} ticket${trace.tickets === 1 ? '' : 's'} taken`;
      const done = win.start > 0 && !atomic ? ` The tiles before this window have finished (tile ${win.start - 1} is INCLUSIVE); the window's tiles have not started, so their state words read INVALID.` : ' Nothing is published yet: every state word reads INVALID.';
      view.title = `${grouped(win.tiles)} tile${win.tiles === 1 ? '' : 's'} of ${grouped(trace.tileSize)} flags`;
      view.text = `The ${n} flags are cut into tiles of ${grouped(trace.tileSize)}, one workgroup each${many}. A workgroup takes its tile number from an atomic ticket counter (${tickets}), so tiles are numbered in the order workgroups really start, and a tile only ever waits for tiles that have already started.${done}`;
      if (win.tiles === 1) view.text += ' With a single tile there are no predecessors and nothing to look back on: the one workgroup scans, publishes and scatters.';
      break;
    }
    case 'count': {
      view.title = 'Each tile counts its visible flags';
      view.text = `Each workgroup loads its tile once (vec4 loads), counts the visible flags with one workgroup scan and stages their indices in shared memory, in order. Tile-atomic publishes no state: every state word ${gpu ? 'read back' : ''} after the run is still 0 (INVALID); only the ticket counter moved.`.replace('  ', ' ');
      break;
    }
    case 'claim': {
      view.title = 'One atomicAdd per tile claims its output range';
      const order = shown.filter((t) => T.exclusive[t] !== layout.noSlot).sort((a, b) => T.exclusive[a] - T.exclusive[b]);
      order.forEach((t, k) => Object.assign(tile(t), { role: 'claim', claim: k + 1 }));
      const swapped = order.some((t, k) => k > 0 && t < order[k - 1]);
      view.text = `Instead of looking back, each tile's invocation 0 does atomicAdd(&count, aggregate) and gets the start of its range: 64 times fewer atomics than one per flag. The ranges follow the order the atomics happened${swapped ? ' — here not the tiles\u2019 order' : ''}: inside a tile the indices stay in order, between tiles they do not.${gpu ? ' The starts are read back from the GPU\u2019s output (where each tile\u2019s run begins).' : ''}`;
      break;
    }
    case 'publish': {
      const tiles = step.tiles;
      for (const t of tiles) tile(t).role = 'publish';
      const stalled = shown.filter((t) => trace.chain.wave[t] === step.wave && trace.chain.late[t]);
      for (const t of stalled) tile(t).role = 'stalled';
      const zero = tiles.includes(0) ? ' Tile 0 has nothing before it, so it publishes INCLUSIVE straight away.' : '';
      const late = stalled.length ? ` Tile ${stalled[0]}'s workgroup took its ticket but is not running (a GPU without forward-progress guarantees may leave it waiting): its state stays INVALID.` : '';
      view.title = `Wave ${step.wave}: tiles ${tiles[0] ?? stalled[0]}–${tiles[tiles.length - 1] ?? stalled[0]} scan and publish AGGREGATE`;
      view.text = `In this simulation ${inFlight} workgroups run at once. Each counts its tile with one workgroup scan and at once publishes that count as AGGREGATE: “my own total; my prefix is not known yet”. Publishing before knowing the prefix is what decouples the tiles: a successor can use the count right away.${zero}${late}`;
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
        if (l.seen === 'aggregate') return `tile ${l.tile}: AGGREGATE ${grouped(l.value)}, add it and read further back`;
        if (l.seen === 'inclusive') return `tile ${l.tile}: INCLUSIVE ${grouped(l.value)}, which already counts everything up to its end, so add it and stop`;
        return `tile ${l.tile}: nothing published; after ${layout.spinLimit} polls it loads tile ${l.tile}'s flags and counts them itself (${grouped(l.value)}), then goes on past it`;
      });
      const sum = links.length ? links[links.length - 1].running : 0;
      const end = links.length && links[links.length - 1].seen !== 'inclusive' ? ' It reached tile 0, so nothing comes before.' : '';
      const fallback = links.some((l) => l.seen === 'counted itself') ? ' Because a waiting tile can always count a silent predecessor itself, no tile depends on another making progress, and the pass cannot hang.' : '';
      view.title = step.kind === 'late' ? `Tile ${t} runs late: publish, look back, publish` : `Tile ${t} looks back`;
      const intro = step.kind === 'late' ? `Tile ${t}'s workgroup finally runs: it publishes AGGREGATE ${grouped(T.aggregate[t])} and looks back — ` : `Tile ${t} needs the number of visible flags before it. It reads `;
      view.text = `${intro}${parts.join('; ')}. Exclusive prefix = ${grouped(sum)}.${end}${fallback} Nobody waited for a second pass: every predecessor published its total while still running.`;
      break;
    }
    case 'inclusive': {
      for (const t of step.tiles) tile(t).role = 'publish';
      view.title = `Wave ${step.wave} publishes INCLUSIVE`;
      view.text = `Each tile of the wave now knows its prefix and publishes INCLUSIVE = exclusive + own count, overwriting its AGGREGATE. A later tile's look-back stops at the first INCLUSIVE it meets, so chains stay short: at most the tiles running at the same time.${gpu ? ' The final INCLUSIVE values are the ones read back from the GPU\u2019s state buffer.' : ''}`;
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
      view.title = 'Scatter: each tile writes one consecutive run';
      view.text = atomic
        ? 'Each tile copies its staged indices to indices[start …], the range its atomicAdd returned: whole runs, but in the order the atomics happened.'
        : `In the same pass, each tile copies its staged indices to indices[exclusive …]: one consecutive run per tile, in tile order. The flags were read once and every slot was decided in this single dispatch; a scan needs a second pass only because its blocks cannot see each other's totals while they run — here they publish them.`;
      break;
    }
    case 'result': {
      view.title = 'Result: the dense list and the indirect arguments';
      view.text = atomic
        ? `The counter holds ${grouped(trace.count)} visible of ${n}; a one-invocation kernel copies it into instanceCount = ${grouped(trace.instanceCount)} (read back).`
        : `The last tile's inclusive prefix is the total, ${grouped(trace.count)} visible of ${n}: that tile itself wrote count and instanceCount = ${grouped(trace.instanceCount)} into the indirect buffer (read back), so drawIndirect needs no extra dispatch.`;
      break;
    }
    default:
      throw new Error(`unknown tile step ${step.kind}`);
  }
  return view;
}
