// --servers: which contenders get a twin on the second server, and the questions the twins add.
import { describe, expect, test } from 'bun:test';
import { NO_CLUSTER_WATCH } from '@bench/stream';
import { loadContenders } from '../../packages/harness/src/model/manifests';
import { familyOf } from '../../packages/harness/src/model/questions';
import { rttReached, serverTwins } from '../../packages/harness/src/topology/servers';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { readResults } from '../../packages/harness/src/model/results-file';
import { describeRun } from '../../packages/harness/src/report/table';
import { serverVersion } from '../../packages/harness/src/report/first-screen';
import { ROOT } from '../../packages/harness/src/system/paths';

const all = loadContenders();
const pick = (...names: string[]) => names.map((n) => all.find((c) => c.name === n)!);

describe('server twins', () => {
  test('each contender reading per request gets a -on-valkey twin; ceilings and handicap stay on the first', () => {
    const chosen = pick(
      'node-raw-node-redis',
      'node-raw-ioredis',
      'node-raw-precomputed',
      'node-raw-node-redis-handicap',
      'node-next-route-static-ioredis',
    );
    const { twins, unsupported } = serverTwins(chosen, ['redis', 'valkey']);
    expect(unsupported).toEqual([]);
    expect(twins.map((t) => t.name)).toEqual(['node-raw-node-redis-on-valkey', 'node-raw-ioredis-on-valkey']);
    expect(twins[0]).toMatchObject({
      server: 'valkey',
      tuned: ['on-valkey'],
      client: 'node-redis',
      app: 'node',
      settings: chosen[0]!.settings,
    });
    expect(serverTwins(chosen, ['valkey']).twins).toEqual([]);
  });

  test('the family gains one "server" question per twin, and the twins join no other question', () => {
    const chosen = pick('node-raw-node-redis', 'node-raw-ioredis', 'bun-raw-node-redis');
    const plain = familyOf(chosen);
    const both = familyOf([...chosen, ...serverTwins(chosen, ['redis', 'valkey']).twins]);
    const servers = both.questions.filter((q) => q.kind === 'server');
    expect(servers.map((q) => [q.id, q.members])).toEqual([
      ['server: node-raw-node-redis', ['node-raw-node-redis', 'node-raw-node-redis-on-valkey']],
      ['server: node-raw-ioredis', ['node-raw-ioredis', 'node-raw-ioredis-on-valkey']],
      ['server: bun-raw-node-redis', ['bun-raw-node-redis', 'bun-raw-node-redis-on-valkey']],
    ]);
    expect(both.questions.filter((q) => q.kind !== 'server')).toEqual(plain.questions);
    expect(both.comparisons.length).toBe(plain.comparisons.length + 3);
  });

  test("--topology cluster: twins read from primaries and from replicas (REPLICAS=on); Bun's listed, with why", () => {
    const chosen = pick('bun-raw-node-redis', 'bun-raw-bun-redis');
    const { twins, unsupported } = serverTwins(chosen, ['redis', 'cluster', 'cluster-replicas']);
    expect(twins.map((t) => [t.name, t.env.REDIS_CLUSTER, t.settings.replicas])).toEqual([
      ['bun-raw-node-redis-on-cluster', '1', 'off'],
      ['bun-raw-node-redis-on-cluster-replicas', '1', 'on'],
    ]);
    expect(unsupported.map((u) => u.name)).toEqual([
      'bun-raw-bun-redis-on-cluster',
      'bun-raw-bun-redis-on-cluster-replicas',
    ]);
    expect(unsupported[0]!.reason).toContain('no Cluster support (oven-sh/bun#22947)');
    // A decode of its own, a tail cache, the pool or WATCH: the app refuses cluster mode at its start, so no twin is
    // launched to fail.
    const single = pick(
      'node-raw-node-redis-bytes',
      'node-raw-node-redis-rawreply',
      'node-raw-node-redis-tail',
      'node-raw-ioredis-tail-body',
      'node-raw-node-redis-pool',
      'node-raw-ioredis-watch',
    );
    const none = serverTwins(single, ['redis', 'cluster']);
    expect(none.twins.map((t) => t.name)).toEqual([]);
    const follower = "its follower needs one connection to the stream's node, so it is measured on one server";
    expect(none.unsupported.map((u) => [u.name, u.reason])).toEqual([
      [
        'node-raw-node-redis-bytes-on-cluster',
        'decode bytes: its reader follows no cluster redirect, so it is measured on a single server only',
      ],
      [
        'node-raw-node-redis-rawreply-on-cluster',
        'decode raw: its reader follows no cluster redirect, so it is measured on a single server only',
      ],
      ['node-raw-node-redis-tail-on-cluster', `cache tail: ${follower}`],
      ['node-raw-ioredis-tail-body-on-cluster', `cache tail-body: ${follower}`],
      ['node-raw-node-redis-pool-on-cluster', "pool: node-redis's client pool is measured on a single server only"],
      ['node-raw-ioredis-watch-on-cluster', `watch: ${NO_CLUSTER_WATCH}`],
    ]);
    const q = familyOf([...chosen, ...twins]).questions.find((x) => x.kind === 'server')!;
    expect(q.members).toEqual([
      'bun-raw-node-redis',
      'bun-raw-node-redis-on-cluster',
      'bun-raw-node-redis-on-cluster-replicas',
    ]);
  });

  test("the method names the servers read: a cluster's layout, and redis-server only where the apps read it", () => {
    const run = (servers: object[]) => {
      const r = readResults(join(ROOT, 'tests/fixtures/results/results.json'));
      r.data.servers = servers as any;
      return describeRun(analyze(r));
    };
    const redis = { name: 'redis', version: '7.0.15', allocator: 'jemalloc-5.3.0', url: 'redis://127.0.0.1:1' };
    const valkey = { name: 'valkey', version: '9.1.2', allocator: 'libc', url: 'redis://127.0.0.1:2' };
    const cluster = { ...redis, name: 'cluster', nodes: 6, primaries: 3 };
    expect(run([valkey])).not.toContain('Redis server v=');
    expect(run([valkey])).toContain('Servers the apps read: valkey 9.1.2 (libc malloc).');
    expect(run([redis, valkey])).toContain('Redis server v=7.0.15');
    const both = run([redis, cluster, { ...cluster, name: 'cluster-replicas' }]);
    // The first screen's versions line: the server the apps read first.
    const an = (servers: object[]) =>
      ({ results: { ...readResults(join(ROOT, 'tests/fixtures/results/results.json')), data: { servers } } }) as any;
    expect(serverVersion(an([valkey]))).toBe('Valkey 9.1.2');
    expect(serverVersion(an([redis, valkey]))).toBe('Redis 7.0.15');
    const layout = '(jemalloc-5.3.0 malloc; 6 nodes on 127.0.0.1: 3 primaries, 3 replicas, read from the';
    expect(both).toContain(`cluster 7.0.15 ${layout} primaries)`);
    expect(both).toContain(`cluster-replicas 7.0.15 ${layout} replicas)`);
  });
});

describe('--redis-rtt calibration', () => {
  test('a distance is reached within 10% of it, or 0.05 ms below half a millisecond', () => {
    // 10% of 1 ms and of 10 ms; at 0.2 ms, 10% (0.02) is under redis-cli's own noise, so 0.05 ms.
    const cases: [number, number, boolean][] = [
      [1, 1.09, true],
      [1, 0.91, true],
      [1, 1.11, false],
      [1, 0.89, false],
      [10, 10.9, true],
      [10, 11.1, false],
      [0.2, 0.249, true],
      [0.2, 0.151, true],
      [0.2, 0.251, false],
      [0.2, 0.149, false],
    ];
    expect(cases.map(([asked, seen]) => rttReached(asked, seen))).toEqual(cases.map((c) => c[2]));
  });
});
