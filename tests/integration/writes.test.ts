// The write strategies (packages/stream/src/writes) on every client, against a private Redis:
// each branch of the upsert once, with known versions; the PING floor writes nothing; WATCH's
// retries are bounded; and concurrent upserts on one hot key are all accounted for. On a private
// cluster: lua and function on every cluster client, keys on every primary; watch refused.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import {
  CLIENTS,
  CLUSTER_CLIENTS,
  DEFAULT_SETTINGS,
  NO_CLUSTER_WATCH,
  openWriter,
  STREAM_KEY,
  WATCH_RETRIES,
  watchUpsert,
  type ClientName,
  type SettingValues,
  type TxConnection,
} from '@bench/stream';
import { ROOT } from '../../packages/harness/src/system/paths';
import { cli, commandStats, startPrivateRedis, type RedisTarget } from '../../packages/harness/src/topology/redis';
import { byPrimary, startCluster, type ClusterTarget } from '../../packages/harness/src/topology/cluster';

let redis: RedisTarget;
beforeAll(async () => {
  redis = await startPrivateRedis(join(ROOT, 'dump.rdb'));
});
afterAll(async () => {
  await redis?.stop();
});

const RECORD = { name: 'n', color: 'red', size: 'L', note: 'a note' };
const writerOf = (client: (typeof CLIENTS)[number], write: SettingValues['write']) =>
  openWriter({
    client,
    url: redis.url,
    workload: 'upsert',
    key: STREAM_KEY,
    settings: { ...DEFAULT_SETTINGS, write },
    handicapUs: 0,
  });
const stored = (id: string) =>
  cli(redis, ['HGETALL', `item:{${id}}`])
    .trim()
    .split('\n');
let ids = 0;

describe('write strategies on every client', () => {
  for (const client of CLIENTS) {
    for (const write of ['lua', 'watch', 'function'] as const) {
      test(`${client}, ${write}: created, updated, ignored (older); the hash has the newest, applied = 2`, async () => {
        const writer = await writerOf(client, write);
        const id = `${client}-${write}-${++ids}`;
        try {
          expect((await writer.upsert(id, RECORD, 1000)).result).toBe('created');
          expect((await writer.upsert(id, { ...RECORD, color: 'blue' }, 2000)).result).toBe('updated');
          expect((await writer.upsert(id, { ...RECORD, color: 'green' }, 1500)).result).toBe('ignored');
          // An equal version is not newer: ignored too.
          expect((await writer.upsert(id, { ...RECORD, color: 'green' }, 2000)).result).toBe('ignored');
        } finally {
          await writer.close();
        }
        const h = stored(id);
        const field = (f: string) => h[h.indexOf(f) + 1];
        expect([field('version'), field('applied'), field('color'), field('note')]).toEqual([
          '2000',
          '2',
          'blue',
          'a note',
        ]);
      }, 30_000);
    }
  }

  test('ping: pong, and nothing written', async () => {
    const writer = await writerOf('node-redis', 'ping');
    const id = `ping-${++ids}`;
    try {
      expect(await writer.upsert(id, RECORD, 1000)).toEqual({ result: 'pong', version: 1000, retries: 0 });
    } finally {
      await writer.close();
    }
    expect(cli(redis, ['EXISTS', `item:{${id}}`]).trim()).toBe('0');
  });

  test('lua: a server that lost its scripts (SCRIPT FLUSH) is given the script again', async () => {
    const writer = await writerOf('ioredis', 'lua');
    const id = `flush-${++ids}`;
    try {
      expect((await writer.upsert(id, RECORD, 1)).result).toBe('created');
      cli(redis, ['SCRIPT', 'FLUSH']);
      expect((await writer.upsert(id, RECORD, 2)).result).toBe('updated');
    } finally {
      await writer.close();
    }
  });

  test('watch: bounded retries; a transaction never committing is a conflict after WATCH_RETRIES + 1', async () => {
    let watches = 0;
    const never: TxConnection = {
      watch: async () => void watches++,
      hget: async () => null,
      unwatch: async () => {},
      commit: async () => false,
      close: async () => {},
    };
    expect(await watchUpsert(never, 'x', RECORD, 5)).toEqual({
      result: 'conflict',
      version: 5,
      retries: WATCH_RETRIES + 1,
    });
    expect(watches).toBe(WATCH_RETRIES + 1);
  });

  for (const client of ['node-redis', 'ioredis', 'bun-redis', 'glide'] as const) {
    test(`${client}, watch: 200 concurrent upserts on a key, each applied write counted, the newest kept`, async () => {
      const writer = await writerOf(client, 'watch');
      // Each burst is checked in full. Whether one collides (a retry) depends on the scheduling: on a busy machine
      // 200 may run one after another, so up to three bursts, one of which must have retried.
      let retried = false;
      try {
        for (let burst = 0; burst < 3 && !retried; burst++) {
          const id = `hot-${client}-${++ids}`;
          const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => writer.upsert(id, RECORD, 1000 + i)));
          const n = (r: string) => replies.filter((x) => x.result === r).length;
          const h = stored(id);
          const field = (f: string) => Number(h[h.indexOf(f) + 1]);
          expect(n('created')).toBe(1);
          expect(field('applied')).toBe(n('created') + n('updated'));
          expect(n('created') + n('updated') + n('ignored') + n('conflict')).toBe(200);
          // The newest applied version is the one stored: nothing older overwrote it.
          expect(field('version')).toBe(
            Math.max(...replies.filter((x) => x.result === 'created' || x.result === 'updated').map((x) => x.version)),
          );
          retried = replies.some((x) => x.retries > 0);
        }
      } finally {
        await writer.close();
      }
      expect(retried).toBe(true);
    }, 60_000);
  }
});

