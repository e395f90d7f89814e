// Bun's built-in client (Bun only). It auto-pipelines by default; the reply shape is ioredis's.
// Reached through the Bun global, so bundlers for other runtimes have no 'bun' module to resolve.
import { workloadCommand, type Entries, type ReadWorkload } from '../canonical.ts';
import { noCluster } from '../clients.ts';
import type { Adapter, Follower, StreamOptions, WriteConnection } from '../contract.ts';

type RedisClient = import('bun').RedisClient;

/** XREAD over RESP3 is a map {key: entries}; over RESP2 (older servers) [[key, entries]]. */
const xreadEntries = (reply: any, key: string) => (Array.isArray(reply) ? reply[0]?.[1] : reply?.[key]) ?? [];

export async function open({ url, workload, key, cluster }: StreamOptions): Promise<Adapter> {
  if (cluster) throw new Error(`REDIS_CLUSTER=1: ${noCluster('bun-redis')}`);
  const { RedisClient } = (globalThis as { Bun?: typeof import('bun') }).Bun ?? {};
  if (!RedisClient) throw new Error("REDIS_CLIENT=bun-redis is Bun's built-in client: run this app on Bun");
  const client = new RedisClient(url);
  await client.connect();
  const [command, ...args] = workloadCommand(workload as ReadWorkload, key);
  const entries =
    workload === 'xread'
      ? async () => ({ shape: 'flat' as const, entries: xreadEntries(await client.send(command!, args), key) })
      : async () => ({ shape: 'flat' as const, entries: (await client.send(command!, args)) as any });
  return {
    entries,
    close: async () => client.close(),
    follow: (dropped) => follow(new RedisClient(url, FOLLOWER), key, dropped),
  };
}

/** CACHE=tail: a second connection that never reconnects on its own; the cache reconnects and resyncs. */
const FOLLOWER = { autoReconnect: false, enableAutoPipelining: false };

async function follow(c: RedisClient, key: string, dropped: () => void): Promise<Follower> {
  c.onclose = dropped;
  try {
    await c.connect();
  } catch (e) {
    c.close();
    throw e;
  }
  const flat = (entries: unknown): Entries => ({ shape: 'flat', entries: entries as any });
  return {
    all: async () => flat(await c.send('XREVRANGE', [key, '+', '-'])),
    wait: (id) => c.send('XREAD', ['COUNT', '1', 'BLOCK', '0', 'STREAMS', key, id]),
    after: async (id) => {
      // One connection answers in order: MULTI's reply is OK, the next two QUEUED, EXEC's both results.
      const queued = Promise.all([
        c.send('MULTI', []),
        c.send('XREVRANGE', [key, '+', `(${id}`]),
        c.send('XLEN', [key]),
      ]);
      const [, [entries, length]] = (await Promise.all([queued, c.send('EXEC', [])])) as [unknown, [unknown, number]];
      return { entries: flat(entries), length: Number(length) };
    },
    close: () => c.close(),
  };
}

/**
 * The upsert workload: commands through send() on one client, and for WATCH a client of its own
 * per pooled connection (no auto-pipelining), its transaction sent command by command: EXEC
 * answers null when the watched key changed.
 */
export async function openWrites({ url, cluster }: StreamOptions): Promise<WriteConnection> {
  if (cluster) throw new Error(`REDIS_CLUSTER=1: ${noCluster('bun-redis')}`);
  const { RedisClient } = (globalThis as { Bun?: typeof import('bun') }).Bun ?? {};
  if (!RedisClient) throw new Error("REDIS_CLIENT=bun-redis is Bun's built-in client: run this app on Bun");
  const client = new RedisClient(url);
  await client.connect();
  return {
    call: ([command, ...args]) => client.send(command!, args),
    dedicated: async () => {
      const c = new RedisClient(url, { enableAutoPipelining: false });
      await c.connect();
      return {
        watch: async (key) => void (await c.send('WATCH', [key])),
        hget: async (key, field) => ((await c.send('HGET', [key, field])) as string | null) ?? null,
        unwatch: async () => void (await c.send('UNWATCH', [])),
        commit: async (key, fields) => {
          await c.send('MULTI', []);
          await c.send('HSET', [key, ...Object.entries(fields).flat()]);
          await c.send('HINCRBY', [key, 'applied', '1']);
          return (await c.send('EXEC', [])) !== null;
        },
        close: async () => c.close(),
      };
    },
    close: async () => client.close(),
  };
}
