// The full page's own words (index.html, www/page.js) in English and Spanish,
// following the playground's language. `code` and **bold** are marked up.

export const PAGE_MESSAGES = {
  en: {
    title: 'Compacting the visibles: seven ways, from an atomic counter to a single-pass scan',
    intro:
      'Culling leaves an array of flags; a `drawIndirect` needs a dense list of indices and an `instanceCount`. The article gives two answers on the GPU: an **atomic counter** (fast, but the order changes from run to run) or an **exclusive prefix sum** (the same buffer, bit for bit, every time); beyond it, four single-pass and packed methods make seven in all. Edit the flags, run each method on your GPU, and step through it from the real buffers.',
    'embed.title': 'Embed it in your docs',
    'embed.lead':
      'The playground is a custom element, `<compaction-playground>`, that keeps to itself on your page (shadow DOM, your fonts, your light or dark theme). Choose what it shows and copy one of the two snippets: the element, or an iframe when your site cannot load scripts. Both reproduce what the playground above shows now.',
    'embed.panels': 'Panels',
    'panel.editor': 'flag editor',
    'panel.result': 'result',
    'panel.draw': 'drawIndirect',
    'panel.scan': 'step through',
    'panel.tiles': 'tiles',
    'panel.atomic': 'atomic view',
    'panel.order': 'why order matters',
    'panel.bench': 'benchmark',
    'panel.code': 'code',
    'panel.course': 'a course',
    'panel.kernel': 'your kernel',
    'embed.copy': 'Copy embed code',
    'embed.element': "As an element: one script tag and one element (needs `script-src 'wasm-unsafe-eval'`)",
    'embed.iframe': 'As an iframe: nothing of the playground runs in your page',
    'embed.more': 'Attributes, events, theming and the CSP each way needs: `docs/embedding.md` in the repository. Without a build: `npm pack` gives a package whose `dist/` folder is the whole thing.',
    footer: 'The kernels are the article’s WGSL, compiled with wgpu to WebAssembly; without WebGPU the page runs the CPU reference (the same kernels mirrored in Rust).',
    loading: 'The playground is still loading; try again in a moment.',
    copied: 'Copied both snippets. Paste either one into your page.',
    copyFailed: 'This browser did not allow copying: select the snippets below and copy them.',
  },
  es: {
    title: 'Compactar los visibles: siete métodos, del contador atómico al scan de una pasada',
    intro:
      'El culling deja un array de flags; un `drawIndirect` necesita una lista densa de índices y un `instanceCount`. El artículo da dos respuestas en la GPU: un **contador atómico** (rápido, pero el orden cambia de una ejecución a otra) o un **prefix sum exclusivo** (el mismo buffer, bit a bit, cada vez); más allá del artículo, cuatro métodos de una pasada y empaquetados, siete en total. Edita los flags, ejecuta cada método en tu GPU y recorre el método que elijas paso a paso con los buffers reales.',
    'embed.title': 'Insértalo en tu documentación',
    'embed.lead':
      'El playground es un elemento personalizado, `<compaction-playground>`, que no toca nada de tu página (shadow DOM, tus fuentes, tu tema claro u oscuro). Elige qué muestra y copia uno de los dos fragmentos: el elemento, o un iframe si tu sitio no puede cargar scripts. Ambos reproducen lo que muestra ahora el playground de arriba.',
    'embed.panels': 'Paneles',
    'panel.editor': 'editor de flags',
    'panel.result': 'resultado',
    'panel.draw': 'drawIndirect',
    'panel.scan': 'paso a paso',
    'panel.tiles': 'tiles',
    'panel.atomic': 'vista atómica',
    'panel.order': 'por qué importa el orden',
    'panel.bench': 'benchmark',
    'panel.code': 'código',
    'panel.course': 'un curso',
    'panel.kernel': 'tu kernel',
    'embed.copy': 'Copiar el código para insertar',
    'embed.element': "Como elemento: una etiqueta script y un elemento (necesita `script-src 'wasm-unsafe-eval'`)",
    'embed.iframe': 'Como iframe: nada del playground se ejecuta en tu página',
    'embed.more':
      'Atributos, eventos, temas y la CSP que necesita cada forma: `docs/embedding.md` en el repositorio. Sin compilar nada: `npm pack` da un paquete cuya carpeta `dist/` es todo lo necesario.',
    footer:
      'Los kernels son el WGSL del artículo, adaptado; el código que los lanza es Rust compilado a WebAssembly con wgpu. Sin WebGPU la página ejecuta la referencia en CPU (los mismos kernels, reimplementados en Rust).',
    loading: 'El playground aún se está cargando; vuelve a probar en un momento.',
    copied: 'Copiados los dos fragmentos. Pega cualquiera de ellos en tu página.',
    copyFailed: 'Este navegador no permitió copiar: selecciona los fragmentos de abajo y cópialos.',
  },
};
