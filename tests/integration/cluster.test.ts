// A Redis Cluster (3 primaries, 3 replicas) loaded from dump.rdb, read by every client that has a
// cluster mode: the golden body; exactly one XRANGE per read, counted on the nodes themselves;
// REPLICAS=off reads on the stream's primary, REPLICAS=on on its replica. Bun's client refuses
// with its reason, and stopping the cluster leaves no redis-server behind. The cluster is started first on ports one of
// which has its bus port held by another process: it starts again, on others.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  CLIENTS,
  CLUSTER_CLIENTS,
  DEFAULT_SETTINGS,
  STREAM_KEY,
  noCluster,
  openStream,
  streamOptionsFromEnv,
  type ClientName,
  type SettingValues,
} from '@bench/stream';
import { ROOT } from '../../packages/harness/src/system/paths';
import { serverRecord } from '../../packages/harness/src/topology/servers';
import { createServer, type Server } from 'node:net';
import { ephemeralLow, portTaken } from '../../packages/harness/src/system/net';
import { isAlive } from '../../packages/harness/src/system/proc';
import { cli, goldenBody, startPrivateRedis } from '../../packages/harness/src/topology/redis';
import {
  clusterCommandStats,
  clusterPorts,
  startCluster,
  type ClusterNode,
  type ClusterTarget,
} from '../../packages/harness/src/topology/cluster';

const RDB = join(ROOT, 'dump.rdb');
const READS = 20;
let cluster: ClusterTarget;
/** The body redis-cli reads from a single Redis loaded from the same RDB. */
let golden: string;
/** The stream's primary and its replica: the two nodes that hold the key. */
let holders: { primary: ClusterNode; replica: ClusterNode };

beforeAll(async () => {
  const single = await startPrivateRedis(RDB);
  try {
    golden = goldenBody(single, STREAM_KEY);
  } finally {
    await single.stop();
  }
  const first = await clusterPorts(6);
  held = createServer();
  await new Promise<void>((r) => held.listen(first[2]! + 10_000, '127.0.0.1', r));
  cluster = await startCluster(RDB, {
    ports: async (n) => (picks.push(picks.length ? await clusterPorts(n) : first), picks.at(-1)!),
  });
}, 90_000);

afterAll(async () => {
  held?.close();
  await cluster?.stop();
});

/** A listener on the bus port of the third node's first port, and the ports each cluster start picked. */
let held: Server;
const picks: number[][] = [];

/**
 * XLEN on a node after READONLY (one connection: redis-cli reads both from stdin); null where the slot lives elsewhere.
 */
function readonlyXlen(node: ClusterNode): number | null {
  const r = spawnSync('redis-cli', ['-u', node.url], {
    input: `READONLY\nXLEN ${STREAM_KEY}\n`,
    encoding: 'utf8',
    timeout: 5000,
  });
  const [ok, len] = r.stdout.trim().split('\n');
  return ok === 'OK' && /^\d+$/.test(len ?? '') ? Number(len) : null;
}

/** XRANGE calls per node port, from INFO commandstats. */
function xrangeCalls(): Map<number, number> {
  return new Map(clusterCommandStats(cluster).nodes.map((n) => [n.port, n.stats.xrange?.calls ?? 0]));
}

const open = (client: ClientName, settings: Partial<SettingValues> = {}) =>
  openStream({
    client,
    url: cluster.url,
    workload: 'xrange',
    key: STREAM_KEY,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    handicapUs: 0,
    cluster: true,
  });

describe('the cluster', () => {
  test("a node's bus port held by another process: it starts again elsewhere, below the ephemeral range", () => {
    expect(picks).toHaveLength(2);
    expect(cluster.nodes.map((n) => n.port)).toEqual(picks[1]!);
    expect(picks[1]).not.toContain(picks[0]![2]);
    // Where the range below the ephemeral ports holds 1,000 ports from 10000 with room for +10000 (Linux's default).
    if (ephemeralLow() - 1 - 20_000 >= 1000)
      for (const n of cluster.nodes) expect(n.port + 10_000).toBeLessThan(ephemeralLow());
  });

  test('every node says cluster_state:ok; 3 primaries, 3 replicas; the stream on one primary and its replica', () => {
    expect(cluster.url).toBe(cluster.nodes[0]!.url);
    for (const n of cluster.nodes) expect(cli(n, ['CLUSTER', 'INFO'])).toMatch(/^cluster_state:ok\r?$/m);
    expect(cluster.nodes.map((n) => n.role).sort()).toEqual([
      'primary',
      'primary',
      'primary',
      'replica',
      'replica',
      'replica',
    ]);
    // What results.json records of it, and results.md's method line says (tests/unit/servers.test.ts).
    expect(serverRecord('cluster', cluster, cluster.url)).toMatchObject({ name: 'cluster', nodes: 6, primaries: 3 });
    const length = JSON.parse(golden).entries.length;
    expect(length).toBe(339);
    const holding = cluster.nodes.filter((n) => readonlyXlen(n) === length);
    expect(holding.map((n) => n.role).sort()).toEqual(['primary', 'replica']);
    // The replica replicates that primary (its INFO replication names the primary's port).
    const primary = holding.find((n) => n.role === 'primary')!;
    const replica = holding.find((n) => n.role === 'replica')!;
    expect(cli(replica, ['INFO', 'replication'])).toMatch(new RegExp(`^master_port:${primary.port}\\r?$`, 'm'));
    holders = { primary, replica };
  });

  test('the summed counters are the per-node ones added up', () => {
    const { total, nodes } = clusterCommandStats(cluster);
    expect(nodes.map((n) => n.port)).toEqual(cluster.nodes.map((n) => n.port));
    expect(total.ping!.calls).toBe(nodes.reduce((a, n) => a + (n.stats.ping?.calls ?? 0), 0));
  });
});

