// The full page around the element (index.html): "Copy embed code" gives the
// element and iframe snippets for what the playground shows now.

import { embedSnippets } from './embed-code.js';
import { PANELS } from '../core/panels.js';
import { PAGE_MESSAGES } from './page-messages.js';

/** @returns {any} */
const $ = (id) => document.getElementById(id);
let words = PAGE_MESSAGES.en;

/** `text` into `el`, with `code` and **bold** as elements. */
function marked(el, text) {
  el.replaceChildren(
    ...text.split(/(`[^`]*`|\*\*[^*]*\*\*)/).map((part) => {
      if (part.startsWith('`')) return Object.assign(document.createElement('code'), { textContent: part.slice(1, -1) });
      if (part.startsWith('**')) return Object.assign(document.createElement('strong'), { textContent: part.slice(2, -2) });
      return document.createTextNode(part);
    }),
  );
}

/** The page follows the playground's language. */
function translate(lang) {
  words = PAGE_MESSAGES[lang] ?? PAGE_MESSAGES.en;
  document.documentElement.lang = lang;
  document.title = words.title;
  for (const el of document.querySelectorAll(/** @type {'p'} */ ('[data-i18n]'))) marked(el, words[el.dataset.i18n]);
}

/** A checkbox a panel, every one checked, labelled by the page's words `panel.<name>`. @returns {HTMLInputElement[]} */
function panelBoxes() {
  const fieldset = document.querySelector('.embed-panels');
  if (!fieldset) return [];
  return PANELS.map((name) => {
    const box = Object.assign(document.createElement('input'), { type: 'checkbox', value: name, checked: true });
    const label = Object.assign(document.createElement('span'), { textContent: words[`panel.${name}`] });
    label.dataset.i18n = `panel.${name}`;
    const row = document.createElement('label');
    row.append(box, ' ', label);
    fieldset.append(row);
    return box;
  });
}

function start() {
  const boxes = panelBoxes();
  const el = document.querySelector('compaction-playground');
  const button = $('copy-embed');
  if (!el || !button) return;
  el.addEventListener('langchange', (e) => translate(/** @type {CustomEvent} */ (e).detail.lang));
  if (el.language) translate(el.language);
  const status = $('embed-status');
  const panels = () =>
    boxes
      .filter((b) => b.checked)
      .map((b) => b.value)
      .join(' ');

  const update = () => {
    if (!el.isReady && el.stateHash === null) return null;
    const snippets = embedSnippets(el, panels());
    $('embed-element').value = snippets.element;
    $('embed-iframe').value = snippets.iframe;
    return snippets;
  };
  for (const type of ['change', 'step', 'result']) el.addEventListener(type, update);
  for (const box of boxes) box.addEventListener('change', update);
  el.ready.then(update);

  button.addEventListener('click', async () => {
    const snippets = update();
    if (!snippets) {
      status.textContent = words.loading;
      return;
    }
    const text = `<!-- As an element -->\n${snippets.element}\n\n<!-- Or as an iframe -->\n${snippets.iframe}\n`;
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = words.copied;
    } catch {
      status.textContent = words.copyFailed;
    }
  });
}

start();
