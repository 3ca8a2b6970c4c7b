// The Spanish messages of the scan panel (www/panels/scan/), fetched with it; the
// English twins in ../en/scan.js.

export const messages = {
  // steps.js
  'scan.level0': 'nivel 0 (flags)',
  'scan.levelN': 'nivel {level} (sumas de bloque del nivel {below})',
  'scan.where': ' · bloque {block}',
  'scan.heading': '{level}{where} · {what}',
  'scan.empty.title': 'Sin flags',
  'scan.empty': 'No hay flags para el scan: añade al menos uno.',
  'scan.load.what': 'carga en memoria compartida',
  'scan.load.sumsRow': 'block_sums del nivel {below}',
  'scan.load.past': ' Las otras {padding} invocaciones del workgroup quedan más allá del final del array y cargan 0.',
  'scan.load.flags':
    'El workgroup {block} tiene 256 invocaciones; cada una copia su flag al array compartido `tmp[li]`, contando como 1 cualquier flag distinto de cero, y luego todas esperan en una barrera para que nadie lea `tmp` antes de que todas hayan escrito.{past}',
  'scan.load.sums':
    'El mismo pipeline hace el scan de las {len} sumas de bloque del nivel {below}, un nivel más arriba; esta vez cada invocación carga su valor tal cual, sin convertirlo en 1, porque son recuentos, no flags.{past}',
  'scan.hs.what': 'paso {s} de 8 de Hillis–Steele, distancia {offset}',
  'scan.hs.before': 'tmp antes',
  'scan.hs.after': 'tmp después',
  'scan.hs.first':
    'cada invocación con li ≥ 1 suma a su valor el de su vecina de la izquierda, `tmp[li − 1]`; lee ambos valores en registros, espera en una barrera, luego escribe y vuelve a esperar, y las dos barreras quedan fuera del `if (li >= offset)` porque todas las invocaciones del workgroup deben llegar a `workgroupBarrier` (flujo de control uniforme).',
  'scan.hs.later':
    'cada invocación con li ≥ {offset} suma `tmp[li − {offset}]`, leído antes de la primera barrera para que ninguna vecina vea un array a medio actualizar; las invocaciones con li < {offset} se saltan la suma pero llegan igualmente a las dos barreras, y por eso las barreras están fuera del `if`.',
  'scan.hs.now': 'Ahora `tmp[li]` es la suma de los {covers} valores que terminan en li.',
  'scan.hs.nowAll': 'Ahora `tmp[li]` es la suma de los {covers} valores que terminan en li: el prefijo inclusivo del bloque.',
  'scan.hs.idle':
    ' Ninguno de los {live} elementos reales tiene pareja a una distancia {offset} a su izquierda, así que nada de lo mostrado cambia, pero las 256 invocaciones ejecutan el paso igualmente.',
  'scan.hs': 'Distancia {offset}: {why} {now}{idle}',
  'scan.exclusive.what': 'inclusivo → exclusivo',
  'scan.row.own': 'v (valor propio)',
  'scan.row.inclusive': 'tmp (inclusivo)',
  'scan.exclusive':
    '`tmp[li]` cuenta al propio elemento (un prefijo inclusivo), pero un hueco debe contar solo lo que va antes: cada invocación escribe `prefix[i] = tmp[li] − v`, restando su propio valor, y así el prefijo inclusivo pasa a ser el exclusivo: `prefix[i]` es el número de flags visibles anteriores dentro de este bloque.',
  'scan.exclusive.upper':
    'Aquí los valores son las sumas de bloque del nivel {below}, y `tmp[b]` incluye la suma del propio bloque b. Cada invocación escribe `prefix[b] = tmp[b] − v`, restándola: `prefix[b]` es el número de flags visibles en los bloques del nivel {below} anteriores al bloque b (dentro de este bloque de 256 de ellos), el desplazamiento que el bloque b sumará a sus prefijos al bajar.',
  'scan.blocksum.what': 'la suma del bloque',
  'scan.blocksum.pad': ', incluidos los {padding} ceros de relleno',
  'scan.blocksum.top': ' Este es el nivel superior, un único bloque, así que su suma {sum} es el número de flags visibles: el recuento que necesitan los argumentos del dibujo indirecto.',
  'scan.blocksum.next': ' Ahora el nivel {level} hace el scan de estas {sums} sumas de bloque.',
  'scan.blocksum':
    'Solo la última invocación, li = 255, escribe `block_sums[{block}]` = {sum}: tras el octavo paso su `tmp` guarda la suma inclusiva de todo el bloque{pad}, así que es la única invocación que conoce el total del bloque.{then}',
  'scan.offsets.what': 'suma de los desplazamientos de bloque',
  'scan.row.offsets': 'offsets[b] (prefijo del nivel {level})',
  'scan.row.blockPrefix': 'prefijo en el bloque',
  'scan.offsets.block0': 'el bloque 0',
  'scan.offsets.blocks': 'los bloques 0…{last}',
  'scan.offsets.first': 'el bloque 0 suma 0, porque ningún bloque va antes',
  'scan.offsets.earlier': '`offsets[{block}]` = {off} es cuántos visibles hay en {before}',
  'scan.offsets':
    '`add_offsets`: cada invocación del bloque {block} suma el desplazamiento de su bloque (el scan exclusivo de las sumas de bloque, hecho un nivel más arriba) a su prefijo dentro del bloque, y lo convierte en el prefijo exclusivo global; aquí {earlier}.',
  'scan.scatter.title': 'Dispersión{where}',
  'scan.scatter':
    'Cada invocación cuyo flag es visible escribe su propio índice i en `indices[prefix[i]]`; el scan ya le dio a cada una un hueco distinto, así que no hacen falta atómicos y la lista conserva el orden de entrada: el mismo buffer, bit a bit, en cada ejecución. Las invocaciones invisibles no escriben nada.',
  'scan.result.more': ' (se muestran los primeros {shown})',
  'scan.result':
    'La lista tiene {count} visibles de {n}{more}. Su número es la suma de bloque del nivel superior, que `scan_block` escribió directamente en el buffer del recuento; se escribe como instanceCount = {instanceCount} en el buffer de argumentos indirectos, y un solo drawIndirect dibuja ese número de instancias: cada vertex shader encuentra su objeto con `visibles[instance_index]`.',

  // stepper.js
  'scan.block': 'Bloque',
  'scan.diagram': 'Los buffers del método en este paso: una fila por buffer, una celda por elemento',
  'scan.controls': 'Controles del recorrido',
  'scan.blockOption': '{b} (flags {first}–{last})',
  'scan.ours': 'el nuestro: {value}',
  'scan.learner':
    'Estos son los buffers de tu kernel, leídos de la GPU. Una celda con marco rojo tiene otro valor que el nuestro (el nuestro, en su esquina). Las flechas son lo que lee nuestro algoritmo, no lo que leyó tu kernel.',
  'scan.inspector': 'Pasa el ratón por una celda (o llega a ella con el teclado) para ver qué lee y qué escribe su invocación.',
  'scan.inspect.none': '{cell}: ninguna invocación escribe aquí en este paso.',
  'scan.inspect.writes': '; escribe {writes}',
  'scan.inspect.writesNothing': '; no escribe nada',
  'scan.inspect': 'Invocación li = {inv}: lee {reads}{writes}.',
  // Los pasos de los otros métodos (atomic-steps.js, packed-steps.js) y el título.
  'scan.card': '{method}, paso a paso',
  'scan.stepping': 'Recorrido de `{method}` con sus propios buffers: {kernels}',
  'scan.tileMethodHere': '`{method}` trabaja por tiles y se recorre en la vista de tiles, que esta página no muestra: aquí, en su lugar, los pasos del scan.',
  'scan.learnerUnordered':
    'Son los buffers de tu kernel, leídos desde la GPU. Un método atómico puede repartir los huecos en cualquier orden, así que no se marca nada frente a los nuestros: la comprobación de arriba dice si la lista es correcta.',
  'scan.atomic.group': 'Workgroup',
  'scan.atomic.where': ' · workgroup {group}',
  'scan.atomic.none': 'ninguno',
  'scan.atomic.slotRow': 'hueco (devuelto por atomicAdd)',
  'scan.atomic.read.title': 'Cada invocación lee su flag{where}',
  'scan.atomic.read': 'Cada una de estas {live} invocaciones lee su flag: {visible} son visibles y cada una pedirá un hueco al único contador global; las demás terminan en el acto.',
  'scan.aggregated.read': 'Cada una de las {live} invocaciones del workgroup {group} lee su flag: {visible} son visibles. A diferencia de `atomic`, ninguna toca el contador global por sí misma.',
  'scan.atomic.slot': 'el hueco {slot}',
  'scan.atomic.slots': 'los huecos {from}–{last}',
  'scan.atomic.take.title': 'atomicAdd reparte {slots}{where}',
  'scan.atomic.take':
    'El contador global repartió {slots}, un `atomicAdd(&counter, 1u)` por invocación, en el orden en que le llegaron los atómicos; el valor devuelto es el hueco (con marco: nuevo en este paso). En este workgroup: {here}{elsewhere}. Este orden se leyó de `indices`, donde cada invocación escribió su índice: es el de esta ejecución, no una regla.',
  'scan.atomic.elsewhere': '; {n} fueron a invocaciones de otros workgroups',
  'scan.aggregated.local.title': 'Un hueco local en memoria compartida{where}',
  'scan.aggregated.local':
    'Dentro del workgroup, cada una de las {count} invocaciones visibles toma un hueco local de `local_count`, un contador en la memoria del workgroup, mucho más barato que el global. En esta ejecución los huecos locales fueron a las invocaciones {list}, en ese orden; tampoco ese orden está garantizado.',
  'scan.aggregated.reserve.title': 'Un atomicAdd global por workgroup',
  'scan.aggregated.groupRow': 'workgroup',
  'scan.aggregated.reserve':
    'La invocación 0 de cada workgroup suma una sola vez su `local_count` al contador global; el valor devuelto es el `global_base` del workgroup. Los workgroups con flags visibles reservaron en este orden (una celda cada uno, de izquierda a derecha): {list}.{launch}',
  'scan.aggregated.inLaunch': ' En esta ejecución coincide con el orden de lanzamiento; nada obliga a que sea así.',
  'scan.aggregated.outOfLaunch': ' No es el orden de lanzamiento: ese es el reordenamiento entre workgroups.',
  'scan.atomic.write.title': 'Escribir el índice en su hueco{where}',
  'scan.atomic.write':
    'Cada invocación visible escribe su índice en `indices[slot]`. La lista queda densa y completa, pero en el orden en que se repartieron los huecos: {list}… Si se ejecuta otra vez puede cambiar; la del scan nunca cambia.',
  'scan.aggregated.write':
    'Cada invocación visible escribe su índice en `indices[global_base + local_slot]`: los flags visibles de un workgroup caen en un tramo contiguo, y los tramos en el orden en que reservaron los workgroups: {list}…',
  'scan.atomic.result':
    'El valor final del contador es el total, {count} visibles de {n}; pasa a ser instanceCount = {instanceCount} en los argumentos indirectos, y drawIndirect dibuja las instancias en el orden de arriba.',
  'scan.packed.pack.title': 'Empaquetar los flags en bits{where}',
  'scan.packed.pack':
    '`pack_bits_counted`: cada invocación junta 32 flags en una palabra con OR, el flag 32·w + k en el bit k. La palabra {first}, la primera de este bloque, es {word} = {binary} (el bit 0 a la derecha). Una pasada de culling que ya escribe bits se salta este kernel.',
  'scan.packed.count.title': 'Contar los bits de cada tile',
  'scan.packed.count':
    'El mismo kernel cuenta los flags visibles de cada tile de {size} flags ({words} palabras) con countOneBits y escribe `tile_counts[t]`: el tile {tile} tiene {count}. Estos recuentos se leyeron desde la GPU entre este kernel y el siguiente, que los sobrescribe.',
  'scan.packed.scan.title': 'Un scan de los recuentos de los tiles',
  'scan.packed.scan':
    '`scan_tiles` convierte los recuentos de los tiles en su prefix sum exclusivo, en el mismo buffer: el primer hueco del tile t es el número de flags visibles en los tiles anteriores ({slots}). Su total, {count}, es el recuento.',
  'scan.packed.slotRow': 'hueco',
  'scan.packed.scatter.title': 'Dispersión desde los bits{where}',
  'scan.packed.scatter':
    '`tile_scatter_bits`: el workgroup del tile {tile} lee su primer hueco ({base}), hace el scan de sus bits dentro del workgroup, y cada flag visible escribe su índice en `indices[{base} + los flags visibles anteriores del tile]`. Sin atómicos: el orden de entrada, el mismo buffer en cada ejecución.',
  'scan.packed.result': '{count} visibles de {n}: `scan_tiles` también escribió instanceCount = {instanceCount} en los argumentos indirectos.',
};
