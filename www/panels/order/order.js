// The order panel's model: a scene of instances pre-sorted by material (groups
// of ceil(n / groups) consecutive objects, the colour) and front to back (the
// object index is the depth ramp), and what a method's draw order costs a
// renderer: state changes, front-to-back inversions, and a per-instance
// history keyed by instance_index that a changing order scrambles. Every input
// is an index buffer the GPU wrote. Pure: no DOM here.

/** The scene: its size, materials, how culling thins it, and the frames the history runs for. */
export const SCENE = Object.freeze({ n: 16_384, groups: 8, density: 0.5, seed: 11, frames: 8 });
export const SIZES = [4096, 16_384, 65_536];
/** How much of the new frame a history takes each frame (a reprojection's blend). */
export const BLEND = 0.2;

/** The material of `object`, as playground/shaders/draw_instances.wgsl colours it. */
export function materialOf(object, n, groups) {
  return Math.floor(object / Math.ceil(n / groups));
}

/** Adjacent draws with different materials: each one a pipeline or bind-group change. */
export function stateChanges(indices, n, groups) {
  let changes = 0;
  for (let k = 1; k < indices.length; k++) {
    if (materialOf(indices[k], n, groups) !== materialOf(indices[k - 1], n, groups)) changes++;
  }
  return changes;
}

/** The fewest state changes any order of these instances can have: materials present − 1. */
export function fewestStateChanges(indices, n, groups) {
  const present = new Set();
  for (const i of indices) present.add(materialOf(i, n, groups));
  return Math.max(0, present.size - 1);
}

/** Pairs drawn back to front: (a drawn before b) with a deeper than b. Merge sort, O(n log n). */
export function inversions(indices) {
  let a = Array.from(indices);
  let b = new Array(a.length);
  let count = 0;
  for (let width = 1; width < a.length; width *= 2) {
    for (let lo = 0; lo < a.length; lo += 2 * width) {
      const mid = Math.min(lo + width, a.length);
      const hi = Math.min(lo + 2 * width, a.length);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (a[j] < a[i]) {
          count += mid - i;
          b[k++] = a[j++];
        } else b[k++] = a[i++];
      }
      while (i < mid) b[k++] = a[i++];
      while (j < hi) b[k++] = a[j++];
    }
    [a, b] = [b, a];
  }
  return count;
}

/** Pairs of instances: the most inversions an order can have. */
export const pairs = (count) => (count * (count - 1)) / 2;

/** An object's colour as a number in [0, 1): its place along the sorted scene. */
const colourOf = (object, n) => (object + 0.5) / n;

/**
 * A history per instance_index over `frames` (the index buffers of one method
 * on unchanged flags, frame after frame): history[k] blends toward the colour
 * of the object drawn at slot k each frame. Returns `{ history, changed, error }`:
 * the last frame's history, the mean share of slots whose object changed from
 * one frame to the next, and the mean |history − colour of the object drawn
 * there now| after the last frame (0 when every slot kept its object).
 */
export function history(frames, n, blend = BLEND) {
  const count = frames[0]?.length ?? 0;
  const h = new Float64Array(count);
  for (let k = 0; k < count; k++) h[k] = colourOf(frames[0][k], n);
  let changedSum = 0;
  for (let f = 1; f < frames.length; f++) {
    let changed = 0;
    for (let k = 0; k < count; k++) {
      if (frames[f][k] !== frames[f - 1][k]) changed++;
      h[k] += blend * (colourOf(frames[f][k], n) - h[k]);
    }
    changedSum += count ? changed / count : 0;
  }
  const last = frames[frames.length - 1] ?? [];
  let error = 0;
  for (let k = 0; k < count; k++) error += Math.abs(h[k] - colourOf(last[k], n));
  return {
    history: h,
    changed: frames.length > 1 ? changedSum / (frames.length - 1) : 0,
    error: count ? error / count : 0,
  };
}

/** Whether every frame drew the same order. */
export function sameOrder(frames) {
  return frames.every((f) => f.length === frames[0].length && f.every((v, k) => v === frames[0][k]));
}
