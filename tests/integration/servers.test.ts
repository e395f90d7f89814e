// What the apps read, end to end on real apps: --server and --servers (Valkey from the project's
// own setup loads the same RDB; every twin is verified and counted on its own server; the family
// asks whether the server matters) and --topology cluster. --redis-rtt, which measures an RTT, is
// tests/alone/distance.test.ts.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { explained, resultsIn, runCli, settle, started } from '../helpers/cli';

const real = { BENCH_APPS_DIR: join(ROOT, 'apps') };
const SHORT = ['--runs', '2', '--windows', '1', '--duration', '1s', '--warmup', '0'];

describe('servers', () => {
  test('--servers redis,valkey: each contender and its -on-valkey twin, reads counted per server, paired', async () => {
    const run = await runCli(
      ['--servers', 'redis,valkey', '--ceilings', '--only', 'node-raw-node-redis,bun-raw-bun-redis', ...SHORT],
      { env: real },
    );
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { json, dir } = resultsIn(run.outDir);
      expect(json.settings.servers).toEqual(['redis', 'valkey']);
      const [redis, valkey] = json.data.servers;
      expect(redis).toMatchObject({
        name: 'redis',
        version: expect.stringMatching(/^7\./),
        allocator: expect.stringMatching(/^jemalloc/),
      });
      expect(valkey).toMatchObject({ name: 'valkey', version: '9.1.2', allocator: 'libc' });
      const names = json.contenders.map((c: any) => c.name).sort();
      // With --ceilings, --only adds each stack's HTTP ceiling, read from no server.
      expect(names).toEqual([
        'bun-raw-bun-redis',
        'bun-raw-bun-redis-on-valkey',
        'bun-raw-precomputed',
        'node-raw-node-redis',
        'node-raw-node-redis-on-valkey',
        'node-raw-precomputed',
      ]);
      for (const c of json.contenders.filter((x: any) => !x.ceiling)) {
        expect(c.status, `${c.name}: ${c.reason}`).toBe('ok');
        // Calls are read from the server the twin reads: a twin on the wrong server would count 0 here.
        for (const r of c.runs) expect(Math.abs(r.redis_calls_per_req - 1)).toBeLessThanOrEqual(0.02);
      }
      expect(json.contenders.find((c: any) => c.name === 'node-raw-node-redis-on-valkey').server).toBe('valkey');
      const servers = json.family.questions
        .filter((q: any) => q.kind === 'server')
        .map((q: any) => q.id)
        .sort();
      expect(servers).toEqual(['server: bun-raw-bun-redis', 'server: node-raw-node-redis']);
      const answer = json.answers.find((a: any) => a.question === 'server: node-raw-node-redis');
      expect(answer).toMatchObject({ a: 'node-raw-node-redis', b: 'node-raw-node-redis-on-valkey', pairs: 2 });
      expect(json.ceilings.redis.map((c: any) => c.server).sort()).toEqual(['redis', 'redis', 'valkey', 'valkey']);
      const md = readFileSync(join(dir, 'results.md'), 'utf8');
      // The answer is named by server; whether it is decided, equal or open depends on the machine's noise.
      expect(md).toMatch(/On bun raw bun-redis, (redis|valkey) (against|and|is faster than|serves) /);
      expect(md).toContain('Servers the apps read: redis 7.');
      expect(md).toContain('valkey 9.1.2 (libc malloc)');
      expect(md).toMatch(/\| valkey alone: redis-benchmark/);
    });
    expect(await settle(run.seen)).toEqual([]);
    expect(started(run.seen).some((p) => p.cmd.startsWith('valkey-server '))).toBe(true);
  });

  test('--topology cluster: each contender vs itself on 6 nodes (primaries, replicas), reads counted', async () => {
    // Which contenders get no cluster twin (Bun's client, a cache, a decode of its own) is tests/unit/servers.test.ts's
    // (results.json's list of them, the upsert cluster run's), and that a cluster gets no Redis-alone ceiling
    // tests/unit/ceilings.test.ts's: here, the twins as measured.
    const run = await runCli(['--topology', 'cluster', '--only', 'node-raw-ioredis', ...SHORT], { env: real });
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      expect(json.data.servers.map((s: any) => [s.name, s.nodes ?? 1])).toEqual([
        ['redis', 1],
        ['cluster', 6],
        ['cluster-replicas', 6],
      ]);
      const ours = ['node-raw-ioredis', 'node-raw-ioredis-on-cluster', 'node-raw-ioredis-on-cluster-replicas'];
      for (const name of ours) {
        const c = json.contenders.find((x: any) => x.name === name);
        expect(c.status, `${name}: ${c.reason}`).toBe('ok');
        for (const r of c.runs) {
          expect(Math.abs(r.redis_calls_per_req - 1)).toBeLessThanOrEqual(0.02);
          expect(r.redis_cpu_s).toBeGreaterThan(0); // summed over the nodes' processes
        }
      }
      expect(json.contenders.map((c: any) => c.name).sort()).toEqual(ours);
      expect(json.answers.filter((a: any) => a.question === 'server: node-raw-ioredis')).toHaveLength(3);
    });
    expect(await settle(run.seen)).toEqual([]);
    expect(started(run.seen).filter((p) => p.cmd.startsWith('redis-server ')).length).toBeGreaterThanOrEqual(7);
  });

  test('--server valkey: the private server is Valkey; with REDIS_URL one line and nothing started', async () => {
    const run = await runCli(
      [
        '--server',
        'valkey',
        '--only',
        'node-raw-ioredis',
        '--runs',
        '1',
        '--windows',
        '1',
        '--duration',
        '1s',
        '--warmup',
        '0',
      ],
      { env: real },
    );
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      expect(json.data.servers.map((s: any) => s.name)).toEqual(['valkey']);
      expect(json.contenders.map((c: any) => [c.name, c.status])).toEqual([['node-raw-ioredis', 'ok']]);
    });
    // started() leaves out `redis-server --version`, which the run's environment record calls whatever the server.
    expect(started(run.seen).some((p) => p.cmd.startsWith('redis-server '))).toBe(false);
    expect(started(run.seen).some((p) => p.cmd.startsWith('valkey-server '))).toBe(true);
    expect(await settle(run.seen)).toEqual([]);

    const refused = await runCli(['--server', 'valkey', '--only', 'node-raw-ioredis', '--runs', '1'], {
      env: { ...real, REDIS_URL: 'redis://127.0.0.1:1' },
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'error: --server, --servers and --topology cluster start private servers: unset REDIS_URL',
    );
    expect(refused.seen.filter((p) => /^(oha|node|bun src)/.test(p.cmd))).toEqual([]);
  });
});
