// The full page around the element (index.html): "Copy embed code" gives the
// element and iframe snippets for what the playground shows now.

import { embedSnippets } from './embed-code.js';
import { PANELS } from './panels.js';

const $ = (id) => document.getElementById(id);

function start() {
  const el = document.querySelector('compaction-playground');
  const button = $('copy-embed');
  if (!el || !button) return;
  const panelBoxes = PANELS.map((p) => document.querySelector(`.embed-panels input[value="${p}"]`)).filter(Boolean);
  const status = $('embed-status');
  const panels = () => panelBoxes.filter((b) => b.checked).map((b) => b.value).join(' ');

  const update = () => {
    if (!el.isReady && el.stateHash === null) return null;
    const snippets = embedSnippets(el, panels());
    $('embed-element').value = snippets.element;
    $('embed-iframe').value = snippets.iframe;
    return snippets;
  };
  for (const type of ['change', 'step', 'result']) el.addEventListener(type, update);
  for (const box of panelBoxes) box.addEventListener('change', update);
  el.ready.then(update);

  button.addEventListener('click', async () => {
    const snippets = update();
    if (!snippets) {
      status.textContent = 'The playground is still loading; try again in a moment.';
      return;
    }
    const text = `<!-- As an element -->\n${snippets.element}\n\n<!-- Or as an iframe -->\n${snippets.iframe}\n`;
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = 'Copied both snippets. Paste either one into your page.';
    } catch {
      status.textContent = 'This browser did not allow copying: select the snippets below and copy them.';
    }
  });
}

start();
