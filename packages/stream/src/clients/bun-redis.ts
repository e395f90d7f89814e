// Bun's built-in client (Bun only). It auto-pipelines by default; the reply shape is ioredis's.
// Reached through the Bun global, so bundlers for other runtimes have no 'bun' module to resolve.
import { workloadCommand } from '../canonical.ts';
import type { Adapter, StreamOptions } from '../index.ts';

/** XREAD over RESP3 is a map {key: entries}; over RESP2 (older servers) [[key, entries]]. */
const xreadEntries = (reply: any, key: string) => (Array.isArray(reply) ? reply[0]?.[1] : reply?.[key]) ?? [];

export async function open({ url, workload, key }: StreamOptions): Promise<Adapter> {
  const { RedisClient } = (globalThis as { Bun?: typeof import('bun') }).Bun ?? {};
  if (!RedisClient) throw new Error("REDIS_CLIENT=bun-redis is Bun's built-in client: run this app on Bun");
  const client = new RedisClient(url);
  await client.connect();
  const [command, ...args] = workloadCommand(workload, key);
  const entries =
    workload === 'xread'
      ? async () => ({ shape: 'flat' as const, entries: xreadEntries(await client.send(command!, args), key) })
      : async () => ({ shape: 'flat' as const, entries: (await client.send(command!, args)) as any });
  return { entries, close: async () => client.close() };
}
