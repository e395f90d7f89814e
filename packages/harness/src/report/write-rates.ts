// --workload live --write-rate 10,100,1000: one complete run per rate, then what each contender
// served at each rate and each cache's gain over its uncached twin, so where caching stops paying
// (a gain of 2× or less, or the cache no longer exact) reads off one table and one chart.
import type * as vl from 'vega-lite';
import type { ContenderResult, Results } from '../model/results';

export interface WriteRatePoint {
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

export function writeRatePoints(runs: { rate: number; results: Results }[]): WriteRatePoint[] {
  return runs.flatMap(({ rate, results }) =>
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

export function writeRateTable(points: WriteRatePoint[]): string {
  const rates = [...new Set(points.map((p) => p.rate))];
  const names = [...new Set(points.map((p) => p.name))];
  const cell = (p: WriteRatePoint | undefined) =>
    !p ? '–' : p.rps === null ? p.status : `${p.rps.toFixed(0)}${p.gain !== null ? ` (${p.gain.toFixed(1)}×)` : ''}`;
  const rows = names.map(
    (n) => `| ${n} | ${rates.map((rate) => cell(points.find((p) => p.name === n && p.rate === rate))).join(' | ')} |`,
  );
  const head = `| contender | ${rates.map((r) => `${r} writes/s`).join(' | ')} |\n|---|${rates.map(() => '---:').join('|')}|`;
  return `**req/s against write rate** (median of each run's launches; in brackets, ÷ the uncached twin at the same rate; "invalid": the cache served a read over its staleness bound at that rate)\n\n${head}\n${rows.join('\n')}`;
}

export function writeRateSpec(points: WriteRatePoint[]): vl.TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'req/s against write rate, one line per contender (a gap in a line: invalid at that rate)',
    data: { values: points.filter((p) => p.rps !== null) },
    width: 560,
    height: 320,
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'rate', type: 'quantitative', title: 'writes/s (log)', scale: { type: 'log' } },
      y: { field: 'rps', type: 'quantitative', title: 'req/s (log)', scale: { type: 'log' } },
      color: {
        field: 'name',
        type: 'nominal',
        title: null,
        scale: { scheme: 'tableau20' },
        legend: { labelLimit: 320 },
      },
    },
  } as vl.TopLevelSpec;
}
