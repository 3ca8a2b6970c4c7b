// `sync-url`: the playground's state in location.hash (state.js has its form).
// The only part of the element that touches the host's URL, and only while the
// attribute is there; the embedding keys of the hash (panels, theme, lang) are
// kept as they were.

import { parseHash, formatHash } from './state.js';

export class UrlSync {
  /**
   * @param {{ decodeFlags: (code: string) => Uint32Array, encodeFlags: (flags: Uint32Array) => string,
   *           onHash: () => void }} options  onHash: the visitor changed the hash
   */
  constructor({ decodeFlags, encodeFlags, onHash }) {
    this.decodeFlags = decodeFlags;
    this.encodeFlags = encodeFlags;
    this.lastHash = null;
    this.embed = {};
    this.listener = () => {
      if (location.hash !== this.lastHash) onHash();
    };
    addEventListener('hashchange', this.listener);
  }

  /** `{ state, flags, error }` of the current hash. */
  read() {
    const parsed = parseHash(location.hash, this.decodeFlags);
    if (!parsed.error) this.embed = parsed.state.embed;
    return parsed;
  }

  /** Replaces the hash (no history entry) with `view`'s. */
  write(view) {
    const hash = formatHash({ ...view, embed: this.embed }, (flags) => this.encode(flags));
    this.lastHash = hash;
    if (hash !== location.hash) history.replaceState(null, '', hash);
  }

  encode(flags) {
    if (this.encoded?.flags !== flags) this.encoded = { flags, code: this.encodeFlags(flags) };
    return this.encoded.code;
  }

  destroy() {
    removeEventListener('hashchange', this.listener);
  }
}
