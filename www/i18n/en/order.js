// The English messages of the order panel (www/panels/order/), fetched with it; the
// Spanish twins in ../es/order.js.

export const messages = {
  // order-panel.js
  'order.lead':
    'A renderer sorts its instances before culling: by material, so that one pipeline and bind group draw a whole group ({groups} materials here, the colours), and front to back, so that early depth rejection skips hidden pixels (darker = farther). Random flags cull about half of them (each instance is visible with probability {density}); each method compacts what is left and the same drawIndirect draws it, each instance at its place in the draw. Then {frames} frames with the same flags feed a history per instance_index, as a temporal effect keeps one (the strip under each draw).',
  'order.size': 'Instances',
  'order.run': 'Run every method',
  'order.imageLabel': 'The draw order of {method}, drawn with drawIndirect',
  'order.historyLabel': 'The history of each instance_index after the frames, {method}',
  'order.changes': 'state changes (fewest possible)',
  'order.changesValue': '{changes} ({fewest})',
  'order.inversions': 'front-to-back inversions',
  'order.inversionsValue': '{inversions} of {pairs} pairs',
  'order.changed': 'instance_index slots whose object changed, per frame',
  'order.percent': '{value} %',
  'order.error': 'history error after the frames',
  'order.noteGpu': 'Every draw and every number is from this GPU’s index buffers: {visible} of {n} instances visible, {frames} frames per method.',
  'order.noteCpu': 'No GPU here: the numbers come from the CPU reference ({visible} of {n} instances visible, {frames} frames per method) and nothing is drawn.',
  'order.kept':
    'Here {methods} kept the sorted order and the same order every frame: {why} On a GPU with many workgroups in flight their order moves, and with it the state changes, the inversions and the history.',
  'order.progress': 'Running {method}, frame {frame} of {frames}…',
  'order.done': 'Done: {methods} methods, {frames} frames each.',
  'order.pending': 'Each method’s draw, its numbers and its history appear here when it has run: the scene runs once this card is in view, or on “Run every method”.',
  'order.failed': 'The order panel’s runs failed: {error}',
};
