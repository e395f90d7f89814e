// --workload xadd-trim, around each window: the stream's entries-added counter read before and after, oha's POSTs
// to ids drawn from the window's own prefix, and a prober whose writes are read back by entry id as soon as they are
// acknowledged; the gate before measuring is one such write, checked on the server.
import { RedisClient } from 'bun';
import { STREAM_KEY, TRIM_MAXLEN } from '@bench/stream';
import { cli, type RedisTarget } from '../../topology/redis';
import { RECORD_BODY, startProbing } from '../types';
import { accountTrim, NO_ANSWER, type TrimProbe } from './accounting';
import type { TrimRecord } from './record';

/** The record every request sends: upsert's. */
const TRIM_BODY = RECORD_BODY;
const RUN_TAG = Date.now().toString(36);
let windows = 0;
let checks = 0;

/** The stream's counters: entries ever added (XINFO STREAM's entries-added) and its length. */
export function streamCounters(redis: RedisTarget): { added: number; length: number } {
  const lines = cli(redis, ['XINFO', 'STREAM', STREAM_KEY]).split('\n');
  const after = (name: string) => Number(lines[lines.indexOf(name) + 1]);
  return { added: after('entries-added'), length: after('length') };
}

/** The most entries the cap allows: MAXLEN ~ trims whole nodes only, so one node more. */
export const capOf = (redis: RedisTarget) =>
  TRIM_MAXLEN + Number(cli(redis, ['CONFIG', 'GET', 'stream-node-max-entries']).trim().split('\n')[1]);

