// The run's state: the results being written and how to save them, when the command started, the
// rig the apps run against (its measuring context holds the run's folder), the launcher that starts
// and measures them, and the clock the budget learns from. prepare.ts makes it; bench.ts hands it
// to schedule.ts. Most functions in run/ take the one or two fields they need, not the whole
// state. The functions that take the whole state (10 at most), counted whatever the parameter is
// named, destructured or not, with its signature on one line or one parameter a line:
//   grep -oE '(\w\??|\})\s*:\s*RunState\s*[,)]' packages/harness/src/run/*.ts | wc -l
import type { RunningApp } from '../measure/apps';
import { type Contender, OWN_APP_NAMES } from '../model/contenders';
import { BASE, isBase } from '../model/questions';
import type { RunContext } from '../measure/measure';
import type { Background } from '../measure/workload';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../system/paths';
import { isAlive, killAllSync } from '../system/proc';
import { log } from '../system/progress';
import { resultsFile, writeResults } from '../model/results-file';
import { cli, type RedisTarget } from '../topology/redis';
import { workloadOfRun } from '../workloads';
import type { ContenderResult, OwnAppSetting, PointResult, Results, RunRecord } from '../model/results';
import type { Launcher } from './launch';
import type { TrialClock } from './eta';

/** Everything a signal handler needs to save partial results and clean up. */
export interface Session {
  results: Results | null;
  runDir: string | null;
  redis: RedisTarget | null;
  apps: Map<string, RunningApp>;
  /** What the workload runs beside the apps for the whole run (the live writer), stopped with Redis. */
  background?: Background | null;
  /** What prepare started beside the private Redis (a second server, a delay proxy), stopped with it. */
  topology?: { stop(): Promise<void> }[];
  /** A sweep's folder, while its points run (run/sweep.ts): resumed as a whole, its points kept, resumed or run. */
  sweep?: string | null;
}

/** What the apps run against: the servers they read, the body they must serve, their manifests. */
export interface Rig {
  /** The measuring context of the first server (settings.servers[0]); ctxFor gives a contender's own. */
  ctx: RunContext;
  /** Every server the apps read, by name (--servers); the first one is `ctx.redis`. */
  servers: Record<string, RedisTarget>;
  /** --redis-rtt: the delay proxy in front of each server, by name; empty without one. */
  proxies: Record<string, { pid: number; url: string }>;
  golden: string;
  /** The stream's every pair in stream order (topology/redis.ts contractBodies): a repeated name checked at each. */
  pairs?: string;
  /** Manifest entries by contender name. */
  byName: Map<string, Contender>;
  session: Session;
  appEnv(c: Contender): Record<string, string>;
}

export interface RunState {
  /** What results.json holds; its `settings` are the run's settings. */
  results: Results;
  /** Date.now() when the setup (checkout, installs, builds) ended: --budget counts from here. */
  startedAt: number;
  /** Flush results.json (atomically) and let the signal handlers know about it. */
  save(): void;
  rig: Rig;
  /** Starts, verifies, measures and stops the apps, for every layout (launch.ts). */
  launcher: Launcher;
  /** Seconds each contender's trials took so far in this command: what the budget check and the ETA learn from. */
  clock: TrialClock;
}

/** The manifest entry a result measures (a --self-check twin measures its original). */
export const contenderOf = (byName: Map<string, Contender>, r: Pick<ContenderResult, 'name' | 'self_check_of'>) =>
  byName.get(r.self_check_of ?? r.name)!;

export function redisAlive(redis: RedisTarget): boolean {
  if (redis.server && !isAlive(redis.server.pid)) return false;
  try {
    return cli(redis, ['PING']).trim() === 'PONG';
  } catch {
    return false;
  }
}

/** Keep a spoilt run for inspection, outside the runs the statistics use. */
export function discard(point: PointResult, run: RunRecord, fault: string): void {
  (point.discarded_runs ??= []).push({ ...run, fault });
}

