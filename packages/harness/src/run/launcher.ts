// The real launcher (launch.ts has the interface): apps started as processes on a free port,
// verified and checked after each window by their workload (workloads/), loaded by oha,
// and stopped with their whole process tree.
import { stalenessBoundMs, type Workload as WorkloadName } from '@bench/stream';
import { type AppError, type RunningApp, startApp } from '../measure/apps';
import { measureRun, unmeasuredParts, unmeasuredTarget, type Load, type Meeting } from '../measure/measure';
import { runOha } from '../measure/oha';
import type { Verdict } from '../measure/verify';
import { type CheckContext, workloadOf } from '../workloads';
import { probeOnce } from '../measure/probe';
import type { Contender } from '../model/contenders';
import type { ContenderResult, RunRecord, Settings } from '../model/results';
import { processTrees, treeCpuSeconds, untilIdle } from '../system/proc';
import { log } from '../system/progress';
import { restartPrivateRedis } from '../topology/redis';
import type { Launched, Launcher, Measured, Out, RedisDied } from './launch';
import { contenderOf, ctxFor, type Rig, serversAlive, stopApp } from './state';
import { tellingLine } from './own-app';

/** How long an app may take to serve a fresh snapshot after Redis restarts (--restart-redis). */
const RECOVER_MS = 10_000;

/** The settings a launch reads: its timeout, placement and workload, and the workload's own settings. */
type LaunchSettings = Pick<Settings, 'start_timeout_s' | 'placement' | 'workload' | WorkloadName>;

export class AppLauncher implements Launcher {
  /** The processes behind the apps it started and has not stopped, by key. */
  private readonly apps = new Map<string, RunningApp>();

  constructor(
    private readonly rig: Rig,
    private readonly settings: LaunchSettings,
  ) {}

  private contender(r: Pick<ContenderResult, 'name' | 'self_check_of'>): Contender {
    return contenderOf(this.rig.byName, r);
  }

  async start(r: ContenderResult, key: string): Promise<Launched | Out> {
    const c = this.contender(r);
    const t0 = Date.now();
    try {
      const app = await startApp(c, {
        env: this.rig.appEnv(c),
        timeoutMs: this.settings.start_timeout_s * 1000,
        cpuList: this.settings.placement.app,
      });
      this.apps.set(key, app);
      this.rig.session.apps.set(key, app);
      const launchS = (Date.now() - t0) / 1000;
      return { key, r, pid: app.pid, url: app.url, launchS, bytes: NaN, tail: () => app.process.tail() };
    } catch (e) {
      const err = e as AppError;
      return { kind: 'out', status: 'failed', reason: `start: ${err.message}`, output: err.output };
    }
  }

  /** The gate before measuring: the workload's (the golden body byte for byte; a fresh snapshot; a scripted check). */
  verify(app: Launched): Promise<Verdict> {
    const c = this.contender(app.r);
    return workloadOf(this.settings.workload).verify(checkContext(this.rig, this.settings, c, app.url));
  }

  async load(app: Launched, load: Load, rawName: string, what: 'warmup' | 'touch'): Promise<void> {
    const target = unmeasuredTarget(ctxFor(this.rig, this.contender(app.r)), app.url);
    for (const part of unmeasuredParts(load, rawName, what))
      await runOha({
        ...part.load,
        ...target,
        outFile: `${this.rig.ctx.runDir}/raw/${part.rawName}`,
        cpuList: this.settings.placement.loadgen,
      }).catch((e) => log(`${app.r.name}: ${what} failed: ${(e as Error).message}`));
  }

  async measure(app: Launched, load: Load, rawName: string, duet?: Meeting): Promise<Measured> {
    const c = this.contender(app.r);
    // A duet's window is probed like any other: each side against its own declared bound.
    const bound = liveBoundMs(this.rig, this.settings, c);
    return measureRun(ctxFor(this.rig, c), app.pid, app.url, load, rawName, bound, duet);
  }

  check(app: Launched, run: RunRecord): Promise<Out | RedisDied | null> {
    return checkAfterRun(this.rig, this.settings, this.apps.get(app.key)!, this.contender(app.r), run);
  }

  cpuSeconds(app: Launched): number {
    return treeCpuSeconds(app.pid);
  }

