// --server, --servers, --topology and --redis-rtt: which servers each contender is measured against, and how far.
import { SINGLE_SERVERS, type ServerName } from '../model/servers';
import { workloadOf } from '../workloads';
import { parseRtt } from '../topology/delay';
import type { Workload } from '@bench/stream';
import { oneOf } from './flags';
import { UsageError } from './usage-error';

/**
 * --server valkey: one server; --servers redis,valkey: each contender against each, paired by round; --topology
 * cluster: the cluster twins too.
 */
export function serversFlag(
  one: string | undefined,
  many: string | undefined,
  topology: string | undefined,
  workload: Workload,
): ServerName[] {
  const w = workloadOf(workload);
  if (one !== undefined && many !== undefined)
    throw new UsageError(
      '--server and --servers exclude each other: --server picks one, --servers measures against several',
    );
  const list =
    many === undefined
      ? [oneOf('server', one ?? 'redis', SINGLE_SERVERS)]
      : [...new Set(many.split(',').map((s) => oneOf('servers', s.trim(), SINGLE_SERVERS)))];
  if (many !== undefined && list.length < 2)
    throw new UsageError(`--servers "${many}" names one server; name two or more, like redis,valkey (or use --server)`);
  const cluster = oneOf('topology', topology ?? 'single', ['single', 'cluster'] as const) === 'cluster';
  if (cluster && (list.length > 1 || list[0] !== 'redis'))
    throw new UsageError(
      '--topology cluster pairs each contender on a single Redis with ' +
        'itself on a Redis cluster: leave out --server and --servers',
    );
  if (w.oneServer && (list.length > 1 || cluster)) throw new UsageError(w.oneServer);
  return cluster ? [...list, ...w.clusterServers] : list;
}

/**
 * --redis-rtt 1ms, or a sweep 0,1ms,5ms (ascending): a cluster's redirects name its nodes' own ports, which a proxy
 * cannot stand in for.
 */
export function rttFlag(value: string | undefined, servers: ServerName[]): { redisRttMs: number; redisRtts: number[] } {
  let rtts: number[];
  try {
    rtts = parseRtt(value ?? '0').sort((a, b) => a - b);
  } catch (e) {
    throw new UsageError(`--redis-rtt: ${(e as Error).message}`);
  }
  if (rtts.some((x) => x > 0) && servers.includes('cluster'))
    throw new UsageError(
      '--redis-rtt with --topology cluster: the cluster redirects clients to its ' +
        "nodes' own ports, past the proxy; measure distance on a single server",
    );
  return { redisRttMs: rtts[0]!, redisRtts: rtts };
}

/**
 * --redis-tls: the private single servers get a TLS port the apps read. Not with a cluster (its redirects name plain
 * ports), a delay proxy (it forwards the plain port), REDIS_URL's Redis (TLS is the URL's there: rediss://) or
 * --target (an app started by hand reads the Redis its own URL names).
 */
export function tlsFlag(v: Record<string, unknown>): boolean {
  if (v['redis-tls'] !== true) return false;
  const clash: [unknown, string][] = [
    [v.topology === 'cluster', '--topology cluster: its redirects name plain ports'],
    [v['redis-rtt'] !== undefined, '--redis-rtt: its delay proxy forwards the plain port'],
    [v.target !== undefined, '--target: the app reads the Redis its own URL names (give it a rediss:// one)'],
    [!!process.env.REDIS_URL, 'REDIS_URL: that Redis is read over TLS when its URL is rediss://'],
    [
      v.server === 'valkey' || String(v.servers ?? '').includes('valkey'),
      'Valkey: the pinned valkey-server is built without TLS (leave out --server valkey or valkey in --servers)',
    ],
  ];
  const found = clash.find(([on]) => on);
  if (found) throw new UsageError(`--redis-tls does not go with ${found[1]}`);
  return true;
}
