// The caches (CACHE) against a private Redis that a writer appends to as the live workload's does
// (XADD key MAXLEN 339 *): after each write the body is the stream's, within the declared bound
// (exact caches: 0) plus 50 ms, never an older one; tail (and csc) survive a Redis restart without
// serving a body from before it; closing leaves no connection behind.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createClient } from 'redis';
import {
  CLIENTS,
  DEFAULT_SETTINGS,
  SETTINGS,
  STREAM_KEY,
  openStream,
  stalenessBoundMs,
  type CacheName,
  type ClientName,
  type StreamSource,
  type Workload,
} from '@bench/stream';
import { ROOT } from '../../packages/harness/src/system/paths';
import { goldenBody, startPrivateRedis, type RedisTarget } from '../../packages/harness/src/topology/redis';

const RDB = join(ROOT, 'dump.rdb');
const TTL_MS = 30;
const SLACK_MS = 50;
let redis: RedisTarget;
let writer: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startPrivateRedis(RDB);
  writer = createClient({ url: redis.url });
  writer.on('error', () => {}); // the restart test drops it on purpose
  await writer.connect();
});

afterAll(async () => {
  await writer?.close();
  await redis?.stop();
});

const open = (client: ClientName, cache: CacheName, workload: Workload = 'xrange') =>
  openStream({
    client,
    url: redis.url,
    workload,
    key: STREAM_KEY,
    settings: { ...DEFAULT_SETTINGS, cache, transform: 'direct' },
    handicapUs: 0,
    cacheTtlMs: TTL_MS,
  });

/** The stream's canonical body, built from the writer's own reply with JSON.stringify, not by the code under test. */
async function truth(): Promise<string> {
  const entries = (await writer.xRange(STREAM_KEY, '-', '+')) ?? [];
  return JSON.stringify({ entries: entries.map((e) => ({ id: e.id, fields: { ...e.message } })) });
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const xadd = (i: number) =>
  writer.sendCommand(['XADD', STREAM_KEY, 'MAXLEN', '339', '*', 'f', `v${i}`]) as Promise<string>;

/**
 * n writes; after each, every body served equals the stream before the write until the new
 * entry shows, which must happen within bound + SLACK_MS of the ack, then equals the stream
 * after it. Returns the ms from each ack to the first body with the new entry, and the bodies.
 */
async function writesTrack(
  source: StreamSource,
  n: number,
  boundMs: number,
): Promise<{ lags: number[]; states: string[] }> {
  let before = await truth();
  expect(await source.readJson()).toBe(before);
  const lags: number[] = [];
  const states: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = await xadd(i);
    const acked = performance.now();
    let started = acked;
    let body = await source.readJson();
    while (!body.includes(`"${id}"`)) {
      // Aged by when the read started: a stall of this process after it is no cache's doing.
      expect(body).toBe(before);
      expect(started - acked).toBeLessThan(boundMs + SLACK_MS);
      await tick();
      started = performance.now();
      body = await source.readJson();
    }
    lags.push(started - acked);
    before = await truth();
    expect(body).toBe(before);
    states.push(before);
  }
  return { lags, states };
}

/** Closes the source and checks that only the writer's connection is left. */
async function closeClean(source: StreamSource): Promise<void> {
  await source.close();
  const deadline = performance.now() + 5000; // glide lets a closed client's connection go after about 3 s
  let clients = '';
  while (performance.now() < deadline) {
    clients = (await writer.info('clients')) as string;
    if (/connected_clients:1\r?\n/.test(clients)) return;
    await Bun.sleep(20);
  }
  throw new Error(`connections left after close: ${clients}`);
}

const cscClients = SETTINGS.cache.valueClients.csc as readonly string[];
const cachesOf = (client: string): CacheName[] => [
  'tail',
  'tail-body',
  'ttl',
  ...(cscClients.includes(client) ? (['csc'] as const) : []),
];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!.toFixed(2);