export function fail(r: ContenderResult, status: 'failed' | 'invalid', reason: string, output?: string[]): void {
  r.status = status;
  r.reason = reason;
  if (output?.length) r.output = output.slice(-50);
  for (const p of r.points) if (p.status === 'incomplete') p.status = status;
}

/** A run's folder: <out>/<name>, the name a timestamp unless a sweep gives one. */
export const runDirOf = (o: { out: string; runName?: string }) =>
  resolve(ROOT, o.out, o.runName ?? new Date().toISOString().replace(/[:.]/g, '-').replace('Z', ''));

/** A run's results before anything is measured: the fields every run fills in later at their empty values. */
export const newResults = (
  fields: Pick<Results, 'settings' | 'environment' | 'data' | 'contenders' | 'family' | 'unsupported'> &
    Partial<Results>,
): Results => ({
  schema: 2,
  complete: false,
  started_at: new Date().toISOString(),
  finished_at: null,
  exit_reason: null,
  ...fields,
});

/** What a contender's record is made from: a manifest's contender, or --target's app known by its URL. */
export type ContenderShape = Pick<
  Contender,
  'name' | 'app' | 'runtime' | 'framework' | 'client' | 'variant' | 'static' | 'page' | 'path' | 'chartGroup'
> &
  Partial<Pick<Contender, 'settings' | 'tuned' | 'ceiling' | 'server'>>;

/** A contender's record before it is measured: a point per connection count, its headline runs the first's. */
export function newContenderResult(c: ContenderShape, connections: number[], selfCheckOf?: string): ContenderResult {
  const baseOf = isBase(c.name) ? c.name.slice(0, -BASE.length) : null;
  const points: PointResult[] = connections.map((n) => ({
    connections: n,
    rate: null,
    rate_spec: null,
    status: 'incomplete',
    runs: [],
  }));
  return {
    name: selfCheckOf ? `${c.name} (alone)` : c.name,
    app: c.app,
    runtime: c.runtime,
    framework: c.framework,
    client: c.client,
    variant: c.variant,
    ...(c.settings ? { settings: c.settings, tuned: c.tuned, ceiling: c.ceiling } : {}),
    static: c.static,
    page: c.page,
    path: c.path,
    chart_group: c.chartGroup,
    status: 'incomplete',
    points,
    runs: points[0]!.runs,
    ...(c.server ? { server: c.server } : {}),
    ...(selfCheckOf ? { self_check_of: selfCheckOf } : {}),
    ...(baseOf ? { base_of: baseOf } : {}),
  };
}

/** Flush results.json (atomically); the signal handlers know the run from its first save on. */
export const saverFor = (session: Session, runDir: string, results: Results) => () => {
  writeResults(runDir, results);
  session.results = results;
  session.runDir = runDir;
};

/**
 * A run's own apps as the flags that started them (a resume gives them again): each --app, then the flags they share,
 * those left at their defaults not said. A run recorded before its folder and --body's file were names neither.
 */
export function appFlagsOf(apps: OwnAppSetting[]): string {
  const [first] = apps;
  if (!first) return '';
  const q = JSON.stringify;
  const named = apps.some((a, i) => a.name !== OWN_APP_NAMES[i]);
  const body = first.body === 'any' ? 'any' : first.body === 'file' && first.body_file ? q(first.body_file) : null;
  return [
    ...apps.map((a) => `--app ${q(a.command)}`),
    ...(named ? [`--app-name ${apps.map((a) => a.name).join(',')}`] : []),
    ...(first.cwd ? [`--cwd ${q(first.cwd)}`] : []),
    ...(first.path !== '/' ? [`--path ${first.path}`] : []),
    ...(body ? [`--body ${body}`] : []),
  ].join(' ');
}

/** What appFlagsOf cannot say of a run recorded before the folder and --body's file were: "" when it says all. */
export const unrecordedFlags = (apps: OwnAppSetting[]): string => {
  const missing = [
    ...(apps[0] && !apps[0].cwd ? ['--cwd'] : []),
    ...(apps[0]?.body === 'file' && !apps[0].body_file ? ['--body'] : []),
  ];
  return missing.length ? ` and the ${missing.join(' and ')} it ran with` : '';
};

