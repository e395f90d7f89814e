// A sweep: one complete run per value of one flag (--entries, --redis-rtt a,b, or a workload's own flag, with the
// summary its module declares), each in <parent>/<value>/, then what the runs say together (answers/). The
// command line renders each run's report as it ends (`reported`; --entries: once the scaling is known) and
// the sweep's own at the end.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scalingOf } from '../answers/scaling';
import { distanceSweep, type DistanceSweep } from '../answers/sweeps';
import type { SweepSummary } from '../measure/workload';
import type { Contender, Unsupported } from '../model/contenders';
import type { Results, Scaling } from '../model/results';
import { readResults, resultsFile, writeJsonAtomic, writeResults } from '../model/results-file';
import { rttLabel } from '../model/servers';
import { UsageError } from '../system/flag-values';
import { endProgress, info } from '../system/progress';
import { runBench } from './bench';
import { rdbFor } from './entries';
import type { CliOptions } from './options';
import { runDirOf, stopAll, type Session } from './state';

/** What a sweep measured, by kind: the figures its summary renders. */
export type SweepOutcome = { parent: string; code: number } & (
  | { kind: 'entries'; scaling: Scaling; dirs: string[] }
  | { kind: 'own'; dirs: string[]; summary: { of: SweepSummary; points: object[] } | null }
  | { kind: 'redis-rtt'; distance: DistanceSweep }
);

type Step = { dir: string; say: string; opts: Partial<CliOptions> };

/** The sweep the options ask for, or null: one run. */
export function sweepOf(
  opts: CliOptions,
): { kind: SweepKind; values: number[]; step: (v: number) => Step; summary?: SweepSummary | null } | null {
  if (opts.entries) return { kind: 'entries', values: opts.entries, step: STEPS.entries };
  const own = opts.own.sweep;
  if (own) {
    const step = (v: number): Step => {
      const { dir, say, settings } = own.step(v);
      return { dir, say, opts: { own: { settings, sweep: null } } };
    };
    return { kind: 'own', values: own.values, step, summary: own.summary };
  }
  if (opts.redisRtts.length > 1) return { kind: 'redis-rtt', values: opts.redisRtts, step: STEPS['redis-rtt'] };
  return null;
}

type SweepKind = SweepOutcome['kind'];

const STEPS: Record<'entries' | 'redis-rtt', (v: number) => Step> = {
  entries: (n) => ({ dir: `entries-${n}`, say: `--entries: the run on ${n} entries`, opts: { rdb: rdbFor(n) } }),
  'redis-rtt': (rttMs) => ({
    dir: `rtt-${rttLabel(rttMs)}`,
    say: `--redis-rtt: the run at RTT ${rttLabel(rttMs)}`,
    opts: { redisRttMs: rttMs, redisRtts: [rttMs] },
  }),
};

/** What a sweep's folder holds to be resumed or reported again (sweep.json): its command line, its points' folders. */
export interface SweepRecord {
  /** The flags it was started with, as given (`--out` included): parsed again, they make the same sweep. */
  argv: string[];
  kind: SweepKind;
  values: number[];
  dirs: string[];
  started_at: string;
}

export const SWEEP_FILE = 'sweep.json';

/** The sweep a folder holds (its sweep.json), or null: a folder of one run, or none. */
export function readSweep(parent: string): SweepRecord | null {
  const file = join(parent, SWEEP_FILE);
  if (!existsSync(file)) return null;
  const unreadable = (why: string) =>
    new UsageError(
      `${file} cannot be read as a sweep's record (${why}); restore it from a copy, or start the sweep again`,
    );
  let record: SweepRecord;
  try {
    record = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw unreadable((e as Error).message);
  }
  if (![record?.argv, record?.values, record?.dirs].every(Array.isArray)) throw unreadable('no argv, values or dirs');
  return record;
}

/** A point's folder: its complete run's results, a run to resume (it saved partial results), or nothing yet. */
function pointOf(dir: string): { done: Results } | { partial: true } | null {
  if (!existsSync(resultsFile(dir))) return null;
  const results = readResults(resultsFile(dir));
  return results.complete ? { done: results } : { partial: true };
}

