// The launcher of an app started by hand (--target): nothing to start or stop, so a "launch" is the
// app as it is. It is verified, warmed up, measured and checked through the same steps as a
// contender the harness starts (launch.ts), with what this host cannot see of it left out: its
// CPU and memory (it may run on another machine).
import type { RunContext } from '../measure/workload';
import { measureRun, unmeasuredParts, type Load } from '../measure/measure';
import { runOha } from '../measure/oha';
import { type Carrier, verifyContract, type Verdict } from '../measure/verify';
import { bodyAfterRun } from '../workloads/read';
import type { ContenderResult, RunRecord } from '../model/results';
import { log } from '../system/progress';
import type { Launched, Launcher, Measured, Out, RedisDied } from './launch';
import { redisAlive } from './state';

/** No process here: /proc has no pid -1, so measureRun finds no tree (its CPU and RSS are blanked below). */
export const REMOTE_PID = -1;

export class RemoteLauncher implements Launcher {
  constructor(
    private readonly ctx: RunContext,
    private readonly url: string,
    private readonly golden: string,
    /** The app's own body (--body): the whole response is checked, whatever its content type. */
    private readonly own = false,
  ) {}

  /** The connection counts already warmed up: the app stays up between rounds, so each load is warmed once. */
  private readonly warmed = new Set<number>();

  private carrier(r: ContenderResult): Carrier {
    return this.own ? 'own' : r.page;
  }

  /** The app as it is: it must answer at all (a request that fails is the app's failure, not a wrong body). */
  async start(r: ContenderResult, key: string): Promise<Launched | Out> {
    const seen = await verifyContract(this.url, this.golden, this.carrier(r));
    if (!seen.ok && seen.reason!.startsWith('request failed'))
      return { kind: 'out', status: 'failed', reason: `before a run: ${seen.reason}` };
    return { key, r, pid: REMOTE_PID, url: this.url, launchS: NaN, bytes: NaN, tail: () => [] };
  }

  verify(app: Launched): Promise<Verdict> {
    return verifyContract(this.url, this.golden, this.carrier(app.r));
  }

  async load(app: Launched, load: Load, rawName: string, what: 'warmup' | 'touch'): Promise<void> {
    if (what === 'warmup' && this.warmed.has(load.connections)) return;
    if (what === 'warmup') this.warmed.add(load.connections);
    for (const part of unmeasuredParts(load, rawName, what))
      await runOha({
        ...part.load,
        url: this.url,
        outFile: `${this.ctx.runDir}/raw/${part.rawName}`,
      }).catch((e) => log(`${app.r.name}: ${what} failed: ${(e as Error).message}`));
  }

  async measure(_app: Launched, load: Load, rawName: string): Promise<Measured> {
    const m = await measureRun(this.ctx, REMOTE_PID, this.url, load, rawName);
    return { ...m, app_cpu_s: NaN, cpu_us_per_req: NaN, rss_mb: NaN };
  }

  async check(app: Launched, run: RunRecord): Promise<Out | RedisDied | null> {
    if (!this.serversAlive()) return { kind: 'redis-died' };
    const fault = await bodyAfterRun(this.url, this.golden, this.carrier(app.r), run);
    if (!fault) return null;
    run.fault = fault.reason;
    return { kind: 'out', ...fault };
  }

  cpuSeconds(): number {
    return NaN;
  }

  serversAlive(): boolean {
    return redisAlive(this.ctx.redis);
  }

  async stop(): Promise<void> {}

  /** The apps are not this machine's to watch: the whole bound. */
  async settle(ms: number): Promise<void> {
    await Bun.sleep(ms);
  }

  restartRedis(): Promise<{ downMs: number; restartedAt: number }> {
    return Promise.reject(new Error('--target: the harness restarts only a Redis it started'));
  }

  recover(): Promise<{ ms: number | null; out: Out | null }> {
    return Promise.reject(new Error('--target: the harness restarts only a Redis it started'));
  }
}
