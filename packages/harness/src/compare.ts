// npm run compare -- A.json B.json: per contender in both, the change in median req/s, p50 and
// p99 latency, with a Mann-Whitney U test over the runs. "~" marks changes that are not
// significant at p < 0.05, as benchstat does.
import { median } from 'simple-statistics';
import { readResults, type ContenderResult, type Results } from './results';
import { mannWhitneyU } from './stats';

const ALPHA = 0.05;

interface Metric {
  label: string;
  values: (c: ContenderResult) => number[];
  digits: number;
}

/** The headline point's runs, without any a fault happened in. */
const cleanRuns = (c: ContenderResult) => (c.points[0]?.runs ?? []).filter((r) => !r.fault);

const METRICS: Metric[] = [
  { label: 'req/s', values: (c) => cleanRuns(c).map((r) => r.rps), digits: 0 },
  { label: 'p50 ms', values: (c) => cleanRuns(c).map((r) => r.latency_ms.p50), digits: 1 },
  { label: 'p99 ms', values: (c) => cleanRuns(c).map((r) => r.latency_ms.p99), digits: 1 },
];

export interface Row {
  name: string;
  cells: { a: number; b: number; delta: string; p: number }[];
}

export function compare(a: Results, b: Results): { rows: Row[]; onlyIn: string[] } {
  const inB = new Map(b.contenders.map((c) => [c.name, c]));
  const rows: Row[] = [];
  const onlyIn: string[] = [];
  for (const ca of a.contenders) {
    const cb = inB.get(ca.name);
    if (!cb || ca.status !== 'ok' || cb.status !== 'ok' || !cleanRuns(ca).length || !cleanRuns(cb).length) {
      onlyIn.push(ca.name);
      continue;
    }
    rows.push({
      name: ca.name,
      cells: METRICS.map((m) => {
        const xa = m.values(ca).filter(Number.isFinite);
        const xb = m.values(cb).filter(Number.isFinite);
        const ma = median(xa);
        const mb = median(xb);
        const { p } = mannWhitneyU(xa, xb);
        const pct = ((mb - ma) / ma) * 100;
        return { a: ma, b: mb, p, delta: p < ALPHA ? `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%` : '~' };
      }),
    });
  }
  for (const cb of b.contenders) if (!a.contenders.some((c) => c.name === cb.name)) onlyIn.push(cb.name);
  return { rows, onlyIn };
}

export function renderComparison({ rows, onlyIn }: ReturnType<typeof compare>): string {
  const head = ['contender', ...METRICS.flatMap((m) => [`${m.label} A`, `${m.label} B`, 'delta'])];
  const body = rows.map((r) => [
    r.name,
    ...r.cells.flatMap((c, i) => [c.a.toFixed(METRICS[i]!.digits), c.b.toFixed(METRICS[i]!.digits), `${c.delta} (p=${c.p.toFixed(3)})`]),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [line(head), ...body.map(line)];
  if (onlyIn.length) out.push('', `not compared (missing, not ok or without runs in one file): ${onlyIn.join(', ')}`);
  out.push('', `Mann-Whitney U over the runs; ~ = not significant at p < ${ALPHA}.`);
  return out.join('\n');
}

if (import.meta.main) {
  const files = process.argv.slice(2);
  if (files.length !== 2) {
    console.error('usage: npm run compare -- A/results.json B/results.json');
    process.exit(2);
  }
  try {
    console.log(renderComparison(compare(readResults(files[0]!), readResults(files[1]!))));
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(2);
  }
}
