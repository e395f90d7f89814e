// ioredis and iovalkey share one API; each client module passes its own library.
import { PAGE, type Entries } from '../canonical.ts';
import type { Adapter, Follower, StreamOptions, WriteConnection } from '../contract.ts';
import { refuseClusterWatch } from '../writes/upsert.ts';

type RedisCtor = new (url: string, opts: object) => any;
type ClusterCtor = new (nodes: { host: string; port: number }[], opts: object) => any;

export async function openWith(
  Redis: RedisCtor,
  Cluster: ClusterCtor,
  label: string,
  o: StreamOptions,
): Promise<Adapter> {
  const { url, workload, key, settings, cluster } = o;
  const client = cluster
    ? clusterClient(Cluster, url, settings)
    : new Redis(url, { enableAutoPipelining: settings.autopipeline === 'on', lazyConnect: true });
  client.on('error', (err: Error) => console.error(`${label}: ${err.message}`));
  await client.connect();
  const count = workload === 'xrange-count' || workload === 'xrevrange-count' ? ['COUNT', PAGE] : [];
  const entries =
    settings.decode === 'bytes'
      ? workload === 'xrevrange-count'
        ? async () => ({ shape: 'bytes' as const, entries: await client.xrevrangeBuffer(key, '+', '-', ...count) })
        : async () => ({ shape: 'bytes' as const, entries: await client.xrangeBuffer(key, '-', '+', ...count) })
      : workload === 'xread'
        ? async () => ({ shape: 'flat' as const, entries: (await client.xread('STREAMS', key, '0-0'))?.[0]?.[1] ?? [] })
        : workload === 'xrange-count'
          ? async () => ({ shape: 'flat' as const, entries: await client.xrange(key, '-', '+', 'COUNT', PAGE) })
          : workload === 'xrevrange-count'
            ? async () => ({ shape: 'flat' as const, entries: await client.xrevrange(key, '+', '-', 'COUNT', PAGE) })
            : async () => ({ shape: 'flat' as const, entries: await client.xrange(key, '-', '+') });
  const close = async () => void (await client.quit());
  // Cluster mode has no follower yet (openAdapter refuses CACHE=tail there).
  return cluster ? { entries, close } : { entries, close, follow: (dropped) => follow(client, key, dropped) };
}

/**
 * REDIS_CLUSTER=1: `url` is the node the topology is discovered from. scaleReads 'slave' sends
 * read-only commands to a replica of the key's slot (READONLY is sent for it); 'master' is the default.
 */
function clusterClient(Cluster: ClusterCtor, url: string, settings: StreamOptions['settings']) {
  const { hostname, port } = new URL(url);
  return new Cluster([{ host: hostname, port: Number(port || 6379) }], {
    scaleReads: settings.replicas === 'on' ? 'slave' : 'master',
    enableAutoPipelining: settings.autopipeline === 'on',
    lazyConnect: true,
  });
}

/**
 * CACHE=tail: a duplicate connection that never reconnects (retryStrategy null), so a drop
 * rejects what is pending instead of resending it later: the cache reconnects and resyncs.
 */
async function follow(parent: any, key: string, dropped: () => void): Promise<Follower> {
  const c = parent.duplicate({ enableAutoPipelining: false, lazyConnect: true, retryStrategy: () => null });
  c.on('error', () => {}); // the cache reports the loss
  c.on('close', dropped);
  try {
    await c.connect();
  } catch (e) {
    c.disconnect();
    throw e;
  }
  const flat = (entries: unknown): Entries => ({ shape: 'flat', entries: entries as any });
  return {
    all: async () => flat(await c.xrevrange(key, '+', '-')),
    wait: (id) => c.xread('COUNT', 1, 'BLOCK', 0, 'STREAMS', key, id),
    after: async (id) => {
      const replies: [Error | null, unknown][] = await c.multi().xrevrange(key, '+', `(${id}`).xlen(key).exec();
      const failed = replies.find(([err]) => err);
      if (failed) throw failed[0];
      return { entries: flat(replies[0]![1]), length: Number(replies[1]![1]) };
    },
    close: () => c.disconnect(),
  };
}

/**
 * The upsert workload: commands through call() on one client, and for WATCH a duplicate client
 * per pooled connection (ioredis's advice: a connection of its own per transaction), its
 * transaction through multi(): exec() answers null when the watched key changed.
 */
export async function writesWith(
  Redis: RedisCtor,
  Cluster: ClusterCtor,
  label: string,
  { url, settings, cluster }: StreamOptions,
): Promise<WriteConnection> {
  if (cluster) return clusterWritesWith(Cluster, label, url, settings);
  const client = new Redis(url, { enableAutoPipelining: settings.autopipeline === 'on', lazyConnect: true });
  client.on('error', (err: Error) => console.error(`${label}: ${err.message}`));
  await client.connect();
  return {
    call: ([command, ...args]) => client.call(command!, ...args),
    dedicated: async () => {
      const c = client.duplicate({ enableAutoPipelining: false, lazyConnect: true });
      c.on('error', (err: Error) => console.error(`${label}: ${err.message}`));
      await c.connect();
      return {
        watch: async (key) => void (await c.watch(key)),
        hget: (key, field) => c.hget(key, field),
        unwatch: async () => void (await c.unwatch()),
        commit: async (key, fields) => (await c.multi().hset(key, fields).hincrby(key, 'applied', 1).exec()) !== null,
        close: async () => void (await c.quit()),
      };
    },
    close: async () => void (await client.quit()),
  };
}

/**
 * REDIS_CLUSTER=1: call() routes each command by its keys' slot (ioredis finds EVALSHA's and FCALL's keys); no WATCH.
 */
async function clusterWritesWith(
  Cluster: ClusterCtor,
  label: string,
  url: string,
  settings: StreamOptions['settings'],
): Promise<WriteConnection> {
  const client = clusterClient(Cluster, url, settings);
  client.on('error', (err: Error) => console.error(`${label}: ${err.message}`));
  await client.connect();
  return {
    call: ([command, ...args]) => client.call(command!, ...args),
    everyPrimary: async ([command, ...args]) => {
      for (const node of client.nodes('master')) await node.call(command!, ...args);
    },
    dedicated: refuseClusterWatch,
    close: async () => void (await client.quit()),
  };
}
