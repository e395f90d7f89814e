// --workload live --write-rate 10,100,1000: one complete run per rate. What each contender served
// at each rate and each cache's gain over its uncached twin (answers/sweeps.ts) in one table and
// one chart, so where caching stops paying reads off them.
import type * as vl from 'vega-lite';
import type { WriteRatePoint } from '../answers/sweeps';

export function writeRateTable(points: WriteRatePoint[]): string {
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
