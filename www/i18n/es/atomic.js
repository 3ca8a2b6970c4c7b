// The Spanish messages of the atomic panel (www/panels/atomic/), fetched with it; the
// English twins in ../en/atomic.js.

export const messages = {
  // atomic-view.js
  'atomic.run': 'Ejecutar ×{runs}',
  'atomic.slotsLabel': 'El hueco que obtuvo cada flag visible',
  'atomic.tableLabel': 'Las ejecuciones repetidas',
  'atomic.slotsFrom': 'Huecos según',
  'atomic.repeat': 'Repetir cada método',
  'atomic.times': 'veces',
  'atomic.slotTitle': 'la invocación {i} obtuvo el hueco {slot}',
  'atomic.noSlot': 'el flag {i} es invisible: sin hueco',
  'atomic.more': ' Se muestran los primeros {shown} de {n} flags.',
  'atomic.how.atomic': 'Cada invocación visible hizo `atomicAdd(&counter, 1)` y recibió el valor anterior a su incremento: ese es su hueco (abajo en cada celda).',
  'atomic.how.aggregated':
    'Cada workgroup de 64 cuenta sus visibles con un atomicAdd en memoria del workgroup y luego la invocación 0 reserva todo el tramo con un solo atomicAdd global; dentro de un workgroup (sombreados alternos) los huecos siguen el orden en que se resolvió el atómico local, que tampoco está garantizado.',
  'atomic.caption': '{how} Orden de salida: {order}.{more}',
  'atomic.th.run': 'ejecución',
  'atomic.th.hash': 'hash',
  'atomic.th.order': 'orden',
  'atomic.verdict.scan': 'scan: el mismo buffer, hash {hash}, en las {runs} ejecuciones, por construcción: el hueco de cada flag lo decide el prefix sum.',
  'atomic.verdict.scanBroken': 'scan: {distinct} hashes distintos en {runs} ejecuciones; eso no debería pasar nunca, por favor avísanos.',
  'atomic.verdict.moved.invocations': '{method}: {distinct} órdenes distintos en {runs} ejecuciones; los mismos índices, colocados en el orden en que el hardware planificó las invocaciones.',
  'atomic.verdict.moved.workgroups': '{method}: {distinct} órdenes distintos en {runs} ejecuciones; los mismos índices, colocados en el orden en que el hardware planificó los workgroups.',
  'atomic.verdict.same': '{method}: el mismo orden en las {runs} ejecuciones aquí.',
  'atomic.verdict.why':
    'Es suerte, no una garantía: {why} Nada en el kernel fija el orden; en una GPU ocupada, con muchos workgroups en vuelo, cambia. «Buscar dónde cambia el orden» hace crecer los flags hasta que aquí cambie.',
  'atomic.search': 'Buscar dónde cambia el orden',
  'atomic.search.start': 'Buscando un tamaño en el que cambie el orden…',
  'atomic.search.progress': '{n} flags: {method}, ejecución {k} de {runs}',
  'atomic.search.found':
    'Con {n} flags aleatorios (la mitad visibles), esta GPU dio más de un orden para {methods} en {runs} ejecuciones de cada uno: abajo, las ejecuciones una al lado de otra, y junto a ellas el único buffer del scan.',
  'atomic.search.use': 'Mostrar estos {n} flags en la página',
  'atomic.search.software':
    'Ningún tamaño hasta {max} flags cambió el orden en {runs} ejecuciones de cada método: este adaptador ({adapter}) es WebGPU sobre la CPU, que ejecuta los workgroups uno tras otro. Una GPU de verdad ejecuta muchos a la vez, y ahí el orden cambia.',
  'atomic.search.gpu':
    'Ningún tamaño hasta {max} flags cambió el orden en {runs} ejecuciones de cada método en esta GPU. Nada en los kernels lo fija: con la GPU más ocupada, u otra vez, puede cambiar.',
  'atomic.search.cpu': 'Sin WebGPU, la referencia en CPU ejecuta las invocaciones una tras otra, en orden de índice: su orden nunca cambia.',
  'atomic.empty': '(vacío)',
};
