// Each client setting reaches its library: the options node-redis, ioredis and iovalkey are constructed with, read
// from fakes of the three libraries (no Redis), for RESP, REDIS_TIMEOUT, POOL, AUTOPIPELINE, REPLICAS and the cluster.
import { afterAll, describe, expect, mock, test } from 'bun:test';
import * as ioredis from 'ioredis';
import * as iovalkey from 'iovalkey';
import * as redis from 'redis';
import {
  DEFAULT_SETTINGS,
  openAdapter,
  openStream,
  routeFor,
  type SettingValues,
  type StreamOptions,
} from '@bench/stream';

/** What each fake was made with: the library, the constructor or factory, and its arguments. */
interface Made {
  lib: 'redis' | 'ioredis' | 'iovalkey';
  by: string;
  args: any[];
}
const made: Made[] = [];
// The fakes stand in only while this file runs; a file after it in the same process gets the real libraries.
let faking = true;
afterAll(() => {
  faking = false;
});

/** A node-redis client, pool or cluster that connects to nothing. */
const fakeNodeRedis = (by: string, real: (...a: any[]) => any) => {
  return (...args: any[]) => {
    if (!faking) return real(...args);
    made.push({ lib: 'redis', by, args });
    const c: any = {
      on: () => c,
      connect: async () => c,
      close: async () => {},
      destroy: () => {},
      withTypeMapping: () => c,
      duplicate: () => c,
    };
    return c;
  };
};
// Taken before the mocks: a mocked module's namespace object then holds the mocks.
const real = {
  createClient: redis.createClient,
  createClientPool: redis.createClientPool,
  createCluster: redis.createCluster,
};
mock.module('redis', () => ({
  ...redis,
  createClient: fakeNodeRedis('createClient', real.createClient),
  createClientPool: fakeNodeRedis('createClientPool', real.createClientPool),
  createCluster: fakeNodeRedis('createCluster', real.createCluster),
}));

/** An ioredis-like class (Redis or Cluster) of one library that records its constructor's arguments. */
const fakeIo = (lib: 'ioredis' | 'iovalkey', by: string, Real: any) =>
  function Fake(this: any, ...args: any[]) {
    if (!faking) return new Real(...args);
    made.push({ lib, by, args });
    this.on = () => this;
    this.connect = async () => {};
    this.quit = async () => 'OK';
    return this;
  } as any;
const ioFakes = (lib: 'ioredis' | 'iovalkey', m: any) => {
  const Redis = fakeIo(lib, 'Redis', m.Redis);
  const Cluster = fakeIo(lib, 'Cluster', m.Cluster);
  return { ...m, default: Redis, Redis, Cluster };
};
const [ioredisFakes, iovalkeyFakes] = [ioFakes('ioredis', { ...ioredis }), ioFakes('iovalkey', { ...iovalkey })];
mock.module('ioredis', () => ioredisFakes);
mock.module('iovalkey', () => iovalkeyFakes);

const URL = 'redis://127.0.0.1:6390';
const options = (client: StreamOptions['client'], s: Partial<SettingValues> = {}, cluster = false): StreamOptions => ({
  client,
  url: URL,
  workload: 'xrange',
  key: 'stream',
  settings: { ...DEFAULT_SETTINGS, ...s } as SettingValues,
  handicapUs: 0,
  cluster,
});

/** Opens the adapter, closes it, and answers what the fakes were made with meanwhile. */
async function madeBy(o: StreamOptions): Promise<Made[]> {
  made.length = 0;
  const a = await openAdapter(o);
  await a.close();
  return made.splice(0);
}

