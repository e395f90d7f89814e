// --workload live --write-rate 10,100,1000: one complete run per rate. What each contender served
// at each rate and each cache's gain over its uncached twin (answers/sweeps.ts) in one table and
// one chart, so where caching stops paying reads off them.
import type * as vl from 'vega-lite';
import type { WriteRatePoint } from '../answers/sweeps';
import { contenderLines } from './lines';

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
  return contenderLines({
    title: 'req/s against write rate, one line per contender (a gap in a line: invalid at that rate)',
    values: points.filter((p) => p.rps !== null),
    x: { field: 'rate', title: 'writes/s (log)', log: true },
    y: { field: 'rps', title: 'req/s (log)', log: true },
  });
}
