// The benchmark, end to end: Redis up → apps built, started and verified → warmup →
// measured runs interleaved across contenders → statistics and gates → results.json.
// Every step records into `results`, which is flushed to disk after each run.
import { join, relative, resolve } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { AppError, buildApp, dataKey, startApp, type RunningApp } from './apps';
import type { CliOptions } from './args';
import { ROOT, type Contender } from './contenders';
import { captureEnvironment, gitState, loadAverage1m } from './environment';
import { finalizePoint, measureRun, pointLabel, type LoadPoint, type RunContext } from './measure';
import { freePort } from './net';
import { runOha } from './oha';
import { resolvePlacement } from './placement';
import { isAlive } from './proc';
import { cli, goldenBody, redactUrl, RedisError, startPrivateRedis, streamInfo, useExistingRedis, type RedisTarget } from './redis';
import { verifyContract } from './verify';
import { readResults, resultsFile, writeJsonAtomic, type ContenderResult, type PointResult, type Results, type RunRecord, type Settings } from './results';

export const log = (msg: string) => process.stderr.write(`${msg}\n`);

/** How often one run is measured again (in later passes over its round) when CPU steal spoilt it. */
const STEAL_RETRIES = 2;
/** How a run set aside for CPU steal is marked in discarded_runs. */
const STEAL_FAULT = 'CPU steal';

/** Everything a signal handler needs to save partial results and clean up. */
export interface Session {
  results: Results | null;
  runDir: string | null;
  redis: RedisTarget | null;
  apps: Map<string, RunningApp>;
}

export function settingsFrom(opts: CliOptions): Settings {
  return {
    profile: opts.profile,
    workload: opts.workload,
    connections: opts.connections,
    rates: opts.rates,
    duration_s: opts.durationS,
    requests: opts.requests,
    warmup_s: opts.warmupS,
    runs: opts.runs,
    headline: opts.profile === 'seed' ? 'third' : 'median',
    max_steal_pct: opts.profile === 'seed' ? 100 : opts.maxStealPct,
    start_timeout_s: opts.startTimeoutS,
    placement: resolvePlacement(opts.placement),
    keep_alive: true,
    compression: opts.profile === 'seed' ? 'oha default' : false,
    only: opts.only,
    strict: opts.strict,
  };
}

const timestamp = () => new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '');

function newContenderResult(c: Contender, settings: Settings): ContenderResult {
  const points: PointResult[] = settings.connections.map((connections) => ({ connections, rate: null, rate_spec: null, status: 'incomplete', runs: [] }));
  return {
    name: c.name, app: c.app, runtime: c.runtime, framework: c.framework, client: c.client, variant: c.variant,
    static: c.static, page: c.page, path: c.path, status: 'incomplete', points, runs: points[0]!.runs,
  };
}

/** Headline figures at the contender's top level come from its first point. */
function promoteHeadline(r: ContenderResult): void {
  const { runs, status, reason, connections, rate, rate_spec, discarded_runs, ...figures } = r.points[0]!;
  Object.assign(r, figures, { connections, runs });
}

/** Keep a spoilt run for inspection, outside the runs the statistics use. */
function discard(point: PointResult, run: RunRecord, fault: string): void {
  (point.discarded_runs ??= []).push({ ...run, fault });
}

function fail(r: ContenderResult, status: 'failed' | 'invalid', reason: string, output?: string[]): void {
  r.status = status;
  r.reason = reason;
  if (output?.length) r.output = output.slice(-50);
  for (const p of r.points) if (p.status === 'incomplete') p.status = status;
}

