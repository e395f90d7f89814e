// --entries 339,3390,33900: how cost grows with the stream. One complete run per size
// (run/entries.ts); then CPU µs per request and req/s against entries, with a linear fit per
// contender, go to <run>/scaling.json (and scaling.md, scaling.png by report/scaling.ts).
import { linearRegression, linearRegressionLine, rSquared } from 'simple-statistics';
import type { LinearFit, Results, Scaling } from '../model/results';

/** Least squares through (x, y), and how much of y's variance it explains (R²). */
export function linearFit(points: [number, number][]): LinearFit | null {
  if (points.length < 2 || new Set(points.map(([x]) => x)).size < 2) return null;
  const line = linearRegression(points);
  return { slope: line.m, intercept: line.b, r2: rSquared(points, linearRegressionLine(line)) };
}

/** Per contender measured on every size: its medians, and the fit of CPU per request against entries. */
export function scalingOf(runs: { entries: number; dir: string; results: Results }[]): Scaling {
  const names = [
    ...new Set(runs.flatMap((r) => r.results.contenders.filter((c) => !c.self_check_of).map((c) => c.name))),
  ];
  const contenders = names.map((name) => {
    const points = runs.flatMap(({ entries, results }) => {
      const c = results.contenders.find((x) => x.name === name);
      const p = c?.status === 'ok' ? c.points[0] : undefined;
      return p?.rps && Number.isFinite(p.cpu_us_per_req)
        ? [{ entries, rps: p.rps.median, cpu_us_per_req: p.cpu_us_per_req! }]
        : [];
    });
    return { name, points, cpu_fit: linearFit(points.map((p) => [p.entries, p.cpu_us_per_req])) };
  });
  return { schema: 'scaling-1', runs: runs.map(({ entries, dir }) => ({ entries, dir })), contenders };
}
