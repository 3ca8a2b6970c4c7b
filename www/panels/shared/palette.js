// The draw shader's palette (playground/shaders/draw_instances.wgsl `hue` and
// `position_colour`), for the keys and charts drawn beside its pictures. Pure:
// no DOM here.

/** The shader's `hue(x)`, as 0–255 RGB. */
export function hue(x) {
  return [0, 2, 4].map((k) => Math.round(255 * (0.55 + 0.4 * Math.cos(2 * Math.PI * (x + k / 6)))));
}

/** The shader's `position_colour`: instance `instance` of a draw over `n` flags, as a CSS colour. */
export function positionColour(instance, n) {
  const [r, g, b] = hue((0.85 * instance) / Math.max(1, n));
  return `rgb(${r} ${g} ${b})`;
}
