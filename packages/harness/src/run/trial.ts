// Phase 2, launch and verify: a trial is one fresh process of a contender, verified byte for
// byte, warmed up at the measured load (not counted), measured, checked again and stopped.
// Only that app, Redis and oha run while it is measured.
import { type AppError, startApp, type RunningApp } from '../measure/apps';
import { measureRun, pointLabel, unmeasuredTarget, type Load } from '../measure/measure';
import { freePort } from '../system/net';
import { median } from 'simple-statistics';
import { runOha } from '../measure/oha';
import type { ContenderResult, PointResult, RunRecord } from '../model/results';
import { contenderOf, ctxFor, serversAlive, stopApp, type Suite } from './suite';
import { log } from '../system/progress';
import { verifyContract, type Verdict } from '../measure/verify';
import { stalenessBoundMs } from '@bench/stream';
import type { Contender } from '../model/contenders';
import { judgeWindow, liveFault, poolLive, probeOnce } from '../live/session';
import type { Probe } from '../live/checker';
import { type Latency, PERCENTILES } from '../model/results';
import { poolUpsert, verifyUpsert } from '../measure/upsert';

/** The server's command counts of a launch's windows, summed. */
const sumCommands = (runs: RunRecord[]) =>
  runs.reduce<Record<string, number>>((m, r) => {
    for (const [k, n] of Object.entries(r.redis_commands ?? {})) m[k] = (m[k] ?? 0) + n;
    return m;
  }, {});

/** The contender is out: it failed (crash, hang, start) or is invalid (wrong body, before or after a run). */
type Out = { kind: 'out'; status: 'failed' | 'invalid'; reason: string; output?: string[] };
type RedisDied = { kind: 'redis-died' };

export type TrialOutcome = ({ kind: 'runs' } | Out | RedisDied) & { runs: RunRecord[] };

interface Measurement {
  load: Load;
  round: number;
  rawName: string;
}

export const safe = (name: string) => name.replace(/[^\w.-]+/g, '_');

/**
 * One launch of the point in this round (attempt > 0: measured again after CPU steal): warmup,
 * then settings.windows measured windows back to back, pooled into one run that keeps each window.
 */
export async function measureTrial(
  suite: Suite,
  r: ContenderResult,
  point: PointResult,
  round: number,
  attempt: number,
): Promise<TrialOutcome> {
  const s = suite.settings;
  const load: Load = {
    connections: point.connections,
    rate: point.rate,
    durationS: s.duration_s,
    requests: s.requests,
    seedDefaults: false,
  };
  const base = `${safe(r.name)}/${pointLabel(load)}-run${round}${attempt ? `-retry${attempt}` : ''}`;
  const windows = Array.from({ length: s.windows ?? 1 }, (_, i) => ({
    load,
    round,
    rawName: i ? `${base}-w${i + 1}.json` : `${base}.json`,
  }));
  const outcome = await trial(
    suite,
    r,
    windows,
    s.warmup_s > 0 ? { ...load, durationS: s.warmup_s, requests: null } : null,
    `${base}-warmup.json`,
  );
  return { ...outcome, runs: outcome.runs.length ? [pooled(outcome.runs)] : [] } as TrialOutcome;
}

const sum = (runs: RunRecord[], f: (r: RunRecord) => number) => runs.reduce((n, r) => n + f(r), 0);

