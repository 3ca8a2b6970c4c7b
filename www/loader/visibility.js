// When an element is about to be seen: connected, rendered (not inside a
// closed <details>, a hidden tab or anything with display: none) and within
// about one viewport of the screen. Until then the loader fetches nothing.

/** How far outside the viewport an element starts loading: about one screen. */
export const MARGIN = '100% 0px 100% 0px';

/**
 * Calls `onSeen()` once `el` is rendered and near the viewport; returns the
 * function that stops watching. One IntersectionObserver per element, removed
 * as soon as it has fired.
 * @param {Element} el  @param {() => void} onSeen
 */
export function whenSeen(el, onSeen) {
  if (typeof IntersectionObserver === 'undefined') {
    onSeen();
    return () => {};
  }
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let polling;
  const stop = () => {
    observer.disconnect();
    clearInterval(polling);
  };
  const seen = () => {
    stop();
    onSeen();
  };
  const observer = new IntersectionObserver(
    (entries) => {
      const last = entries[entries.length - 1];
      clearInterval(polling);
      if (!last?.isIntersecting) return;
      if (rendered(el)) return seen();
      // Near the screen but hidden (`visibility: hidden` of a container):
      // showing it moves no box, so no intersection is reported; look now and then.
      polling = setInterval(() => rendered(el) && seen(), POLL_MS);
    },
    { rootMargin: MARGIN },
  );
  observer.observe(el);
  return stop;
}

/** How often a hidden element near the screen looks whether it was shown. */
const POLL_MS = 500;

/** False inside a closed <details>, `content-visibility: hidden`, `display: none` or `visibility: hidden`. */
export function rendered(el) {
  if (typeof el.checkVisibility === 'function') return el.checkVisibility({ contentVisibilityAuto: false, visibilityProperty: true });
  const box = el.getBoundingClientRect();
  return box.width > 0 || box.height > 0;
}
