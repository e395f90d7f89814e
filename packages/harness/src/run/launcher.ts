// The real launcher (launch.ts has the interface): apps started as processes on a free port,
// verified against the golden body (or, under --workload live, the checker), loaded by oha, checked
// after each window, and stopped with their whole process tree.
import { stalenessBoundMs } from '@bench/stream';
import { type AppError, type RunningApp, startApp } from '../measure/apps';
import { measureRun, unmeasuredTarget, type Load, type Meeting } from '../measure/measure';
import { runOha } from '../measure/oha';
import { verifyUpsert } from '../measure/upsert';
import { verifyContract, type Verdict } from '../measure/verify';
import type { Probe } from '../live/checker';
import { judgeWindow, liveFault, probeOnce } from '../live/session';
import type { Contender } from '../model/contenders';
import type { ContenderResult, RunRecord, Settings } from '../model/results';
import { freePort } from '../system/net';
import { treeCpuSeconds } from '../system/proc';
import { log } from '../system/progress';
import { restartPrivateRedis } from '../topology/redis';
import type { Launched, Launcher, Measured, Out, RedisDied } from './launch';
import { contenderOf, ctxFor, type Rig, serversAlive, stopApp } from './state';

/** How long an app may take to serve a fresh snapshot after Redis restarts (--restart-redis). */
const RECOVER_MS = 10_000;

type LaunchSettings = Pick<Settings, 'start_timeout_s' | 'placement' | 'workload' | 'live'>;

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
        port: await freePort(),
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

  verify(app: Launched): Promise<Verdict> {
    return verifyFor(this.rig, this.settings, app.url, this.contender(app.r));
  }

  async load(app: Launched, load: Load, rawName: string, what: 'warmup' | 'touch'): Promise<void> {
    await runOha({
      ...load,
      ...unmeasuredTarget(ctxFor(this.rig, this.contender(app.r)), app.url),
      outFile: `${this.rig.ctx.runDir}/raw/${rawName}`,
      cpuList: this.settings.placement.loadgen,
    }).catch((e) => log(`${app.r.name}: ${what} failed: ${(e as Error).message}`));
  }

  async measure(app: Launched, load: Load, rawName: string, duet?: Meeting): Promise<Measured> {
    const c = this.contender(app.r);
    const bound = duet ? 0 : liveBoundMs(this.rig, this.settings, c);
    return measureRun(ctxFor(this.rig, c), app.pid, app.url, load, rawName, bound, duet);
  }

  check(app: Launched, run: RunRecord): Promise<Out | RedisDied | null> {
    return checkAfterRun(this.rig, this.apps.get(app.key)!, this.contender(app.r), run);
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

  async pause(ms: number): Promise<void> {
    await Bun.sleep(ms);
  }

  async restartRedis(): Promise<{ downMs: number; restartedAt: number }> {
    let restartedAt = 0;
    // Timed from Redis answering again, not from the writer's restart after it.
    const downMs = await this.rig.ctx.live!.pause(async () => {
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
    const verdict = probe.status === 200 ? await judgeProbe(this.rig, this.settings, c, probe) : null;
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

/** The staleness a contender may show under --workload live: its cache's declared bound plus --max-staleness. */
const liveBoundMs = (rig: Rig, settings: LaunchSettings, c: Contender) =>
  stalenessBoundMs(c.settings.cache, { ...process.env, ...rig.appEnv(c) }) + (settings.live?.max_staleness_ms ?? 0);

/**
 * The gate before measuring: the golden body, byte for byte; under --workload live, a read the checker finds a snapshot
 * fresh enough.
 */
async function verifyFor(rig: Rig, settings: LaunchSettings, url: string, c: Contender): Promise<Verdict> {
  if (settings.workload === 'upsert') return verifyUpsert(url, ctxFor(rig, c).redis, c.settings.write);
  if (!rig.ctx.live) return verifyContract(url, rig.golden, c.page);
  const probe = await probeOnce(url);
  if (probe.status === 0) return { ok: false, reason: `request failed: ${probe.body}` };
  return judgeProbe(rig, settings, c, probe);
}

/** Under --workload live: one probe's body, judged by the checker against the contender's staleness bound. */
async function judgeProbe(rig: Rig, settings: LaunchSettings, c: Contender, probe: Probe): Promise<Verdict> {
  const window = await judgeWindow(
    rig.ctx.live!,
    [probe],
    liveBoundMs(rig, settings, c),
    probe.sent_ms,
    probe.received_ms,
  );
  const fault = liveFault(window, null);
  return fault ? { ok: false, reason: fault } : { ok: true, bytes: Buffer.byteLength(probe.body) };
}

/**
 * After a measured run: Redis still up, the app still alive and answering, every response the
 * verified size (oha's byte count), and the body byte-identical once more. Under --workload live
 * the body changes: the prober's reads were judged (live/session.ts), and oha's bytes per
 * response must be some snapshot's size. Under --workload upsert: the window's accounting, and the
 * scripted check once more.
 */
async function checkAfterRun(rig: Rig, app: RunningApp, c: Contender, run: RunRecord): Promise<Out | RedisDied | null> {
  if (!serversAlive(rig)) return { kind: 'redis-died' };
  const out = (status: 'failed' | 'invalid', reason: string): Out => {
    run.fault = reason;
    return { kind: 'out', status, reason, output: status === 'failed' ? app.process.tail() : undefined };
  };
  if (app.process.hasExited()) return out('failed', `app exited during run ${run.round}`);
  if (run.upsert) {
    if (run.upsert.problem)
      return out('invalid', `run ${run.round}, keys item:{${run.upsert.prefix}…}: ${run.upsert.problem}`);
    const again = await verifyUpsert(app.url, ctxFor(rig, c).redis, c.settings.write);
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
  const fault = await bodyAfterRun(app.url, rig.golden, c.page, run);
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
      reason:
        `run ${run.round}: responses under load were not the verified body: ${run.total_bytes} bytes over ` +
        `${run.responses} responses (${per} each), want ${run.expected_bytes} each`,
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