/**
 * Every value's complete run, one after the other; `reported(dir)` renders each run's report as it ends. A sweep
 * resumed (`opts.sweepDir`) keeps the points that are complete, resumes the one that stopped and runs the rest.
 */
export async function runSweep(
  opts: CliOptions,
  contenders: Contender[],
  unsupported: Unsupported[],
  session: Session,
  reported: (runDir: string) => Promise<void>,
  argv: string[],
): Promise<SweepOutcome> {
  const sweep = sweepOf(opts)!;
  const parent = opts.sweepDir ?? runDirOf({ out: opts.out });
  session.sweep = parent;
  if (!opts.sweepDir) {
    const dirs = sweep.values.map((v) => sweep.step(v).dir);
    const record: SweepRecord = {
      argv,
      kind: sweep.kind,
      values: sweep.values,
      dirs,
      started_at: new Date().toISOString(),
    };
    writeJsonAtomic(join(parent, SWEEP_FILE), record);
  }
  const runs: { value: number; dir: string; results: Results }[] = [];
  let code = 0;
  for (const value of sweep.values) {
    const { dir, say, opts: change } = sweep.step(value);
    const point = pointOf(join(parent, dir));
    if (point && 'done' in point) {
      info(`${say}: complete, kept`);
      runs.push({ value, dir, results: point.done });
      // Its exit code as it was (run/finish.ts): 0 when every contender was ok.
      code = Math.max(code, point.done.contenders.every((r) => r.status === 'ok') ? 0 : 1);
      continue;
    }
    info(point ? `${say}: resumed` : say);
    const resume = point ? join(parent, dir) : null;
    const at = { ...opts, ...change, out: parent, runName: dir, resume };
    const run = await runBench(at, contenders, unsupported, session);
    code = Math.max(code, run.code);
    // --entries: each size's report waits for the scaling, which its results.json then carries (one analysis a run).
    if (sweep.kind !== 'entries') await reported(run.runDir);
    runs.push({ value, dir, results: run.results });
    await stopAll(session);
    session.results = session.runDir = null;
  }
  endProgress();
  session.sweep = null;
  return sweepOutcome(sweep, parent, runs, code);
}

/** A sweep's folder, every point complete: its outcome, to render its summary again (npm run report). */
export function sweepInFolder(opts: CliOptions, parent: string): SweepOutcome {
  const sweep = sweepOf(opts)!;
  const runs = sweep.values.map((value) => {
    const { dir } = sweep.step(value);
    const point = pointOf(join(parent, dir));
    if (!point || !('done' in point))
      throw new Error(
        `${parent} is a sweep whose run ${dir}/ is not complete: finish it with npm run bench -- --resume ${parent}`,
      );
    return { value, dir, results: point.done };
  });
  return sweepOutcome(sweep, parent, runs, 0);
}

/** What the sweep's runs say together: the scaling, the distance, or the workload's own summary. */
function sweepOutcome(
  sweep: NonNullable<ReturnType<typeof sweepOf>>,
  parent: string,
  runs: { value: number; dir: string; results: Results }[],
  code: number,
): SweepOutcome {
  if (sweep.kind === 'entries') {
    const scaling = scalingOf(runs.map((r) => ({ entries: r.value, dir: r.dir, results: r.results })));
    writeJsonAtomic(join(parent, 'scaling.json'), scaling);
    // Each size's results.json carries the whole analysis too, so its report shows it.
    for (const run of runs) writeResults(join(parent, run.dir), { ...run.results, scaling });
    return { kind: 'entries', parent, code, scaling, dirs: runs.map((r) => join(parent, r.dir)) };
  }
  if (sweep.kind === 'redis-rtt')
    return { kind: sweep.kind, parent, code, distance: distanceSweep(runs.map((r) => ({ ...r, rttMs: r.value }))) };
  const summary = sweep.summary ? { of: sweep.summary, points: sweep.summary.points(runs) } : null;
  return { kind: 'own', parent, code, dirs: runs.map((r) => r.dir), summary };
}
