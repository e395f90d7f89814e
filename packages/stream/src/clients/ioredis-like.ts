// ioredis and iovalkey share one API; each client module passes its own library.
import { PAGE } from '../canonical.ts';
import type { Adapter, StreamOptions } from '../index.ts';

type RedisCtor = new (url: string, opts: object) => any;

export async function openWith(Redis: RedisCtor, label: string, { url, workload, key, settings }: StreamOptions): Promise<Adapter> {
  const client = new Redis(url, { enableAutoPipelining: settings.autopipeline === 'on', lazyConnect: true });
  client.on('error', (err: Error) => console.error(`${label}: ${err.message}`));
  await client.connect();
  const entries =
    workload === 'xread'
      ? async () => ({ shape: 'flat' as const, entries: (await client.xread('STREAMS', key, '0-0'))?.[0]?.[1] ?? [] })
      : workload === 'xrange-count'
        ? async () => ({ shape: 'flat' as const, entries: await client.xrange(key, '-', '+', 'COUNT', PAGE) })
        : async () => ({ shape: 'flat' as const, entries: await client.xrange(key, '-', '+') });
  return { entries, close: async () => void (await client.quit()) };
}
