// One measured run of one contender at one load point, with every counter around it,
// and the statistics and gates over a point's runs.
import { join, relative } from 'node:path';
import { loadAverage1m } from './environment';
import { PERCENTILES, runOha, type Latency } from './oha';
import { cpuCount, type Placement } from './placement';
import { machineCpuTicks, processTree, rssMb, selfCpuSeconds, treeCpuSeconds } from './proc';
import { commandStats, type RedisTarget } from './redis';
import type { PointResult, RunRecord, Settings } from './results';
import { summarize } from './stats';
import { median } from 'simple-statistics';

export interface LoadPoint {
  connections: number;
  rate: number | null;
}

export const pointLabel = (p: LoadPoint) => `c${p.connections}${p.rate !== null ? `-q${Math.round(p.rate)}` : ''}`;

export interface RunContext {
  settings: Settings;
  placement: Placement;
  redis: RedisTarget;
  runDir: string;
}

export async function measureRun(ctx: RunContext, name: string, url: string, appPid: number, point: LoadPoint, round: number, attempt = 0): Promise<RunRecord> {
  const { settings, redis } = ctx;
  const command = settings.workload;
  const rawFile = join(ctx.runDir, 'raw', name, `${pointLabel(point)}-run${round}${attempt ? `-retry${attempt}` : ''}.json`);

  const loadAverage = loadAverage1m();
  const statsBefore = commandStats(redis)[command] ?? { calls: 0, usec: 0 };
  const redisCpuBefore = redis.server ? treeCpuSeconds(redis.server.pid) : null;
  let pids = processTree(appPid);
  let peakRss = rssMb(pids);
  const appCpuBefore = treeCpuSeconds(appPid);
  const harnessBefore = selfCpuSeconds().self;
  const machineBefore = machineCpuTicks();
  const t0 = performance.now();
  // Peak RSS: sample the tree's pids (found once, refreshed rarely: a /proc scan is not free).
  let samples = 0;
  const sampler = setInterval(() => {
    if (++samples % 10 === 0) pids = processTree(appPid);
    peakRss = Math.max(peakRss, rssMb(pids));
  }, 500);
  let oha;
  try {
    oha = await runOha({
      url,
      connections: point.connections,
      rate: point.rate,
      durationS: settings.duration_s,
      requests: settings.requests,
      seedDefaults: settings.profile === 'seed',
      outFile: rawFile,
      cpuList: ctx.placement.loadgen,
    });
  } finally {
    clearInterval(sampler);
  }
  const wall = (performance.now() - t0) / 1000;
  const harnessCpu = selfCpuSeconds().self - harnessBefore;
  const machineAfter = machineCpuTicks();
  const appCpu = treeCpuSeconds(appPid) - appCpuBefore;
  peakRss = Math.max(peakRss, rssMb(processTree(appPid)));
  const redisCpu = redisCpuBefore === null ? null : treeCpuSeconds(redis.server!.pid) - redisCpuBefore;
  // If Redis died during the run its counters are gone: keep the run (the caller discards it).
  let statsAfter = { calls: NaN, usec: NaN };
  try {
    statsAfter = commandStats(redis)[command] ?? { calls: 0, usec: 0 };
  } catch {}
  const calls = statsAfter.calls - statsBefore.calls;
  const { run, cpuSeconds } = oha;
  const { errorMessages, ...rest } = run;
  return {
    round,
    ...rest,
    error_messages: errorMessages,
    app_cpu_s: appCpu,
    cpu_us_per_req: run.ok ? (appCpu * 1e6) / run.ok : NaN,
    rss_mb: peakRss,
    redis_calls: calls,
    redis_calls_per_req: run.ok ? calls / run.ok : NaN,
    redis_us_per_call: calls ? (statsAfter.usec - statsBefore.usec) / calls : NaN,
    redis_cpu_s: redisCpu,
    loadgen_cpu_s: cpuSeconds,
    // oha may use its CPUs minus what the app and Redis took from them (unpinned: the whole machine).
    loadgen_saturated:
      cpuSeconds / wall >= 0.9 * (ctx.placement.loadgen ? cpuCount(ctx.placement.loadgen) : cpuCount(null) - (appCpu + (redisCpu ?? 0)) / wall),
    harness_cpu_pct: (harnessCpu / wall) * 100,
    load_average_1m: loadAverage,
    cpu_steal_pct: (100 * (machineAfter.steal - machineBefore.steal)) / Math.max(1, machineAfter.total - machineBefore.total),
    raw: relative(ctx.runDir, rawFile),
  };
}

const MAX_ERROR_RATE = 0.001;
const CALLS_TOLERANCE = 0.02;

/** Statistics over a point's runs, then the gates: error rate and one Redis read per request. */
export function finalizePoint(point: PointResult, settings: Settings, isStatic: boolean): void {
  const runs = point.runs;
  if (runs.length === 0) return;
  const med = (f: (r: RunRecord) => number) => {
    const xs = runs.map(f).filter(Number.isFinite);
    return xs.length ? median(xs) : NaN;
  };
  const headline = settings.headline === 'third' && runs.length >= 3 ? runs[2]! : null;
  point.rps = summarize(runs.map((r) => r.rps));
  if (headline) point.rps.median = headline.rps; // the seed's rule: report the third run
  point.latency_ms = Object.fromEntries(PERCENTILES.map((p) => [p, headline ? headline.latency_ms[p] : med((r) => r.latency_ms[p])])) as Latency;
  point.cpu_us_per_req = med((r) => r.cpu_us_per_req);
  point.rss_mb = Math.max(...runs.map((r) => r.rss_mb));
  point.redis_calls_per_req = med((r) => r.redis_calls_per_req);
  point.redis_us_per_call = med((r) => r.redis_us_per_call);
  point.loadgen_saturated = runs.some((r) => r.loadgen_saturated);
  point.errors = {
    non_2xx: runs.reduce((n, r) => n + r.errors.non_2xx, 0),
    aborted: runs.reduce((n, r) => n + r.errors.aborted, 0),
    other: runs.reduce((n, r) => n + r.errors.other, 0),
  };
  const errors = point.errors.non_2xx + point.errors.aborted + point.errors.other;
  const total = errors + runs.reduce((n, r) => n + r.ok, 0);
  const calls = runs.reduce((n, r) => n + r.redis_calls, 0) / Math.max(1, runs.reduce((n, r) => n + r.ok, 0));

  point.status = 'ok';
  if (total === 0 || errors / total > MAX_ERROR_RATE) {
    point.status = 'invalid';
    const top = Object.entries(runs.flatMap((r) => Object.entries(r.error_messages)).reduce<Record<string, number>>((m, [k, n]) => ((m[k] = (m[k] ?? 0) + n), m), {}))
      .sort((a, b) => b[1] - a[1])[0];
    point.reason = `${errors} of ${total} requests failed (${((errors / Math.max(1, total)) * 100).toFixed(2)}% > 0.1%)` +
      (point.errors.non_2xx ? `; ${point.errors.non_2xx} non-2xx` : '') + (top ? `; most common: ${top[0]}` : '');
  } else if (!isStatic && Math.abs(calls - 1) > CALLS_TOLERANCE) {
    point.status = 'invalid';
    point.reason = `cached or skipped Redis: ${calls.toFixed(3)} ${settings.workload.toUpperCase()} calls per response, want 1.00 ± ${CALLS_TOLERANCE}`;
  }
}
