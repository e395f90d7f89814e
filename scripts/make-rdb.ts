// Regenerates dump.rdb deterministically: same entries, ids and values on every run.
//   bun scripts/make-rdb.ts [--entries 339] [--out dump.rdb] [--hostile]
// --hostile: each entry also has a field `note` whose values are what a JSON body must escape or pass through
// exactly (quotes, backslashes, control characters, emoji, U+2028/2029, long values) and bytes that are not UTF-8;
// five entries more have integer-like, repeated and `__proto__` field names, a leading BOM and a name not UTF-8.
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { STREAM_KEY } from '@bench/stream';
import { withDashValues } from '../packages/harness/src/cli/flags';
import { printedHelp } from '../packages/harness/src/cli/usage-error';
import { startOrphanGuard } from '../packages/harness/src/system/proc';
import { cli, startPrivateRedis, streamInfo } from '../packages/harness/src/topology/redis';
import { seededRandom } from '../packages/harness/src/stats/stats';
import { MAX_ENTRIES } from '../packages/harness/src/run/entries';

const options = {
  entries: { type: 'string', default: '339' },
  out: { type: 'string', default: 'dump.rdb' },
  hostile: { type: 'boolean', default: false },
} as const;
const HELP = `usage: npm run make-rdb -- [--entries 339] [--out dump.rdb] [--hostile]
  --entries N   the stream's entries (default 339)
  --out FILE    where the RDB goes (default dump.rdb)
  --hostile     each entry also has a field \`note\` whose values a JSON body must escape or pass through exactly,
                and bytes that are not UTF-8; five entries more have integer-like, repeated and \`__proto__\` names
  --help        this help`;
if (printedHelp(process.argv.slice(2), HELP)) process.exit(0);
let values;
try {
  ({ values } = parseArgs({ args: withDashValues(process.argv.slice(2), options), options }));
} catch (e) {
  console.error(`error: ${(e as Error).message.split('\n')[0]}; accepted: --entries N --out FILE --hostile`);
  process.exit(2);
}
const count = Number(values.entries);
if (!/^\d+$/.test(values.entries!) || count < 1 || count > MAX_ENTRIES) {
  console.error(`error: --entries "${values.entries}" must be a whole number from 1 to ${MAX_ENTRIES}`);
  process.exit(2);
}
const out = resolve(values.out!);
if (existsSync(out) && statSync(out).isDirectory()) {
  console.error(`error: --out ${values.out} is a folder; give a file, e.g. --out ${join(values.out!, 'dump.rdb')}`);
  process.exit(2);
}
if (!existsSync(dirname(out))) {
  console.error(`error: --out ${values.out}: its folder ${dirname(out)} does not exist; make it first`);
  process.exit(2);
}
if (!statSync(dirname(out)).isDirectory()) {
  console.error(`error: --out ${values.out}: ${dirname(out)} is a file, not a folder; give a path in a folder`);
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

/** --hostile: the note values, in turn (bytes, so that some are not UTF-8). */
const utf8 = (s: string) => Buffer.from(s, 'utf8');
const HOSTILE: Buffer[] = [
  utf8('say "hi"'),
  utf8('back\\slash \\" \\\\'),
  utf8(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i), 0x7f)),
  utf8('😀 café ☃ 𝄞 中文'),
  utf8('line\u2028para\u2029end'),
  utf8(`${'long "value" \\ 😀 '.repeat(400)}`),
  Buffer.from([0x61, 0xff, 0x62]),
  Buffer.from([0xc0, 0xaf, 0x22]),
  Buffer.from([0xed, 0xa0, 0x80, 0x5c]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xf0, 0x9f, 0x98]),
  utf8(''),
];

/** --hostile: the entries of their own, each a list of names and values. */
const HOSTILE_NAMES: (string | Buffer)[][] = [
  ['color', 'red', '2', 'two', '1', 'one'],
  ['color', 'red', 'font', 'karla', 'color', 'blue'],
  ['color', 'red', '__proto__', 'proto'],
  ['note', Buffer.from([0xef, 0xbb, 0xbf, 0x41])],
  [Buffer.from([0x6b, 0xff]), 'bad byte in the name'],
];

/** One command in RESP, binary-safe (redis-cli --pipe). */
const resp = (args: (string | Buffer)[]) =>
  Buffer.concat([
    Buffer.from(`*${args.length}\r\n`),
    ...args.flatMap((a) => {
      const b = typeof a === 'string' ? utf8(a) : a;
      return [Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n')];
    }),
  ]);

const commands: Buffer[] = [];
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
  const note = values.hostile ? ['note', HOSTILE[i % HOSTILE.length]!] : [];
  commands.push(resp(['XADD', STREAM_KEY, `${ms}-0`, ...fields, ...note]));
}
// --hostile: then entries of their own whose field names objects cannot hold in stream order, a leading BOM, and a
// name that is not UTF-8 (the contract on any stream, docs/methodology.md).
if (values.hostile)
  for (const kv of HOSTILE_NAMES) commands.push(resp(['XADD', STREAM_KEY, `${(ms += 1000)}-0`, ...kv]));

startOrphanGuard();
const redis = await startPrivateRedis(null).catch((e: Error) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
try {
  const fed = spawnSync('redis-cli', ['-u', redis.url, '--pipe'], { input: Buffer.concat(commands), encoding: 'utf8' });
  if (fed.status !== 0 || !/errors: 0,/.test(fed.stdout))
    throw new Error(`loading entries failed: ${fed.stdout}${fed.stderr}`);
  cli(redis, ['SAVE']);
  try {
    copyFileSync(join(redis.server!.dir, 'dump.rdb'), values.out!);
  } catch (e) {
    throw new Error(
      `--out ${values.out} cannot be written (${(e as NodeJS.ErrnoException).code}): give a writable file`,
    );
  }
  const info = streamInfo(redis, STREAM_KEY);
  console.log(`wrote ${values.out}: ${STREAM_KEY} with ${info.length} entries, MEMORY USAGE ${info.memoryBytes} bytes`);
} catch (e) {
  console.error(`error: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await redis.stop();
}
