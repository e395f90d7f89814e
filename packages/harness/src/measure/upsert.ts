// --workload upsert, around each window: the keys it writes (a fresh key space per window, K keys
// drawn at random by oha's --rand-regex-url), a prober whose acknowledged versions are known, and
// afterwards the accounting: every key read back, the sum of its `applied` counters against the
// 2xx responses that said created or updated, and no key older than a version the app
// acknowledged. Nothing lost, nothing invented.
import { RECORD_FIELDS, type UpsertReply } from '@bench/stream';
import type { UpsertWindow } from '../model/results';
import { cli, type RedisTarget } from '../topology/redis';
import { account, type Acked } from './accounting';

/** The record every request sends: a few fields, about 200 bytes as stored. */
export const UPSERT_BODY = JSON.stringify(Object.fromEntries(RECORD_FIELDS.map((f, i) => [f, `${f}-${'x'.repeat(30 + i * 5)}`])));
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
  return { prefix, digits, keys, idAt, regex };
}
export type KeySpace = ReturnType<typeof keySpace>;

/** oha's request: POST the record as JSON to a URL drawn from the key space's regex. */
export function upsertRequest(url: string, space: KeySpace) {
  // oha takes the URL's dots literally (its regex has no wildcard dot): the base goes in as it is.
  const base = url.replace(/\/$/, '');
  return { url: `${base}/items/${space.regex}`, method: 'POST', body: UPSERT_BODY, randRegex: true };
}