describe('the adapters in cluster mode', () => {
  test('REDIS_CLUSTER=1 sets cluster; unset or 0 leaves it off; anything else is refused', () => {
    const saved = process.env.REDIS_CLUSTER;
    try {
      for (const [value, cluster] of [
        ['1', true],
        ['0', false],
        ['', false],
        [undefined, false],
      ] as const) {
        if (value === undefined) delete process.env.REDIS_CLUSTER;
        else process.env.REDIS_CLUSTER = value;
        expect(streamOptionsFromEnv().cluster).toBe(cluster);
      }
      process.env.REDIS_CLUSTER = 'yes';
      expect(() => streamOptionsFromEnv()).toThrow('REDIS_CLUSTER="yes" is not valid; use one of: 0, 1');
    } finally {
      if (saved === undefined) delete process.env.REDIS_CLUSTER;
      else process.env.REDIS_CLUSTER = saved;
    }
  });

  test("every client but Bun's has a cluster mode", () => {
    expect(CLUSTER_CLIENTS).toEqual(['node-redis', 'ioredis', 'iovalkey', 'glide']);
    expect(CLIENTS.filter((c) => noCluster(c) !== null)).toEqual(['bun-redis']);
  });

  /**
   * Reads that reach the replica with REPLICAS=on: node-redis's useReplicas takes the primary and the replica in turn.
   */
  const onReplica = (client: ClientName) => (client === 'node-redis' ? READS / 2 : READS);

  for (const client of CLUSTER_CLIENTS) {
    for (const replicas of ['off', 'on'] as const) {
      const node = replicas === 'on' ? 'replica' : 'primary';
      test(`${client} REPLICAS=${replicas}: the golden body, one XRANGE per read, on the ${node}`, async () => {
        const source = await open(client, { replicas });
        try {
          expect(await source.readJson()).toBe(golden);
          expect(JSON.stringify(await source.read())).toBe(golden);
          const before = xrangeCalls();
          for (let i = 0; i < READS; i++) expect(await source.readJson()).toBe(golden);
          const after = xrangeCalls();
          const delta = (n: ClusterNode) => after.get(n.port)! - before.get(n.port)!;
          expect(cluster.nodes.reduce((sum, n) => sum + delta(n), 0)).toBe(READS);
          const replicaReads = replicas === 'on' ? onReplica(client) : 0;
          expect({ primary: delta(holders.primary), replica: delta(holders.replica) }).toEqual({
            primary: READS - replicaReads,
            replica: replicaReads,
          });
        } finally {
          await source.close();
        }
      }, 30_000);
    }
  }

  test("Bun's client refuses cluster mode with its reason", async () => {
    await expect(open('bun-redis')).rejects.toThrow(
      "REDIS_CLUSTER=1: Bun's RedisClient has no Cluster support (oven-sh/bun#22947)",
    );
  });

  test('the tail caches refuse cluster mode before connecting', async () => {
    for (const cache of ['tail', 'tail-body'] as const) {
      await expect(open('ioredis', { cache })).rejects.toThrow(
        `CACHE=${cache} is not supported in cluster mode (REDIS_CLUSTER=1) yet`,
      );
    }
  });
});

describe('stopping', () => {
  test('stop() ends every node and frees every port and bus port', async () => {
    await cluster.stop();
    for (const n of cluster.nodes) {
      expect(isAlive(n.pid)).toBe(false);
      expect(await portTaken(n.port)).toBe(false);
      expect(await portTaken(n.port + 10_000)).toBe(false);
    }
  });
});
