// --workload live --write-rate 10,100,1000: one complete run per rate, summed up beside them (run/sweep.ts): what each
// contender served at each rate and each cache's gain over its uncached twin, in one table and one chart, so where
// caching stops paying reads off them.
import type { ContenderResult, Results } from '../../model/results';
import type { LinesChart, SweepSummary } from '../../measure/workload';

interface WriteRatePoint {
  rate: number;
  name: string;
  cache: string;
  status: string;
  rps: number | null;
  /** req/s ÷ the uncached twin's at the same rate (null for the twin itself, or when either is out). */
  gain: number | null;
}

const twinOf = (r: Results, c: ContenderResult) =>
  r.contenders.find(
    (x) =>
      x.runtime === c.runtime &&
      x.framework === c.framework &&
      x.client === c.client &&
      (x.settings?.cache ?? 'none') === 'none' &&
      !x.self_check_of,
  );

/** Where caching stops paying: a gain of 2× or less, or the cache no longer exact (invalid at that rate). */
function writeRatePoints(runs: { value: number; results: Results }[]): WriteRatePoint[] {
  return runs.flatMap(({ value: rate, results }) =>
    results.contenders
      .filter((c) => !c.self_check_of)
      .map((c) => {
        const cache = c.settings?.cache ?? 'none';
        const rps = c.status === 'ok' ? (c.rps?.median ?? null) : null;
        const twin = cache === 'none' ? null : twinOf(results, c);
        const base = twin?.status === 'ok' ? twin.rps?.median : undefined;
        return { rate, name: c.name, cache, status: c.status, rps, gain: rps !== null && base ? rps / base : null };
      }),
  );
}

function writeRateTable(points: WriteRatePoint[]): string {
  const rates = [...new Set(points.map((p) => p.rate))];
  const names = [...new Set(points.map((p) => p.name))];
  const cell = (p: WriteRatePoint | undefined) =>
    !p ? '–' : p.rps === null ? p.status : `${p.rps.toFixed(0)}${p.gain !== null ? ` (${p.gain.toFixed(1)}×)` : ''}`;
  const rows = names.map(
    (n) => `| ${n} | ${rates.map((rate) => cell(points.find((p) => p.name === n && p.rate === rate))).join(' | ')} |`,
  );
  const columns = rates.map((r) => `${r} writes/s`);
  const head = `| contender | ${columns.join(' | ')} |\n|---|${rates.map(() => '---:').join('|')}|`;
  return (
    "**req/s against write rate** (median of each run's launches; " +
    'in brackets, ÷ the uncached twin at the same rate; ' +
    `"invalid": the cache served a read over its staleness bound at that rate)\n\n${head}\n${rows.join('\n')}`
  );
}

function writeRateChart(points: WriteRatePoint[]): LinesChart {
  return {
    title: 'req/s against write rate, one line per contender (a gap in a line: invalid at that rate)',
    values: points.filter((p) => p.rps !== null),
    x: { field: 'rate', title: 'writes/s (log)', log: true },
    y: { field: 'rps', title: 'req/s (log)', log: true },
  };
}

export const WRITE_RATES: SweepSummary = {
  file: 'write-rates',
  points: writeRatePoints,
  table: (points) => writeRateTable(points as WriteRatePoint[]),
  chart: (points) => writeRateChart(points as WriteRatePoint[]),
};