/** The windows of one launch as one run: counts summed, rates over the summed time, each window kept. */
export function pooled(runs: RunRecord[]): RunRecord {
  const first = runs[0]!;
  const ok = sum(runs, (r) => r.ok);
  // Under --workload live the prober's reads were served too (measure.ts counts them per window).
  const served = ok + sum(runs, (r) => r.live?.count ?? 0);
  const seconds = sum(runs, (r) => r.seconds);
  const appCpu = sum(runs, (r) => r.app_cpu_s);
  const calls = sum(runs, (r) => r.redis_calls);
  const redisCpu = runs.every((r) => r.redis_cpu_s !== null) ? sum(runs, (r) => r.redis_cpu_s!) : null;
  const middle = (f: (r: RunRecord) => number) => {
    const xs = runs.map(f).filter(Number.isFinite);
    return xs.length ? median(xs) : NaN;
  };
  return {
    ...first,
    rps: seconds > 0 ? ok / seconds : 0,
    ok,
    seconds,
    errors: {
      non_2xx: sum(runs, (r) => r.errors.non_2xx),
      aborted: sum(runs, (r) => r.errors.aborted),
      other: sum(runs, (r) => r.errors.other),
    },
    error_messages: runs
      .flatMap((r) => Object.entries(r.error_messages))
      .reduce<Record<string, number>>((m, [k, n]) => {
        m[k] = (m[k] ?? 0) + n;
        return m;
      }, {}),
    latency_ms: Object.fromEntries(PERCENTILES.map((p) => [p, middle((r) => r.latency_ms[p])])) as Latency,
    total_bytes: sum(runs, (r) => r.total_bytes),
    responses: sum(runs, (r) => r.responses),
    app_cpu_s: appCpu,
    cpu_us_per_req: ok ? (appCpu * 1e6) / served : NaN,
    ...(runs.every((r) => r.main_thread_cpu_s !== undefined)
      ? { main_thread_cpu_s: sum(runs, (r) => r.main_thread_cpu_s!) }
      : {}),
    rss_mb: Math.max(...runs.map((r) => r.rss_mb)),
    redis_calls: calls,
    redis_calls_per_req: ok ? calls / served : NaN,
    redis_us_per_call: calls ? sum(runs, (r) => r.redis_us_per_call * r.redis_calls) / calls : NaN,
    redis_cpu_s: redisCpu,
    loadgen_cpu_s: sum(runs, (r) => r.loadgen_cpu_s),
    ...(runs.some((r) => r.idle_cpu_s !== undefined) ? { idle_cpu_s: sum(runs, (r) => r.idle_cpu_s ?? 0) } : {}),
    ...(runs.every((r) => r.proxy_cpu_s !== undefined) ? { proxy_cpu_s: sum(runs, (r) => r.proxy_cpu_s!) } : {}),
    ...(runs.every((r) => r.live) ? { live: poolLive(runs.map((r) => r.live!)) } : {}),
    ...(runs.every((r) => r.upsert)
      ? { upsert: poolUpsert(runs.map((r) => r.upsert!)), redis_commands: sumCommands(runs) }
      : {}),
    loadgen_saturated: runs.some((r) => r.loadgen_saturated),
    harness_cpu_pct: Math.max(...runs.map((r) => r.harness_cpu_pct)),
    cpu_steal_pct: seconds > 0 ? sum(runs, (r) => r.cpu_steal_pct * r.seconds) / seconds : first.cpu_steal_pct,
    ended_at: runs.at(-1)!.ended_at,
    after_check: runs.at(-1)!.after_check,
    fault: runs.find((r) => r.fault)?.fault,
    windows: runs.map((r, index) => ({
      index,
      ...(r.seq !== undefined ? { seq: r.seq } : {}),
      started_at: r.started_at,
      ended_at: r.ended_at,
      rps: r.rps,
      ok: r.ok,
      redis_calls: r.redis_calls,
      cpu_us_per_req: r.cpu_us_per_req,
      cpu_steal_pct: r.cpu_steal_pct,
      raw: r.raw,
      ...(r.idle_cpu_s !== undefined ? { idle_cpu_s: r.idle_cpu_s } : {}),
      ...(r.live ? { live: r.live } : {}),
      ...(r.upsert ? { upsert: r.upsert } : {}),
    })),
  };
}

/** The seed's method: one fresh process, oha defaults, three runs of 200 requests at 50 connections, no warmup. */
export function seedTrial(suite: Suite, r: ContenderResult): Promise<TrialOutcome> {
  const load: Load = { connections: 50, rate: null, durationS: null, requests: 200, seedDefaults: true };
  return trial(
    suite,
    r,
    [1, 2, 3].map((round) => ({ load, round, rawName: `${safe(r.name)}/seed-method-run${round}.json` })),
    null,
    '',
  );
}

async function trial(
  suite: Suite,
  r: ContenderResult,
  measurements: Measurement[],
  warmup: Load | null,
  warmupName: string,
): Promise<TrialOutcome> {
  const c = contenderOf(suite, r);
  const key = `${r.name}#${measurements[0]!.rawName}`;
  const t0 = Date.now();
  let app: RunningApp;
  try {
    app = await startApp(c, {
      port: await freePort(),
      env: suite.appEnv(c),
      timeoutMs: suite.settings.start_timeout_s * 1000,
      cpuList: suite.settings.placement.app,
    });
  } catch (e) {
    const err = e as AppError;
    return { kind: 'out', status: 'failed', reason: `start: ${err.message}`, output: err.output, runs: [] };
  }
  suite.session.apps.set(key, app);
  const runs: RunRecord[] = [];
  try {
    const launchS = (Date.now() - t0) / 1000;
    const verdict = await verifyFor(suite, app.url, c);
    if (!verdict.ok) return { kind: 'out', status: 'invalid', reason: verdict.reason!, runs };
    if (warmup) {
      await runOha({
        ...warmup,
        ...unmeasuredTarget(ctxFor(suite, c), app.url),
        outFile: `${suite.runDir}/raw/${warmupName}`,
        cpuList: suite.settings.placement.loadgen,
      }).catch((e) => log(`${r.name}: warmup failed: ${(e as Error).message}`));
    }
    for (const m of measurements) {
      let measured;
      try {
        measured = await measureRun(ctxFor(suite, c), app.pid, app.url, m.load, m.rawName, liveBoundMs(suite, c));
      } catch (e) {
        if (!serversAlive(suite)) return { kind: 'redis-died', runs };
        return {
          kind: 'out',
          status: 'failed',
          reason: `run ${m.round}: ${(e as Error).message}`,
          output: app.process.tail(),
          runs,
        };
      }
      const run: RunRecord = {
        ...measured,
        round: m.round,
        pid: app.pid,
        launch_s: launchS,
        expected_bytes: verdict.bytes!,
        after_check: 'ok',
      };
      runs.push(run);
      const bad = await checkAfterRun(suite, app, c, run);
      if (bad) return { ...bad, runs };
    }
    return { kind: 'runs', runs };
  } finally {
    await stopApp(suite.session, key);
  }
}

