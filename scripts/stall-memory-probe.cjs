// Preloaded into the app by scripts/stall-memory.sh --heap (node --require): on SIGUSR2 the app writes its V8 heap to
// stderr (a line starting "heap"); on SIGWINCH (--collect) it first runs V8's memory-reducing collection (the
// "last-resort" flavour of --expose-gc's gc), so the line after it says what stays live. A diagnostic, never in a
// measured run.
const v8 = require('node:v8');
const mb = (x) => (x / 1048576).toFixed(1);
const report = (why) => {
  const m = process.memoryUsage();
  const space = (name) => mb(v8.getHeapSpaceStatistics().find((s) => s.space_name === name)?.space_size ?? 0);
  process.stderr.write(
    `heap ${why}: rss ${mb(m.rss)}, V8 heap ${mb(m.heapTotal)} (young ${space('new_space')}, old ` +
      `${space('old_space')}, used ${mb(m.heapUsed)}), external ${mb(m.external)} MB\n`,
  );
};
process.on('SIGUSR2', () => report('at a reading'));
process.on('SIGWINCH', () => {
  v8.setFlagsFromString('--expose-gc');
  require('node:vm').runInNewContext('gc')({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  report('after a memory-reducing collection');
});
