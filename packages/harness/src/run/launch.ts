// One launch, the same for every layout: start a fresh process of a contender, verify it byte for
// byte, warm it up at the measured load (not counted), measure its windows, check it after each,
// stop it. A single trial (trial.ts) runs those steps in a row; a block (block.ts) launches its
// members first and interleaves their windows. The steps that touch processes are a Launcher's:
// launcher.ts has the real one, and the unit tests a fake one, so the plans around the steps are
// tested without starting anything (after hyperfine's Executor and its mock).
import type { Load, Meeting, measureRun } from '../measure/measure';
import type { Verdict } from '../measure/verify';
import type { ContenderResult, RunRecord } from '../model/results';

/** The contender is out: it failed (crash, hang, start) or is invalid (wrong body, before or after a run). */
export type Out = { kind: 'out'; status: 'failed' | 'invalid'; reason: string; output?: string[] };
export type RedisDied = { kind: 'redis-died' };

export type TrialOutcome = ({ kind: 'runs' } | Out | RedisDied) & { runs: RunRecord[] };

/** What one window measured, before the trial's own fields (round, pid, the checks) are added. */
export type Measured = Awaited<ReturnType<typeof measureRun>>;

/** A started app. */
export interface Launched {
  /** Its name among the session's apps, which `stop` takes. */
  key: string;
  r: ContenderResult;
  pid: number;
  url: string;
  /** Seconds from the spawn to its first answer. */
  launchS: number;
  /** The verified body's size (NaN until it is verified). */
  bytes: number;
  /** The last lines it printed. */
  tail(): string[];
}

/** The steps of a launch that start, load and stop processes. */
export interface Launcher {
  /** Start the contender's app, registered under `key` until `stop`; or why it did not start. */
  start(r: ContenderResult, key: string): Promise<Launched | Out>;
  /** The gate before measuring: the golden body, or a fresh enough snapshot under --workload live. */
  verify(app: Launched): Promise<Verdict>;
  /** Load that is not measured (a warmup, a walk's touch); a failure is logged, the windows after it judge the app. */
  load(app: Launched, load: Load, rawName: string, what: 'warmup' | 'touch'): Promise<void>;
  /**
   * One measured window; it throws when the load fails. With `duet`, one side of a duet window: its
   * oha starts and ends with its partner's, and its live reads are judged with no staleness bound.
   */
  measure(app: Launched, load: Load, rawName: string, duet?: Meeting): Promise<Measured>;
  /** After a window: the servers up, the app alive and answering, the same body; null when all is well. */
  check(app: Launched, run: RunRecord): Promise<Out | RedisDied | null>;
  /** The CPU seconds the app's process tree has used so far. */
  cpuSeconds(app: Launched): number;
  /** Every server the run started still answers. */
  serversAlive(): boolean;
  stop(key: string): Promise<void>;
  /** Before a window: until the apps it runs are idle (the last window's after-work done), at most `ms`. */
  settle(ms: number): Promise<void>;
  /** --restart-redis: restart the private Redis keeping its data; its downtime and when it answered again. */
  restartRedis(): Promise<{ downMs: number; restartedAt: number }>;
  /** --restart-redis: the app's first answer after `since`, judged; how long it took, or why it is out. */
  recover(app: Launched, since: number): Promise<{ ms: number | null; out: Out | null }>;
}

export const safe = (name: string) => name.replace(/[^\w.-]+/g, '_');

/**
 * Start → verify → warm up (at `warmup.load`, unless null). A change's two sides share a meeting:
 * both warmups start at the same moment, and a side that fails leaves it. The app is returned
 * even when it is out (a failed verification), for the caller to stop.
 */
export async function launch(
  launcher: Launcher,
  r: ContenderResult,
  key: string,
  warmup: { load: Load; rawName: string } | null,
  meet?: Meeting,
): Promise<{ app?: Launched; out?: Out }> {
  try {
    const app = await launcher.start(r, key);
    if ('kind' in app) return { out: app };
    const verdict = await launcher.verify(app);
    if (!verdict.ok) return { app, out: { kind: 'out', status: 'invalid', reason: verdict.reason! } };
    app.bytes = verdict.bytes!;
    if (verdict.finding) r.contract = verdict.finding;
    if (warmup) {
      await meet?.at('start');
      await launcher.load(app, warmup.load, warmup.rawName, 'warmup');
    }
    return { app };
  } finally {
    meet?.leave();
  }
}

/**
 * One measured window of a launched app and the check after it. `extra`: fields the layout adds,
 * read as the window ends (before the check). `run` is null when the load itself failed.
 */
export async function measureWindow(
  launcher: Launcher,
  app: Launched,
  load: Load,
  rawName: string,
  round: number,
  extra: () => Partial<RunRecord> = () => ({}),
): Promise<{ run: RunRecord | null; bad: Out | RedisDied | null }> {
  let measured: Measured;
  try {
    measured = await launcher.measure(app, load, rawName);
  } catch (e) {
    if (!launcher.serversAlive()) return { run: null, bad: { kind: 'redis-died' } };
    const reason = `run ${round}: ${(e as Error).message}`;
    return { run: null, bad: { kind: 'out', status: 'failed', reason, output: app.tail() } };
  }
  const run: RunRecord = {
    ...measured,
    ...extra(),
    round,
    pid: app.pid,
    launch_s: app.launchS,
    expected_bytes: app.bytes,
    after_check: 'ok',
  };
  return { run, bad: await launcher.check(app, run) };
}
