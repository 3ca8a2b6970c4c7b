// The Spanish messages of the tiles panel (www/panels/tiles/), fetched with it; the
// English twins in ../en/tiles.js.

export const messages = {
  // tile-steps.js
  'tiles.rowLabel': 'Los tiles de la ventana en este paso',
  'tiles.one': 'tile {t}',
  'tiles.range': 'tiles {a}–{b}',
  'tiles.many': ' (se muestran {which} de {tiles})',
  'tiles.tickets.gpu.one': 'leído de la GPU: {n} ticket tomado',
  'tiles.tickets.gpu.other': 'leído de la GPU: {n} tickets tomados',
  'tiles.tickets.cpu.one': 'referencia en CPU: {n} ticket tomado',
  'tiles.tickets.cpu.other': 'referencia en CPU: {n} tickets tomados',
  'tiles.tiles.before':
    ' Los tiles anteriores a esta ventana ya terminaron (el tile {last} está en INCLUSIVE); los tiles de la ventana aún no han empezado, así que sus palabras de estado dicen INVALID.',
  'tiles.tiles.nothing': ' Aún no se ha publicado nada: todas las palabras de estado dicen INVALID.',
  'tiles.tiles.title.one': '{n} tile de {size} flags',
  'tiles.tiles.title.other': '{n} tiles de {size} flags',
  'tiles.tiles':
    'Los {n} flags se cortan en tiles de {size}, un workgroup por tile{many}. Un workgroup toma su número de tile de un contador atómico de tickets ({tickets}), así que los tiles se numeran en el orden en que los workgroups empiezan de verdad, y un tile nunca espera a otro que no haya empezado.{done}',
  'tiles.tiles.single': ' Con un solo tile no hay predecesores ni nada que mirar hacia atrás: el único workgroup hace el scan, publica y dispersa.',
  'tiles.count.title': 'Cada tile cuenta sus flags visibles',
  'tiles.count.gpu':
    'Cada workgroup carga su tile una vez (cargas vec4), cuenta los flags visibles con un scan dentro del workgroup y deja sus índices en memoria compartida, en orden. Tile-atomic no publica estado: cada palabra de estado leída tras la ejecución sigue en 0 (INVALID); solo se movió el contador de tickets.',
  'tiles.count.cpu':
    'Cada workgroup carga su tile una vez (cargas vec4), cuenta los flags visibles con un scan dentro del workgroup y deja sus índices en memoria compartida, en orden. Tile-atomic no publica estado: cada palabra de estado tras la ejecución sigue en 0 (INVALID); solo se movió el contador de tickets.',
  'tiles.claim.title': 'Un atomicAdd por tile reserva su rango de salida',
  'tiles.claim.swapped': ' (aquí, no el orden de los tiles)',
  'tiles.claim.readBack': ' Los inicios se leen de la salida de la GPU (donde empieza el tramo de cada tile).',
  'tiles.claim':
    'En vez de mirar hacia atrás, la invocación 0 de cada tile hace `atomicAdd(&count, aggregate)` y obtiene el inicio de su rango: un atómico por tile de {tile} flags, donde el contador simple hace uno por cada flag visible. Los rangos siguen el orden en que ocurrieron los atómicos{swapped}: dentro de un tile los índices siguen en orden, entre tiles no.{readBack}',
  'tiles.publish.zero': ' El tile 0 no tiene nada antes, así que publica INCLUSIVE directamente.',
  'tiles.publish.late': ' El workgroup del tile {t} tomó su ticket pero no se está ejecutando (una GPU sin garantías de progreso puede dejarlo esperando): su estado sigue en INVALID.',
  'tiles.publish.title': 'Oleada {wave}: los tiles {a}–{b} hacen su scan y publican AGGREGATE',
  'tiles.publish':
    'En esta simulación se ejecutan {inFlight} workgroups a la vez. Cada uno cuenta su tile con un scan dentro del workgroup y publica ese recuento de inmediato como AGGREGATE: «mi propio total; mi prefijo aún no se sabe». Publicar antes de conocer el prefijo es lo que desacopla los tiles: un sucesor puede usar la cuenta enseguida.{zero}{late}',
  'tiles.link.aggregate': 'tile {t}: AGGREGATE {value}, lo suma y sigue leyendo hacia atrás',
  'tiles.link.inclusive': 'tile {t}: INCLUSIVE {value}, que ya cuenta todo hasta su final, así que lo suma y se detiene',
  'tiles.link.counted': 'tile {t}: no publicó nada; tras {polls} sondeos carga los flags del tile {t} y los cuenta por sí mismo ({value}), y sigue más allá',
  'tiles.look.end': ' Llegó al tile 0, así que no hay nada antes.',
  'tiles.look.fallback':
    ' Esperó a un predecesor que nunca publicó y luego contó por sí mismo los flags de ese tile: como un tile que espera siempre puede hacerlo, ningún tile depende de que otro avance, y la pasada no puede bloquearse.',
  'tiles.look.noWait': ' No hizo falta una segunda pasada: cada predecesor que leyó había publicado su total mientras aún se ejecutaba.',
  'tiles.late.title': 'El tile {t} llega tarde: publica, mira hacia atrás, publica',
  'tiles.look.title': 'El tile {t} mira hacia atrás',
  'tiles.late.intro': 'El workgroup del tile {t} por fin se ejecuta: publica AGGREGATE {aggregate} y mira hacia atrás: ',
  'tiles.look.intro': 'El tile {t} necesita el número de flags visibles anteriores. Lee ',
  'tiles.look': '{intro}{parts}. Prefijo exclusivo = {sum}.{end}{after}',
  'tiles.inclusive.title': 'La oleada {wave} publica INCLUSIVE',
  'tiles.inclusive.readBack': ' Los valores INCLUSIVE finales son los leídos del buffer de estados de la GPU.',
  'tiles.inclusive':
    'Cada tile de la oleada ya conoce su prefijo y publica INCLUSIVE = exclusivo + recuento propio, sobrescribiendo su AGGREGATE. El look-back de un tile posterior se detiene en el primer INCLUSIVE que encuentra, así que las cadenas son cortas: como mucho, los tiles que se ejecutan a la vez.{readBack}',
  'tiles.scatter.title': 'Dispersión: cada tile escribe un tramo contiguo',
  'tiles.scatter.atomic':
    'Cada tile copia los índices que dejó en memoria compartida a `indices[start …]`, el rango que le devolvió su atomicAdd: tramos enteros, pero en el orden en que ocurrieron los atómicos.',
  'tiles.scatter':
    'En la misma pasada, cada tile copia los índices que dejó en memoria compartida a `indices[exclusive …]`: un tramo contiguo por tile, en orden de tiles. Los flags se leyeron una vez y cada hueco se decidió en este único dispatch; un scan por bloques necesita una segunda pasada solo porque sus bloques no ven los totales de los demás mientras se ejecutan; aquí los publican.',
  'tiles.result.atomic': 'El contador guarda {count} visibles de {n}; un kernel de una invocación lo copia a instanceCount = {instanceCount} (leído desde la GPU).',
  'tiles.result':
    'El prefijo inclusivo del último tile es el total, {count} visibles de {n}: ese mismo tile escribió count e instanceCount = {instanceCount} en el buffer indirecto (leído desde la GPU), así que drawIndirect no necesita otro dispatch.',

  // tiles-view.js
  'tiles.window': 'Tiles',
  'tiles.controls': 'Paso a paso de los tiles',
  'tiles.inFlight': 'Workgroups a la vez',
  'tiles.stalled': 'Workgroup detenido',
  'tiles.stalled.none': 'ninguno',
  'tiles.why.atomic':
    'Tile-atomic también es una sola pasada, pero por otra razón: ningún tile necesita saber qué va antes, porque el contador global reparte rangos de salida en el orden en que llegan los tiles. Por eso se pierde el orden entre tiles; el look-back lo conserva al precio de leer los estados de unos pocos predecesores.',
  'tiles.why':
    'Por qué basta una pasada: un tile solo necesita los totales de los tiles anteriores, y cada tile publica su propio total (AGGREGATE) en cuanto ha contado, mucho antes de terminar; así un tile suma los totales de sus predecesores hasta el prefijo terminado más cercano (INCLUSIVE) en vez de esperar una segunda pasada sobre todos los bloques. Y si el workgroup de un predecesor nunca se ejecuta, el tile que espera cuenta por sí mismo los flags de ese tile, así que ningún tile depende de que otro avance.',
  'tiles.flags': 'flags {first}–{last}',
  'tiles.suggest.one': 'Este array cabe en un solo tile de {size} flags, así que no hay look-back que ver.',
  'tiles.suggest.none': 'Este array no llena ningún tile de {size} flags, así que no hay look-back que ver.',
  'tiles.suggest': 'Probar {n} flags aleatorios ({tiles} tiles)',
  'tiles.src.gpu': 'GPU',
  'tiles.src.cpu': 'CPU',
  'tiles.src.simulation': 'simulación',
  'tiles.sources.gpuAtomic':
    'leído de la GPU tras la ejecución: las palabras de estado de los tiles (todas aún en INVALID: tile-atomic no publica ninguna), el recuento de tickets, dónde empieza en la salida el tramo de cada tile, los índices, count e instanceCount.',
  'tiles.sources.gpu':
    'leído de la GPU tras la ejecución: los estados finales de los tiles (estado y valor inclusivo), el prefijo exclusivo de cada tile (el valor inclusivo anterior), la cuenta de tickets, los índices, count e instanceCount.',
  'tiles.sources.cpuOnly': 'la referencia en CPU (sin WebGPU): cada número viene del espejo en Rust del kernel.',
  'tiles.sources.cpu': 'contado en la CPU a partir de los flags: el AGGREGATE (total propio) de cada tile (el kernel lo guarda en un registro y sobrescribe el estado que lo contenía).',
  'tiles.sources.simulation': 'la simulación en CPU de una planificación ({inFlight} workgroups a la vez): qué estado vio cada tile, y cuándo. Ningún buffer de la GPU registra eso.',
  'tiles.saw': 'vio {state}',
  'tiles.saw.counted': 'no vio nada: contó por sí mismo',
  'tiles.returned': 'devolvió {value}',
  'tiles.slots': 'huecos {a}–{b}',
  'tiles.wave': 'oleada {wave}',
  'tiles.wave.stalled': 'oleada {wave}, detenido',
  'tiles.dt.aggregate': 'aggregate',
  'tiles.dt.start': 'inicio',
  'tiles.dt.exclusive': 'exclusivo',
  'tiles.output': 'salida: indices[{a} … {b}]',
};