describe('node-redis: the settings reach createClient, createClientPool and createCluster', () => {
  test('RESP=2 reaches createClient as RESP: 2; the default is RESP: 3', async () => {
    const [two] = await madeBy(options('node-redis', { resp: '2' }));
    expect(two!.by).toBe('createClient');
    expect(two!.args[0]).toMatchObject({ url: URL, RESP: 2 });
    const [three] = await madeBy(options('node-redis'));
    expect(three!.args[0]).toMatchObject({ url: URL, RESP: 3 });
  });

  test('REDIS_TIMEOUT=off removes the command timeout; on (the default) leaves the library its own', async () => {
    const [off] = await madeBy(options('node-redis', { timeout: 'off' }));
    expect(off!.args[0]).toHaveProperty('commandOptions');
    expect(off!.args[0].commandOptions).toStrictEqual({ timeout: undefined });
    const [on] = await madeBy(options('node-redis'));
    expect(on!.args[0]).not.toHaveProperty('commandOptions');
  });

  test('POOL=on opens createClientPool with the shared options, and no single client', async () => {
    const pool = await madeBy(options('node-redis', { pool: 'on', resp: '2', timeout: 'off' }));
    expect(pool.map((m) => m.by)).toEqual(['createClientPool']);
    expect(pool[0]!.args[0]).toMatchObject({ url: URL, RESP: 2, commandOptions: { timeout: undefined } });
    expect((await madeBy(options('node-redis'))).map((m) => m.by)).toEqual(['createClient']);
  });

  test('REDIS_CLUSTER=1: createCluster from the URL, with the shared options and REPLICAS as useReplicas', async () => {
    const [primaries] = await madeBy(options('node-redis', { resp: '2', timeout: 'off' }, true));
    expect(primaries!.by).toBe('createCluster');
    expect(primaries!.args[0]).toMatchObject({
      rootNodes: [{ url: URL }],
      useReplicas: false,
      RESP: 2,
      commandOptions: { timeout: undefined },
    });
    const [replicas] = await madeBy(options('node-redis', { replicas: 'on' }, true));
    expect(replicas!.args[0]).toMatchObject({ useReplicas: true, RESP: 3 });
  });

  test('POOL=on is refused on a cluster and with a cache: it is measured alone', async () => {
    made.length = 0;
    const alone = 'POOL=on is measured alone: not with REDIS_CLUSTER=1 or a CACHE';
    await expect(openAdapter(options('node-redis', { pool: 'on' }, true))).rejects.toThrow(alone);
    await expect(openAdapter(options('node-redis', { pool: 'on', cache: 'ttl' }))).rejects.toThrow(alone);
    expect(made).toEqual([]);
  });
});

describe('ioredis and iovalkey: AUTOPIPELINE and REPLICAS reach the constructors', () => {
  for (const lib of ['ioredis', 'iovalkey'] as const) {
    test(`${lib}: AUTOPIPELINE=on reaches new Redis(url, …); off (the default) passes false`, async () => {
      const [on] = await madeBy(options(lib, { autopipeline: 'on' }));
      expect([on!.lib, on!.by, on!.args[0]]).toEqual([lib, 'Redis', URL]);
      expect(on!.args[1]).toMatchObject({ enableAutoPipelining: true, lazyConnect: true });
      const [off] = await madeBy(options(lib));
      expect(off!.args[1]).toMatchObject({ enableAutoPipelining: false });
    });

    test(`${lib}: REDIS_CLUSTER=1 constructs its Cluster with AUTOPIPELINE and REPLICAS as scaleReads`, async () => {
      const [on] = await madeBy(options(lib, { autopipeline: 'on', replicas: 'on' }, true));
      expect([on!.lib, on!.by, on!.args[0]]).toEqual([lib, 'Cluster', [{ host: '127.0.0.1', port: 6390 }]]);
      expect(on!.args[1]).toMatchObject({ enableAutoPipelining: true, scaleReads: 'slave', lazyConnect: true });
      const [off] = await madeBy(options(lib, {}, true));
      expect(off!.args[1]).toMatchObject({ enableAutoPipelining: false, scaleReads: 'master' });
    });
  }

  test("REDIS_CLIENT=iovalkey constructs iovalkey's class, not ioredis's (openStream, as an app)", async () => {
    made.length = 0;
    const stream = await openStream(options('iovalkey', { autopipeline: 'on' }));
    await stream.close();
    expect(made.map((m) => [m.lib, m.by])).toEqual([['iovalkey', 'Redis']]);
  });

  test('DECODE=bytes and TRANSFORM=direct send the body as written; the default lets the framework', async () => {
    const direct = async (s: Partial<SettingValues>) => {
      const stream = await openStream(options('node-redis', s));
      await stream.close();
      return stream.direct;
    };
    expect(await direct({ decode: 'bytes' })).toBe(true);
    expect(await direct({ transform: 'direct' })).toBe(true);
    expect(await direct({})).toBe(false);
  });
});

describe('the route and the refusals an app meets at start (openAdapter, routeFor), on the fakes', () => {
  test('the read route answers / only; a plain app gets the objects (value), a direct one none', async () => {
    const plain = await routeFor(options('node-redis'));
    expect([plain.method, plain.path, plain.match('/'), plain.match('/x'), plain.match('/items/1')]).toEqual([
      'GET',
      '/',
      '',
      null,
      null,
    ]);
    expect(plain.value).toBeFunction();
    const direct = await routeFor(options('node-redis', { transform: 'direct' }));
    expect(direct.value).toBeNull();
  });

  test('CACHE=tail and tail-body are refused on a cluster; DECODE=bytes with a CACHE is refused', async () => {
    for (const cache of ['tail', 'tail-body'] as const)
      await expect(openAdapter(options('node-redis', { cache }, true))).rejects.toThrow(
        `CACHE=${cache} is not supported in cluster mode (REDIS_CLUSTER=1)`,
      );
    await expect(openAdapter(options('node-redis', { decode: 'bytes', cache: 'tail' }))).rejects.toThrow(
      'DECODE=bytes is not supported with a CACHE, POOL or TRANSFORM: it is measured alone',
    );
  });
});
