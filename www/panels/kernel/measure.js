// What the checker adds to a learner's WGSL beside the loop guard
// (instrument.js, which calls this): the schedule as an adversary and the
// costs. Pure: tests/js/instrument.test.mjs.
//
// The schedule: each entry point's `workgroup_id` (and `global_invocation_id`)
// parameter is renamed and a local of the learner's name takes its place,
// read through `_cp_order`: the linear workgroup id mapped by the schedule
// uniform (binding 14: the GPU's own order, reversed, or `(a·k + b) mod n`,
// and one workgroup held back a while before it starts). A uniform, so what the
// id decides stays workgroup-uniform. Missing builtins the mapping needs
// (`num_workgroups`, `local_invocation_id`) are added as parameters.
//
// The costs: every statement of the learner's adds the storage reads, writes,
// atomics and barriers it holds (counted in its text) to private counters,
// flushed into the probe when the entry point returns, with one invocation.

/** The builtins an entry point's ids come from. */
const IDS = ['workgroup_id', 'global_invocation_id', 'local_invocation_id', 'num_workgroups'];
const ATOMICS = new Set(['atomicAdd', 'atomicSub', 'atomicMax', 'atomicMin', 'atomicAnd', 'atomicOr', 'atomicXor', 'atomicExchange', 'atomicCompareExchangeWeak', 'atomicLoad', 'atomicStore']);
const BARRIERS = new Set(['workgroupBarrier', 'storageBarrier', 'textureBarrier', 'workgroupUniformLoad']);
/** Tokens no statement starts with (they continue one). */
const NOT_A_START = new Set(['}', 'else', 'continuing', 'case', 'default', ')', ',']);
const COMPOUND = new Set(['+', '-', '*', '/', '%', '&', '|', '^', '<', '>']);

/** The code the additions call, appended after the learner's. */
export const MEASURE = `@group(0) @binding(14) var<uniform> _cp_sched : vec4<u32>;
var<private> _cp_cost : vec4<u32>;
var<private> _cp_flushed : bool;
fn _cp_order(w : vec3<u32>, g : vec3<u32>) -> vec3<u32> { let n = g.x * g.y; let k = w.x + w.y * g.x; var p = k; if (_cp_sched.x == 1u) { p = n - 1u - k; } if (_cp_sched.x == 2u) { p = (_cp_sched.y * k + _cp_sched.z) % n; } if (p == _cp_sched.w) { _cp_delay(); } return vec3<u32>(p % g.x, p / g.x, w.z); }
fn _cp_delay() { for (var s = 0u; s < 100000u; s = s + 1u) { if (atomicLoad(&_cp_probe[7]) == 1u) { break; } } }
fn _cp_c(r : u32, w : u32, a : u32, b : u32) { _cp_cost = _cp_cost + vec4<u32>(r, w, a, b); }
fn _cp_flush() { if (_cp_flushed) { return; } _cp_flushed = true; atomicAdd(&_cp_probe[2], _cp_cost.x); atomicAdd(&_cp_probe[3], _cp_cost.y); atomicAdd(&_cp_probe[4], _cp_cost.z); atomicAdd(&_cp_probe[5], _cp_cost.w); atomicAdd(&_cp_probe[6], 1u); }`;

/**
 * The inserts for the schedule and the costs, given instrument.js's tokens,
 * bracket partners and structure (functions with their parameter and body
 * spans, `entry` set for entry points). `names`: the module-scope storage
 * variables (what reads and writes are of).
 * @param {import('./instrument.js').Token[]} toks  @param {Int32Array} match
 * @param {{ fns: { name: string, entry: boolean, params: [number, number], body: number, end: number }[] }} shape
 * @param {Set<string>} names
 * @returns {{ at: number, text: string }[]}
 */
export function measureInserts(toks, match, shape, names) {
  const inserts = [];
  for (const f of shape.fns) {
    if (f.entry) inserts.push(...scheduleInserts(toks, match, f));
  }
  for (const f of shape.fns) inserts.push(...costInserts(toks, match, f, names));
  return inserts;
}

/** The `@builtin(id) name` parameters of `f`: builtin -> index of the name's token. */
function builtinParams(toks, match, f) {
  /** @type {Record<string, number>} */
  const found = {};
  for (let k = f.params[0] + 1; k < f.params[1]; k++) {
    if (toks[k].kind !== 'attr' || toks[k + 1]?.text !== 'builtin' || toks[k + 2]?.text !== '(') continue;
    const id = toks[k + 3]?.text;
    let j = k + 5;
    // Past other attributes to the parameter's name.
    while (toks[j]?.kind === 'attr') j = toks[j + 2]?.text === '(' && match[j + 2] > 0 ? match[j + 2] + 1 : j + 2;
    if (toks[j]?.kind === 'ident' && IDS.includes(id)) found[id] = j;
  }
  return found;
}

