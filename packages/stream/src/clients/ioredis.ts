import { Redis } from 'ioredis';
import { flatEntriesToJson, flatXReadToJson } from '../canonical';
import type { StreamOptions, StreamSource } from '../index';

export async function open({ url, workload, key }: StreamOptions): Promise<StreamSource> {
  // Auto-pipelining is ioredis's documented speed setting for many concurrent commands.
  const client = new Redis(url, { enableAutoPipelining: true, lazyConnect: true });
  client.on('error', (err: Error) => console.error(`ioredis: ${err.message}`));
  await client.connect();
  const readJson =
    workload === 'xrange'
      ? async () => flatEntriesToJson((await client.xrange(key, '-', '+')) as any)
      : async () => flatXReadToJson((await client.xread('STREAMS', key, '0-0')) as any);
  return { readJson, close: async () => void (await client.quit()) };
}