/** The staleness a contender may show under --workload live: its cache's declared bound plus --max-staleness. */
export const liveBoundMs = (suite: Suite, c: Contender) =>
  stalenessBoundMs(c.settings.cache, { ...process.env, ...suite.appEnv(c) }) +
  (suite.settings.live?.max_staleness_ms ?? 0);

/**
 * The gate before measuring: the golden body, byte for byte; under --workload live, a read the checker finds a snapshot
 * fresh enough.
 */
export async function verifyFor(suite: Suite, url: string, c: Contender): Promise<Verdict> {
  if (suite.settings.workload === 'upsert') return verifyUpsert(url, ctxFor(suite, c).redis, c.settings.write);
  if (!suite.ctx.live) return verifyContract(url, suite.golden, c.page);
  const probe = await probeOnce(url);
  if (probe.status === 0) return { ok: false, reason: `request failed: ${probe.body}` };
  return judgeProbe(suite, c, probe);
}

/** Under --workload live: one probe's body, judged by the checker against the contender's staleness bound. */
export async function judgeProbe(suite: Suite, c: Contender, probe: Probe): Promise<Verdict> {
  const fault = liveFault(
    await judgeWindow(suite.ctx.live!, [probe], liveBoundMs(suite, c), probe.sent_ms, probe.received_ms),
    null,
  );
  return fault ? { ok: false, reason: fault } : { ok: true, bytes: Buffer.byteLength(probe.body) };
}

/**
 * After a measured run: Redis still up, the app still alive and answering, every response the
 * verified size (oha's byte count), and the body byte-identical once more. Under --workload live
 * the body changes: the prober's reads were judged (live/session.ts), and oha's bytes per
 * response must be some snapshot's size. Under --workload upsert: the window's accounting, and the
 * scripted check once more.
 */
export async function checkAfterRun(
  suite: Suite,
  app: RunningApp,
  c: Contender,
  run: RunRecord,
): Promise<Out | RedisDied | null> {
  if (!serversAlive(suite)) return { kind: 'redis-died' };
  const out = (status: 'failed' | 'invalid', reason: string): Out => {
    run.fault = reason;
    return { kind: 'out', status, reason, output: status === 'failed' ? app.process.tail() : undefined };
  };
  if (app.process.hasExited()) return out('failed', `app exited during run ${run.round}`);
  if (run.upsert) {
    if (run.upsert.problem)
      return out('invalid', `run ${run.round}, keys item:{${run.upsert.prefix}…}: ${run.upsert.problem}`);
    const again = await verifyUpsert(app.url, ctxFor(suite, c).redis, c.settings.write);
    return again.ok
      ? null
      : out(
          again.reason!.startsWith('request failed') ? 'failed' : 'invalid',
          `run ${run.round}: after the run, ${again.reason}`,
        );
  }
  if (run.live) {
    const again = await probeOnce(app.url);
    if (again.status === 0) return out('failed', `app stopped answering during run ${run.round} (${again.body})`);
    const fault = liveFault(
      run.live,
      run.errors.non_2xx === 0 && run.responses ? run.total_bytes / run.responses : null,
    );
    return fault ? out('invalid', `run ${run.round}: ${fault}`) : null;
  }
  const fault = await bodyAfterRun(app.url, suite.golden, c.page, run);
  return fault ? out(fault.status, fault.reason) : null;
}

/**
 * A fixed stream's run, checked after it (for a launched app and for --target's): the app still
 * answers with the golden body, and oha's bytes are that body's size times the responses.
 */
export async function bodyAfterRun(
  url: string,
  golden: string,
  page: boolean,
  run: RunRecord,
): Promise<{ status: 'failed' | 'invalid'; reason: string } | null> {
  const again = await verifyContract(url, golden, page);
  if (!again.ok) run.after_check = again.reason!;
  if (!again.ok && again.reason!.startsWith('request failed'))
    return { status: 'failed', reason: `app stopped answering during run ${run.round} (${again.reason})` };
  // Non-2xx responses carry other bodies; the error-rate gate judges those runs.
  if (run.errors.non_2xx === 0 && run.total_bytes !== run.expected_bytes * run.responses) {
    const per = run.responses ? (run.total_bytes / run.responses).toFixed(1) : '–';
    return {
      status: 'invalid',
      reason: `run ${run.round}: responses under load were not the verified body: ${run.total_bytes} bytes over ${run.responses} responses (${per} each), want ${run.expected_bytes} each`,
    };
  }
  // An app that already answered non-2xx under load is judged by the error-rate gate, with its counts.
  if (!again.ok && !(again.reason!.startsWith('status ') && run.errors.non_2xx > 0))
    return {
      status: 'invalid',
      reason: `run ${run.round}: the body changed under load; after the run, ${again.reason}`,
    };
  return null;
}
