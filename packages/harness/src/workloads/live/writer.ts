// The live writer: appends entries shaped like the stream's at a steady rate while an app
// serves it, and logs every write so the checker can rebuild the whole sequence from the log.
//   bun packages/harness/src/workloads/live/writer.ts --url redis://127.0.0.1:P --key K --rate 10 --maxlen 339 \
//     --seed N --out FILE.jsonl
// Runs until SIGTERM/SIGINT (or --max-seconds, so a forgotten writer stops by itself); exit 0
// when stopped, 1 on a Redis error (one line on stderr), 2 on bad arguments.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createClient } from 'redis';
import { STREAM_KEY } from '@bench/stream';
import { seededRandom } from '../../stats/stats';
import { nowMs } from '../../system/clock';
import type { Entry } from './checker';

export type { Entry };
export interface WrittenEntry extends Entry {
  i: number;
  sent_ms: number;
  acked_ms: number;
}
export interface WriterHeader {
  start_ms: number;
  key: string;
  rate: number;
  maxlen: number;
  seed: number;
  initial: Entry[];
}
export interface WriterLog extends WriterHeader {
  written: WrittenEntry[];
}
export interface WriterOptions {
  url: string;
  key: string;
  rate: number;
  maxlen: number;
  seed: number;
  out: string;
  maxSeconds: number;
}

/** When write i is due. Scheduled from the start, so a late write never shifts the ones after it. */
export const dueAt = (start_ms: number, i: number, rate: number) => start_ms + (i * 1000) / rate;

/** Writes sent but not yet acknowledged, at most: bounds memory if Redis stalls. */
const MAX_IN_FLIGHT = 1000;
/** Writes sent back to back when behind, before letting node-redis flush and acks arrive. */
const BURST = 64;

/** The stream's field names (in the first entry's order) and, per field, every value seen, first-seen first. */
export function valuePools(entries: readonly Entry[]): [field: string, values: string[]][] {
  if (!entries.length) throw new Error('the stream is empty or missing: no entry to copy the shape from');
  const pools = Object.keys(entries[0]!.fields).map((f) => [f, new Set<string>()] as const);
  for (const e of entries) for (const [f, seen] of pools) if (f in e.fields) seen.add(e.fields[f]!);
  return pools.map(([f, seen]) => [f, [...seen]]);
}

/** New entries' fields, drawn from the pools by a seeded PRNG: the same seed writes the same values. */
export function entryMaker(pools: ReturnType<typeof valuePools>, seed: number): () => Record<string, string> {
  const rand = seededRandom(seed);
  return () => Object.fromEntries(pools.map(([f, values]) => [f, values[Math.floor(rand() * values.length)]!]));
}

/** One JSON object per line, written synchronously: a killed writer leaves every line it logged. */
function openLog(file: string) {
  const fd = openSync(file, 'w');
  return { line: (obj: object) => writeSync(fd, `${JSON.stringify(obj)}\n`), close: () => closeSync(fd) };
}

/** The header and entries of a writer's log; a last line cut short by a kill is ignored. */
export function readWriterLog(file: string): WriterLog {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a line the writer died writing
  const [first, ...rest] = lines.map((l, n) => {
    try {
      return JSON.parse(l);
    } catch {
      throw new Error(`${file}:${n + 1} is not JSON: ${l.slice(0, 80)}`);
    }
  });
  if (typeof first?.start_ms !== 'number' || !Array.isArray(first.initial))
    throw new Error(`${file} is not a writer log (no header line)`);
  return { ...(first as WriterHeader), written: rest as WrittenEntry[] };
}

/** Parse the command line; throws a one-line message on anything wrong. */
export function parseWriterArgs(argv: string[]): WriterOptions {
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string', default: STREAM_KEY },
      rate: { type: 'string', default: '10' },
      maxlen: { type: 'string', default: '339' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      'max-seconds': { type: 'string', default: '3600' },
    },
  });
  if (!v.url || !v.out) throw new Error('--url and --out are required');
  const num = (flag: string, raw: string, ok: (n: number) => boolean, what: string) => {
    const n = Number(raw);
    if (raw.trim() === '' || !ok(n)) throw new Error(`--${flag} "${raw}" must be ${what}`);
    return n;
  };
  return {
    url: v.url,
    key: v.key,
    out: v.out,
    rate: num('rate', v.rate, (n) => Number.isFinite(n) && n >= 0, 'a number ≥ 0 (writes per second)'),
    maxlen: num('maxlen', v.maxlen, (n) => Number.isInteger(n) && n >= 1, 'a whole number ≥ 1'),
    seed: num('seed', v.seed, Number.isInteger, 'a whole number'),
    maxSeconds: num('max-seconds', v['max-seconds'], (n) => n > 0, 'a number > 0'),
  };
}

/** No reconnecting: a write lost in a reconnect would leave a hole the checker cannot explain. */
const newClient = (url: string) => createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 5000 } });
type Client = ReturnType<typeof newClient>;

