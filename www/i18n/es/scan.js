// The Spanish messages of the scan panel (www/panels/scan/), fetched with it; the
// English twins in ../en/scan.js.

export const messages = {
  // steps.js
  'scan.level0': 'nivel 0 (flags)',
  'scan.levelN': 'nivel {level} (sumas de bloque del nivel {below})',
  'scan.where': ' · bloque {block}',
  'scan.heading': '{level}{where} · {what}',
  'scan.empty.title': 'Sin flags',
  'scan.empty': 'No hay flags que escanear: añade al menos uno.',
  'scan.load.what': 'carga en memoria compartida',
  'scan.load.sumsRow': 'block_sums del nivel {below}',
  'scan.load.past': ' Las otras {padding} invocaciones del workgroup caen fuera del final y cargan 0.',
  'scan.load.flags':
    'El workgroup {block} tiene 256 invocaciones; cada una copia su flag al array compartido `tmp[li]`, contando como 1 cualquier flag distinto de cero, y luego todas esperan en una barrera para que nadie lea `tmp` antes de que todas hayan escrito.{past}',
  'scan.load.sums':
    'Las {len} sumas de bloque del nivel {below} las escanea el mismo pipeline un nivel más arriba; esta vez cada invocación carga su valor tal cual, sin limitarlo a 1, porque son cuentas, no flags.{past}',
  'scan.hs.what': 'paso {s} de 8 de Hillis–Steele, desplazamiento {offset}',
  'scan.hs.before': 'tmp antes',
  'scan.hs.after': 'tmp después',
  'scan.hs.first':
    'cada invocación con li ≥ 1 suma a su valor el de su vecina de la izquierda, `tmp[li − 1]`; lee ambos en un registro, espera en una barrera, luego escribe y vuelve a esperar, y las dos barreras quedan fuera del `if (li >= offset)` porque todas las invocaciones del workgroup deben llegar a `workgroupBarrier` (flujo de control uniforme).',
  'scan.hs.later':
    'cada invocación con li ≥ {offset} suma `tmp[li − {offset}]`, leído antes de la primera barrera para que ninguna vecina vea un array a medio actualizar; las invocaciones con li < {offset} se saltan la suma pero llegan igualmente a las dos barreras, y por eso las barreras están fuera del `if`.',
  'scan.hs.now': 'Ahora `tmp[li]` es la suma de los {covers} valores que terminan en li.',
  'scan.hs.nowAll': 'Ahora `tmp[li]` es la suma de los {covers} valores que terminan en li: el prefijo inclusivo del bloque.',
  'scan.hs.idle': ' Ninguno de los {live} elementos reales tiene pareja {offset} posiciones a su izquierda, así que nada de lo mostrado cambia, pero las 256 invocaciones ejecutan el paso igualmente.',
  'scan.hs': 'Desplazamiento {offset}: {why} {now}{idle}',
  'scan.exclusive.what': 'inclusivo → exclusivo',
  'scan.row.own': 'v (valor propio)',
  'scan.row.inclusive': 'tmp (inclusivo)',
  'scan.exclusive.flags': 'flags visibles',
  'scan.exclusive.blocks': 'visibles de los bloques',
  'scan.exclusive':
    '`tmp[li]` cuenta al propio elemento (un prefijo inclusivo), pero una posición debe contar solo lo que va antes: cada invocación escribe `prefix[i] = tmp[li] − v`, restando su propio valor, y así el prefijo inclusivo pasa a ser el exclusivo: `prefix[i]` es el número de {what} anteriores dentro de este bloque.',
  'scan.blocksum.what': 'la suma del bloque',
  'scan.blocksum.pad': ', incluidos los {padding} ceros de relleno',
  'scan.blocksum.top': ' Este es el nivel superior, un único bloque, así que su suma {sum} es el número de flags visibles: la cuenta que necesitan los argumentos indirectos.',
  'scan.blocksum.next': ' Ahora el nivel {level} escanea estas {sums} sumas de bloque.',
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
    '`add_offsets`: cada invocación del bloque {block} suma el desplazamiento de su bloque (el escaneo exclusivo de las sumas de bloque, hecho un nivel más arriba) a su prefijo dentro del bloque, y lo convierte en el prefijo exclusivo global; aquí {earlier}.',
  'scan.scatter.title': 'Dispersión{where}',
  'scan.scatter':
    'Cada invocación cuyo flag es visible escribe su propio índice i en `indices[prefix[i]]`; el escaneo ya le dio a cada una una posición distinta, así que no hacen falta atómicos y la lista conserva el orden de entrada: el mismo búfer, bit a bit, en cada ejecución. Las invocaciones invisibles no escriben nada.',
  'scan.result.more': ' (se muestran los primeros {shown})',
  'scan.result':
    'El último prefijo más el último flag es el total, {count} visibles de {n}{more}; va al búfer de argumentos indirectos como instanceCount = {instanceCount}, y un solo drawIndirect ejecuta ese número de instancias, y cada vertex shader encuentra su objeto con `visibles[instance_index]`.',

  // stepper.js
  'scan.block': 'Bloque',
  'scan.diagram': 'Los buffers del escaneo en este paso: una fila por buffer, una celda por elemento',
  'scan.controls': 'Paso a paso del escaneo',
  'scan.blockOption': '{b} (flags {first}–{last})',
  'scan.ours': 'el nuestro: {value}',
  'scan.learner':
    'Estos son los buffers de tu kernel, leídos de la GPU. Una celda con marco rojo tiene otro valor que el nuestro (el nuestro, en su esquina). Las flechas son lo que lee nuestro algoritmo, no lo que leyó tu kernel.',
  'scan.inspector': 'Pasa el ratón o el foco por una celda para ver qué lee y escribe su invocación.',
  'scan.inspect.none': '{cell}: ninguna invocación escribe aquí en este paso.',
  'scan.inspect.writes': '; escribe {writes}',
  'scan.inspect.writesNothing': '; no escribe nada',
  'scan.inspect': 'Invocación li = {inv}: lee {reads}{writes}.',
};
