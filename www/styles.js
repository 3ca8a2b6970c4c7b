// The element's stylesheets, in cascade order. They are linked inside its
// shadow root; scripts/build-dist.mjs joins them into one file for dist/.

export const STYLE_FILES = [
  'css/theme.css',
  'css/base.css',
  'css/status.css',
  'css/editor.css',
  'css/result.css',
  'css/stepper.css',
  'css/tiles.css',
  'css/atomic.css',
  'css/panels.css',
];

export function styleUrls() {
  return STYLE_FILES.map((f) => new URL(f, import.meta.url).href);
}