/** Flush what an unfinished run measured, saying where it is and how to resume it. */
export function savePartial(session: Session, reason: string): void {
  const { results, runDir } = session;
  if (!results || !runDir || results.complete) return;
  results.exit_reason ??= reason;
  results.finished_at = new Date().toISOString();
  try {
    writeResults(runDir, results);
    const own = results.settings.apps ?? [];
    const apps = own.length ? ` ${appFlagsOf(own)}${unrecordedFlags(own)}` : '';
    // A --target run is short and is not resumed: it is started again. A sweep's point is resumed with its sweep,
    // which finishes it, runs the later points and writes the summary (run/sweep.ts).
    // A run its workload cannot resume (a live run's stream changed since) is reported as it is, not resumed.
    const { noResume, name } = workloadOfRun(results.settings);
    const next = results.target
      ? `start it again with --target ${results.target.url}`
      : noResume
        ? `a --workload ${name} run: ${noResume.replace(/; start a new run$/, '')}; ` +
          `npm run report -- ${runDir} reports what it measured`
        : session.sweep
          ? `one point of the sweep in ${session.sweep}: resume the sweep with --resume ${session.sweep}`
          : `resume with --resume ${runDir}${apps}`;
    log(`partial results saved in ${resultsFile(runDir)} (${next})`);
  } catch (e) {
    log(`could not save partial results: ${(e as Error).message}`);
  }
}

/** A signal: every child killed at once, the partial results saved, the private servers' folders removed. */
export function abandon(session: Session, reason: string): void {
  killAllSync();
  savePartial(session, reason);
  for (const t of [session.redis, ...(session.topology ?? [])] as (Partial<RedisTarget> | null)[])
    if (t?.server) rmSync(t.server.dir, { recursive: true, force: true });
}

export async function stopApp(session: Session, key: string): Promise<void> {
  const app = session.apps.get(key);
  session.apps.delete(key);
  if (app) await app.stop();
}

export async function stopAll(session: Session): Promise<void> {
  await Promise.all([...session.apps.keys()].map((n) => stopApp(session, n)));
  await session.background?.stop();
  session.background = null;
  await Promise.all((session.topology ?? []).map((t) => t.stop()));
  session.topology = [];
  await session.redis?.stop();
  session.redis = null;
}

/** The server a contender reads (its --servers twin's, or the first). */
export const serverOf = (rig: Pick<Rig, 'ctx' | 'servers'>, c: Pick<Contender, 'server'>) =>
  c.server ? rig.servers[c.server]! : rig.ctx.redis;

/** A contender's measuring context: the counters of the server it reads. */
export const ctxFor = (
  rig: Pick<Rig, 'ctx' | 'servers' | 'proxies'>,
  c: Pick<Contender, 'server' | 'settings' | 'own'>,
) => ({
  ...rig.ctx,
  ...(c.server ? { redis: serverOf(rig, c), proxy: rig.proxies[c.server] } : {}),
  write: c.settings.write,
  alive: () => serverProcessesAlive(rig),
  ...(c.own ? { everyCommand: true } : {}),
});

/**
 * Every server process the run started still runs (each one's /proc stat read; a server it did not start,
 * REDIS_URL's, has none to look at). Cheap enough to ask during a window, unlike serversAlive's PING.
 */
export const serverProcessesAlive = (rig: Pick<Rig, 'servers' | 'proxies'>) =>
  Object.values(rig.servers).every(
    (t) => (!t.server || isAlive(t.server.pid)) && (t.nodes ?? []).every((n) => isAlive(n.pid)),
  ) && Object.values(rig.proxies).every((p) => isAlive(p.pid));

/** Every server the run started still answers. */
export const serversAlive = (rig: Pick<Rig, 'servers' | 'proxies'>) =>
  serverProcessesAlive(rig) && Object.values(rig.servers).every(redisAlive);