export async function postUpsert(url: string, id: string, body: object = JSON.parse(UPSERT_BODY)): Promise<{ status: number; reply: UpsertReply | null; text: string }> {
  const res = await fetch(`${url.replace(/\/$/, '')}/items/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let reply: UpsertReply | null = null;
  try {
    reply = JSON.parse(text);
  } catch {}
  return { status: res.status, reply, text };
}

/**
 * How far ahead of the clock the prober's versions are (µs): the app's requests of the next
 * millisecond carry older versions, so a strategy that lets one of them overwrite the prober's
 * acknowledged write (WATCH on a shared connection: another request's EXEC clears its WATCH)
 * leaves an older version behind, which the accounting sees. Correct strategies answer those
 * requests "ignored"; at K = 1 that is about 2% of them (20 probes/s × 1 ms).
 */
export const PROBE_LEAD_US = 1000;

/**
 * Sequential writes of the harness's own during a window, to random keys of its key space, each
 * with a version just ahead of the clock, each acknowledged version recorded: after the window no
 * key may hold an older one.
 */
export function startUpsertProber(url: string, space: KeySpace, durationS: number | null, everyMs = 50) {
  const acked: Acked[] = [];
  let stopped = false;
  const sentinel = durationS ? setTimeout(() => void sentinels(url, space, acked), Math.max(0, durationS * 1000 - SENTINEL_BEFORE_END_MS)) : null;
  const loop = (async () => {
    while (!stopped) {
      const id = space.idAt(Math.floor(Math.random() * space.keys));
      const t0 = Date.now();
      try {
        const { status, reply } = await postUpsert(url, id, { ...JSON.parse(UPSERT_BODY), version: Date.now() * 1000 + PROBE_LEAD_US });
        acked.push({ id, status, result: reply?.result ?? null, version: reply?.version ?? null });
      } catch {}
      await Bun.sleep(Math.max(0, everyMs - (Date.now() - t0)));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      if (sentinel) clearTimeout(sentinel);
      await loop;
      await pendingSentinels;
      return acked;
    },
  };
}

/** When the sentinels go: late enough that nothing after them is legitimately newer, early enough to race oha's last requests. */
const SENTINEL_BEFORE_END_MS = 150;
/** A sentinel's lead: ahead of every version the window's requests can carry. */
const SENTINEL_LEAD_US = 60_000_000;
let pendingSentinels: Promise<unknown> = Promise.resolve();

/**
 * Near the end of the window, a write to each of the first few keys (at most 5) with a version
 * ahead of any the window's requests carry: every request still in flight must come out ignored
 * against it, so the key must end the window holding exactly it. A strategy whose transaction can
 * commit on a version it read before the sentinel's (WATCH on a shared connection) overwrites it
 * with an older one, and the accounting names that key.
 */
function sentinels(url: string, space: KeySpace, acked: Acked[]): void {
  const version = Date.now() * 1000 + SENTINEL_LEAD_US;
  const ids = Array.from({ length: Math.min(space.keys, 5) }, (_, i) => space.idAt(i));
  pendingSentinels = Promise.all(ids.map(async (id) => {
    try {
      const { status, reply } = await postUpsert(url, id, { ...JSON.parse(UPSERT_BODY), version });
      acked.push({ id, status, result: reply?.result ?? null, version: reply?.version ?? null });
    } catch {}
  }));
}

/** Every key of the space read back on the server: [id, applied, version] of each key that exists (one EVAL, in pages). */
export function readBack(redis: RedisTarget, space: KeySpace): { id: string; applied: number; version: number }[] {
  const script = `local out = {}
for i = tonumber(ARGV[3]), tonumber(ARGV[4]) do
  local id = ARGV[1]
  if tonumber(ARGV[2]) > 0 then id = id .. string.format('%0' .. ARGV[2] .. 'd', i) end
  local v = redis.call('HMGET', 'item:{' .. id .. '}', 'applied', 'version')
  if v[1] then table.insert(out, id .. ' ' .. v[1] .. ' ' .. v[2]) end
end
return table.concat(out, '\\n')`;
  const rows: { id: string; applied: number; version: number }[] = [];
  for (let from = 0; from < space.keys; from += 5000) {
    const text = cli(redis, ['EVAL', script, '0', space.prefix, String(space.digits), String(from), String(Math.min(space.keys, from + 5000) - 1)]);
    for (const line of text.split('\n')) {
      const [id, applied, version] = line.trim().split(' ');
      if (id && applied) rows.push({ id, applied: Number(applied), version: Number(version) });
    }
  }
  return rows;
}

/**
 * One window's writes: a fresh key space, oha's request into it, the prober started; afterwards
 * the accounting from oha's status counts, the prober's writes and the keys read back.
 */
export function upsertAround(redis: RedisTarget, url: string, keys: number, write: string, durationS: number | null) {
  const space = keySpace(keys);
  const prober = startUpsertProber(url, space, durationS);
  return {
    request: upsertRequest(url, space),
    /** The prober's writes, once it stopped. */
    stop: () => prober.stop(),
    /** After the server's counters were read (the read-back is commands of its own). */
    account: (acked: Acked[], statuses: Record<string, number>, unanswered: number): UpsertWindow => ({
      keys: space.keys,
      prefix: space.prefix,
      ...account(statuses, acked, readBack(redis, space), write, unanswered),
    }),
  };
}

let checks = 0;
/** The scripted check before measuring (and once after): each branch once, with known versions, then the key as stored. */
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
export async function verifyUpsert(url: string, redis: RedisTarget, write: string): Promise<{ ok: boolean; reason?: string; bytes?: number }> {
  const id = `${RUN_TAG}check${++checks}`;
  const steps = write === 'ping' ? [{ status: 200, result: 'pong' }] : SCRIPT;
  let last: UpsertReply | null = null;
  for (const [i, step] of steps.entries()) {
    let got;
    try {
      got = await postUpsert(url, id, { ...JSON.parse(UPSERT_BODY), ...(step.version ? { version: step.version } : {}) });
    } catch (e) {
      return { ok: false, reason: `request failed: ${(e as Error).message}` };
    }
    if (got.status !== step.status || got.reply?.result !== step.result) {
      return { ok: false, reason: `upsert check, request ${i + 1} of ${steps.length}${step.version ? ` (version ${step.version})` : ''}: status ${got.status} ${got.text.slice(0, 200)}, want ${step.status} ${step.result}` };
    }
    last = got.reply;
  }
  const [applied, version] = cli(redis, ['HMGET', `item:{${id}}`, 'applied', 'version']).trim().split('\n');
  const want = write === 'ping' ? ['', ''] : ['3', String(last!.version)];
  if ((applied ?? '') !== want[0] || (version ?? '') !== want[1]) return { ok: false, reason: `upsert check: item:{${id}} holds applied ${applied || 'none'}, version ${version || 'none'}; want ${want[0] || 'no key'}${want[1] ? `, ${want[1]}` : ''}` };
  return { ok: true, bytes: 0 };
}

/** The windows of one launch as one record: counts summed, the first problem kept. */
export function poolUpsert(ws: UpsertWindow[]): UpsertWindow {
  const sum = (f: (w: UpsertWindow) => number) => ws.reduce((n, w) => n + f(w), 0);
  const b = (k: keyof UpsertWindow['branches']) => sum((w) => w.branches[k]);
  return {
    keys: ws[0]!.keys, prefix: ws.map((w) => w.prefix).join(','),
    branches: { created: b('created'), updated: b('updated'), ignored: b('ignored'), conflict: b('conflict'), pong: b('pong'), error: b('error') },
    acked_applied: sum((w) => w.acked_applied), applied: sum((w) => w.applied), keys_written: sum((w) => w.keys_written), unanswered: sum((w) => w.unanswered),
    lost: sum((w) => w.lost), invented: sum((w) => w.invented), stale: sum((w) => w.stale),
    problem: ws.find((w) => w.problem)?.problem ?? null,
  };
}
