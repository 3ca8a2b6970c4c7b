// Where each step of the scan stepper and of the tile view is in the WGSL the
// GPU compiles (Playground.kernelSources()): the module, the function, and the
// lines of it the step is about. The steppers show that function; the code
// panel marks it in the whole module. Pure: no DOM here.

/** Scan steps (www/steps.js kinds). */
export const SCAN_CODE = {
  load: { module: 'scan_block', fn: 'load' },
  hs: { module: 'scan_block', fn: 'step' },
  exclusive: { module: 'scan_block', fn: 'publish', focus: ['prefix[i] = tmp[li] - v'] },
  blocksum: { module: 'scan_block', fn: 'publish', focus: ['block_sums[block] = tmp[li]'] },
  offsets: { module: 'add_offsets', fn: 'add_offsets' },
  scatter: { module: 'scatter', fn: 'scatter', focus: ['indices[prefix[i]] = i'] },
  result: { module: 'indirect_args', fn: 'indirect_args' },
};

/** Tile steps (www/tile-steps.js kinds), for the look-back methods and for tile-atomic. */
export const TILE_CODE = {
  tiles: { module: 'lookback', fn: 'take_ticket' },
  publish: { module: 'lookback', fn: 'publish_aggregate' },
  lookback: { module: 'lookback', fn: 'look_back' },
  late: { module: 'lookback', fn: 'look_back_to_base', focus: ['blocked_tile()', 'count_past_blocked('] },
  inclusive: { module: 'lookback', fn: 'finish_look_back', focus: ['encode_state(INCLUSIVE'] },
  scatter: { module: 'lookback', fn: 'write_out' },
  result: { module: 'lookback', fn: 'finish_look_back', focus: ['atomicStore(&count[0]', 'indirect[1]'] },
  count: { module: 'lookback', fn: 'tile_atomic', focus: ['scan_rows('] },
  claim: { module: 'lookback', fn: 'tile_atomic', focus: ['atomicAdd(&count[0]'] },
};

/** The tile-atomic's result comes from its own indirect_args dispatch. */
export function tileCode(kind, method) {
  if (method === 'tile-atomic' && kind === 'result') return { module: 'indirect_args', fn: 'indirect_args' };
  if (method === 'tile-atomic' && kind === 'scatter') return { module: 'lookback', fn: 'tile_atomic', focus: ['write_rows('] };
  return TILE_CODE[kind] ?? null;
}

/**
 * Lines `[start, end)` (0-based) of `fn <name>(` in `wgsl`, from the comment
 * block above it to its closing brace, and the lines inside holding any of
 * `focus`. Null when the function is not there.
 */
export function locate(wgsl, name, focus = []) {
  const lines = wgsl.split('\n');
  const head = lines.findIndex((l) => new RegExp(`^fn ${name}\\s*\\(`).test(l));
  if (head < 0) return null;
  let start = head;
  while (start > 0 && /^\s*(\/\/|@)/.test(lines[start - 1])) start--;
  let depth = 0;
  let end = head;
  let opened = false;
  for (; end < lines.length; end++) {
    for (const ch of lines[end]) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth === 0) break;
  }
  const marked = new Set();
  for (let k = head; k <= end; k++) if (focus.some((f) => lines[k].includes(f))) marked.add(k);
  return { start, end: end + 1, focus: marked };
}

/** The module `label` of `method` in `sources` (Playground.kernelSources()). */
export function moduleOf(sources, method, label) {
  return sources?.find((s) => s.method === method)?.modules.find((m) => m.label === label) ?? null;
}
