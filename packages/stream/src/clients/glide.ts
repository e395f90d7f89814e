// valkey-glide: a Rust core behind a native binding. customCommand keeps the stream order
// ([{key: id, value: [[field, value], …]}]); the typed xrange() returns an object keyed by id.
import { readFileSync } from 'node:fs';
import { Batch, Decoder, GlideClient, GlideClusterClient } from '@valkey/valkey-glide';
import { workloadCommand, type Entries, type ReadWorkload } from '../canonical.ts';
import type { Adapter, Follower, StreamOptions, WriteConnection } from '../contract.ts';
import { refuseClusterWatch } from '../writes/upsert.ts';

/**
 * Where glide connects: the URL's host and port; for rediss://, TLS (useTLS) trusting the CA in REDIS_TLS_CA when it is
 * set (glide's Rust core reads no runtime's CA settings: its rootCertificates, as its docs show).
 */
function connection(url: string) {
  const { hostname, port, protocol } = new URL(url);
  const ca = process.env.REDIS_TLS_CA;
  return {
    addresses: [{ host: hostname, port: Number(port || 6379) }],
    ...(protocol === 'rediss:'
      ? {
          useTLS: true,
          ...(ca
            ? { advancedConfiguration: { tlsAdvancedConfiguration: { rootCertificates: readFileSync(ca) } } }
            : {}),
        }
      : {}),
  };
}
type Connection = ReturnType<typeof connection>;

export async function open({ url, workload, key, settings, cluster }: StreamOptions): Promise<Adapter> {
  const conn = connection(url);
  // REDIS_CLUSTER=1: the address seeds the topology; glide routes each command by its key's slot.
  // preferReplica sends reads to the slot's replicas in turn (the primary only when none is up).
  const client = cluster
    ? await GlideClusterClient.createClient({
        ...conn,
        readFrom: settings.replicas === 'on' ? 'preferReplica' : 'primary',
      })
    : await GlideClient.createClient(conn);
  const command = workloadCommand(workload as ReadWorkload, key);
  // customCommand is typed per client (the cluster one may answer per node); a keyed read answers once.
  const send = (args: string[]) => (client as GlideClient).customCommand(args);
  // DECODE=bytes: Decoder.Bytes hands every bulk string over as a Buffer; flattened to [id, [field, value, …]].
  const sendBytes = async () =>
    ((await (client as GlideClient).customCommand(command, { decoder: Decoder.Bytes })) as any[]).map(
      ({ key: id, value }: { key: Buffer; value: [Buffer, Buffer][] }) => [id, value.flat()],
    );
  const entries =
    settings.decode === 'bytes'
      ? async () => ({ shape: 'bytes' as const, entries: (await sendBytes()) as any })
      : workload === 'xread'
        ? async () => ({ shape: 'pairs' as const, entries: ((await send(command)) as any)?.[0]?.value ?? [] })
        : async () => ({ shape: 'pairs' as const, entries: (await send(command)) as any });
  const close = async () => client.close();
  // Cluster mode has no follower yet (openAdapter refuses CACHE=tail there).
  return cluster ? { entries, close } : { entries, close, follow: () => follow(conn, key, client as GlideClient) };
}

/**
 * CACHE=tail: a second client. Glide has no disconnect event, and reconnects on its own: a drop
 * fails the pending XREAD, and the MULTI checks it still runs on the connection it started on.
 */
async function follow(conn: Connection, key: string, main: GlideClient): Promise<Follower> {
  const c = await GlideClient.createClient(conn);
  const pairs = (entries: unknown): Entries => ({ shape: 'pairs', entries: (entries ?? []) as any });
  let clientId: string;
  let waiting: Promise<unknown> = Promise.resolve();
  try {
    clientId = String(await c.customCommand(['CLIENT', 'ID']));
  } catch (e) {
    c.close();
    throw e;
  }
  return {
    all: async () => pairs(await c.customCommand(['XREVRANGE', key, '+', '-'])),
    wait: (id) => (waiting = c.customCommand(['XREAD', 'COUNT', '1', 'BLOCK', '0', 'STREAMS', key, id])),
    after: async (id) => {
      // Glide times a request from when it is sent (250 ms by default): queued behind a blocked
      // XREAD it would time out, so the MULTI waits here for the wake-up instead.
      await waiting.catch(() => {});
      const batch = new Batch(true)
        .customCommand(['CLIENT', 'ID'])
        .customCommand(['XREVRANGE', key, '+', `(${id}`])
        .customCommand(['XLEN', key]);
      const [now, entries, length] = (await c.exec(batch, true))!;
      if (String(now) !== clientId) throw new Error('glide reconnected the follower');
      return { entries: pairs(entries), length: Number(length) };
    },
    close: async () => {
      c.close();
      // Glide lets a closed client's connection go only once nothing is pending on it: end the XREAD.
      await main.customCommand(['CLIENT', 'UNBLOCK', clientId]).catch(() => {});
    },
  };
}

/**
 * The upsert workload: commands through customCommand on one client, and for WATCH a client of
 * its own per pooled connection (glide's transactions: watch(), then exec() of an atomic Batch,
 * which answers null when the watched key changed).
 */
export async function openWrites({ url, cluster }: StreamOptions): Promise<WriteConnection> {
  const conn = connection(url);
  if (cluster) {
    // glide routes a command by its key's slot (EVALSHA's and FCALL's keys included); no WATCH here.
    const c = await GlideClusterClient.createClient(conn);
    return {
      call: (args) => c.customCommand(args),
      everyPrimary: async (args) => void (await c.customCommand(args, { route: 'allPrimaries' })),
      dedicated: refuseClusterWatch,
      close: async () => c.close(),
    };
  }
  const client = await GlideClient.createClient(conn);
  return {
    call: (args) => client.customCommand(args),
    dedicated: async () => {
      const c = await GlideClient.createClient(conn);
      return {
        watch: async (key) => void (await c.watch([key])),
        hget: async (key, field) => ((await c.hget(key, field)) as string | null) ?? null,
        unwatch: async () => void (await c.unwatch()),
        commit: async (key, fields) =>
          (await c.exec(new Batch(true).hset(key, fields).hincrBy(key, 'applied', 1), true)) !== null,
        close: async () => c.close(),
      };
    },
    close: async () => client.close(),
  };
}
