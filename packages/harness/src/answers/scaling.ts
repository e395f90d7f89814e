// --entries 339,3390,33900: how cost grows with the stream. The same contenders run on streams
// of each size (deterministic RDBs from npm run make-rdb, cached), one complete run per size in
// <run>/entries-<n>/; then CPU µs per request and req/s against entries, with a linear fit per
// contender, go to <run>/scaling.json (and scaling.md, scaling.png by the report).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { linearRegression, linearRegressionLine, rSquared } from 'simple-statistics';
import { ROOT } from '../system/paths';
import type { Results } from '../model/results';
import { type LinearFit, type Scaling } from '../model/results';

/** Least squares through (x, y), and how much of y's variance it explains (R²). */
export function linearFit(points: [number, number][]): LinearFit | null {
  if (points.length < 2 || new Set(points.map(([x]) => x)).size < 2) return null;
  const line = linearRegression(points);
  return { slope: line.m, intercept: line.b, r2: rSquared(points, linearRegressionLine(line)) };
}

/** A stream of `entries` entries, generated once by scripts/make-rdb.ts (seeded: the same bytes every time). */
export function rdbFor(entries: number): string {
  const dir = join(ROOT, 'node_modules/.cache/stream-bench/rdb');
  const file = join(dir, `stream-${entries}.rdb`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const made = spawnSync('bun', [join(ROOT, 'scripts/make-rdb.ts'), '--entries', String(entries), '--out', tmp], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  if (made.status !== 0) throw new Error(`npm run make-rdb -- --entries ${entries} failed: ${(made.stderr || made.stdout).trim().split('\n').at(-1)}`);
  renameSync(tmp, file);
  return file;
}

/** Per contender measured on every size: its medians, and the fit of CPU per request against entries. */
export function scalingOf(runs: { entries: number; dir: string; results: Results }[]): Scaling {
  const names = [...new Set(runs.flatMap((r) => r.results.contenders.filter((c) => !c.self_check_of).map((c) => c.name)))];
  const contenders = names.map((name) => {
    const points = runs.flatMap(({ entries, results }) => {
      const c = results.contenders.find((x) => x.name === name);
      const p = c?.status === 'ok' ? c.points[0] : undefined;
      return p?.rps && Number.isFinite(p.cpu_us_per_req) ? [{ entries, rps: p.rps.median, cpu_us_per_req: p.cpu_us_per_req! }] : [];
    });
    return { name, points, cpu_fit: linearFit(points.map((p) => [p.entries, p.cpu_us_per_req])) };
  });
  return { schema: 'scaling-1', runs: runs.map(({ entries, dir }) => ({ entries, dir })), contenders };
}

const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

/** One row per contender: its medians on each size, and the fit of CPU per request against entries. */
export function scalingTable(s: Scaling): string {
  const sizes = s.runs.map((r) => r.entries);
  const head = `| contender | ${sizes.map((n) => `${n} entries: req/s, CPU µs/req`).join(' | ')} | µs per entry | intercept µs | R² |\n|---|${sizes.map(() => '---:').join('|')}|---:|---:|---:|`;
  const rows = s.contenders.map((c) => {
    const cells = sizes.map((n) => {
      const p = c.points.find((x) => x.entries === n);
      return p ? `${fmt(p.rps)}, ${fmt(p.cpu_us_per_req)}` : '–';
    });
    const f = c.cpu_fit;
    return `| ${c.name} | ${cells.join(' | ')} | ${f ? fmt(f.slope, 2) : '–'} | ${f ? fmt(f.intercept) : '–'} | ${f ? fmt(f.r2, 3) : '–'} |`;
  });
  return `**Cost against the stream's size** (medians of each size's run; CPU µs per request = intercept + µs per entry × entries, least squares)\n\n${[head, ...rows].join('\n')}\n`;
}

/** CPU µs per request against entries, one line per contender. */
export function scalingSpec(s: Scaling): object {
  const values = s.contenders.flatMap((c) => c.points.map((p) => ({ name: c.name, entries: p.entries, cpu: p.cpu_us_per_req })));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'CPU per request against the number of stream entries', anchor: 'start' },
    width: 560,
    height: 320,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'entries', type: 'quantitative', scale: { type: 'log' }, title: 'stream entries (log scale)' },
      y: { field: 'cpu', type: 'quantitative', scale: { type: 'log' }, title: 'app CPU µs per request (log scale)' },
      color: { field: 'name', type: 'nominal', title: null, legend: { orient: 'bottom', columns: 2, labelLimit: 400 } },
    },
    config: { font: 'DejaVu Sans', view: { stroke: null } },
  };
}
