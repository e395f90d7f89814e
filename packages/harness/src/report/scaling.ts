// --entries: the scaling run's table and chart, from its scaling.json (answers/scaling.ts).
import type { Scaling } from '../model/results';
import { contenderLines } from './lines';

const fmt = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

/** One row per contender: its medians on each size, and the fit of CPU per request against entries. */
export function scalingTable(s: Scaling): string {
  const sizes = s.runs.map((r) => r.entries);
  const columns = sizes.map((n) => `${n} entries: req/s, CPU µs/req`);
  const head =
    `| contender | ${columns.join(' | ')} | µs per entry | intercept µs | R² |\n` +
    `|---|${sizes.map(() => '---:').join('|')}|---:|---:|---:|`;
  const rows = s.contenders.map((c) => {
    const cells = sizes.map((n) => {
      const p = c.points.find((x) => x.entries === n);
      return p ? `${fmt(p.rps)}, ${fmt(p.cpu_us_per_req)}` : '–';
    });
    const f = c.cpu_fit;
    const fit = f ? [fmt(f.slope, 2), fmt(f.intercept), fmt(f.r2, 3)] : ['–', '–', '–'];
    return `| ${c.name} | ${cells.join(' | ')} | ${fit.join(' | ')} |`;
  });
  return (
    "**Cost against the stream's size** (medians of each size's run; " +
    `CPU µs per request = intercept + µs per entry × entries, least squares)\n\n${[head, ...rows].join('\n')}\n`
  );
}

/** CPU µs per request against entries, one line per contender. */
export function scalingSpec(s: Scaling): object {
  const values = s.contenders.flatMap((c) =>
    c.points.map((p) => ({ name: c.name, entries: p.entries, cpu: p.cpu_us_per_req })),
  );
  return contenderLines({
    title: 'CPU per request against the number of stream entries',
    values,
    x: { field: 'entries', title: 'stream entries (log scale)', log: true },
    y: { field: 'cpu', title: 'app CPU µs per request (log scale)', log: true },
    legend: 'bottom',
  });
}
