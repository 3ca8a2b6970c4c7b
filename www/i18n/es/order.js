// The Spanish messages of the order panel (www/panels/order/), fetched with it; the
// English twins in ../en/order.js.

export const messages = {
  // order-panel.js
  'order.lead':
    'Un renderer ordena sus instancias antes del culling: por material, para que un pipeline y un bind group dibujen un grupo entero (aquí {groups} materiales, los colores), y de delante hacia atrás, para que el rechazo temprano de profundidad se salte los píxeles ocultos (más oscuro = más lejos). Unos flags aleatorios descartan más o menos la mitad (cada instancia es visible con probabilidad {density}); cada método compacta lo que queda y el mismo drawIndirect lo dibuja, cada instancia en su lugar del dibujo. Después, {frames} fotogramas con los mismos flags alimentan un historial por instance_index, como el que guarda un efecto temporal (la franja bajo cada dibujo).',
  'order.size': 'Instancias',
  'order.run': 'Ejecutar todos los métodos',
  'order.imageLabel': 'El orden de dibujo de {method}, dibujado con drawIndirect',
  'order.historyLabel': 'El historial de cada instance_index tras los fotogramas, {method}',
  'order.changes': 'cambios de estado (los mínimos posibles)',
  'order.changesValue': '{changes} ({fewest})',
  'order.inversions': 'pares fuera del orden de delante hacia atrás',
  'order.inversionsValue': '{inversions} de {pairs} pares',
  'order.changed': 'valores de instance_index cuyo objeto cambió de un fotograma a otro',
  'order.percent': '{value} %',
  'order.error': 'error del historial tras los fotogramas',
  'order.noteGpu': 'Cada dibujo y cada número salen de los buffers de índices de esta GPU: {visible} de {n} instancias visibles, {frames} fotogramas por método.',
  'order.noteCpu': 'Aquí no hay GPU: los números vienen de la referencia en CPU ({visible} de {n} instancias visibles, {frames} fotogramas por método) y no se dibuja nada.',
  'order.kept':
    'Aquí {methods} conservaron el orden y el mismo orden en cada fotograma: {why} En una GPU con muchos workgroups a la vez su orden se mueve, y con él los cambios de estado, las inversiones y el historial.',
  'order.progress': 'Ejecutando {method}, fotograma {frame} de {frames}…',
  'order.done': 'Hecho: {methods} métodos, {frames} fotogramas cada uno.',
  'order.pending':
    'El dibujo de cada método, sus números y su historial aparecen aquí cuando se ha ejecutado: la escena se ejecuta en cuanto esta tarjeta está a la vista, o con «Ejecutar todos los métodos».',
  'order.failed': 'Fallaron las ejecuciones del panel de orden: {error}',
};