/** Every entry now in the stream, fields in stream order (read flat: objects could reorder numeric names). */
async function readStream(client: Client, key: string): Promise<Entry[]> {
  const reply = await client.sendCommand<[string, string[]][]>(['XRANGE', key, '-', '+']);
  return reply.map(([id, kv]) => {
    const fields: Record<string, string> = {};
    for (let k = 0; k < kv.length; k += 2) fields[kv[k]!] = kv[k + 1]!;
    return { id, fields };
  });
}

interface InFlight {
  /** Keys in log order; id and acked_ms arrive with the ack. */
  entry: { i: number; id?: string; fields: Record<string, string>; sent_ms: number; acked_ms?: number };
  done: Promise<void>;
}

/**
 * Sends XADDs without waiting for their acks (node-redis pipelines them on the one
 * connection, and Redis answers in order), and logs each entry once it and every earlier one
 * is acknowledged, so the log is in id order whatever order the callbacks ran in.
 */
function sender(
  client: Client,
  o: WriterOptions,
  pools: ReturnType<typeof valuePools>,
  log: ReturnType<typeof openLog>,
  onError: (e: unknown) => void,
) {
  const make = entryMaker(pools, o.seed);
  const queue: InFlight[] = [];
  const flush = () => {
    while (queue[0]?.entry.acked_ms !== undefined) log.line(queue.shift()!.entry);
  };
  const send = (i: number) => {
    const fields = make();
    const entry: InFlight['entry'] = { i, id: undefined, fields, sent_ms: nowMs() };
    const command = ['XADD', o.key, 'MAXLEN', String(o.maxlen), '*', ...Object.entries(fields).flat()];
    const done = client.sendCommand<string>(command).then((id) => {
      entry.id = String(id);
      entry.acked_ms = nowMs();
      flush();
    }, onError);
    queue.push({ entry, done });
  };
  return { send, queue };
}

/** Send write i at dueAt(i) until stopped; when late, catch up in bursts without waiting for acks. */
async function writeLoop(o: WriterOptions, start_ms: number, s: ReturnType<typeof sender>, stopped: () => boolean) {
  const deadline = start_ms + o.maxSeconds * 1000;
  let i = 0;
  while (!stopped() && nowMs() < deadline) {
    const wait = o.rate > 0 ? dueAt(start_ms, i, o.rate) - nowMs() : Infinity;
    // Naps of whole ms (a shorter Bun.sleep returns at once, and the loop would spin), at most
    // 100, so a stop request is seen quickly even at rate 0.
    if (wait > 0) {
      await Bun.sleep(Math.min(Math.ceil(wait), 100));
      continue;
    }
    for (let n = 0; n < BURST && dueAt(start_ms, i, o.rate) <= nowMs(); n++) s.send(i++);
    // Let node-redis write the burst and the acks come back; block only if far too many are pending.
    await (s.queue.length >= MAX_IN_FLIGHT ? s.queue[0]!.done : new Promise((r) => setImmediate(r)));
  }
}

/** Wait for the acks still pending (the last one resolves last), for at most timeoutMs. */
async function drain(queue: InFlight[], timeoutMs: number): Promise<boolean> {
  const last = queue.at(-1)?.done ?? Promise.resolve();
  return Promise.race([last.then(() => true), Bun.sleep(timeoutMs).then(() => false)]);
}

function die(what: string, e: unknown): never {
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(`writer: ${what}: ${msg.split('\n')[0]}\n`);
  process.exit(1);
}

export async function main(argv: string[]): Promise<never> {
  let o: WriterOptions;
  try {
    o = parseWriterArgs(argv);
  } catch (e) {
    process.stderr.write(`writer: ${(e as Error).message.split('\n')[0]}\n`);
    process.exit(2);
  }
  let stop = false;
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => (stop = true));
  const client = newClient(o.url);
  client.on('error', (e) => die(client.isReady ? `lost the connection to ${o.url}` : `cannot connect to ${o.url}`, e));
  await client.connect().catch((e) => die(`cannot connect to ${o.url}`, e));
  const initial = await readStream(client, o.key).catch((e) => die(`XRANGE ${o.key}`, e));
  let pools: ReturnType<typeof valuePools>;
  try {
    pools = valuePools(initial);
  } catch (e) {
    die(`stream ${o.key}`, e);
  }
  const log = openLog(o.out);
  const start_ms = nowMs();
  log.line({ start_ms, key: o.key, rate: o.rate, maxlen: o.maxlen, seed: o.seed, initial } satisfies WriterHeader);
  const s = sender(client, o, pools, log, (e) => die(`XADD ${o.key}`, e));
  await writeLoop(o, start_ms, s, () => stop);
  if (!(await drain(s.queue, 5000)))
    die('stopping', new Error(`${s.queue.length} writes still unacknowledged after 5 s`));
  await client.close();
  log.close();
  process.exit(0);
}

if (import.meta.main) await main(process.argv.slice(2));
