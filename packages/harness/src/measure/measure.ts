// One measured oha run against one running app, with every counter around it: CPU of the
// app's process tree, Redis's own command counters, steal, RSS, and the harness's own CPU.
import { STREAM_KEY, workloadCommand, type Workload } from '@bench/stream';
import { join, relative } from 'node:path';
import { loadAverage1m } from './environment';
import { runOha } from './oha';
import { cpuCount, type Placement } from '../system/placement';
import { machineCpuTicks, processTree, rssMb, selfCpuSeconds, treeCpuSeconds } from '../system/proc';
import { commandStats, serverPids, type RedisTarget } from '../topology/redis';
import { judgeWindow, startProber, type Live } from '../live/session';
import { nowMs } from '../live/writer';
import type { RunRecord } from '../model/results';

export interface LoadPoint {
  connections: number;
  rate: number | null;
}

export const pointLabel = (p: LoadPoint) => `c${p.connections}${p.rate !== null ? `-q${Math.round(p.rate)}` : ''}`;

/** What oha is asked to do: a point, for a duration or a request count (the seed's 200). */
export interface Load extends LoadPoint {
  durationS: number | null;
  requests: number | null;
  seedDefaults: boolean;
}

export interface RunContext {
  workload: string;
  /** --workload live: the writer whose log the prober's reads are judged against. */
  live?: Live;
  placement: Placement;
  redis: RedisTarget;
  /** --redis-rtt: the delay proxy between the apps and Redis, whose CPU each run records. */
  proxy?: { pid: number };
  runDir: string;
}

/** Fields the trial adds around a measured run (which process, its launch, the checks). */
type TrialFields = 'round' | 'pid' | 'launch_s' | 'expected_bytes' | 'after_check' | 'windows';

/** `boundMs`: with --workload live, the staleness the contender declared (its reads are probed and judged against it). */
export async function measureRun(ctx: RunContext, appPid: number, url: string, load: Load, rawName: string, boundMs = 0): Promise<Omit<RunRecord, TrialFields>> {
  const { redis } = ctx;
  // The command Redis counts in INFO commandstats (xrange-count is an XRANGE).
  const command = workloadCommand(ctx.workload as Workload, STREAM_KEY)[0]!.toLowerCase();
  const rawFile = join(ctx.runDir, 'raw', rawName);

  const loadAverage = loadAverage1m();
  const statsBefore = commandStats(redis)[command] ?? { calls: 0, usec: 0 };
  const redisPids = serverPids(redis);
  const redisCpu = () => redisPids!.reduce((s, pid) => s + treeCpuSeconds(pid), 0);
  const redisCpuBefore = redisPids ? redisCpu() : null;
  const proxyCpuBefore = ctx.proxy ? treeCpuSeconds(ctx.proxy.pid) : null;
  let pids = processTree(appPid);
  let peakRss = rssMb(pids);
  const appCpuBefore = treeCpuSeconds(appPid);
  const harnessBefore = selfCpuSeconds().self;
  const machineBefore = machineCpuTicks();
  const t0 = performance.now();
  const startedAt = Date.now();
  // Peak RSS: sample the tree's pids (found once, refreshed rarely: a /proc scan is not free).
  let samples = 0;
  const sampler = setInterval(() => {
    if (++samples % 10 === 0) pids = processTree(appPid);
    peakRss = Math.max(peakRss, rssMb(pids));
  }, 500);
  const writesBefore = ctx.live ? writerCounters(redis, ctx.live) : null;
  const prober = ctx.live ? startProber(url) : null;
  const fromMs = nowMs();
  let oha;
  try {
    oha = await runOha({ ...load, url, outFile: rawFile, cpuList: ctx.placement.loadgen });
  } catch (e) {
    await prober?.stop();
    throw e;
  } finally {
    clearInterval(sampler);
  }
  const endedAtMs = nowMs();
  const writes = ctx.live ? writerCost(redis, ctx.live, writesBefore!) : null;
  const probes = prober ? await prober.stop() : [];
  const wall = (performance.now() - t0) / 1000;
  const endedAt = Date.now();
  const harnessCpu = selfCpuSeconds().self - harnessBefore;
  const machineAfter = machineCpuTicks();
  const appCpu = treeCpuSeconds(appPid) - appCpuBefore;
  peakRss = Math.max(peakRss, rssMb(processTree(appPid)));
  const redisCpuS = redisCpuBefore === null ? null : redisCpu() - redisCpuBefore;
  // If Redis died during the run its counters are gone: keep the run (the caller discards it).
  let statsAfter = { calls: NaN, usec: NaN };
  try {
    statsAfter = commandStats(redis)[command] ?? { calls: 0, usec: 0 };
  } catch {}
  const calls = statsAfter.calls - statsBefore.calls;
  const { run, cpuSeconds } = oha;
  const { errorMessages, ...rest } = run;
  return {
    ...rest,
    error_messages: errorMessages,
    app_cpu_s: appCpu,
    // The prober's reads (live) cost the app CPU and Redis calls too: they count as requests served.
    cpu_us_per_req: run.ok ? (appCpu * 1e6) / (run.ok + probes.length) : NaN,
    rss_mb: peakRss,
    redis_calls: calls,
    redis_calls_per_req: run.ok ? calls / (run.ok + probes.length) : NaN,
    redis_us_per_call: calls ? (statsAfter.usec - statsBefore.usec) / calls : NaN,
    redis_cpu_s: redisCpuS,
    ...(proxyCpuBefore !== null ? { proxy_cpu_s: treeCpuSeconds(ctx.proxy!.pid) - proxyCpuBefore } : {}),
    loadgen_cpu_s: cpuSeconds,
    // oha may use its CPUs minus what the app and Redis took from them (unpinned: the whole machine).
    loadgen_saturated:
      cpuSeconds / wall >= 0.9 * (ctx.placement.loadgen ? cpuCount(ctx.placement.loadgen) : cpuCount(null) - (appCpu + (redisCpuS ?? 0)) / wall),
    harness_cpu_pct: (harnessCpu / wall) * 100,
    load_average_1m: loadAverage,
    cpu_steal_pct: (100 * (machineAfter.steal - machineBefore.steal)) / Math.max(1, machineAfter.total - machineBefore.total),
    raw: relative(ctx.runDir, rawFile),
    started_at: startedAt,
    ended_at: endedAt,
    ...(ctx.live ? { live: { ...(await judgeWindow(ctx.live, probes, boundMs, fromMs, endedAtMs)), ...writes! } } : {}),
  };
}

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
function writerCost(redis: RedisTarget, live: Live, before: ReturnType<typeof writerCounters>): { writes: number; write_redis_us: number; writer_cpu_s: number; follower_reads: number } {
  const after = writerCounters(redis, live);
  return { writes: after.calls - before.calls, write_redis_us: after.usec - before.usec, writer_cpu_s: after.cpu - before.cpu, follower_reads: after.follows - before.follows };
}
