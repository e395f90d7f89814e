// The settings that move results, each on by name and changing nothing else. Apps and
// adapters read them from the environment; the harness reads this table to generate
// contenders (a non-default value adds its suffix to the name) and to pass the environment.

export interface SettingDef {
  /** Environment variable the app reads. */
  env: string;
  values: readonly string[];
  /** The library's (or the plain way's) default: never in a contender's name. */
  default: string;
  /** Name suffix for each non-default value. */
  suffix: Record<string, string>;
  /** Clients it applies to; null: every client. */
  clients: readonly string[] | null;
  /**
   * Values that only some clients support, each with the clients that do (a value not listed: every client in
   * `clients`).
   */
  valueClients?: Record<string, readonly string[]>;
  /** Workloads its non-default values are measured in; absent: every workload. */
  workloads?: readonly string[];
  /** false: the harness sets it (a --topology cluster twin), so no manifest may list it. */
  manifest?: false;
  about: string;
}

export const SETTINGS = {
  transform: {
    env: 'TRANSFORM',
    values: ['plain', 'direct', 'precomputed'],
    default: 'plain',
    suffix: { direct: 'direct', precomputed: 'precomputed' },
    clients: null,
    about:
      "plain: the reply as plain objects through the framework's own JSON path; direct: " +
      'the JSON string built by hand from the reply; precomputed: the body read once at ' +
      'start and served as it is (the HTTP ceiling: no Redis read per request)',
  },
  decode: {
    env: 'DECODE',
    values: ['default', 'bytes', 'raw'],
    default: 'default',
    suffix: { bytes: 'bytes', raw: 'rawreply' },
    clients: ['node-redis', 'ioredis', 'iovalkey', 'glide'],
    valueClients: { raw: ['node-redis'] },
    workloads: ['xrange', 'xrange-count'],
    about:
      "how the reply becomes the body. bytes: the client's own byte mode, every bulk string a Buffer (node-redis " +
      'RESP_TYPES.BLOB_STRING → Buffer through sendCommand, ioredis/iovalkey xrangeBuffer, valkey-glide ' +
      "Decoder.Bytes), each copied into the body as a JSON string (raw/transcode.ts); not Bun's client: its send() " +
      "turns every bulk string into a string, and only methods like getBuffer keep bytes. raw: the reply's bytes, " +
      'read by a minimal RESP reader on a connection of its own (packages/stream/src/raw/) and written as the body ' +
      "in one pass, with no JS value per id, field or value: a named technique, not a library's default. No client " +
      'hands over the reply unparsed, so the reader stands in for the client on the read, and only node-redis ' +
      'contenders carry it (the same code for every client). It gives up cluster redirects, RESP3 pushes, TLS and ' +
      'caches; errors and dropped connections fail the reads they hit, and the next read reconnects. Both: XRANGE ' +
      'only (not --workload xread), one connection (no cluster, pool or cache), the body sent as it is',
  },
  autopipeline: {
    env: 'AUTOPIPELINE',
    values: ['off', 'on'],
    default: 'off',
    suffix: { on: 'autopipeline' },
    clients: ['ioredis', 'iovalkey'],
    about: 'enableAutoPipelining (off is the library default)',
  },
  resp: {
    env: 'RESP',
    values: ['3', '2'],
    default: '3',
    suffix: { '2': 'resp2' },
    clients: ['node-redis'],
    about: 'protocol version (RESP3 is the v6 default)',
  },
  timeout: {
    env: 'REDIS_TIMEOUT',
    values: ['on', 'off'],
    default: 'on',
    suffix: { off: 'notimeout' },
    clients: ['node-redis'],
    about: 'the v6 per-command timeout, which costs an AbortSignal per command (on is the default)',
  },
  handicap: {
    env: 'HANDICAP',
    values: ['off', 'on'],
    default: 'off',
    suffix: { on: 'handicap' },
    clients: null,
    about:
      "a known cost: burns HANDICAP_US µs of CPU per request (the harness calibrates it so the plain twin's " +
      'requests take 10% longer on its event loop), so a run can check that it detects a 10% difference',
  },
  cache: {
    env: 'CACHE',
    values: ['none', 'csc', 'tail', 'tail-body', 'ttl'],
    default: 'none',
    suffix: { csc: 'csc', tail: 'tail', 'tail-body': 'tail-body', ttl: 'ttl' },
    clients: null,
    valueClients: { csc: ['node-redis'] },
    // A cache only means something while the stream changes: measured in the live workload only.
    workloads: ['live'],
    about:
      "a cache between the client and the app. csc: node-redis's server-assisted client-side cache (RESP3 " +
      'tracking; only node-redis: valkey-glide caches only GET/HGETALL/SMEMBERS, ioredis/iovalkey drop invalidate ' +
      "pushes, Bun's client would mis-assign an invalidate push); tail: an in-memory copy kept by XREAD BLOCK on " +
      'a second connection, reads cost no Redis call; tail-body: the same copy with its JSON body kept, served as ' +
      'it is; ttl: cache-aside, one Redis read per CACHE_TTL_MS (default 100), stale by up to that',
  },
  pool: {
    env: 'POOL',
    values: ['off', 'on'],
    default: 'off',
    suffix: { on: 'pool' },
    clients: ['node-redis'],
    about:
      'node-redis createClientPool with its defaults (1 to 100 connections, one command ' +
      'on each at a time) instead of one auto-pipelined connection (off, the default): ' +
      'the setting that matters once Redis is a network distance away (--redis-rtt)',
  },
  replicas: {
    manifest: false,
    env: 'REPLICAS',
    values: ['off', 'on'],
    default: 'off',
    suffix: { on: 'replicas' },
    clients: ['node-redis', 'ioredis', 'iovalkey', 'glide'],
    // Only a cluster has replicas to read from: without REDIS_CLUSTER=1 the adapters ignore it.
    about:
      'REDIS_CLUSTER=1 only: reads may go to replicas (node-redis useReplicas: primary ' +
      'and replica in turn; ioredis/iovalkey scaleReads slave; valkey-glide readFrom ' +
      "preferReplica); off reads from primaries only, every library's default",
  },
  workers: {
    env: 'WORKERS',
    values: ['1', '2'],
    default: '1',
    suffix: { '2': 'workers2' },
    clients: null,
    about:
      '2: the started process forks 2 worker processes with node:cluster and serves nothing itself; each ' +
      'worker opens its own Redis connection and server on the same port, and CPU and memory count the ' +
      'whole tree. Node: the primary accepts the connections and hands them to the workers in turn; Bun: ' +
      'each worker binds the port with SO_REUSEPORT (Linux only; Bun.serve apps pass REUSE_PORT) and the ' +
      'kernel spreads the connections; Deno: node:cluster works only with --allow-run and --unstable-net, ' +
      'which the Deno start commands have not got; Next: next start runs its own server, so not there',
  },
  write: {
    env: 'WRITE',
    values: ['lua', 'watch', 'function', 'ping'],
    default: 'lua',
    suffix: { watch: 'watch', function: 'function', ping: 'ping' },
    clients: null,
    workloads: ['upsert'],
    about:
      'how the upsert workload writes (writes/): lua: one script by EVALSHA (the default); watch: WATCH, HGET, ' +
      'MULTI, HSET, HINCRBY, EXEC on a pooled connection of its own, retried up to 10 times, then 409; function: ' +
      'the same script as a Redis 7 function (FCALL); ping: one PING per request and nothing written, the floor',
  },
} as const satisfies Record<string, SettingDef>;

export type SettingName = keyof typeof SETTINGS;
export type SettingValues = { [K in SettingName]: (typeof SETTINGS)[K]['values'][number] };

export const DEFAULT_SETTINGS = Object.fromEntries(
  Object.entries(SETTINGS).map(([k, d]) => [k, d.default]),
) as SettingValues;

export function settingsFromEnv(env: Record<string, string | undefined>): SettingValues {
  const out = { ...DEFAULT_SETTINGS } as Record<string, string>;
  for (const [name, def] of Object.entries(SETTINGS) as [string, SettingDef][]) {
    const v = env[def.env];
    if (v === undefined || v === '') continue;
    if (!def.values.includes(v))
      throw new Error(`${def.env}="${v}" is not valid; use one of: ${def.values.join(', ')}`);
    out[name] = v;
  }
  return out as SettingValues;
}
