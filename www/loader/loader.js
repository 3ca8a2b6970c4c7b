// The module a docs site includes on every page (dist/compaction-playground.js):
// it defines <compaction-playground> and nothing else runs or downloads until
// an element is about to be seen (www/loader/element.js). Also the JS API's
// entry: `kernels()` loads the wasm module itself (README, "The JS API").

import { CompactionPlaygroundElement } from './element.js';

export { CompactionPlaygroundElement };

/** The kernels without any interface: `const { Playground } = await kernels();`. */
export async function kernels() {
  const { kernels: load } = await import('../core/engine.js');
  return load();
}

if (globalThis.customElements && !customElements.get('compaction-playground')) {
  customElements.define('compaction-playground', CompactionPlaygroundElement);
}
