// Where a playground starts, by precedence, and nothing else: pure functions
// of what the element was given (www/playground/session.js applies them).
//   1. A previous connection's state (`restore`, the element was moved): kept,
//      but a part the host set again while it was away (undefined in the
//      snapshot) is the attributes' again.
//   2. The link (`sync-url` and a hash): its flags or preset, method, step;
//      a link that names no flags takes the attributes' flags. A malformed
//      link is said, and the attributes' state shows.
//   3. The attributes (`flags` before `preset`, `method`, `step`).
// Words come from `t`; the wasm only parses flags (`parseFlags`).

import { defaultState, ignoredMessage, parseFlagsAttribute, parsePresetAttribute } from '../core/state.js';
import { methodNames } from '../core/layout.js';

/**
 * @typedef {{ method: string, preset: any, step: number | null, block?: number | null, tile?: number | null, embed?: Record<string, string> }} StartState
 * @typedef {{ state: StartState, flags: Uint32Array | null, error: string | null }} Start
 * @typedef {(key: string, params?: Record<string, unknown>) => string} Words
 */

/** A state.js error (`{ key, params }`) or a plain message, in words. @param {any} error @param {Words} t */
export function hashError(error, t) {
  return typeof error === 'object' && error?.key ? t(`hash.${error.key}`, error.params) : String(error);
}

/**
 * The flags or preset attribute: `{ flags }`, `{ preset }` or null (none, or unreadable: said in `errors`).
 * @param {Record<string, string | null>} attributes  @param {{ t: Words, wasm: any }} with_  @param {string[]} errors
 */
export function attributeFlags({ flags, preset }, { t, wasm }, errors) {
  if (flags !== null && flags !== undefined) {
    try {
      return { flags: parseFlagsAttribute(flags, wasm) };
    } catch (e) {
      errors.push(t('app.badFlags', { error: e.message }));
    }
  } else if (preset !== null && preset !== undefined) {
    try {
      return { preset: parsePresetAttribute(preset) };
    } catch (e) {
      errors.push(t('app.badPreset', { error: hashError(e.detail ?? e.message, t) }));
    }
  }
  return null;
}

/**
 * `{ state, flags, error }` from the flags, preset, method and step attributes.
 * @param {Record<string, string | null>} attributes  @param {{ t: Words, wasm: any }} with_  @returns {Start}
 */
export function attributeState(attributes, with_) {
  const { t } = with_;
  const state = defaultState();
  const errors = [];
  const { method = null, step = null } = attributes;
  if (method !== null) {
    if (methodNames().includes(method)) state.method = method;
    else errors.push(t('app.unknownMethod', { method, methods: methodNames().join(', ') }));
  }
  if (step !== null) {
    const k = Number(step);
    if (Number.isInteger(k) && k >= 1) state.step = k;
    else errors.push(t('app.badStep', { step }));
  }
  const made = attributeFlags(attributes, with_, errors);
  if (made?.preset) state.preset = made.preset;
  return { state, flags: made?.flags ?? null, error: errors.join(' ') || null };
}

/**
 * The starting state, and what to say about it.
 * @param {{ restore: any, link: any, attributes: Record<string, string | null>, t: Words, wasm: any }} given
 *   `link`: the hash as state.js parses it (`{ state, flags, error, ignored }`), null without `sync-url` or a hash
 * @returns {Start & { panels: string | null, alerts: { kind: string, message: string }[], holdUrl: boolean }}
 */
export function startState({ restore, link, attributes, t, wasm }) {
  const own = () => attributeState(attributes, { t, wasm });
  const alerts = [];
  const said = (/** @type {Start} */ start, holdUrl = false, panels = null) => {
    if (start.error) alerts.push({ kind: 'attributes', message: start.error });
    return { ...start, panels, alerts, holdUrl };
  };
  if (restore) {
    // A part the host set again while the element was away (undefined here) is the attributes' again.
    const mine = Object.values(restore).includes(undefined) ? own() : null;
    const flagsOwn = restore.flags === undefined;
    return said({
      state: {
        ...defaultState(),
        method: restore.method ?? mine?.state.method ?? 'scan',
        preset: flagsOwn ? mine.state.preset : restore.preset,
        step: restore.step === undefined ? mine.state.step : restore.step,
      },
      flags: flagsOwn ? mine.flags : restore.preset ? null : restore.flags,
      error: mine?.error ?? null,
    });
  }
  if (link && !link.error) {
    const ignored = ignoredMessage(link.ignored, t);
    if (ignored) alerts.push({ kind: 'hash', message: ignored });
    const panels = link.state.embed?.panels ?? null;
    if (link.flags || link.state.preset) return said(link, Boolean(ignored), panels);
    // The link names no flags: those of the attributes (or the article's).
    const mine = own();
    return said({ state: { ...link.state, preset: mine.state.preset }, flags: mine.flags, error: mine.error }, Boolean(ignored), panels);
  }
  if (link) {
    alerts.push({ kind: 'hash', message: t('app.hashMalformed', { error: hashError(link.error, t), link: String(link.hash ?? '').slice(0, 200) }) });
    // The link stays in the address bar, to be mended; the page's own state replaces it once the visitor edits.
    return said(own(), true);
  }
  return said(own());
}
