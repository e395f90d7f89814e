// A sweep: one complete run per value of one flag (--entries, --redis-rtt a,b, or a workload's own flag, with the
// summary its module declares), each in <parent>/<value>/, then what the runs say together (answers/). The
// command line renders each run's report as it ends (`reported`; --entries: once the scaling is known) and
// the sweep's own at the end.
import { join } from 'node:path';
import { scalingOf } from '../answers/scaling';
import { distanceSweep, type DistanceSweep } from '../answers/sweeps';
import type { SweepSummary } from '../measure/workload';
import type { Contender, Unsupported } from '../model/contenders';
import type { Results, Scaling } from '../model/results';
import { writeJsonAtomic, writeResults } from '../model/results-file';
import { rttLabel } from '../model/servers';
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

/** Every value's complete run, one after the other; `reported(dir)` renders each run's report as it ends. */
export async function runSweep(
  opts: CliOptions,
  contenders: Contender[],
  unsupported: Unsupported[],
  session: Session,
  reported: (runDir: string) => Promise<void>,
): Promise<SweepOutcome> {
  const sweep = sweepOf(opts)!;
  const parent = runDirOf({ out: opts.out });
  session.sweep = parent;
  const runs: { value: number; dir: string; results: Results }[] = [];
  let code = 0;
  for (const value of sweep.values) {
    const { dir, say, opts: change } = sweep.step(value);
    info(say);
    const run = await runBench({ ...opts, ...change, out: parent, runName: dir }, contenders, unsupported, session);
    code = Math.max(code, run.code);
    // --entries: each size's report waits for the scaling, which its results.json then carries (one analysis a run).
    if (sweep.kind !== 'entries') await reported(run.runDir);
    runs.push({ value, dir, results: run.results });
    await stopAll(session);
    session.results = session.runDir = null;
  }
  endProgress();
  session.sweep = null;
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