/** The text of `f`'s `@workgroup_size(…)` arguments, as three u32 expressions. */
function workgroupSize(toks, match, f) {
  let k = f.params[0] - 2;
  while (k > 0 && toks[k].text !== '}' && toks[k].text !== ';') {
    if (toks[k].kind === 'ident' && toks[k].text === 'workgroup_size' && toks[k - 1]?.kind === 'attr' && toks[k + 1]?.text === '(') {
      const args = [];
      let arg = [];
      for (let j = k + 2; j < match[k + 1]; j++) {
        if (toks[j].text === ',' && arg.length) {
          args.push(arg.join(' '));
          arg = [];
        } else if (toks[j].text !== ',') arg.push(toks[j].text);
      }
      if (arg.length) args.push(arg.join(' '));
      while (args.length < 3) args.push('1');
      return args.map((a) => `u32(${a})`).join(', ');
    }
    k--;
  }
  return null;
}

/** An entry point's ids taken through the schedule. */
function scheduleInserts(toks, match, f) {
  const params = builtinParams(toks, match, f);
  const wid = params.workgroup_id;
  const gid = params.global_invocation_id;
  if (wid === undefined && gid === undefined) return [];
  const size = gid !== undefined ? workgroupSize(toks, match, f) : null;
  if (gid !== undefined && !size) return [];
  const inserts = [];
  const added = [];
  const param = (id, own) => {
    if (params[id] !== undefined) return toks[params[id]].text;
    added.push(`@builtin(${id}) ${own} : vec3<u32>`);
    return own;
  };
  const groups = param('num_workgroups', '_cp_groups');
  const body = [];
  let widSource;
  if (wid !== undefined) {
    inserts.push({ at: toks[wid].at, text: '_cp_' });
    widSource = `_cp_${toks[wid].text}`;
    body.push(`let ${toks[wid].text} = _cp_order(${widSource}, ${groups});`);
  } else widSource = param('workgroup_id', '_cp_wid');
  if (gid !== undefined) {
    const lid = param('local_invocation_id', '_cp_lid');
    inserts.push({ at: toks[gid].at, text: '_cp_' });
    body.push(`let ${toks[gid].text} = _cp_order(${widSource}, ${groups}) * vec3<u32>(${size}) + ${lid};`);
  }
  if (added.length) {
    const close = f.params[1];
    const bare = close === f.params[0] + 1 || toks[close - 1].text === ',';
    inserts.push({ at: toks[close].at, text: `${bare ? '' : ', '}${added.join(', ')}` });
  }
  inserts.push({ at: toks[f.body].at + 1, text: ` ${body.join(' ')}` });
  return inserts;
}

/**
 * What a statement's text holds: storage reads and writes (an element or a
 * variable of `names` assigned, compound assignments both), atomics, barriers.
 */
function statementCost(toks, match, from, to, names) {
  let [r, w, a, b] = [0, 0, 0, 0];
  for (let k = from; k < to; k++) {
    const tk = toks[k];
    if (tk.kind !== 'ident') continue;
    if (toks[k + 1]?.text === '(' && ATOMICS.has(tk.text)) a++;
    else if (toks[k + 1]?.text === '(' && BARRIERS.has(tk.text)) b++;
    // (`&visible` is its address, not a read; `a && visible[i]` is one.)
    else if (names.has(tk.text) && !(toks[k - 1]?.text === '&' && toks[k - 2]?.text !== '&')) {
      const after = toks[k + 1]?.text === '[' && match[k + 1] > 0 ? match[k + 1] + 1 : k + 1;
      const next = toks[after]?.text;
      if (next === '=' && toks[after + 1]?.text !== '=') w++;
      else if ((COMPOUND.has(next) && toks[after + 1]?.text === '=') || ((next === '+' || next === '-') && toks[after + 1]?.text === next)) {
        r++;
        w++;
      } else r++;
    }
  }
  return [r, w, a, b];
}

/** Each statement of `f` adding its cost; an entry point flushing the costs as it returns. */
function costInserts(toks, match, f, names) {
  const inserts = [];
  let depth = 0;
  let lastStart = -1;
  for (let k = f.body + 1; k < f.end; k++) {
    const tk = toks[k];
    if (tk.text === '(' || tk.text === '[') depth++;
    else if (tk.text === ')' || tk.text === ']') depth--;
    const prev = toks[k - 1].text;
    if (depth !== 0 || !['{', ';', '}'].includes(prev) || NOT_A_START.has(tk.text)) continue;
    lastStart = k;
    let end = k;
    let d = 0;
    while (end < f.end) {
      const t = toks[end].text;
      if (t === '(' || t === '[') d++;
      else if (t === ')' || t === ']') d--;
      else if (d === 0 && (t === ';' || t === '{')) break;
      end++;
    }
    if (f.entry && tk.text === 'return') inserts.push({ at: tk.at, text: '_cp_flush(); ' });
    const [r, w, a, b] = statementCost(toks, match, k, end, names);
    if (r || w || a || b) inserts.push({ at: tk.at, text: `_cp_c(${r}u, ${w}u, ${a}u, ${b}u); ` });
  }
  // (A body that ends in a return flushed there: nothing after it, which the compiler would call unreachable.)
  if (f.entry && toks[lastStart]?.text !== 'return') inserts.push({ at: toks[f.end].at, text: '_cp_flush(); ' });
  return inserts;
}