export async function runBench(opts: CliOptions, all: Contender[], session: Session): Promise<number> {
  // ---- settings, directory, contenders (fresh or resumed)
  let results: Results;
  let runDir: string;
  if (opts.resume) {
    runDir = resolve(opts.resume);
    results = readResults(resultsFile(runDir));
    if (results.complete) throw new Error(`${runDir} holds a complete run; nothing to resume`);
    results.complete = false;
    results.exit_reason = null;
    // JSON does not keep shared arrays: relink the headline runs to the first point's.
    for (const r of results.contenders) r.runs = r.points[0]!.runs;
    (results.resumed ??= []).push({ at: new Date().toISOString(), git_commit: gitState().commit });
  } else {
    const settings = settingsFrom(opts);
    runDir = resolve(ROOT, opts.out, timestamp());
    const selected = opts.only ? all.filter((c) => opts.only!.includes(c.name)) : all;
    results = {
      schema: 1, complete: false, started_at: new Date().toISOString(), finished_at: null, exit_reason: null, settings,
      environment: { ...captureEnvironment(selected), load_warning: null },
      data: { rdb: null, redis_url: null, key: STREAM_KEY, entries: 0, memory_bytes: 0, body_bytes: 0 },
      contenders: selected.map((c) => newContenderResult(c, settings)),
    };
  }
  const settings = results.settings;
  // Known to the signal handlers from the first save on: before that there is nothing to keep.
  const save = () => {
    writeJsonAtomic(resultsFile(runDir), results);
    session.results = results;
    session.runDir = runDir;
  };

  const load = loadAverage1m();
  const cpus = results.environment.logical_cpus;
  if (load > cpus / 2) {
    const warning = `load average ${load.toFixed(2)} is above half the CPU count (${cpus}): figures will be noisy`;
    if (opts.strict) throw new Error(`${warning}; --strict refuses to start (wait for the machine to settle)`);
    log(`warning: ${warning}`);
    results.environment.load_warning = warning;
  }

  // ---- Redis
  const externalUrl = process.env.REDIS_URL;
  const rdb = externalUrl ? null : resolve(ROOT, (opts.resume ? results.data.rdb : opts.rdb) ?? 'dump.rdb');
  const redis = externalUrl
    ? useExistingRedis(externalUrl)
    : await startPrivateRedis(rdb, { port: opts.redisPort ?? undefined, cpuList: settings.placement.redis });
  session.redis = redis;
  const info = streamInfo(redis, STREAM_KEY);
  const golden = goldenBody(redis, STREAM_KEY);
  const bodyBytes = Buffer.byteLength(golden);
  if (opts.resume && (info.length !== results.data.entries || bodyBytes !== results.data.body_bytes)) {
    throw new Error(`the stream now has ${info.length} entries (${bodyBytes} bytes), the run being resumed had ${results.data.entries} (${results.data.body_bytes}): start a new run instead`);
  }
  // Inside the checkout the path is kept relative, so a results.json says nothing about the machine.
  const rdbRecorded = rdb && !relative(ROOT, rdb).startsWith('..') ? relative(ROOT, rdb) : rdb;
  Object.assign(results.data, { rdb: rdbRecorded, redis_url: externalUrl ? redactUrl(externalUrl) : null, entries: info.length, memory_bytes: info.memoryBytes, body_bytes: bodyBytes });
  log(`redis ${externalUrl ? redactUrl(externalUrl) : `(private, ${redis.url}, from ${rdb})`}: ${STREAM_KEY} has ${info.length} entries, ${(info.memoryBytes / 1024).toFixed(1)} KB; body ${golden.length} bytes`);
  save();

  const byName = new Map(all.map((c) => [c.name, c]));
  const todo = results.contenders.filter((r) => r.status === 'incomplete');
  for (const r of todo) if (!byName.has(r.name)) fail(r, 'failed', `no app manifest defines ${r.name} any more`);

  // ---- build each app once (static Next variants read Redis here)
  const appEnv = (c: Contender): Record<string, string> => ({
    REDIS_URL: redis.url, REDIS_CLIENT: c.client, WORKLOAD: settings.workload, STREAM_KEY, NEXT_TELEMETRY_DISABLED: '1', ...c.env,
  });
  for (const app of new Set(todo.filter((r) => r.status === 'incomplete').map((r) => byName.get(r.name)!.app))) {
    const c = all.find((x) => x.app === app)!;
    if (!c.build) continue;
    log(`build apps/${app} …`);
    try {
      log(`build apps/${app}: ${await buildApp(c, appEnv(c), dataKey(golden, settings.workload))}`);
    } catch (e) {
      const err = e as AppError;
      for (const r of todo) if (byName.get(r.name)?.app === app) fail(r, 'failed', err.message, err.output);
      log(`build apps/${app}: FAILED: ${err.message}`);
    }
  }
  save();

  // ---- start and verify every contender; only verified ones are measured
  const running = new Map<string, RunningApp>();
  for (const r of todo.filter((x) => x.status === 'incomplete')) {
    const c = byName.get(r.name)!;
    try {
      const app = await startApp(c, { port: await freePort(), env: appEnv(c), timeoutMs: settings.start_timeout_s * 1000, cpuList: settings.placement.app });
      session.apps.set(r.name, app);
      const verdict = await verifyContract(app.url, golden, c.page);
      if (!verdict.ok) {
        fail(r, 'invalid', verdict.reason!);
        log(`${r.name}: INVALID: ${verdict.reason}`);
        await stopApp(session, r.name);
        continue;
      }
      running.set(r.name, app);
      log(`${r.name}: ready and verified on ${app.url}`);
    } catch (e) {
      const err = e as AppError;
      fail(r, 'failed', `start: ${err.message}`, err.output);
      log(`${r.name}: FAILED to start: ${err.message}`);
      await stopApp(session, r.name);
    }
  }
  save();

  const ctx: RunContext = { settings, placement: settings.placement, redis, runDir };
  const redisAlive = () => {
    if (redis.server && !isAlive(redis.server.pid)) return false;
    try {
      return cli(redis, ['PING']).trim() === 'PONG';
    } catch {
      return false;
    }
  };

  // ---- warmup: unmeasured, once per contender
  if (settings.warmup_s > 0) {
    for (const [name, app] of running) {
      try {
        await runOha({ url: app.url, connections: settings.connections[0]!, durationS: settings.warmup_s, requests: null, outFile: join(runDir, 'raw', name, 'warmup.json'), cpuList: settings.placement.loadgen });
      } catch (e) {
        log(`${name}: warmup failed: ${(e as Error).message}`);
      }
    }
  }

  /** The app failed: record why (and on which run), stop it, measure it no more. */
  const appFailed = async (r: ContenderResult, app: RunningApp, reason: string, run: RunRecord | null) => {
    if (run) run.fault = reason;
    fail(r, 'failed', reason, app.process.tail());
    log(`${r.name}: FAILED: ${reason}`);
    running.delete(r.name);
    await stopApp(session, r.name);
  };

  /** After a run: did Redis or the app die, or stop answering? Returns false if measuring must stop. */
  const checkAfterRun = async (r: ContenderResult, point: PointResult, app: RunningApp, run: RunRecord | null, round: number): Promise<boolean> => {
    if (!redisAlive()) {
      // Not the contender's fault: discard the run and leave it incomplete, so --resume measures it again.
      const i = run ? point.runs.indexOf(run) : -1;
      if (i >= 0) {
        point.runs.splice(i, 1);
        discard(point, run!, 'Redis died during this run');
      }
      r.reason = `Redis died during its run ${round}; that run is discarded`;
      results.exit_reason = `Redis stopped answering during ${r.name}; measuring stopped`;
      log(`${r.name}: Redis stopped answering; measuring stops here`);
      return false;
    }
    if (r.status !== 'incomplete') return true;
    let answering = !app.process.hasExited();
    if (answering) {
      try {
        await fetch(app.url, { signal: AbortSignal.timeout(5000) });
      } catch {
        answering = false;
      }
    }
    if (!answering) await appFailed(r, app, `app ${app.process.hasExited() ? 'exited' : 'stopped answering'} during run ${round}`, run);
    return true;
  };

  /** One run of a contender's point in a round, unless that slot is filled or the contender is out. False: stop measuring. */
  const measureSlot = async (r: ContenderResult, point: PointResult, round: number): Promise<boolean> => {
    const app = running.get(r.name);
    if (!app || r.status !== 'incomplete' || point.runs.length >= round) return true;
    const lp: LoadPoint = { connections: point.connections, rate: point.rate };
    let run: RunRecord | null = null;
    try {
      const attempt = (point.discarded_runs ?? []).filter((d) => d.round === round && d.fault?.startsWith(STEAL_FAULT)).length;
      run = await measureRun(ctx, r.name, app.url, app.pid, lp, round, attempt);
      if (run.cpu_steal_pct > settings.max_steal_pct && attempt < STEAL_RETRIES && !app.process.hasExited() && redisAlive()) {
        discard(point, run, `${STEAL_FAULT} ${run.cpu_steal_pct.toFixed(1)}% > ${settings.max_steal_pct}%`);
        log(`${r.name} ${pointLabel(lp)} run ${round}: CPU steal ${run.cpu_steal_pct.toFixed(1)}%, measured again later in this round`);
        run = null;
      } else {
        point.runs.push(run);
        log(`${r.name} ${pointLabel(lp)} run ${round}/${settings.runs}: ${run.rps.toFixed(0)} req/s, p50 ${run.latency_ms.p50.toFixed(1)} ms, ${run.cpu_us_per_req.toFixed(0)} µs CPU/req, ${run.redis_calls_per_req.toFixed(2)} calls/req`);
      }
    } catch (e) {
      if (redisAlive()) await appFailed(r, app, `run ${round}: ${(e as Error).message}`, null);
    }
    const goOn = await checkAfterRun(r, point, app, run, round);
    save();
    return goOn;
  };

  // ---- measured runs, interleaved (round 1 of every contender, then round 2, …) so that slow
  // drift of the machine spreads over all contenders; the order rotates each round so no
  // contender always runs first.
  const measurePhase = async (pointsOf: (r: ContenderResult) => PointResult[]): Promise<boolean> => {
    for (let round = 1; round <= settings.runs; round++) {
      const shift = (round - 1) % results.contenders.length;
      const order = [...results.contenders.slice(shift), ...results.contenders.slice(0, shift)];
      // A run the hypervisor stole much CPU from measures the neighbours, not the app: it is kept
      // aside and its slot measured again in a later pass over this round. Steal comes in bursts
      // of minutes, which an immediate retry would land in again.
      for (let pass = 0; pass <= STEAL_RETRIES; pass++) {
        for (const r of order) for (const point of pointsOf(r)) if (!(await measureSlot(r, point, round))) return false;
      }
    }
    for (const r of results.contenders) {
      if (!running.has(r.name) || r.status !== 'incomplete') continue;
      for (const p of pointsOf(r)) finalizePoint(p, settings, r.static);
    }
    return true;
  };

  let ok = await measurePhase((r) => r.points.filter((p) => p.rate === null));

  // ---- open loop: offered load as absolute req/s or a share of each contender's measured max
  if (ok && settings.rates.length) {
    for (const r of results.contenders) {
      if (!running.has(r.name) || r.status !== 'incomplete') continue;
      if (r.points.some((p) => p.status === 'invalid')) continue; // already disqualified: not measured further
      const max = r.points.find((p) => p.rate === null)?.rps?.median ?? 0;
      for (const spec of settings.rates) {
        if (r.points.some((p) => p.rate_spec === spec)) continue; // resumed
        const rate = spec.endsWith('%') ? (max * Number(spec.slice(0, -1))) / 100 : Number(spec);
        if (rate >= 1) r.points.push({ connections: settings.connections[0]!, rate: Math.round(rate), rate_spec: spec, status: 'incomplete', runs: [] });
      }
    }
    ok = await measurePhase((r) => r.points.filter((p) => p.rate !== null));
  }

  // ---- verdicts
  for (const r of results.contenders) {
    if (r.status !== 'incomplete' || !running.has(r.name)) continue;
    if (!ok) {
      r.reason ??= `not finished: ${results.exit_reason}`;
      continue;
    }
    const bad = r.points.find((p) => p.status !== 'ok');
    r.status = bad ? bad.status : 'ok';
    if (bad) r.reason = `${pointLabel({ connections: bad.connections, rate: bad.rate })}: ${bad.reason}`;
    else delete r.reason;
  }
  for (const r of results.contenders) if (r.points[0]?.runs.length) promoteHeadline(r);

  results.complete = ok && results.contenders.every((r) => r.status !== 'incomplete');
  results.finished_at = new Date().toISOString();
  save();
  if (!ok) throw new RedisError(results.exit_reason ?? 'measuring stopped');
  return results.contenders.every((r) => r.status === 'ok') ? 0 : 1;
}

export async function stopApp(session: Session, name: string): Promise<void> {
  const app = session.apps.get(name);
  session.apps.delete(name);
  if (app) await app.stop();
}

export async function stopAll(session: Session): Promise<void> {
  await Promise.all([...session.apps.keys()].map((n) => stopApp(session, n)));
  await session.redis?.stop();
  session.redis = null;
}

