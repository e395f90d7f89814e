// One measured oha run against one running app, with every counter around it: CPU of the
// app's process tree, Redis's own command counters, steal, RSS, and the harness's own CPU.
import { join, relative } from 'node:path';
import { loadAverage1m } from './environment';
import { runOha } from './oha';
import { cpuCount } from '../system/placement';
import {
  busiestThread,
  machineCpuTicks,
  processTree,
  rssMb,
  selfCpuSeconds,
  threadTicks,
  threadWaits,
  treeCpuSeconds,
} from '../system/proc';
import { commandStats, serverPids } from '../topology/redis';
import { nowMs } from '../system/clock';
import type { RunRecord } from '../model/results';
import type { Around, RunContext, Target } from './workload';

export type { RunContext } from './workload';

import type { LoadPoint } from '../model/load-command';
export { type LoadPoint, pointLabel } from '../model/load-command';

/** What oha is asked to do: a point, for a duration or a request count (the seed's 200). */
export interface Load extends LoadPoint {
  duration_s: number | null;
  requests: number | null;
  seedDefaults: boolean;
}

/** Fields the trial adds around a measured run (which process, its launch, the checks). */
type TrialFields = 'round' | 'pid' | 'launch_s' | 'expected_bytes' | 'after_check' | 'windows';

/** Peak RSS of the app's process tree: sampled every 500 ms (its pids refreshed rarely: a /proc scan is not free). */
function rssSampler(appPid: number) {
  let pids = processTree(appPid);
  let peak = rssMb(pids);
  let samples = 0;
  const timer = setInterval(() => {
    if (++samples % 10 === 0) pids = processTree(appPid);
    peak = Math.max(peak, rssMb(pids));
  }, 500);
  return {
    stop: () => clearInterval(timer),
    peak: () => Math.max(peak, rssMb(processTree(appPid))),
  };
}

/** What the harness's own redis-cli sends to read the counters: INFO, after AUTH and SELECT with a REDIS_URL's. */
const HARNESS_COMMANDS = new Set(['info', 'auth', 'select']);

/** Every command's counters summed, the harness's own aside: an --app's calls. */
function everyCommand(all: ReturnType<typeof commandStats>) {
  const sum = { calls: 0, usec: 0, rejected: 0 };
  for (const [name, s] of Object.entries(all)) {
    if (HARNESS_COMMANDS.has(name)) continue;
    sum.calls += s.calls;
    sum.usec += s.usec;
    sum.rejected += s.rejected ?? 0;
  }
  return sum;
}

/** The counters a window is judged by, read at its start; `since()` gives what each side used over the window. */
function countersFrom(ctx: RunContext, appPid: number, command: string) {
  const { redis } = ctx;
  const counted = (all: ReturnType<typeof commandStats>) =>
    ctx.everyCommand ? everyCommand(all) : (all[command] ?? { calls: 0, usec: 0 });
  const allBefore = commandStats(redis);
  const statsBefore: { calls: number; usec: number; rejected?: number } = counted(allBefore);
  const redisPids = serverPids(redis);
  const redisCpu = () => redisPids!.reduce((s, pid) => s + treeCpuSeconds(pid), 0);
  const redisCpuBefore = redisPids ? redisCpu() : null;
  const proxyCpuBefore = ctx.proxy ? treeCpuSeconds(ctx.proxy.pid) : null;
  const appCpuBefore = treeCpuSeconds(appPid);
  const appThreads = processTree(appPid);
  const threadsBefore = threadTicks(appThreads);
  const waitsBefore = threadWaits(threadsBefore.keys());
  const harnessBefore = selfCpuSeconds().self;
  const machineBefore = machineCpuTicks();
  const t0 = performance.now();
  return () => {
    const wall = (performance.now() - t0) / 1000;
    const harnessCpu = selfCpuSeconds().self - harnessBefore;
    const machineAfter = machineCpuTicks();
    // If Redis died during the run its counters are gone: keep the run (the caller discards it).
    let statsAfter: { calls: number; usec: number; rejected?: number } = { calls: NaN, usec: NaN };
    let allAfter: typeof allBefore = {};
    try {
      allAfter = commandStats(redis);
      statsAfter = counted(allAfter);
    } catch {}
    // A call Redis refused (a cluster's MOVED: the client must ask another node) is a round trip all the same: the
    // one-read proof counts it; Redis's time per call is over the calls it ran.
    const ran = statsAfter.calls - statsBefore.calls;
    const calls = ran + (statsAfter.rejected ?? 0) - (statsBefore.rejected ?? 0);
    const main = busiestThread(threadsBefore, threadTicks(appThreads));
    const waitAfter = threadWaits([main.id]).get(main.id);
    const waitBefore = waitsBefore.get(main.id);
    return {
      wall,
      appCpu: treeCpuSeconds(appPid) - appCpuBefore,
      mainThreadCpu: main.s,
      mainThreadWait: waitAfter !== undefined && waitBefore !== undefined ? waitAfter - waitBefore : null,
      redisCpuS: redisCpuBefore === null ? null : redisCpu() - redisCpuBefore,
      proxyCpuS: proxyCpuBefore === null ? null : treeCpuSeconds(ctx.proxy!.pid) - proxyCpuBefore,
      calls,
      usPerCall: ran ? (statsAfter.usec - statsBefore.usec) / ran : NaN,
      harnessCpuPct: (harnessCpu / wall) * 100,
      stealPct:
        (100 * (machineAfter.steal - machineBefore.steal)) / Math.max(1, machineAfter.total - machineBefore.total),
      /** Every command the server counted over the window (a write strategy sends several). */
      commands: Object.fromEntries(
        Object.entries(allAfter).flatMap(([name, s]) => {
          const was = allBefore[name];
          const n = s.calls + (s.rejected ?? 0) - (was ? was.calls + (was.rejected ?? 0) : 0);
          return n > 0 ? [[name, n]] : [];
        }),
      ),
    };
  };
}

