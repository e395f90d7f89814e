// One small interface over every Redis client: open once, then per request exactly one Redis
// read, handed over as the canonical objects (read) or the canonical JSON string (readJson).
import {
  isRead,
  toBody,
  toJson,
  STREAM_KEY,
  WORKLOADS,
  workloadCommand,
  type ReadWorkload,
  type StreamBody,
} from './canonical.ts';
import { RawReader } from './raw/reader.ts';
import { cacheTtlMs, checkCache, withCache } from './cache.ts';
import type { Adapter, StreamOptions, StreamSource, WriteConnection } from './contract.ts';
import { WRITE_ROUTES, writerFor, type Writer } from './writes/index.ts';
import { CLIENTS, type ClientName } from './clients.ts';
import { withHandicap } from './handicap.ts';
import { startWorkers } from './workers.ts';
import { SETTINGS, settingsFromEnv } from './settings.ts';

export * from './canonical.ts';
export { statusOf, Unavailable } from './raw/reader.ts';
export * from './clients.ts';
export * from './settings.ts';
export { CACHES, DEFAULT_CACHE_TTL_MS, cacheTtlMs, stalenessBoundMs, type CacheDef, type CacheName } from './cache.ts';
export type * from './contract.ts';
export { burn, withHandicap } from './handicap.ts';
export { REUSE_PORT, startWorkers } from './workers.ts';
export * from './writes/index.ts';

const ADAPTERS: Record<
  ClientName,
  () => Promise<{ open(o: StreamOptions): Promise<Adapter>; openWrites(o: StreamOptions): Promise<WriteConnection> }>
> = {
  'node-redis': () => import('./clients/node-redis.ts'),
  ioredis: () => import('./clients/ioredis.ts'),
  iovalkey: () => import('./clients/iovalkey.ts'),
  'bun-redis': () => import('./clients/bun-redis.ts'),
  glide: () => import('./clients/glide.ts'),
};

export async function openAdapter(opts: StreamOptions): Promise<Adapter> {
  const load = ADAPTERS[opts.client];
  if (!load) throw new Error(`unknown REDIS_CLIENT "${opts.client}"; use one of: ${CLIENTS.join(', ')}`);
  if (!isRead(opts.workload))
    throw new Error(`WORKLOAD=${opts.workload} reads nothing per request: the app mounts routeFromEnv()`);
  checkCache(opts);
  checkCluster(opts);
  checkDecode(opts);
  return (await load()).open(opts);
}

/** The adapter, then the cache (CACHE), then the handicap (HANDICAP): each layer wraps the one before. */
export async function openStream(opts: StreamOptions): Promise<StreamSource> {
  const source = await openPlainStream(opts);
  return opts.settings.handicap === 'on' ? withHandicap(source, opts.handicapUs) : source;
}

async function openPlainStream(opts: StreamOptions): Promise<StreamSource> {
  if (opts.settings.decode === 'raw') return openRaw(opts);
  const a = await withCache(await openAdapter(opts), opts);
  if (opts.settings.transform === 'precomputed') {
    // The HTTP ceiling: one read at start, then the same string for every request, sent as it is.
    const body = toJson(await a.entries());
    return { read: async () => JSON.parse(body), readJson: async () => body, direct: true, close: () => a.close() };
  }
  if (a.json) {
    // CACHE=tail-body: the body is kept with the copy, so it is sent as it is.
    const json = a.json;
    return { read: async () => JSON.parse(await json()), readJson: json, direct: true, close: () => a.close() };
  }
  return {
    read: async () => toBody(await a.entries()),
    readJson: async () => toJson(await a.entries()),
    // DECODE=bytes: the Buffers go straight into the body (toJson), which is sent as it is.
    direct: opts.settings.transform === 'direct' || opts.settings.decode === 'bytes',
    close: () => a.close(),
  };
}

/** DECODE=bytes or raw: XRANGE on one connection, measured alone; bytes needs a client with a byte mode. */
function checkDecode({ settings, workload, cluster, client }: StreamOptions): void {
  const d = settings.decode;
  if (d === 'default') return;
  const applies = SETTINGS.decode.clients as readonly string[];
  const why = !applies.includes(client)
    ? `REDIS_CLIENT=${client}: ${client === 'bun-redis' ? "Bun's RedisClient has no byte mode for XRANGE" : 'none'}`
    : d === 'raw' && client !== 'node-redis'
      ? `REDIS_CLIENT=${client}: the raw reader is carried by node-redis contenders only`
      : workload === 'xread' || workload === 'upsert'
        ? `WORKLOAD=${workload}: it reads XRANGE's reply only`
        : cluster
          ? 'REDIS_CLUSTER=1: it follows no cluster redirect'
          : settings.cache !== 'none' || settings.pool === 'on' || settings.transform !== 'plain'
            ? 'a CACHE, POOL or TRANSFORM: it is measured alone'
            : null;
  if (why) throw new Error(`DECODE=${d} is not supported with ${why}`);
}

/** DECODE=raw: the raw reader instead of the client for the read; its body is sent as it is. */
function openRaw(opts: StreamOptions): StreamSource {
  const { workload, key, url } = opts;
  checkDecode(opts);
  const reader = new RawReader(url, workloadCommand(workload as ReadWorkload, key));
  return {
    read: async () => JSON.parse(await reader.read()),
    readJson: () => reader.read(),
    direct: true,
    close: () => reader.close(),
  };
}

