// Regenerates dump.rdb deterministically: same entries, ids and values on every run.
//   bun scripts/make-rdb.ts [--entries 339] [--out dump.rdb]
import { copyFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { STREAM_KEY } from '@bench/stream';
import { withDashValues } from '../packages/harness/src/cli/flags';
import { startOrphanGuard } from '../packages/harness/src/system/proc';
import { cli, startPrivateRedis, streamInfo } from '../packages/harness/src/topology/redis';
import { seededRandom } from '../packages/harness/src/stats/stats';

const options = { entries: { type: 'string', default: '339' }, out: { type: 'string', default: 'dump.rdb' } } as const;
let values;
try {
  ({ values } = parseArgs({ args: withDashValues(process.argv.slice(2), options), options }));
} catch (e) {
  console.error(`error: ${(e as Error).message.split('\n')[0]}; accepted: --entries N --out FILE`);
  process.exit(2);
}
const count = Number(values.entries);
if (!/^\d+$/.test(values.entries!) || count < 1) {
  console.error(`error: --entries "${values.entries}" must be a whole number ≥ 1`);
  process.exit(2);
}

// A seeded PRNG, so the data never depends on Math.random.
const rand = seededRandom(20231120);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;

// Value pools shaped like the original data: ~60 heights, ~190 widths (integers and 1/64 fractions).
const heights = Array.from(new Set(Array.from({ length: 80 }, () => String(Math.floor(rand() * 400))))).slice(0, 60);
const widths = Array.from(
  new Set(
    Array.from({ length: 260 }, () =>
      String(Math.floor(rand() * 400) + (rand() < 0.35 ? Math.floor(rand() * 64) / 64 : 0)),
    ),
  ),
).slice(0, 190);

const lines: string[] = [];
let ms = 1_690_000_000_000;
for (let i = 0; i < count; i++) {
  ms += 1 + Math.floor(rand() * 5000);
  const fields = [
    'color',
    pick(['violet', 'red', 'teal', 'blue']),
    'font',
    pick(['eczar', 'karla', 'andada']),
    'alignment',
    pick(['top', 'center']),
    'position',
    pick(['left', 'center', 'right']),
    'height',
    pick(heights),
    'width',
    pick(widths),
  ];
  lines.push(['XADD', STREAM_KEY, `${ms}-0`, ...fields].join(' '));
}

startOrphanGuard();
const redis = await startPrivateRedis(null);
try {
  const fed = spawnSync('redis-cli', ['-u', redis.url], { input: `${lines.join('\n')}\n`, encoding: 'utf8' });
  if (fed.status !== 0 || /ERR/.test(fed.stdout)) throw new Error(`loading entries failed: ${fed.stdout}${fed.stderr}`);
  cli(redis, ['SAVE']);
  copyFileSync(join(redis.server!.dir, 'dump.rdb'), values.out!);
  const info = streamInfo(redis, STREAM_KEY);
  console.log(`wrote ${values.out}: ${STREAM_KEY} with ${info.length} entries, MEMORY USAGE ${info.memoryBytes} bytes`);
} finally {
  await redis.stop();
}
