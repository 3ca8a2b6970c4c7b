// Finding a function of the WGSL the GPU compiled (Playground.kernelSources()):
// the steppers show the function a step runs (www/panels/shared/excerpt.js),
// the code panel marks it in the whole module. Pure: no DOM here.

/**
 * Lines `[start, end)` (0-based) of `fn <name>(` in `wgsl`, from the comment
 * block above it to its closing brace, the line of its head (`fn <name>(`), and
 * the lines inside holding any of `focus`. Null when the function is not there.
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
  return { start, head, end: end + 1, focus: marked };
}

/** The module `label` of `method` in `sources` (Playground.kernelSources()). */
export function moduleOf(sources, method, label) {
  return sources?.find((s) => s.method === method)?.modules.find((m) => m.label === label) ?? null;
}