  serversAlive(): boolean {
    return serversAlive(this.rig);
  }

  stop(key: string): Promise<void> {
    this.apps.delete(key);
    return stopApp(this.rig.session, key);
  }

  async settle(ms: number): Promise<void> {
    await untilIdle(processTrees([...this.apps.values()].map((a) => a.pid)), ms);
  }

  async restartRedis(): Promise<{ downMs: number; restartedAt: number }> {
    let restartedAt = 0;
    // Timed from Redis answering again, not from the writer's restart after it.
    const downMs = await this.rig.ctx.background!.pause(async () => {
      const ms = await restartPrivateRedis(this.rig.ctx.redis);
      restartedAt = performance.now();
      return ms;
    });
    return { downMs, restartedAt };
  }

  async recover(app: Launched, since: number): Promise<{ ms: number | null; out: Out | null }> {
    let probe = await probeOnce(app.url);
    while (probe.status !== 200 && performance.now() - since < RECOVER_MS) {
      await Bun.sleep(100);
      probe = await probeOnce(app.url);
    }
    const c = this.contender(app.r);
    const ctx = checkContext(this.rig, this.settings, c, app.url);
    const judge = this.rig.ctx.workload.judgeRecovered;
    const verdict = probe.status === 200 && judge ? await judge(ctx, probe) : null;
    if (verdict?.ok) return { ms: Math.round(probe.received_ms - performance.timeOrigin - since), out: null };
    const out: Out = verdict
      ? { kind: 'out', status: 'invalid', reason: `after a Redis restart: ${verdict.reason}` }
      : {
          kind: 'out',
          status: 'failed',
          reason:
            `did not answer 200 within ${RECOVER_MS / 1000} s of a Redis restart ` +
            `(last: ${probe.status || probe.body})`,
          output: app.tail(),
        };
    return { ms: null, out };
  }
}

/** The staleness a contender may show: its cache's declared bound plus the workload's slack (--max-staleness). */
const liveBoundMs = (rig: Rig, settings: LaunchSettings, c: Contender) =>
  stalenessBoundMs(c.settings.cache, { ...process.env, ...rig.appEnv(c) }) +
  rig.ctx.workload.slackMs(settings[settings.workload]);

/** What the workload's checks before and after a window need of a launched contender. */
const checkContext = (rig: Rig, settings: LaunchSettings, c: Contender, url: string): CheckContext => ({
  url,
  redis: ctxFor(rig, c).redis,
  write: c.settings.write,
  // --app: the app's own body (its first response, a file's), or any body.
  golden: c.own?.golden ?? rig.golden,
  ...(c.own || !rig.pairs ? {} : { pairs: rig.pairs }),
  page: c.own ? (c.own.body.from === 'any' ? 'any' : 'own') : c.page,
  background: rig.ctx.background ?? null,
  boundMs: () => liveBoundMs(rig, settings, c),
});

/** How an app that exited ended, in brackets: its exit code or signal, and its output's telling line. */
function howItEnded(app: RunningApp): string {
  const { exitCode, signalCode } = app.process.child;
  const said = tellingLine(app.process.tail());
  const how = signalCode ? `killed by ${signalCode}` : exitCode === null ? null : `exit code ${exitCode}`;
  const parts = [how, said && `last output: ${said.trim()}`].filter(Boolean);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

/** After a measured run: Redis still up, the app still alive, and the workload's own check after a window. */
async function checkAfterRun(
  rig: Rig,
  settings: LaunchSettings,
  app: RunningApp,
  c: Contender,
  run: RunRecord,
): Promise<Out | RedisDied | null> {
  if (!serversAlive(rig)) return { kind: 'redis-died' };
  const out = (status: 'failed' | 'invalid', reason: string): Out => {
    run.fault = reason;
    return { kind: 'out', status, reason, output: status === 'failed' ? app.process.tail() : undefined };
  };
  if (app.process.hasExited()) return out('failed', `app exited during run ${run.round}${howItEnded(app)}`);
  const fault = await workloadOf(settings.workload).checkAfter(checkContext(rig, settings, c, app.url), run);
  return fault ? out(fault.status, fault.reason) : null;
}
