import { createClient } from 'redis';
import { PAGE, type Entries } from '../canonical.ts';
import type { Follower } from '../cache.ts';
import type { Adapter, StreamOptions } from '../index.ts';

type Client = ReturnType<typeof createClient>;

export async function open({ url, workload, key, settings }: StreamOptions): Promise<Adapter> {
  const count = workload === 'xrange-count' ? { COUNT: PAGE } : undefined;
  const csc = settings.cache === 'csc';
  if (csc && settings.resp !== '3') throw new Error('CACHE=csc needs RESP=3: the invalidations arrive as RESP3 pushes');
  const client = createClient({
    url,
    RESP: Number(settings.resp) as 2 | 3,
    // The v6 default is a per-command timeout (an AbortSignal per command); off removes it.
    ...(settings.timeout === 'off' ? { commandOptions: { timeout: undefined } } : {}),
    // CACHE=csc: Redis tracks the keys read and pushes invalidations; node-redis drops the entry
    // on a push and empties the whole cache when the socket errors or closes.
    ...(csc ? { clientSideCache: { ttl: 0, maxEntries: 0, evictPolicy: 'LRU' as const } } : {}),
  });
  // Without a listener node-redis throws on connection errors; one line, not per request.
  client.on('error', (err: Error) => console.error(`node-redis: ${err.message}`));
  await client.connect();
  const entries =
    workload === 'xread'
      ? async () => ({ shape: 'object' as const, entries: ((await client.xRead({ key, id: '0-0' })) as any)?.[0]?.messages ?? [] })
      : async () => ({ shape: 'object' as const, entries: (await client.xRange(key, '-', '+', count)) as any });
  return { entries, close: async () => void (await client.close()), follow: (dropped) => follow(client as Client, key, dropped) };
}

/**
 * CACHE=tail: a duplicate connection with no command timeout (XREAD BLOCK 0 waits as long as it
 * takes) and no reconnecting of its own: the cache reconnects and resyncs instead.
 */
async function follow(parent: Client, key: string, dropped: () => void): Promise<Follower> {
  const c = parent.duplicate({ socket: { reconnectStrategy: false }, commandOptions: { timeout: undefined }, clientSideCache: undefined });
  c.on('error', dropped);
  try {
    await c.connect();
  } catch (e) {
    c.destroy();
    throw e;
  }
  const object = (entries: unknown): Entries => ({ shape: 'object', entries: entries as any });
  return {
    all: async () => object(await c.xRange(key, '-', '+')),
    wait: (id) => c.xRead({ key, id }, { BLOCK: 0, COUNT: 1 }),
    after: async (id) => {
      const [entries, length] = await c.multi().xRange(key, `(${id}`, '+').xLen(key).exec();
      return { entries: object(entries), length: Number(length) };
    },
    close: () => c.destroy(),
  };
}
