// --workload live: GET / while the harness's writer appends to the capped stream. Each read is
// judged by the checker against the writer's log and the contender's staleness bound; a prober
// reads beside oha in every window, and the writer's cost is kept apart from the app's. Its table and chart:
// report.ts, over figures.ts.
import { perRequestCommand, STREAM_KEY } from '@bench/stream';
import type { Probe } from './checker';
import { probeOnce } from '../../measure/probe';
import { judgeWindow, type Live, liveFault, poolLive, startLive, startProber } from './session';
import { LIVE_FLAGS, liveOptions } from './flags';
import { type LiveRecord, type LiveSettings, liveOf, liveSettings } from './record';
import { CLUSTER_SERVERS } from '../../model/servers';
import { treeCpuSeconds } from '../../system/proc';
import { commandStats, type RedisTarget } from '../../topology/redis';
import type { Around, CheckContext } from '../../measure/workload';
import { type Verdict, verifyContract } from '../../measure/verify';
import { bodyAfterRun } from '../read';
import type { Workload } from '../types';
import { liveTable, liveTimeSpec } from './report';

/** The XADDs Redis served so far and the time it spent in them, and the writer process's own CPU. */
function writerCounters(redis: RedisTarget, live: Live) {
  const stats = commandStats(redis);
  // Tail followers read with XREAD and XREVRANGE only (packages/stream cache.ts), apart from the requests' XRANGEs.
  const follows = (stats.xread?.calls ?? 0) + (stats.xrevrange?.calls ?? 0);
  return { ...(stats.xadd ?? { calls: 0, usec: 0 }), follows, cpu: treeCpuSeconds(live.writer.pid) };
}

/**
 * The writer's XADDs during the window (read as oha ends), the time Redis spent in them and the
 * writer's CPU: its cost, kept apart from the app's. With them, the reads the writes cause in
 * every tail follower running (the block's idle apps too), which no one contender can be charged.
 */
function writerCost(
  redis: RedisTarget,
  live: Live,
  before: ReturnType<typeof writerCounters>,
): { writes: number; write_redis_us: number; writer_cpu_s: number; follower_reads: number } {
  const after = writerCounters(redis, live);
  return {
    writes: after.calls - before.calls,
    write_redis_us: after.usec - before.usec,
    writer_cpu_s: after.cpu - before.cpu,
    follower_reads: after.follows - before.follows,
  };
}

/** One probe's body, judged by the checker against the contender's staleness bound. */
export async function judgeLiveProbe(ctx: CheckContext, probe: Probe): Promise<Verdict> {
  const window = await judgeWindow(ctx.background as Live, [probe], ctx.boundMs(), probe.sent_ms, probe.received_ms);
  const fault = liveFault(window, null);
  return fault ? { ok: false, reason: fault } : { ok: true, bytes: Buffer.byteLength(probe.body) };
}

/** The writer's counters and the prober around a window; the prober's reads judged after it. */
function liveAround(redis: RedisTarget, live: Live, url: string, boundMs: number): Around {
  const before = writerCounters(redis, live);
  const prober = startProber(url);
  let writes: ReturnType<typeof writerCost>;
  let probes: Probe[] = [];
  return {
    target: null,
    abort: async () => {
      await prober.stop();
    },
    stop: async () => {
      writes = writerCost(redis, live, before);
      probes = await prober.stop();
      return probes.length;
    },
    record: async (w) => ({
      kind: 'live',
      data: { ...(await judgeWindow(live, probes, boundMs, w.fromMs, w.endedAtMs)), ...writes },
    }),
  };
}

const command = perRequestCommand('live', '');

export const LIVE: Workload = {
  name: 'live',
  // Only too few calls are gated: an idle app of the block that polls Redis (a test's fake does, to age its bodies)
  // adds XRANGEs that Redis cannot tell from the measured app's. The real caches' followers read with XREAD and
  // XREVRANGE, so they add none.
  rules: {
    command: () => command,
    label: command.toUpperCase(),
    gateTooMany: false,
    // The prober's reads are responses too, each one an XRANGE of the app's.
    served: (run) => run.ok + (liveOf(run)?.count ?? 0),
    exempt: () => 0,
  },
  ceilings: { redis: true, clients: false },
  flags: LIVE_FLAGS,
  options: liveOptions,
  suite: { holds: 'each raw server with the caches' },
  published: null,
  noTarget: '--workload live writes to the stream on the private Redis only: use xrange or xrange-count with --target',
  noApp: '--workload live changes the stream under every read, and --app holds your route to one body: drop --workload',
  privateRedis: '--workload live writes to and trims the stream: it runs on the private Redis only; unset REDIS_URL',
  noResume: 'its stream changed since, so it cannot be resumed; start a new run',
  slackMs: (own) => (own as LiveSettings | undefined)?.max_staleness_ms ?? 0,
  restartsRedis: (own) => !!(own as LiveSettings | undefined)?.restart_redis,
  // Every app serves a snapshot fresh enough again.
  judgeRecovered: judgeLiveProbe,
  oneServer:
    '--servers or --topology cluster with --workload live: the writer ' +
    'changes one stream; measure the live workload on one --server',
  clusterServers: CLUSTER_SERVERS,
  // The writer runs from before the first launch to the end: every launch, verification and window sees a changing
  // stream.
  start: ({ redis, entries, settings, runDir }) =>
    startLive(redis.url, STREAM_KEY, entries, liveSettings(settings)!.write_rate, settings.seed, runDir),
  // A read the checker finds a snapshot fresh enough.
  verify: async (ctx) => {
    if (!ctx.background) return verifyContract(ctx.url, ctx.golden, ctx.page);
    const probe = await probeOnce(ctx.url);
    if (probe.status === 0) return { ok: false, reason: `request failed: ${probe.body}` };
    return judgeLiveProbe(ctx, probe);
  },
  // The body changes: the prober's reads were judged, and oha's bytes per response must be some snapshot's size.
  checkAfter: async (ctx, run) => {
    const live = liveOf(run);
    if (!live) return bodyAfterRun(ctx.url, ctx.golden, ctx.page, run);
    const again = await probeOnce(ctx.url);
    if (again.status === 0)
      return { status: 'failed', reason: `app stopped answering during run ${run.round} (${again.body})` };
    const fault = liveFault(live, run.errors.non_2xx === 0 && run.responses ? run.total_bytes / run.responses : null);
    return fault ? { status: 'invalid', reason: `run ${run.round}: ${fault}` } : null;
  },
  request: (_ctx, url) => ({ url }),
  around: (ctx, url, boundMs) => (ctx.background ? liveAround(ctx.redis, ctx.background as Live, url, boundMs) : null),
  pickFor: null,
  namedSettings: [],
  load: (r, long) =>
    long
      ? `GET / while a writer appends ${liveSettings(r.settings)?.write_rate ?? '–'} entries/s to the stream`
      : 'LIVE',
  pool: (runs) => {
    const ws = runs.map((r) => liveOf(r));
    return ws.every((w) => w) ? { kind: 'live', data: poolLive(ws as LiveRecord[]) } : undefined;
  },
  sections: [{ id: 'live', place: 'tables', render: liveTable }],
  charts: [{ file: 'live-over-time.png', words: 'the live stream over time', spec: liveTimeSpec }],
  readme: () => [],
};
