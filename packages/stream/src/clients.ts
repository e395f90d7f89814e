// The Redis clients, as data: the package that provides each, and the runtimes it cannot run
// on with the reason. The harness lists those combinations as unsupported, never drops them.

export interface ClientDef {
  about: string;
  /** npm package (null: built into the runtime). */
  package: string | null;
  /** Runtimes it does not run on, with why. */
  unsupported: Record<string, string>;
  /** Why it cannot talk to a Redis Cluster (REDIS_CLUSTER=1); absent: it can. */
  noCluster?: string;
}

export const CLIENT_DEFS = {
  'node-redis': { about: 'node-redis (redis 6.x)', package: 'redis', unsupported: {} },
  ioredis: { about: 'ioredis 6.x', package: 'ioredis', unsupported: {} },
  iovalkey: { about: 'iovalkey (the Valkey fork of ioredis)', package: 'iovalkey', unsupported: {} },
  'bun-redis': {
    about: "Bun's built-in RedisClient",
    package: null,
    unsupported: { node: 'built into Bun only', node20: 'built into Bun only', deno: 'built into Bun only' },
    noCluster: "Bun's RedisClient has no Cluster support (oven-sh/bun#22947)",
  },
  glide: { about: 'valkey-glide 2.x (Rust core, native binding)', package: '@valkey/valkey-glide', unsupported: {} },
} as const satisfies Record<string, ClientDef>;

export type ClientName = keyof typeof CLIENT_DEFS;
export const CLIENTS = Object.keys(CLIENT_DEFS) as ClientName[];

/** Why the client cannot run against a Redis Cluster (REDIS_CLUSTER=1), or null when it can. */
export const noCluster = (client: ClientName): string | null => (CLIENT_DEFS[client] as ClientDef).noCluster ?? null;
/** The clients with a cluster mode; the harness lists the others as unsupported, with noCluster's reason. */
export const CLUSTER_CLIENTS = CLIENTS.filter((c) => noCluster(c) === null);
