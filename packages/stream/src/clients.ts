// The Redis clients, as data: the package that provides each, and the runtimes it cannot run
// on with the reason. The harness lists those combinations as unsupported, never drops them.

export interface ClientDef {
  about: string;
  /** npm package (null: built into the runtime). */
  package: string | null;
  /** Runtimes it does not run on, with why. */
  unsupported: Record<string, string>;
}

export const CLIENT_DEFS = {
  'node-redis': { about: 'node-redis (redis 6.x)', package: 'redis', unsupported: {} },
  ioredis: { about: 'ioredis 6.x', package: 'ioredis', unsupported: {} },
  iovalkey: { about: 'iovalkey (the Valkey fork of ioredis)', package: 'iovalkey', unsupported: {} },
  'bun-redis': {
    about: "Bun's built-in RedisClient",
    package: null,
    unsupported: { node: 'built into Bun only', node20: 'built into Bun only', deno: 'built into Bun only' },
  },
  glide: { about: 'valkey-glide 2.x (Rust core, native binding)', package: '@valkey/valkey-glide', unsupported: {} },
} as const satisfies Record<string, ClientDef>;

export type ClientName = keyof typeof CLIENT_DEFS;
export const CLIENTS = Object.keys(CLIENT_DEFS) as ClientName[];
