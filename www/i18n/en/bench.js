// The English messages of the bench panel (www/panels/bench/), fetched with it; the
// Spanish twins in ../es/bench.js.

export const messages = {
  // bench-panel.js
  'bench.lead':
    'Each method over growing arrays on this GPU. Pipelines are compiled (and timed) first, apart from the runs; then many compactions run back to back between two GPU timestamps and the time is divided by their number, because browsers round timestamps (Chrome to 100 µs). Without timestamp-query the wall clock times them, to the end of a readback. Random flags at the density chosen; every output is checked against the CPU.',
  'bench.methods': 'The methods to measure',
  'bench.max': 'Up to',
  'bench.density': 'Density',
  'bench.adapter': 'This GPU, as the browser reports it: {adapter}.',
  'bench.timer.wallSliced':
    'Timer: the wall clock. On a software adapter each run goes in slices, one submission each (so that the page stays responsive), and their sum is timed to the end of a readback: no GPU timestamps can span it.',
  'bench.run': 'Run the benchmark',
  'bench.cancel': 'Cancel',
  'bench.tableLabel': 'The measurements',
  'bench.compileTitle': 'Compilation, timed apart from the runs',
  'bench.compiled': '{method}: {ms} ms (compile and one run of 10 flags)',
  'bench.progress': '{method}, N = {n} ({done} of {total})…',
  'bench.compiling': 'Compiling {method}…',
  'bench.done': 'Done: {rows} measurements.',
  'bench.cancelled': 'Cancelled after {rows} measurements.',
  'bench.failed': 'The benchmark stopped: {error}',
  'bench.timer.gpu': 'Timer: GPU timestamps (timestamp-query), between many compactions.',
  'bench.timer.wall': 'Timer: the wall clock (this browser grants no timestamp-query), to the end of a readback.',
  'bench.softwareCaveat': 'These times come from the CPU (a software adapter or the CPU reference): they say nothing about a hardware GPU, where the ranking differs.',
  'bench.timer.cpu': 'Timer: the wall clock around the CPU reference (no GPU here).',
  'bench.resolution': 'The timestamps are multiples of {us} µs: each measurement spans thousands of them.',
  'bench.resolutionNs': 'The timestamps are multiples of {ns} ns (this browser does not round them).',
  'bench.timerShort.gpu': 'GPU',
  'bench.timerShort.wall': 'wall',
  'bench.timerShort.cpu': 'CPU',
  'bench.th.method': 'method',
  'bench.th.n': 'N',
  'bench.th.median': 'median µs',
  'bench.th.gbps': 'GB/s',
  'bench.th.timer': 'timer',
  'bench.th.reps': 'per stamp',
  'bench.th.check': 'check',
  'bench.axis.time': 'µs per compaction (median), log axes',
  'bench.axis.gbps': 'GB/s (4N read + 4K written), log axes',
};
