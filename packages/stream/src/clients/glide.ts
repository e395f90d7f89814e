// valkey-glide: a Rust core behind a native binding. customCommand keeps the stream order
// ([{key: id, value: [[field, value], …]}]); the typed xrange() returns an object keyed by id.
import { GlideClient } from '@valkey/valkey-glide';
import { workloadCommand } from '../canonical.ts';
import type { Adapter, StreamOptions } from '../index.ts';

export async function open({ url, workload, key }: StreamOptions): Promise<Adapter> {
  const { hostname, port } = new URL(url);
  const client = await GlideClient.createClient({ addresses: [{ host: hostname, port: Number(port || 6379) }] });
  const command = workloadCommand(workload, key);
  const entries =
    workload === 'xread'
      ? async () => ({ shape: 'pairs' as const, entries: ((await client.customCommand(command)) as any)?.[0]?.value ?? [] })
      : async () => ({ shape: 'pairs' as const, entries: (await client.customCommand(command)) as any });
  return { entries, close: async () => client.close() };
}
