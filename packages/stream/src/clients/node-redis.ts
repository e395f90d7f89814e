import { createClient } from 'redis';
import { PAGE } from '../canonical.ts';
import type { Adapter, StreamOptions } from '../index.ts';

export async function open({ url, workload, key, settings }: StreamOptions): Promise<Adapter> {
  const count = workload === 'xrange-count' ? { COUNT: PAGE } : undefined;
  const client = createClient({
    url,
    RESP: Number(settings.resp) as 2 | 3,
    // The v6 default is a per-command timeout (an AbortSignal per command); off removes it.
    ...(settings.timeout === 'off' ? { commandOptions: { timeout: undefined } } : {}),
  });
  // Without a listener node-redis throws on connection errors; one line, not per request.
  client.on('error', (err: Error) => console.error(`node-redis: ${err.message}`));
  await client.connect();
  const entries =
    workload === 'xread'
      ? async () => ({ shape: 'object' as const, entries: ((await client.xRead({ key, id: '0-0' })) as any)?.[0]?.messages ?? [] })
      : async () => ({ shape: 'object' as const, entries: (await client.xRange(key, '-', '+', count)) as any });
  return { entries, close: async () => void (await client.close()) };
}