describe('caches under writes', () => {
  test("the writer's view is the golden body redis-cli gives", async () => {
    expect(await truth()).toBe(goldenBody(redis, STREAM_KEY));
  });

  for (const client of CLIENTS) {
    for (const cache of cachesOf(client)) {
      const within = cache === 'ttl' ? `the TTL + ${SLACK_MS}` : SLACK_MS;
      test(`${client} CACHE=${cache}: 100 capped writes, each shown within ${within} ms`, async () => {
        const source = await open(client, cache);
        try {
          expect(source.direct).toBe(true);
          const { lags } = await writesTrack(source, 100, stalenessBoundMs(cache, { CACHE_TTL_MS: String(TTL_MS) }));
          console.log(
            `${client} ${cache}: ms from XADD ack to the new body: p50 ` +
              `${pct(lags, 0.5)}, p95 ${pct(lags, 0.95)}, max ${pct(lags, 1)}`,
          );
          expect(JSON.stringify(await source.read())).toBe(await truth());
        } finally {
          await closeClean(source);
        }
      }, 30_000);
    }
  }

  test("a follower reads with XREVRANGE only: the XRANGE count stays the requests' own", async () => {
    const calls = async () => {
      const stats = (await writer.info('commandstats')) as string;
      const of = (cmd: string) => Number(new RegExp(`^cmdstat_${cmd}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
      return { xrange: of('xrange'), xrevrange: of('xrevrange') };
    };
    for (const client of CLIENTS) {
      const before = await calls();
      const source = await open(client, 'tail-body');
      try {
        for (let i = 0; i < 20; i++) await xadd(i);
        await Bun.sleep(SLACK_MS);
        for (let i = 0; i < 20; i++) await source.readJson();
      } finally {
        await closeClean(source);
      }
      const after = await calls();
      expect([client, after.xrange - before.xrange]).toEqual([client, 0]);
      expect(after.xrevrange - before.xrevrange).toBeGreaterThanOrEqual(2); // the fill, and at least one wake-up
    }
  }, 60_000);

  test('tail-body on the page workload serves the first 100 entries', async () => {
    const source = await open('node-redis', 'tail-body', 'xrange-count');
    try {
      for (let i = 0; i < 5; i++) await xadd(i);
      await Bun.sleep(SLACK_MS);
      expect(await source.readJson()).toBe(goldenBody(redis, STREAM_KEY, 'xrange-count'));
    } finally {
      await closeClean(source);
    }
  });

  for (const client of CLIENTS.filter((c) => !cscClients.includes(c))) {
    test(`CACHE=csc on ${client} fails at startup saying why`, async () => {
      await expect(open(client, 'csc')).rejects.toThrow(`CACHE=csc is not available with REDIS_CLIENT=${client}: `);
    });
  }
});

/** Starts a read every 2 ms, whether or not the earlier ones are done (each bounded to 3 s), until stopped. */
function readLoop(source: StreamSource) {
  const log: { t: number; body: string | null }[] = [];
  const pending: Promise<void>[] = [];
  const timeout = () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000));
  const timer = setInterval(() => {
    const entry = { t: performance.now(), body: null as string | null };
    log.push(entry);
    pending.push(
      Promise.race([source.readJson(), timeout()]).then(
        (b) => void (entry.body = b),
        () => {},
      ),
    );
  }, 2);
  return { log, stop: () => (clearInterval(timer), Promise.all(pending)) };
}

/** XRANGE calls Redis has served so far. */
const xrangeCalls = async () =>
  Number(/cmdstat_xrange:calls=(\d+)/.exec((await writer.info('commandstats')) as string)?.[1] ?? 0);

/** Waits until 20 reads cost Redis no XRANGE: the copy (or csc's cached reply) is back. */
async function untilServedFromCopy(source: StreamSource): Promise<void> {
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline) {
    try {
      const before = await xrangeCalls();
      for (let i = 0; i < 20; i++) await source.readJson();
      if ((await xrangeCalls()) === before) return;
    } catch {} // reads go to Redis until the copy is back, and may fail while it restarts
    await Bun.sleep(50);
  }
  throw new Error('the cache did not come back within 5 s of the restart');
}

describe('tail (and csc) across a Redis restart', () => {
  const cases = [...CLIENTS.map((client) => [client, 'tail'] as const), ['node-redis', 'csc'] as const];
  for (const [client, cache] of cases) {
    test(`${client} CACHE=${cache}: invalid while Redis restarts, never an older copy, exact again after`, async () => {
      const source = await open(client, cache);
      try {
        await untilServedFromCopy(source);
        const old = new Set((await writesTrack(source, 10, 0)).states);
        const reads = readLoop(source);
        // Stopped, not saved: the new server starts from the RDB, without the writes the copy has.
        const port = Number(new URL(redis.url).port);
        await redis.stop();
        // The old server is gone and its sockets closed; the client has had 20 ms to see it.
        const gone = performance.now() + 20;
        await Bun.sleep(100);
        redis = await startPrivateRedis(RDB, { port });
        await untilServedFromCopy(source);
        await writesTrack(source, 10, 0);
        await reads.stop();
        const after = reads.log.filter((r) => r.t >= gone);
        expect(after.length).toBeGreaterThan(0);
        expect(after.filter((r) => r.body !== null && old.has(r.body)).length).toBe(0);
      } finally {
        await closeClean(source);
      }
    }, 45_000);
  }
});