/** Fails at startup, in one line, on what cluster mode does not have yet: the tail caches' follower. */
function checkCluster({ cluster, settings }: StreamOptions): void {
  if (cluster && (settings.cache === 'tail' || settings.cache === 'tail-body')) {
    throw new Error(
      `CACHE=${settings.cache} is not supported in cluster mode (REDIS_CLUSTER=1) ` +
        "yet: its follower needs one connection to the stream's node",
    );
  }
  if (settings.pool === 'on' && (cluster || settings.cache !== 'none'))
    throw new Error('POOL=on is measured alone: not with REDIS_CLUSTER=1 or a CACHE');
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(`${name}="${value}" is not valid; use one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

/**
 * Options from the environment every app shares: REDIS_URL, REDIS_CLIENT, WORKLOAD, STREAM_KEY, REDIS_CLUSTER and the
 * settings.
 */
export function streamOptionsFromEnv(defaultClient: ClientName = 'node-redis'): StreamOptions {
  const env = process.env;
  const settings = settingsFromEnv(env);
  return {
    url: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    client: oneOf('REDIS_CLIENT', env.REDIS_CLIENT ?? defaultClient, CLIENTS),
    workload: oneOf('WORKLOAD', env.WORKLOAD ?? 'xrange', WORKLOADS),
    key: env.STREAM_KEY ?? STREAM_KEY,
    settings,
    cluster: oneOf('REDIS_CLUSTER', env.REDIS_CLUSTER || '0', ['0', '1']) === '1',
    handicapUs: settings.handicap === 'on' ? handicapUs(env.HANDICAP_US) : 0,
    ...(settings.cache === 'ttl' ? { cacheTtlMs: cacheTtlMs(env.CACHE_TTL_MS) } : {}),
  };
}

function handicapUs(value: string | undefined): number {
  const us = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(us) || us <= 0) {
    throw new Error('HANDICAP=on needs HANDICAP_US=<µs per request> above 0');
  }
  return us;
}

/** The app's stream; with WORKERS above 1 only the workers get one: the primary never returns (workers.ts). */
export async function streamFromEnv(defaultClient?: ClientName): Promise<StreamSource> {
  const opts = streamOptionsFromEnv(defaultClient);
  await startWorkers(Number(opts.settings.workers));
  return openStream(opts);
}

/** The upsert workload's writer: the client's write connection under the strategy WRITE names. */
export async function openWriter(opts: StreamOptions): Promise<Writer> {
  const load = ADAPTERS[opts.client];
  if (!load) throw new Error(`unknown REDIS_CLIENT "${opts.client}"; use one of: ${CLIENTS.join(', ')}`);
  return writerFor(await (await load()).openWrites(opts), opts.settings.write);
}

/**
 * The one route an app mounts, whatever the workload: its method and path (in the `:param` form the routers share),
 * and what it answers. Reads are GET /; a write workload's requests POST /items/:id with a JSON body.
 */
export interface Route {
  method: 'GET' | 'POST';
  path: '/' | '/items/:id';
  /** The path's id ('' for /), or null when the path is not this route's (for an app that matches paths itself). */
  match(pathname: string): string | null;
  /** The plain read: the objects, for the framework's own JSON path; null when `handle` builds the body. */
  value: (() => Promise<StreamBody>) | null;
  /** The reply to a request: its id (the path's :id) and body (its text, or the object the framework parsed). */
  handle(id: string, body: unknown): Promise<{ status: number; json: string }>;
}

const ITEM_PATH = /^\/items\/([A-Za-z0-9_-]+)$/;

/**
 * The app's route from the environment (WORKLOAD and the rest); with WORKERS above 1 only the workers get one: the
 * primary never returns (workers.ts).
 */
export async function routeFromEnv(defaultClient?: ClientName): Promise<Route> {
  const opts = streamOptionsFromEnv(defaultClient);
  await startWorkers(Number(opts.settings.workers));
  return routeFor(opts);
}

/** The route of routeFromEnv for given options (Next.js serves two clients from one process). */
export async function routeFor(opts: StreamOptions): Promise<Route> {
  const workload = opts.workload;
  if (isRead(workload)) {
    const stream = await openStream(opts);
    return {
      method: 'GET',
      path: '/',
      match: (pathname) => (pathname === '/' ? '' : null),
      // plain: the objects through the framework's JSON; direct: the string built by the adapter.
      value: stream.direct ? null : () => stream.read(),
      handle: async () => ({ status: 200, json: await stream.readJson() }),
    };
  }
  const load = ADAPTERS[opts.client];
  if (!load) throw new Error(`unknown REDIS_CLIENT "${opts.client}"; use one of: ${CLIENTS.join(', ')}`);
  const handle = await WRITE_ROUTES[workload](await (await load()).openWrites(opts), opts);
  return {
    method: 'POST',
    path: '/items/:id',
    match: (pathname) => ITEM_PATH.exec(pathname)?.[1] ?? null,
    value: null,
    handle,
  };
}

/**
 * Every app binds loopback only, unless BIND_HOST names another address: the opt-in for the
 * three-host layout (README), where an app started by hand must answer a load generator on
 * another host. The harness's own launches always bind loopback (apps.ts sets it).
 */
export const HOST = process.env.BIND_HOST || '127.0.0.1';
export const listenPort = () => Number(process.env.PORT ?? 3000);
/** The header every JSON route sends when it writes the body itself (the direct transform). */
export const JSON_HEADERS = { 'content-type': 'application/json' };
