// --workload upsert, around each window: the keys it writes (a fresh key space per window, K keys
// drawn at random by oha's --rand-regex-url), a prober whose concurrent writes have known versions
// and are checked on the server right away, and afterwards the accounting: every key read back,
// the sum of its `applied` counters against the 2xx responses that said created or updated, and
// no key older than a version the app acknowledged. Nothing lost, nothing invented.
import { RedisClient } from 'bun';
import { itemKey, type UpsertReply } from '@bench/stream';
import { BRANCHES, type UpsertRecord, type UpsertWindow } from './record';
import { byPrimary, type ClusterTarget } from '../../topology/cluster';
import { cli, type RedisTarget } from '../../topology/redis';
import { RECORD_BODY, startProbing, sumCounts } from '../types';
import { account, type Acked, NO_ANSWER } from './accounting';

/** The record every request sends. */
export const UPSERT_BODY = RECORD_BODY;
/** The key spaces --keys accepts: powers of ten, so that a regex of digits draws them uniformly. */
export const KEY_SPACES = [1, 10, 100, 1000, 10000] as const;

let windows = 0;
const RUN_TAG = Date.now().toString(36);

/** A window's key space: ids `<tag>k` followed by log10(K) digits, fresh for every window. */
export function keySpace(keys: number) {
  const digits = Math.round(Math.log10(keys));
  const prefix = `${RUN_TAG}w${++windows}k`;
  const regex = digits ? `${prefix}[0-9]{${digits}}` : prefix;
  const idAt = (i: number) => (digits ? `${prefix}${String(i).padStart(digits, '0')}` : prefix);
  /** The prober's key: outside what the regex draws. */
  const probeId = `${prefix}p`;
  return { prefix, digits, keys, idAt, regex, probeId };
}
export type KeySpace = ReturnType<typeof keySpace>;

/** oha's request: POST the record as JSON to a URL drawn from the key space's regex. */
export function upsertRequest(url: string, space: KeySpace) {
  // oha takes the URL's dots literally (its regex has no wildcard dot): the base goes in as it is.
  const base = url.replace(/\/$/, '');
  return { url: `${base}/items/${space.regex}`, method: 'POST', body: UPSERT_BODY, randRegex: true };
}

