// Every contender of the matrix, started against a private Redis from dump.rdb (or the RDB in
// BENCH_TEST_RDB, e.g. one of 3,390 entries from npm run make-rdb), returns exactly the golden body.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import type { RunningApp } from '../../packages/harness/src/measure/apps';
import { appStarter } from '../helpers/apps';
import { loadContenders } from '../../packages/harness/src/model/contenders';
import { ROOT } from '../../packages/harness/src/system/paths';
import { runOha } from '../../packages/harness/src/measure/oha';
import { isAlive } from '../../packages/harness/src/system/proc';
import { goldenBody, startPrivateRedis, streamInfo, type RedisTarget } from '../../packages/harness/src/topology/redis';
import { verifyContract } from '../../packages/harness/src/measure/verify';
import { verifyUpsert } from '../../packages/harness/src/workloads/upsert/measure';

const contenders = loadContenders();
const RDB = process.env.BENCH_TEST_RDB ? resolve(process.env.BENCH_TEST_RDB) : join(ROOT, 'dump.rdb');
const shippedData = RDB === join(ROOT, 'dump.rdb');
let redis: RedisTarget;
let golden: string;
const pids: number[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis(RDB);
  pids.push(redis.server!.pid);
  golden = goldenBody(redis, STREAM_KEY);
});

afterAll(async () => {
  await redis?.stop();
});

const start = appStarter(() => ({ redisUrl: redis.url, golden }), pids);
const withApp = <T>(name: string, fn: (app: RunningApp) => Promise<T>, workload = 'xrange') =>
  start(contenders.find((x) => x.name === name)!, fn, workload);

describe('data', () => {
  test.skipIf(!shippedData)('dump.rdb holds the 339-entry stream, about 20 KB in Redis and 45-50 KB of JSON', () => {
    const info = streamInfo(redis, STREAM_KEY);
    expect(info.length).toBe(339);
    expect(info.memoryBytes).toBeGreaterThan(18_000);
    expect(info.memoryBytes).toBeLessThan(22_500);
    expect(golden.length).toBeGreaterThan(45_000);
    expect(golden.length).toBeLessThan(50_000);
    const first = JSON.parse(golden).entries[0];
    expect(Object.keys(first.fields)).toEqual(['color', 'font', 'alignment', 'position', 'height', 'width']);
  });
});

describe('every contender passes the contract', () => {
  for (const c of contenders) {
    test(`${c.name} returns the golden body`, async () => {
      const verdict = await withApp(c.name, (app) => verifyContract(app.url, golden, c.page));
      expect(verdict.reason ?? 'ok').toBe('ok');
      // The length every response under load must have: the golden body, or the page that embeds it.
      if (c.page) expect(verdict.bytes!).toBeGreaterThan(golden.length);
      else expect(verdict.bytes).toBe(golden.length);
    }, 240_000);
  }
  test('the xread workload gives the same body', async () => {
    const verdict = await withApp('node-raw-ioredis', (app) => verifyContract(app.url, golden, false), 'xread');
    expect(verdict).toEqual({ ok: true, bytes: golden.length });
  }, 60_000);
});

describe('every stack of the upsert suite passes the upsert check', () => {
  // One contender per stack (the default strategy, lua): the route is the app's; the strategies are tested in
  // writes.test.
  for (const c of contenders.filter((x) => x.suites.includes('upsert') && !x.tuned.length)) {
    const route = c.path === '/' ? '' : c.path;
    test(`${c.name}: POST ${route}/items/:id created, updated, ignored; the newest kept, applied = 3`, async () => {
      const verdict = await withApp(c.name, (app) => verifyUpsert(app.url, redis, c.settings.write), 'upsert');
      expect(verdict.reason ?? 'ok').toBe('ok');
    }, 240_000);
  }
});

describe('load', () => {
  test('a 1-second oha smoke run gets only 200s', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'smoke-')), 'oha.json');
    const { run } = await withApp('bun-raw-node-redis', (app) =>
      runOha({ url: app.url, connections: 10, duration_s: 1, requests: null, outFile: out }),
    );
    expect(run.ok).toBeGreaterThan(10);
    expect(run.errors).toEqual({ non_2xx: 0, aborted: 0, other: 0 });
  }, 60_000);

  test('everything started here is stopped', async () => {
    await redis.stop();
    await Bun.sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
