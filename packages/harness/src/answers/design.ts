// The design, from this run's own variance: Kalibera & Jones's components of the paired
// differences ln A − ln B that every answer rests on (decide.ts), between windows of one round
// and between rounds, pooled over the family's comparisons, and the number of windows per launch
// their rule picks at this run's costs. Every run records it, so the defaults (--windows,
// --duration, --warmup) can be checked against the machine they run on.
import { median } from 'simple-statistics';
import { pooledComponents } from '../stats/components';
import { windowPairs } from './decide';
import { additiveFit, mean } from '../stats/stats';
import type { ContenderResult, DesignRecord, Results } from '../model/results';
import type { Comparison } from '../model/questions';

/**
 * Seconds one window costs, and one launch beyond its windows (start, checks, warmup, stop: its share of the trial or
 * block).
 */
/** The comparisons whose window pairs show the design: the family's and the changes'. */
const comparisonsOf = (results: Results): Comparison[] => [
  ...(results.family?.comparisons ?? []),
  ...(results.changes?.comparisons ?? []),
];

function costsS(results: Results): { window: number; launch: number } {
  const runs = results.contenders
    .flatMap((c) => c.points.flatMap((p) => p.runs))
    .filter((r) => r.trial_s && (r.windows?.length ?? 0) > 0);
  if (!runs.length) return { window: NaN, launch: NaN };
  const window = median(runs.flatMap((r) => r.windows!.map((w) => (w.ended_at - w.started_at) / 1000)));
  return { window, launch: median(runs.map((r) => r.trial_s! - r.windows!.length * window)) };
}

/** Is the warmup long enough? Mean over launches of ln(first window) − mean ln(the others): near 0 when it is. */
function firstWindowBias(results: Results): number {
  const launches = results.contenders
    .filter((c) => c.status === 'ok' && !c.ceiling)
    .flatMap((c) => c.points[0]!.runs)
    .filter((r) => !r.fault && (r.windows?.length ?? 0) > 1)
    .map((r) => r.windows!.map((w) => Math.log(w.rps)));
  const bias = launches
    .map((l) => l[0]! - l.slice(1).reduce((s, x) => s + x, 0) / (l.length - 1))
    .filter(Number.isFinite);
  return bias.length ? bias.reduce((s, x) => s + x, 0) / bias.length : NaN;
}

/** What keeping a question's contenders close in time buys: launches this close share more noise. */
export const NEAR_S = 30;

/**
 * Variance of the difference of two launches' residuals (ln req/s less their contender's and their
 * round's means), for launches of one round under NEAR_S apart and further apart. Blocks pay off
 * when the near variance is the smaller: a ratio's interval narrows with it.
 */
function gapVariance(results: Results): DesignRecord['by_gap'] {
  const launches = results.contenders
    .filter((c) => c.status === 'ok' && !c.ceiling && !c.static && !c.self_check_of)
    .flatMap((c) =>
      c.points[0]!.runs.filter((r) => !r.fault && r.windows?.length).map((r) => ({
        c: c.name,
        round: r.round,
        t: r.started_at / 1000,
        x: mean(r.windows!.map((w) => Math.log(w.rps))),
      })),
    );
  const { level, effect } = additiveFit(launches.map((l) => ({ unit: l.c, block: l.round, x: l.x })));
  const resid = launches.map((l) => ({ ...l, e: l.x - level.get(l.c)! - effect.get(l.round)! }));
  const near: number[] = [];
  const far: number[] = [];
  for (const [i, a] of resid.entries())
    for (const b of resid.slice(i + 1))
      if (a.round === b.round) (Math.abs(a.t - b.t) < NEAR_S ? near : far).push((a.e - b.e) ** 2);
  return {
    near_s: NEAR_S,
    near: near.length ? mean(near) : NaN,
    far: far.length ? mean(far) : NaN,
    pairs_near: near.length,
    pairs_far: far.length,
  };
}

/** Each launch's windows as (place in the round's order, ln req/s less the launch's mean), by round. */
function centredWindows(c: ContenderResult | undefined): Map<number, { seq: number; x: number }[]> {
  const out = new Map<number, { seq: number; x: number }[]>();
  for (const run of c?.points[0]?.runs ?? []) {
    const ws = (run.windows ?? []).filter((w) => w.seq !== undefined && w.rps > 0);
    if (run.fault || ws.length < 2) continue;
    const m = mean(ws.map((w) => Math.log(w.rps)));
    out.set(
      run.round,
      ws.map((w) => ({ seq: w.seq!, x: Math.log(w.rps) - m })),
    );
  }
  return out;
}

/**
 * What the walk buys (--layout walk): over the family's comparisons, the variance of (x_a − x_b)
 * for every window of A and every window of B of one round, by how far apart they were measured.
 */
function byDistance(results: Results, comparisons: Comparison[]): DesignRecord['by_distance'] {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  const buckets: number[][] = [[], [], []];
  for (const cmp of comparisons) {
    const [wa, wb] = [centredWindows(byName.get(cmp.a)), centredWindows(byName.get(cmp.b))];
    for (const [round, xs] of wa)
      for (const a of xs)
        for (const b of wb.get(round) ?? []) {
          const gap = Math.abs(a.seq - b.seq);
          buckets[gap === 1 ? 0 : gap <= 15 ? 1 : 2]!.push((a.x - b.x) ** 2);
        }
  }
  if (!buckets[0]!.length) return undefined;
  const v = (xs: number[]) => (xs.length ? +mean(xs).toFixed(5) : NaN);
  return {
    adjacent: v(buckets[0]!),
    near: v(buckets[1]!),
    far: v(buckets[2]!),
    pairs: [buckets[0]!.length, buckets[1]!.length, buckets[2]!.length],
  };
}

export function designOf(results: Results): DesignRecord | null {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  const ok = (n: string) => byName.get(n)?.status === 'ok';
  const nested = comparisonsOf(results)
    .filter((c) => ok(c.a) && ok(c.b))
    .map((c) => windowPairs(byName.get(c.a), byName.get(c.b)).byRound.filter((d) => d.length >= 2))
    .filter((rounds) => rounds.length >= 2);
  if (!nested.length) return null;
  const comp = pooledComponents(nested);
  const cost = costsS(results);
  return {
    t2_window: comp.T2(1),
    t2_launch: comp.T2(2),
    warnings: comp.warnings,
    cost_window_s: +cost.window.toFixed(2),
    cost_launch_s: +cost.launch.toFixed(2),
    optimal_windows: Number.isFinite(cost.launch) ? comp.optimalReps(1, [cost.window, cost.launch]) : NaN,
    windows: results.settings.windows ?? 1,
    comparisons: nested.length,
    first_window_bias: +firstWindowBias(results).toFixed(4),
    by_gap: gapVariance(results),
    ...(results.settings.layout === 'walk'
      ? {
          by_distance: byDistance(
            results,
            comparisonsOf(results).filter((c) => ok(c.a) && ok(c.b)),
          ),
        }
      : {}),
  };
}
