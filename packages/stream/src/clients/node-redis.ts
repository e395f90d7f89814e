import { createClient } from 'redis';
import { objectEntriesToJson, objectXReadToJson } from '../canonical';
import type { StreamOptions, StreamSource } from '../index';

export async function open({ url, workload, key }: StreamOptions): Promise<StreamSource> {
  const client = createClient({ url });
  // Without a listener node-redis throws on connection errors; one line, not per request.
  client.on('error', (err: Error) => console.error(`node-redis: ${err.message}`));
  await client.connect();
  const readJson =
    workload === 'xrange'
      ? async () => objectEntriesToJson(await client.xRange(key, '-', '+'))
      : async () => objectXReadToJson((await client.xRead({ key, id: '0-0' })) as any);
  return { readJson, close: async () => void (await client.close()) };
}