/**
 * What oha sends in a load that is not measured (a launch's warmup, --layout walk's touch): the
 * windows' own request, so a write path is warm before its first window as a read path is
 * (a write workload's: its POSTs, into a key space of their own that no window accounts).
 */
export function unmeasuredTarget(ctx: RunContext, url: string): Target {
  return ctx.workload.request(ctx, url);
}

/** Seconds of a warmup's first, sequential part (warmupLoads). */
export const PRIME_S = 0.5;

/**
 * The loads of a launch's warmup: PRIME_S at one connection, then the measured load. A fresh V8 app
 * whose first requests all come at once compiles its hot code on that mixed start, and about one
 * launch in five then runs some 20% slower per request for its whole life; requests one at a time
 * first train it the same way every launch (docs/runs/against.md, "a launch's slow mode").
 */
export function warmupLoads(load: Load): Load[] {
  if (load.seedDefaults || !load.duration_s) return [load];
  return [{ ...load, connections: 1, rate: null, duration_s: Math.min(PRIME_S, load.duration_s) }, load];
}

/**
 * The oha runs of a load nobody measures, one after the other: a warmup's parts (warmupLoads) or a touch's one
 * load, each with its raw file. The last keeps `rawName`; the sequential part before it is its "-prime".
 */
export function unmeasuredParts(load: Load, rawName: string, what: 'warmup' | 'touch') {
  const parts = what === 'warmup' ? warmupLoads(load) : [load];
  return parts.map((part, i) => ({
    load: part,
    rawName: i < parts.length - 1 ? rawName.replace(/(\.json)?$/, '-prime.json') : rawName,
  }));
}

/**
 * Where the windows of a duet meet: each side reads its counters, then waits at 'start' so both
 * ohas start at the same moment, and waits at 'end' before reading them again, so neither side
 * runs alone at either end of the window. A side that fails leaves, and the meeting goes on
 * without it.
 */
export function meeting(parties: number) {
  const gates = new Map<string, { count: number; open: () => void; opened: Promise<void> }>();
  let left = 0;
  const check = (g: { count: number; open: () => void }) => g.count + left >= parties && g.open();
  const gate = (name: string) => {
    let g = gates.get(name);
    if (!g) {
      let open!: () => void;
      const opened = new Promise<void>((r) => (open = r));
      gates.set(name, (g = { count: 0, open, opened }));
    }
    return g;
  };
  return {
    at: (name: 'start' | 'end') => {
      const g = gate(name);
      g.count++;
      check(g);
      return g.opened;
    },
    leave: () => {
      left++;
      for (const g of gates.values()) check(g);
    },
  };
}
export type Meeting = ReturnType<typeof meeting>;

