// One small interface over every Redis client: open once, then readJson() per request
// does exactly one Redis read and returns the contract body.
import { STREAM_KEY, WORKLOADS, type Workload } from './canonical';

export * from './canonical';

export const CLIENTS = ['node-redis', 'ioredis'] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface StreamSource {
  readJson(): Promise<string>;
  close(): Promise<void>;
}

export interface StreamOptions {
  client: ClientName;
  url: string;
  workload: Workload;
  key: string;
}

export async function openStream(opts: StreamOptions): Promise<StreamSource> {
  switch (opts.client) {
    case 'node-redis':
      return (await import('./clients/node-redis')).open(opts);
    case 'ioredis':
      return (await import('./clients/ioredis')).open(opts);
    default:
      throw new Error(`unknown REDIS_CLIENT "${opts.client}"; use one of: ${CLIENTS.join(', ')}`);
  }
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(`${name}="${value}" is not valid; use one of: ${allowed.join(', ')}`);
  }
  return value as T;
}

/** Options from the environment every app shares: REDIS_URL, REDIS_CLIENT, WORKLOAD, STREAM_KEY. */
export function streamOptionsFromEnv(defaultClient: ClientName = 'node-redis'): StreamOptions {
  const env = process.env;
  return {
    url: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    client: oneOf('REDIS_CLIENT', env.REDIS_CLIENT ?? defaultClient, CLIENTS),
    workload: oneOf('WORKLOAD', env.WORKLOAD ?? 'xrange', WORKLOADS),
    key: env.STREAM_KEY ?? STREAM_KEY,
  };
}

export const streamFromEnv = (defaultClient?: ClientName) => openStream(streamOptionsFromEnv(defaultClient));

/** Every app binds loopback only. */
export const HOST = '127.0.0.1';
export const listenPort = () => Number(process.env.PORT ?? 3000);
