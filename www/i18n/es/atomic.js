// The Spanish messages of the atomic panel (www/panels/atomic/), fetched with it; the
// English twins in ../en/atomic.js.

export const messages = {
  // atomic-view.js
  'atomic.run': 'Ejecutar ×{runs}',
  'atomic.slotsLabel': 'La posición que obtuvo cada flag visible',
  'atomic.tableLabel': 'Las ejecuciones repetidas',
  'atomic.slotsFrom': 'Posiciones de',
  'atomic.repeat': 'Repetir cada método',
  'atomic.times': 'veces',
  'atomic.slotTitle': 'la invocación {i} obtuvo la posición {slot}',
  'atomic.noSlot': 'el flag {i} es invisible: sin posición',
  'atomic.more': ' Se muestran los primeros {shown} de {n} flags.',
  'atomic.how.atomic': 'Cada invocación visible hizo `atomicAdd(&counter, 1)` y recibió el valor anterior a su incremento: ese número es su posición (abajo en cada celda).',
  'atomic.how.aggregated':
    'Cada workgroup de 64 cuenta sus visibles con un atómico local del workgroup, y luego la invocación 0 reserva toda la racha con un solo atomicAdd global; dentro de un workgroup (sombreados de forma alterna) las posiciones siguen el orden del atómico local.',
  'atomic.caption': '{how} Orden de salida: {order}.{more}',
  'atomic.th.run': 'ejecución',
  'atomic.th.hash': 'hash',
  'atomic.th.order': 'orden',
  'atomic.verdict.scan': 'scan: el mismo búfer, hash {hash}, en las {runs} ejecuciones, por construcción, ya que cada posición la decide la suma prefija.',
  'atomic.verdict.scanBroken': 'scan: {distinct} hashes distintos en {runs} ejecuciones; eso no debería pasar nunca, por favor avísanos.',
  'atomic.verdict.moved.invocations': '{method}: {distinct} órdenes distintos en {runs} ejecuciones; los mismos índices, colocados en el orden en que el hardware planificó las invocaciones.',
  'atomic.verdict.moved.workgroups': '{method}: {distinct} órdenes distintos en {runs} ejecuciones; los mismos índices, colocados en el orden en que el hardware planificó los workgroups.',
  'atomic.verdict.same':
    '{method}: el mismo orden en las {runs} ejecuciones aquí. Es suerte, no una garantía: {why} Nada en el kernel fija el orden; en una GPU ocupada con muchos workgroups a la vez, se mueve.',
  'atomic.empty': '(vacío)',
};