/**
 * One window: oha against the app, with every counter read around it. `boundMs`: with --workload
 * live, the staleness the contender declared (its reads are probed and judged against it);
 * `meet`: a duet's meeting point (both sides start and end their oha together).
 */
export async function measureRun(
  ctx: RunContext,
  appPid: number,
  url: string,
  load: Load,
  rawName: string,
  boundMs = 0,
  meet?: Meeting,
): Promise<Omit<RunRecord, TrialFields>> {
  const { workload } = ctx;
  // The command Redis counts in INFO commandstats once per request (xrange-count is an XRANGE; a write: its
  // strategy's).
  const command = workload.rules.command(ctx.write ?? 'lua');
  const rawFile = join(ctx.runDir, 'raw', rawName);
  const loadAverage = loadAverage1m();
  const since = countersFrom(ctx, appPid, command);
  const rss = rssSampler(appPid);
  const startedAt = Date.now();
  // Beside oha, what the workload runs: a prober, a writer's counters, a write's key space.
  const around = workload.around(ctx, url, boundMs);
  await meet?.at('start');
  const fromMs = nowMs();
  const oha = await ohaWindow(ctx, load, url, rawFile, rss, around);
  await meet?.at('end');
  const endedAtMs = nowMs();
  const beside = around ? await around.stop() : 0;
  const endedAt = Date.now();
  const used = since();
  const { run, cpuSeconds } = oha;
  const { errorMessages, ...rest } = run;
  // A prober's requests cost the app CPU and Redis calls too: they count as requests served.
  const served = run.ok + beside;
  const statuses = oha.raw.statusCodeDistribution ?? {};
  const unanswered = run.errors.aborted + run.errors.other;
  const record = around && (await around.record({ statuses, unanswered, commands: used.commands, fromMs, endedAtMs }));
  return {
    ...rest,
    error_messages: errorMessages,
    ...costs(ctx, used, run.ok, served, rss.peak(), cpuSeconds),
    harness_cpu_pct: used.harnessCpuPct,
    load_average_1m: loadAverage,
    cpu_steal_pct: used.stealPct,
    raw: relative(ctx.runDir, rawFile),
    started_at: startedAt,
    ended_at: endedAt,
    ...(record ? { workload: record } : {}),
  };
}

/** oha's run of a window; when it fails, what runs beside it (a prober, a write's accounting) stops too. */
async function ohaWindow(
  ctx: RunContext,
  load: Load,
  url: string,
  rawFile: string,
  rss: ReturnType<typeof rssSampler>,
  around: Around | null,
) {
  try {
    return await runOha(
      {
        ...load,
        url: around?.target?.url ?? url,
        request: around?.target?.request,
        outFile: rawFile,
        cpuList: ctx.placement.loadgen,
      },
      ctx.alive,
    );
  } catch (e) {
    await around?.abort();
    throw e;
  } finally {
    rss.stop();
  }
}

/** What a window's requests cost the app, Redis and oha, from the counters read around it. */
function costs(
  ctx: RunContext,
  used: ReturnType<ReturnType<typeof countersFrom>>,
  ok: number,
  served: number,
  rssMb: number,
  cpuSeconds: number,
) {
  return {
    app_cpu_s: used.appCpu,
    cpu_us_per_req: ok ? (used.appCpu * 1e6) / served : NaN,
    main_thread_cpu_s: used.mainThreadCpu,
    ...(used.mainThreadWait !== null ? { main_thread_wait_s: used.mainThreadWait } : {}),
    rss_mb: rssMb,
    redis_calls: used.calls,
    redis_calls_per_req: ok ? used.calls / served : NaN,
    commands_by_name: Object.fromEntries(Object.entries(used.commands).filter(([name]) => !HARNESS_COMMANDS.has(name))),
    redis_us_per_call: used.usPerCall,
    redis_cpu_s: used.redisCpuS,
    ...(used.proxyCpuS !== null ? { proxy_cpu_s: used.proxyCpuS } : {}),
    loadgen_cpu_s: cpuSeconds,
    // oha may use its CPUs minus what the app and Redis took from them (unpinned: the whole machine).
    loadgen_saturated:
      cpuSeconds / used.wall >=
      0.9 *
        (ctx.placement.loadgen
          ? cpuCount(ctx.placement.loadgen)
          : cpuCount(null) - (used.appCpu + (used.redisCpuS ?? 0)) / used.wall),
  };
}
