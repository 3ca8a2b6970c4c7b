// A page with several playgrounds and no WebGPU explains why once: the first
// element (in document order) whose status line says so shows the reason and
// the details; the others only say that they run on the CPU reference. The
// owner changes when it goes back to the GPU or leaves the page.

/** @type {Set<any>} status lines that would explain the fallback */
const waiting = new Set();

/** The element a status line is in (its shadow root's host). */
const hostOf = (status) => status.element.getRootNode().host ?? status.element;

/** The status line among `waiting` whose element comes first in the document (one not on a page comes last). */
function first() {
  let best = null;
  for (const s of waiting) {
    const a = hostOf(s);
    if (!best) best = s;
    else if (a.isConnected && (!hostOf(best).isConnected || hostOf(best).compareDocumentPosition(a) & Node.DOCUMENT_POSITION_PRECEDING)) best = s;
  }
  return best;
}

/** `status` runs on the CPU reference: true when it is the one to explain why. */
export function claimNotice(status) {
  waiting.add(status);
  const owner = first();
  // The others are told again who explains (an earlier element may have come later).
  for (const s of waiting) if (s !== status) s.noticeChanged?.(s === owner);
  return owner === status;
}

/** `status` is back on the GPU, or gone. */
export function releaseNotice(status) {
  if (!waiting.delete(status)) return;
  const owner = first();
  owner?.noticeChanged?.(true);
}
