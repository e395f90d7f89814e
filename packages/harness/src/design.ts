// The design, from this run's own variance: Kalibera & Jones's components of the paired
// differences ln A − ln B that every answer rests on (decide.ts), between windows of one round
// and between rounds, pooled over the family's comparisons, and the number of windows per launch
// their rule picks at this run's costs. Every run records it, so the defaults (--windows,
// --duration, --warmup) can be checked against the machine they run on.
import { median } from 'simple-statistics';
import { pooledComponents } from './components';
import { windowPairs } from './decide';
import type { DesignRecord, Results } from './results';

/** Seconds one window costs (with the check and the new oha between windows), and a launch beyond its windows (start, checks, warmup, stop). */
function costsS(results: Results): { window: number; launch: number } {
  const runs = results.contenders.flatMap((c) => c.points.flatMap((p) => p.runs)).filter((r) => r.trial_s && (r.windows?.length ?? 0) > 1);
  if (!runs.length) return { window: NaN, launch: NaN };
  const span = (r: (typeof runs)[number]) => (r.windows!.at(-1)!.ended_at - r.windows![0]!.started_at) / 1000;
  const window = median(runs.map((r) => span(r) / r.windows!.length));
  return { window, launch: median(runs.map((r) => r.trial_s! - span(r))) };
}

export function designOf(results: Results): DesignRecord | null {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  const ok = (n: string) => byName.get(n)?.status === 'ok';
  const nested = (results.family?.comparisons ?? []).filter((c) => ok(c.a) && ok(c.b))
    .map((c) => windowPairs(byName.get(c.a), byName.get(c.b)).byRound.filter((d) => d.length >= 2))
    .filter((rounds) => rounds.length >= 2);
  if (!nested.length) return null;
  const comp = pooledComponents(nested);
  const cost = costsS(results);
  return {
    t2_window: comp.T2(1), t2_launch: comp.T2(2), warnings: comp.warnings,
    cost_window_s: +cost.window.toFixed(2), cost_launch_s: +cost.launch.toFixed(2),
    optimal_windows: Number.isFinite(cost.launch) ? comp.optimalReps(1, [cost.window, cost.launch]) : NaN,
    windows: results.settings.windows ?? 1,
    comparisons: nested.length,
  };
}