export async function postUpsert(
  url: string,
  id: string,
  body: object = JSON.parse(UPSERT_BODY),
  halt?: AbortSignal,
): Promise<{ status: number; reply: UpsertReply | null; text: string }> {
  const timeout = AbortSignal.timeout(10_000);
  const res = await fetch(`${url.replace(/\/$/, '')}/items/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: halt ? AbortSignal.any([halt, timeout]) : timeout,
  });
  const text = await res.text();
  let reply: UpsertReply | null = null;
  try {
    reply = JSON.parse(text);
  } catch {}
  return { status: res.status, reply, text };
}

/** Concurrent writes of one probe, to one key of the prober's own. */
export const PROBE_BURST = 3;

/**
 * The harness's own writes during a window: 20 times a second, PROBE_BURST concurrent writes to a
 * key of the prober's own (outside oha's key space, so the load is not disturbed), with versions
 * v+1 … v+PROBE_BURST sent in a shuffled order. Whatever order they commit in, the newest must be
 * applied and stay: once all are acknowledged the key is read straight from the server (HMGET on a
 * connection of the harness's own) and must hold the newest acknowledged version. A strategy whose
 * transaction can commit on a version read before another request's write (WATCH on a shared
 * connection: another request's EXEC clears its WATCH) leaves an older one there, and the
 * accounting names the key.
 */
export function startUpsertProber(url: string, redis: RedisTarget, space: KeySpace, everyMs = 50) {
  // On a cluster, the primary that owns the prober's key.
  const reader = new RedisClient(
    redis.nodes ? [...byPrimary(redis as ClusterTarget, [space.probeId], itemKey).keys()][0]! : redis.url,
  );
  return startProbing<Acked>(reader, (acked, halt) => probeBurst(url, space.probeId, reader, acked, halt), everyMs);
}

/**
 * One burst: its writes, each answered (with the key's version read right after, unless that read fails: then it is
 * checked at the end of the window only) or NO_ANSWER (it may or may not have written: unanswered, as oha's are).
 */
export async function probeBurst(
  url: string,
  id: string,
  reader: { send(cmd: string, args: string[]): Promise<unknown> },
  acked: Acked[],
  halt?: AbortSignal,
): Promise<void> {
  const base = Date.now() * 1000;
  const versions = Array.from({ length: PROBE_BURST }, (_, i) => base + i + 1).sort(() => Math.random() - 0.5);
  const replies = await Promise.allSettled(
    versions.map((version) => postUpsert(url, id, { ...JSON.parse(UPSERT_BODY), version }, halt)),
  );
  let seen: number | null | undefined;
  try {
    const [v] = (await reader.send('HMGET', [itemKey(id), 'version'])) as (string | null)[];
    seen = v === null || v === undefined ? null : Number(v);
  } catch {}
  for (const [i, r] of replies.entries())
    acked.push(
      r.status === 'fulfilled'
        ? {
            id,
            sent: versions[i],
            status: r.value.status,
            result: r.value.reply?.result ?? null,
            version: r.value.reply?.version ?? null,
            ...(seen !== undefined ? { seen } : {}),
          }
        : { id, status: NO_ANSWER, result: null, version: null },
    );
}

/** The read-back script: [id, applied, version] of each id in ARGV whose key exists, a line each. */
const READ_BACK = `local out = {}
for _, id in ipairs(ARGV) do
  local v = redis.call('HMGET', 'item:{' .. id .. '}', 'applied', 'version')
  if v[1] then table.insert(out, id .. ' ' .. v[1] .. ' ' .. v[2]) end
end
return table.concat(out, '\\n')`;
/** Ids per EVAL: a few tens of KB of arguments. */
const READ_BACK_PAGE = 2000;

/**
 * Every key of the space read back on the server, and the prober's: [id, applied, version] of each
 * key that exists, by EVAL in pages of ids. On a cluster each primary runs it on the keys it owns
 * (a script may touch only its own node's keys).
 */
export function readBack(redis: RedisTarget, space: KeySpace): { id: string; applied: number; version: number }[] {
  const ids = [...Array.from({ length: space.keys }, (_, i) => space.idAt(i)), space.probeId];
  const groups = redis.nodes ? byPrimary(redis as ClusterTarget, ids, itemKey) : new Map([[redis.url, ids]]);
  const rows: { id: string; applied: number; version: number }[] = [];
  for (const [url, own] of groups) {
    for (let from = 0; from < own.length; from += READ_BACK_PAGE) {
      const text = cli({ url }, ['EVAL', READ_BACK, '0', ...own.slice(from, from + READ_BACK_PAGE)]);
      for (const line of text.split('\n')) {
        const [id, applied, version] = line.trim().split(' ');
        if (id && applied) rows.push({ id, applied: Number(applied), version: Number(version) });
      }
    }
  }
  return rows;
}

/**
 * One window's writes: a fresh key space, oha's request into it, the prober started; afterwards
 * the accounting from oha's status counts, the prober's writes and the keys read back.
 */
export function upsertAround(redis: RedisTarget, url: string, keys: number, write: string) {
  const space = keySpace(keys);
  const prober = startUpsertProber(url, redis, space);
  return {
    request: upsertRequest(url, space),
    /** The prober's writes, once it stopped. */
    stop: () => prober.stop(),
    /** The window failed: the prober stops without waiting for its writes in flight. */
    abort: () => prober.abort(),
    /** After the server's counters were read (the read-back is commands of its own). */
    account: (acked: Acked[], statuses: Record<string, number>, unanswered: number): UpsertWindow => ({
      keys: space.keys,
      prefix: space.prefix,
      ...account(statuses, acked, readBack(redis, space), write, unanswered),
    }),
  };
}

let checks = 0;
/**
 * The scripted check before measuring (and once after): each branch once, with known versions, then the key as stored.
 */
const SCRIPT: { version?: number; status: number; result: string }[] = [
  { version: 1000, status: 201, result: 'created' },
  { version: 3000, status: 200, result: 'updated' },
  { version: 2000, status: 202, result: 'ignored' },
  { status: 200, result: 'updated' },
];

/**
 * Verify before measuring, as every workload does: on a fresh key, created, updated, ignored (an
 * older version), and updated with the app's own clock; then the hash holds the last version and
 * applied = 3. The PING floor answers pong and writes nothing.
 */
export async function verifyUpsert(
  url: string,
  redis: RedisTarget,
  write: string,
): Promise<{ ok: boolean; reason?: string; bytes?: number }> {
  const id = `${RUN_TAG}check${++checks}`;
  const steps = write === 'ping' ? [{ status: 200, result: 'pong' }] : SCRIPT;
  let last: UpsertReply | null = null;
  for (const [i, step] of steps.entries()) {
    let got;
    try {
      got = await postUpsert(url, id, {
        ...JSON.parse(UPSERT_BODY),
        ...(step.version ? { version: step.version } : {}),
      });
    } catch (e) {
      return { ok: false, reason: `request failed: ${(e as Error).message}` };
    }
    if (got.status !== step.status || got.reply?.result !== step.result) {
      return {
        ok: false,
        reason:
          `upsert check, request ${i + 1} of ${steps.length}${step.version ? ` (version ${step.version})` : ''}: ` +
          `status ${got.status} ${got.text.slice(0, 200)}, want ${step.status} ${step.result}`,
      };
    }
    last = got.reply;
  }
  const [applied, version] = cli(redis, ['HMGET', `item:{${id}}`, 'applied', 'version'])
    .trim()
    .split('\n');
  const want = write === 'ping' ? ['', ''] : ['3', String(last!.version)];
  if ((applied ?? '') !== want[0] || (version ?? '') !== want[1])
    return {
      ok: false,
      reason:
        `upsert check: item:{${id}} holds applied ${applied || 'none'}, version ${version || 'none'}; ` +
        `want ${want[0] || 'no key'}${want[1] ? `, ${want[1]}` : ''}`,
    };
  return { ok: true, bytes: 0 };
}

/** Requests of a window that were answered: every branch but an error. */
export const answered = (u: UpsertWindow) =>
  u.branches.created + u.branches.updated + u.branches.ignored + u.branches.conflict + u.branches.pong;

/** Windows (or runs) as one record: counts and the server's commands summed, the first problem kept. */
export function poolUpsert(ws: UpsertRecord[]): Required<UpsertRecord> {
  const sum = (f: (w: UpsertWindow) => number) => ws.reduce((n, w) => n + f(w), 0);
  const b = (k: keyof UpsertWindow['branches']) => sum((w) => w.branches[k]);
  return {
    keys: ws[0]!.keys,
    prefix: ws.map((w) => w.prefix).join(','),
    branches: Object.fromEntries(BRANCHES.map((k) => [k, b(k)])) as UpsertWindow['branches'],
    acked_applied: sum((w) => w.acked_applied),
    applied: sum((w) => w.applied),
    keys_written: sum((w) => w.keys_written),
    unanswered: sum((w) => w.unanswered),
    lost: sum((w) => w.lost),
    invented: sum((w) => w.invented),
    stale: sum((w) => w.stale),
    problem: ws.find((w) => w.problem)?.problem ?? null,
    redis_commands: sumCounts(ws.map((w) => w.redis_commands ?? {})),
  };
}