describe("the server's command counts", () => {
  test('a call Redis refused before running it is counted apart (rejected_calls: a cluster MOVED is one)', () => {
    const before = commandStats(redis).xrange;
    try {
      cli(redis, ['XRANGE', 'k']); // the wrong number of arguments: refused, never run
    } catch {}
    const after = commandStats(redis).xrange!;
    expect([after.calls - (before?.calls ?? 0), after.rejected! - (before?.rejected ?? 0)]).toEqual([0, 1]);
  });
});

describe('write strategies on a cluster', () => {
  let cluster: ClusterTarget;
  beforeAll(async () => {
    cluster = await startCluster(join(ROOT, 'dump.rdb'));
  }, 90_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  const onCluster = (client: ClientName, write: SettingValues['write']) =>
    openWriter({
      client,
      url: cluster.url,
      workload: 'upsert',
      key: STREAM_KEY,
      settings: { ...DEFAULT_SETTINGS, write },
      handicapUs: 0,
      cluster: true,
    });
  // Ids whose keys fall on every primary: each is routed to its slot's node.
  const spread = Array.from({ length: 12 }, (_, i) => `spread-${i}`);

  for (const client of CLUSTER_CLIENTS) {
    for (const write of ['lua', 'function'] as const) {
      test(`${client}, ${write}: each branch on keys of every primary, each stored on its own node`, async () => {
        const writer = await onCluster(client, write);
        const ids = spread.map((id) => `${client}-${write}-${id}`);
        try {
          for (const id of ids) {
            expect((await writer.upsert(id, RECORD, 1000)).result).toBe('created');
            expect((await writer.upsert(id, RECORD, 2000)).result).toBe('updated');
            expect((await writer.upsert(id, RECORD, 1500)).result).toBe('ignored');
          }
        } finally {
          await writer.close();
        }
        const byNode = byPrimary(cluster, ids, (id) => `item:{${id}}`);
        expect(byNode.size).toBe(3);
        for (const [url, own] of byNode)
          for (const id of own)
            expect(
              cli({ url }, ['HMGET', `item:{${id}}`, 'version', 'applied'])
                .trim()
                .split('\n'),
            ).toEqual(['2000', '2']);
      }, 30_000);
    }
    test(`${client}, watch: refused with its reason (no WATCH connection to a key's primary here)`, async () => {
      const writer = await onCluster(client, 'watch');
      try {
        await expect(writer.upsert('w', RECORD, 1)).rejects.toThrow(NO_CLUSTER_WATCH);
      } finally {
        await writer.close();
      }
    }, 30_000);
  }
});