/** POST one write; its status and the entry id the app answered. */
async function post(
  url: string,
  id: string,
  halt?: AbortSignal,
): Promise<{ status: number; entry: string | null; text: string }> {
  const timeout = AbortSignal.timeout(10_000);
  const res = await fetch(`${url.replace(/\/$/, '')}/items/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: TRIM_BODY,
    signal: halt ? AbortSignal.any([halt, timeout]) : timeout,
  });
  const text = await res.text();
  let entry: string | null = null;
  try {
    entry = JSON.parse(text).id ?? null;
  } catch {}
  return { status: res.status, entry, text };
}

/** What the prober reads with: a connection of the harness's own (a fake in the unit tests). */
type Reader = Pick<RedisClient, 'send'>;

/** Whether the stream holds the entry `entry` with the write's id and the body's fields. */
async function holds(reader: Reader, entry: string, id: string): Promise<boolean> {
  const reply = (await reader.send('XRANGE', [STREAM_KEY, entry, entry])) as [string, string[]][];
  const fields = reply[0]?.[1] ?? [];
  const want = ['id', id, ...Object.entries(JSON.parse(TRIM_BODY)).flat()];
  return fields.length === want.length && fields.every((f, i) => String(f) === want[i]);
}

/** A stream entry id's two whole numbers ("ms-seq"; "ms" alone is seq 0), or null for anything else. */
const idParts = (id: string): [bigint, bigint] | null => {
  const m = /^(\d+)(?:-(\d+))?$/.exec(id);
  return m ? [BigInt(m[1]!), BigInt(m[2] ?? 0)] : null;
};

/** Whether entry id `a` comes before `b` in a stream (false when either is not an entry id). */
export const entryBefore = (a: string, b: string) => {
  const [x, y] = [idParts(a), idParts(b)];
  return !!x && !!y && (x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]));
};

/** The stream's first (`XRANGE`) or last (`XREVRANGE`) entry id now; "0-0" when it is empty. */
async function endOf(reader: Reader, cmd: 'XRANGE' | 'XREVRANGE'): Promise<string> {
  const range = cmd === 'XRANGE' ? ['-', '+'] : ['+', '-'];
  const got = (await reader.send(cmd, [STREAM_KEY, ...range, 'COUNT', '1'])) as [string, string[]][];
  return got[0]?.[0] ?? '0-0';
}

/**
 * Whether an entry not found was trimmed, not lost: newer than the stream's last entry before the write was sent (an
 * id from before it, made up or reused, is missing), and older than the stream's first entry now. Under
 * oha's writes the cap can trim an acknowledged entry before it is read back (a thousand appends take 75 ms at 13,000
 * a second); the entries-added counter counts it all the same.
 */
async function trimmedSince(reader: Reader, entry: string, lastBefore: string): Promise<boolean> {
  return trimmedBetween(entry, lastBefore, await endOf(reader, 'XRANGE'));
}

/** trimmedSince's rule, from the ids: written after `lastBefore`, and older than `firstNow`. */
export const trimmedBetween = (entry: string, lastBefore: string, firstNow: string) =>
  entryBefore(lastBefore, entry) && entryBefore(entry, firstNow);

/**
 * The harness's own writes during a window, 20 a second, each read back by its entry id once acknowledged: found, or
 * else trimmed by the cap since (trimmedSince), or missing.
 */
function startProber(url: string, redis: RedisTarget, prefix: string) {
  const reader = new RedisClient(redis.url);
  let n = 0;
  return startProbing<TrimProbe>(reader, (probes, halt) => probeOnce(url, `${prefix}p${++n}`, reader, probes, halt));
}

/**
 * One prober write: no answer is NO_ANSWER (it may or may not have written: unanswered, as oha's are); a 201 whose
 * read-back failed is acknowledged but unchecked (the counter still accounts it). A failed read before the write sends
 * nothing, and adds nothing.
 */
export async function probeOnce(
  url: string,
  id: string,
  reader: Reader,
  probes: TrimProbe[],
  halt?: AbortSignal,
): Promise<void> {
  const lastBefore = await endOf(reader, 'XREVRANGE');
  let got: Awaited<ReturnType<typeof post>>;
  try {
    got = await post(url, id, halt);
  } catch {
    probes.push({ status: NO_ANSWER, found: false });
    return;
  }
  const { status, entry } = got;
  if (status !== 201 || entry === null) {
    probes.push({ status, found: false, trimmed: false });
    return;
  }
  try {
    const found = await holds(reader, entry, id);
    const trimmed = !found && (await trimmedSince(reader, entry, lastBefore));
    probes.push({ status, found, trimmed });
  } catch {
    probes.push({ status, found: false, unchecked: true });
  }
}

/** oha's request: POST the record to ids of the window's prefix and three random digits. */
export function trimRequest(url: string, prefix: string) {
  return { url: `${url.replace(/\/$/, '')}/items/${prefix}[0-9]{3}`, method: 'POST', body: TRIM_BODY, randRegex: true };
}

/** One window: the counter read, the prober started; afterwards the accounting. */
export function trimAround(redis: RedisTarget, url: string) {
  const prefix = `${RUN_TAG}w${++windows}`;
  const before = streamCounters(redis).added;
  const prober = startProber(url, redis, prefix);
  let probes: TrimProbe[] = [];
  return {
    request: trimRequest(url, prefix),
    // The responses the prober's writes got (one that got none served nothing).
    stop: async () => {
      probes = await prober.stop();
      return probes.filter((p) => p.status !== NO_ANSWER).length;
    },
    /** The window failed: the prober stops without waiting for its write in flight. */
    abort: () => prober.abort(),
    account: (statuses: Record<string, number>, unanswered: number): Omit<TrimRecord, 'redis_commands'> => {
      const after = streamCounters(redis);
      return accountTrim({
        statuses,
        unanswered,
        probes,
        addedBefore: before,
        addedAfter: after.added,
        length: after.length,
        cap: capOf(redis),
      });
    },
  };
}

/** The gate before measuring (and after each window): one write, answered 201 with its entry, found on the server. */
export async function verifyTrim(url: string, redis: RedisTarget): Promise<{ ok: boolean; reason?: string }> {
  const id = `${RUN_TAG}check${++checks}`;
  const before = streamCounters(redis).added;
  let got: Awaited<ReturnType<typeof post>>;
  try {
    got = await post(url, id);
  } catch (e) {
    return { ok: false, reason: `request failed: ${(e as Error).message}` };
  }
  if (got.status !== 201 || !got.entry)
    return { ok: false, reason: `xadd-trim check: status ${got.status} ${got.text.slice(0, 200)}, want 201 {"id"…}` };
  const reader = new RedisClient(redis.url);
  try {
    if (!(await holds(reader, got.entry, id)))
      return {
        ok: false,
        reason: `xadd-trim check: entry ${got.entry} is not in ${STREAM_KEY} with the body's fields`,
      };
  } finally {
    reader.close();
  }
  const { added, length } = streamCounters(redis);
  if (added !== before + 1)
    return { ok: false, reason: `xadd-trim check: one write answered, ${added - before} added` };
  const cap = capOf(redis);
  if (length > cap) return { ok: false, reason: `xadd-trim check: ${length} entries, over the cap of ${cap}` };
  return { ok: true };
}
