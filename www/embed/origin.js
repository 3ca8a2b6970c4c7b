// Who framed embed.html, for its postMessage protocol (www/embed/embed.js):
// the origin it posts to and the only one it listens to. Pure.

/**
 * The origin of the page that frames this one, or null when it cannot be told.
 * @param {string | null} hashOrigin  the hash's `origin=`, named by the host's snippet
 * @param {ArrayLike<string> | undefined} ancestors  location.ancestorOrigins (Chromium, Safari)
 * @param {string} referrer  document.referrer (the origin at least, under the default referrer policy)
 */
export function parentOrigin(hashOrigin, ancestors, referrer) {
  const candidates = [hashOrigin, ancestors?.[0], referrer];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const origin = new URL(candidate).origin;
      if (origin !== 'null') return origin;
    } catch {
      // Not a URL: the next candidate.
    }
  }
  return null;
}
