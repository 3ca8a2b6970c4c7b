// What a host page looks like to a guest test: every computed style of its own
// elements (not the playgrounds'), to compare a page with and without the
// element's code. (Not a test file.)

/**
 * In the page: every computed style of the host's own elements (html, body
 * and all inside but the playgrounds), and where their boxes sit across it.
 */
export function hostStyles() {
  // Resolved sizes along the block axis depend on the content's height, which
  // the playgrounds add to. Chromium sometimes reports an `auto` horizontal
  // margin as 0px after a descendant's relayout (the box has not moved: a
  // forced relayout reads 50px again), so those are compared as box positions.
  const layoutDependent = new Set(['height', 'block-size', 'transform-origin', 'perspective-origin', 'margin-left', 'margin-right', 'margin-inline-start', 'margin-inline-end']);
  const own = [document.documentElement, ...document.querySelectorAll('body, body *')].filter((e) => !e.closest('compaction-playground'));
  return own.map((e) => {
    const cs = getComputedStyle(e);
    const box = e.getBoundingClientRect();
    const style = { 'box-x': String(box.x), 'box-width': String(box.width) };
    for (const p of cs) if (!layoutDependent.has(p)) style[p] = cs.getPropertyValue(p);
    return { el: e.localName + (e.id ? `#${e.id}` : ''), style };
  });
}

/** The differences between two hostStyles() readings: `[ 'el: prop a -> b' ]`. */
export function styleDifferences(a, b) {
  const out = [];
  if (a.length !== b.length) return [`${a.length} host elements, then ${b.length}`];
  for (let k = 0; k < a.length; k++) {
    if (a[k].el !== b[k].el) out.push(`element ${k}: ${a[k].el} then ${b[k].el}`);
    for (const p of Object.keys(a[k].style)) if (a[k].style[p] !== b[k].style[p]) out.push(`${a[k].el}: ${p} ${a[k].style[p]} -> ${b[k].style[p]}`);
  }
  return out;
}
