import { createClient, createClientPool, createCluster, RESP_TYPES } from 'redis';
import { PAGE, replyCommand, type Entries } from '../canonical.ts';
import type { Adapter, Follower, StreamOptions, WriteConnection } from '../contract.ts';
import type { SettingValues } from '../settings.ts';
import { refuseClusterWatch, routingKey } from '../writes/upsert.ts';

type Client = ReturnType<typeof createClient>;
/** What a read needs, which the cluster client has too (it routes each command by its key's slot). */
type Reader = Pick<Client, 'xRange' | 'xRevRange' | 'xRead' | 'close'>;

export async function open({ url, workload, key, settings, cluster }: StreamOptions): Promise<Adapter> {
  const count = workload === 'xrange-count' || workload === 'xrevrange-count' ? { COUNT: PAGE } : undefined;
  if (settings.cache === 'csc' && settings.resp !== '3')
    throw new Error('CACHE=csc needs RESP=3: the invalidations arrive as RESP3 pushes');
  const client = cluster
    ? await connectCluster(url, settings)
    : settings.pool === 'on'
      ? await connectPool(url, settings)
      : await connectClient(url, settings);
  // DECODE=bytes: every bulk string of the reply as a Buffer (RESP_TYPES type mapping), through sendCommand so
  // that the reply keeps XRANGE's own arrays (openAdapter allows it on one client and the range reads only).
  const bytes =
    settings.decode === 'bytes' ? (client as Client).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }) : null;
  const entries = bytes
    ? async () => ({ shape: 'bytes' as const, entries: (await bytes.sendCommand(replyCommand(workload, key))) as any })
    : workload === 'xread'
      ? async () => ({
          shape: 'object' as const,
          entries: ((await client.xRead({ key, id: '0-0' })) as any)?.[0]?.messages ?? [],
        })
      : workload === 'xrevrange-count'
        ? async () => ({ shape: 'object' as const, entries: (await client.xRevRange(key, '+', '-', count)) as any })
        : async () => ({ shape: 'object' as const, entries: (await client.xRange(key, '-', '+', count)) as any });
  const close = async () => void (await client.close());
  // Cluster mode and the pool have no follower (openAdapter refuses CACHE=tail there).
  return cluster || settings.pool === 'on'
    ? { entries, close }
    : { entries, close, follow: (dropped) => follow(client as Client, key, dropped) };
}

/** The options a single client and every cluster node share: protocol, command timeout, client-side cache. */
function shared(settings: SettingValues) {
  return {
    RESP: Number(settings.resp) as 2 | 3,
    // The v6 default is a per-command timeout (an AbortSignal per command); off removes it.
    ...(settings.timeout === 'off' ? { commandOptions: { timeout: undefined } } : {}),
    // CACHE=csc: Redis tracks the keys read and pushes invalidations; node-redis drops the entry
    // on a push and empties the whole cache when the socket errors or closes.
    ...(settings.cache === 'csc' ? { clientSideCache: { ttl: 0, maxEntries: 0, evictPolicy: 'LRU' as const } } : {}),
  };
}

async function connectClient(url: string, settings: SettingValues): Promise<Reader> {
  const client = createClient({ url, ...shared(settings) });
  // Without a listener node-redis throws on connection errors; one line, not per request.
  client.on('error', (err: Error) => console.error(`node-redis: ${err.message}`));
  await client.connect();
  return client;
}

/**
 * POOL=on: createClientPool with its defaults (1 to 100 clients): each command takes a client of
 * its own while it runs, so reads in flight at once go on parallel connections instead of one
 * pipelined connection: what pays when Redis is far away.
 */
async function connectPool(url: string, settings: SettingValues): Promise<Reader> {
  const pool = createClientPool({ url, ...shared(settings) });
  pool.on('error', (err: Error) => console.error(`node-redis pool: ${err.message}`));
  await pool.connect();
  return pool as unknown as Reader;
}

/**
 * REDIS_CLUSTER=1: `url` only discovers the topology; the options at the top level reach every
 * node's connection. useReplicas sends each read to the slot's primary and replicas in turn.
 */
async function connectCluster(url: string, settings: SettingValues): Promise<Reader> {
  const cluster = createCluster({ rootNodes: [{ url }], useReplicas: settings.replicas === 'on', ...shared(settings) });
  cluster.on('error', (err: Error) => console.error(`node-redis cluster: ${err.message}`));
  cluster.on('node-error', (err: Error, node: { host: string; port: number }) =>
    console.error(`node-redis ${node.host}:${node.port}: ${err.message}`),
  );
  await cluster.connect();
  return cluster;
}

/**
 * CACHE=tail: a duplicate connection with no command timeout (XREAD BLOCK 0 waits as long as it
 * takes) and no reconnecting of its own: the cache reconnects and resyncs instead.
 */
async function follow(parent: Client, key: string, dropped: () => void): Promise<Follower> {
  const c = parent.duplicate({
    socket: { reconnectStrategy: false },
    commandOptions: { timeout: undefined },
    clientSideCache: undefined,
  });
  c.on('error', dropped);
  try {
    await c.connect();
  } catch (e) {
    c.destroy();
    throw e;
  }
  const object = (entries: unknown): Entries => ({ shape: 'object', entries: entries as any });
  return {
    all: async () => object(await c.xRevRange(key, '+', '-')),
    wait: (id) => c.xRead({ key, id }, { BLOCK: 0, COUNT: 1 }),
    after: async (id) => {
      const [entries, length] = await c.multi().xRevRange(key, '+', `(${id}`).xLen(key).exec();
      return { entries: object(entries), length: Number(length) };
    },
    close: () => c.destroy(),
  };
}

/**
 * The upsert workload: commands through sendCommand on one client (auto-pipelined, as reads are),
 * and for WATCH a duplicate client per pooled connection, its transaction through multi(): exec()
 * throws WatchError when the watched key changed.
 */
export async function openWrites({ url, settings, cluster }: StreamOptions): Promise<WriteConnection> {
  if (cluster) return clusterWrites(url, settings);
  const client = createClient({ url, ...shared(settings) });
  client.on('error', (err: Error) => console.error(`node-redis: ${err.message}`));
  await client.connect();
  return {
    call: (args) => client.sendCommand(args),
    dedicated: async () => {
      const c = client.duplicate();
      c.on('error', (err: Error) => console.error(`node-redis: ${err.message}`));
      await c.connect();
      return {
        watch: async (key) => void (await c.watch(key)),
        hget: async (key, field) => ((await c.hGet(key, field)) as string | null) ?? null,
        unwatch: async () => void (await c.unwatch()),
        commit: async (key, fields) => {
          try {
            await c.multi().hSet(key, fields).hIncrBy(key, 'applied', 1).exec();
            return true;
          } catch (e) {
            if ((e as Error).constructor?.name === 'WatchError') return false;
            throw e;
          }
        },
        close: async () => void c.destroy(),
      };
    },
    close: async () => void (await client.close()),
  };
}

/** REDIS_CLUSTER=1: each command routed by its key's slot (sendCommand's first key); no WATCH. */
async function clusterWrites(url: string, settings: SettingValues): Promise<WriteConnection> {
  const c = (await connectCluster(url, settings)) as unknown as ReturnType<typeof createCluster>;
  return {
    call: (args) => c.sendCommand(routingKey(args), false, args),
    everyPrimary: async (args) => {
      for (const primary of c.masters) await (await c.nodeClient(primary)).sendCommand(args);
    },
    dedicated: refuseClusterWatch,
    close: async () => void (await c.close()),
  };
}
