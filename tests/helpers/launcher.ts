// A launcher that starts nothing (run/launch.ts Launcher): what plan.test and launch-outcomes.test drive the launch,
// the trial and the block with. It records every step it is asked for, in order; each test's subclass says what its
// verifications, loads, windows and checks give.
import type { Load, Meeting } from '../../packages/harness/src/measure/measure';
import type { Verdict } from '../../packages/harness/src/measure/verify';
import type { ContenderResult, RunRecord } from '../../packages/harness/src/model/results';
import type { BlockResults } from '../../packages/harness/src/run/block';
import type { Launched, Launcher, Measured, Out, RedisDied } from '../../packages/harness/src/run/launch';

/** A window's figures, as measureRun would return them: `rps` a second, 1 µs of CPU a request unless `more` says. */
export function measured(rps: number, raw: string, more: Partial<Measured> = {}): Measured {
  const latency = { p10: 1, p25: 1, p50: 1, p75: 1, p90: 1, p95: 1, p99: 1, p99_9: 1 };
  return {
    ...{ rps, ok: rps, seconds: 1, errors: { non_2xx: 0, aborted: 0, other: 0 }, error_messages: {} },
    ...{ latency_ms: latency, total_bytes: rps * 10, responses: rps, app_cpu_s: 0.5, cpu_us_per_req: 1 },
    ...{ rss_mb: 50, redis_calls: rps, redis_calls_per_req: 1, redis_us_per_call: 2, redis_cpu_s: 0.1 },
    ...{ loadgen_cpu_s: 0.3, loadgen_saturated: false, harness_cpu_pct: 1, load_average_1m: 0.5, cpu_steal_pct: 0 },
    ...{ raw, started_at: 0, ended_at: 1 },
    ...more,
  } as Measured;
}

/** Starts, stops and settles nothing, and says so in `events`; Redis stays up until a test sets `alive`. */
export abstract class FakeLauncher implements Launcher {
  events: string[] = [];
  alive = true;
  /** Contenders whose verification fails. */
  invalid = new Set<string>();
  private pid = 100;

  async start(r: ContenderResult, key: string): Promise<Launched | Out> {
    this.events.push(`start ${r.name}`);
    return { key, r, pid: this.pid++, url: `http://${r.name}`, launchS: 0.2, bytes: NaN, tail: () => ['last line'] };
  }
  abstract verify(app: Launched): Promise<Verdict>;
  async load(app: Launched, _load: Load, rawName: string, what: 'warmup' | 'touch'): Promise<void> {
    this.events.push(`${what} ${app.r.name} ${rawName}`);
  }
  abstract measure(app: Launched, load: Load, rawName: string, duet?: Meeting): Promise<Measured>;
  async check(app: Launched, _run: RunRecord): Promise<Out | RedisDied | null> {
    this.events.push(`check ${app.r.name}`);
    return null;
  }
  cpuSeconds(_app: Launched): number {
    return 0;
  }
  serversAlive(): boolean {
    return this.alive;
  }
  async stop(key: string): Promise<void> {
    this.events.push(`stop ${key}`);
  }
  async settle(ms: number): Promise<void> {
    this.events.push(`settle ${ms}`);
  }
  async restartRedis() {
    return { downMs: 5, restartedAt: 0 };
  }
  async recover(_app: Launched): Promise<{ ms: number; out: Out | null }> {
    return { ms: 1, out: null };
  }
}

/** A block's results with the default run's handicap check: fw against x side by side, h x with 10% burnt. */
export const HANDICAP_CHECK = {
  family: {
    questions: [],
    comparisons: [{ id: 'fw vs x', question: 'q', a: 'fw', b: 'x', side_by_side: true as const }],
  },
  handicap: [
    { contender: 'h', calibrated_on: 'x', compared_with: 'x', pct: 10, cpu_us_per_req: 1, us: 1, injected_ratio: 1 },
  ],
} as unknown as Partial<BlockResults>;
