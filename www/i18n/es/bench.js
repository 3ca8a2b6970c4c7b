// The Spanish messages of the bench panel (www/panels/bench/), fetched with it; the
// English twins in ../en/bench.js.

export const messages = {
  // bench-panel.js
  'bench.lead':
    'Cada método sobre arrays cada vez más grandes en esta GPU. Primero se compilan los pipelines (y se cronometran), aparte de las ejecuciones; luego muchas compactaciones seguidas se ejecutan entre dos marcas de tiempo de la GPU y el tiempo se divide entre su número, porque los navegadores redondean las marcas (Chrome, a 100 µs). Sin timestamp-query se mide el tiempo real transcurrido hasta que termina la lectura desde la GPU. Flags aleatorios con la densidad elegida; cada salida se comprueba contra la CPU.',
  'bench.methods': 'Los métodos a medir',
  'bench.max': 'Hasta',
  'bench.density': 'Densidad',
  'bench.adapter': 'Esta GPU, tal como la describe el navegador: {adapter}.',
  'bench.timer.wallSliced':
    'Cronómetro: el tiempo real transcurrido. En un adaptador por software cada ejecución va en tramos, un envío cada uno (para que la página siga respondiendo), y se mide su suma hasta que termina la lectura desde la GPU: ninguna marca de tiempo de la GPU puede abarcarla.',
  'bench.run': 'Ejecutar el benchmark',
  'bench.cancel': 'Cancelar',
  'bench.tableLabel': 'Las mediciones',
  'bench.compileTitle': 'Compilación, cronometrada aparte de las ejecuciones',
  'bench.compiled': '{method}: {ms} ms (compilar y una ejecución de 10 flags)',
  'bench.progress': '{method}, N = {n} ({done} de {total})…',
  'bench.compiling': 'Compilando {method}…',
  'bench.done': 'Hecho: {rows} mediciones.',
  'bench.cancelled': 'Cancelado tras {rows} mediciones.',
  'bench.failed': 'El benchmark se detuvo: {error}',
  'bench.timer.gpu': 'Cronómetro: marcas de tiempo de la GPU (timestamp-query), entre muchas compactaciones.',
  'bench.timer.wall': 'Cronómetro: el tiempo real transcurrido (este navegador no concede timestamp-query) hasta que termina la lectura desde la GPU.',
  'bench.softwareCaveat': 'Estos tiempos salen de la CPU (un adaptador por software o la referencia en CPU): no dicen nada de una GPU de verdad, donde el orden de los métodos cambia.',
  'bench.timer.cpu': 'Cronómetro: el reloj de pared alrededor de la referencia en CPU (aquí no hay GPU).',
  'bench.resolution': 'Las marcas de tiempo son múltiplos de {us} µs: cada medición abarca miles de ellas.',
  'bench.resolutionNs': 'Las marcas de tiempo son múltiplos de {ns} ns (este navegador no las redondea).',
  'bench.timerShort.gpu': 'GPU',
  'bench.timerShort.wall': 'tiempo real',
  'bench.timerShort.cpu': 'CPU',
  'bench.th.method': 'método',
  'bench.th.n': 'N',
  'bench.th.median': 'mediana µs',
  'bench.th.gbps': 'GB/s',
  'bench.th.timer': 'cronómetro',
  'bench.th.reps': 'compactaciones por par de marcas',
  'bench.th.check': 'comprobación',
  'bench.axis.time': 'µs por compactación (mediana), ejes logarítmicos',
  'bench.axis.gbps': 'GB/s (4N leídos + 4K escritos), ejes logarítmicos',
};
