// npm run compare -- A B [--absolute] [--html]: per contender in both runs, the change of its relative
// index (each run's req/s ÷ the geometric mean of the dynamic contenders both runs share), a
// Mann-Whitney U test over the runs and Holm's correction across every test. The machine's
// common drift between A and B is reported on its own line, not as a change of every contender.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { median } from 'simple-statistics';
import { comparisonHtml } from './report/compare-page';
import { ranked } from './report/table';
import { readResults, type ContenderResult, type Results } from './results';
import { keptRuns } from './verdicts';
import { geometricMean, holm, mannWhitneyU, smallestMannWhitneyP } from './stats';

const ALPHA = 0.05;

export class CompareRefused extends Error {}

/** What must match for two runs to be compared: the machine, the software and the data. */
export function setupDifferences(a: Results, b: Results): string[] {
  const ea = a.environment;
  const eb = b.environment;
  const checks: [string, unknown, unknown][] = [
    ['CPU model', ea.cpu_model, eb.cpu_model],
    ['CPU count', ea.logical_cpus, eb.logical_cpus],
    ['Node', ea.node, eb.node],
    ['Bun', ea.bun, eb.bun],
    // Older results have no runtimes record: nothing to compare there.
    ...(ea.runtimes && eb.runtimes ? (['node20', 'deno'] as const).map((rt): [string, unknown, unknown] => [rt, ea.runtimes[rt], eb.runtimes[rt]]) : []),
    ['Redis', ea.redis_server.split(' sha=')[0], eb.redis_server.split(' sha=')[0]],
    ['oha', ea.oha, eb.oha],
    ['workload', a.settings.workload, b.settings.workload],
    ['stream entries', a.data.entries, b.data.entries],
    ['body bytes', a.data.body_bytes, b.data.body_bytes],
  ];
  const out = checks.filter(([, x, y]) => JSON.stringify(x) !== JSON.stringify(y)).map(([what, x, y]) => `${what}: ${JSON.stringify(x)} in A, ${JSON.stringify(y)} in B`);
  for (const app of Object.keys(ea.packages ?? {})) {
    for (const [pkg, v] of Object.entries(ea.packages[app] ?? {})) {
      const w = eb.packages?.[app]?.[pkg];
      if (w !== undefined && w !== v) out.push(`${pkg} in apps/${app}: ${v} in A, ${w} in B`);
    }
  }
  return out;
}

export interface Row {
  name: string;
  medianA: number;
  medianB: number;
  /** Medians of the compared values: relative indices, or req/s with --absolute. */
  a: number;
  b: number;
  change: number;
  p: number;
  pHolm: number;
  flagged: boolean;
}

export interface Comparison {
  mode: 'relative' | 'absolute';
  rows: Row[];
  notCompared: string[];
  /** B's reference ÷ A's: how much faster B's machine ran the shared dynamic contenders overall. */
  commonShift: number;
  shared: number;
  /** Set when no difference could reach significance at these run counts. */
  tooFewRuns: string | null;
  rankChanges: string[];
}

const usable = (c: ContenderResult | undefined) => c && c.status === 'ok' && !c.self_check_of && keptRuns(c.points[0]!).length > 0;
const runsOf = (c: ContenderResult) => keptRuns(c.points[0]!).map((r) => r.rps);

export function compare(a: Results, b: Results, mode: 'relative' | 'absolute' = 'relative'): Comparison {
  const diffs = setupDifferences(a, b);
  if (diffs.length) throw new CompareRefused(`A and B were not measured on the same machine, software and data, so their figures do not compare: ${diffs.join('; ')}`);
  const inB = new Map(b.contenders.map((c) => [c.name, c]));
  const both = a.contenders.filter((c) => usable(c) && usable(inB.get(c.name)));
  const notCompared = [...a.contenders, ...b.contenders].filter((c) => !c.self_check_of && !both.some((x) => x.name === c.name)).map((c) => c.name);
  const dynamic = both.filter((c) => !c.static && !c.ceiling);
  const ref = (r: Results) => (dynamic.length ? geometricMean(dynamic.map((c) => median(runsOf(r.contenders.find((x) => x.name === c.name)!)))) : 1);
  const refA = ref(a);
  const refB = ref(b);
  const scaleA = mode === 'relative' ? refA : 1;
  const scaleB = mode === 'relative' ? refB : 1;

  const tests = both.map((ca) => {
    const xa = runsOf(ca).map((x) => x / scaleA);
    const xb = runsOf(inB.get(ca.name)!).map((x) => x / scaleB);
    return { ca, xa, xb, p: mannWhitneyU(xa, xb).p };
  });
  const adjusted = holm(tests.map((t) => t.p));
  const rows = tests.map(({ ca, xa, xb, p }, i): Row => {
    const [ma, mb] = [median(xa), median(xb)];
    return { name: ca.name, medianA: median(runsOf(ca)), medianB: median(runsOf(inB.get(ca.name)!)), a: ma, b: mb, change: mb / ma - 1, p, pHolm: adjusted[i]!, flagged: adjusted[i]! < ALPHA };
  });

  // Holm's first step needs p < alpha / m: say so when even the most extreme data cannot get there.
  const best = Math.min(...tests.map((t) => smallestMannWhitneyP(t.xa.length, t.xb.length)));
  const tooFewRuns = tests.length && best * tests.length >= ALPHA
    ? `with these run counts the smallest possible p is ${best.toFixed(3)}, and ${tests.length} tests need p < ${(ALPHA / tests.length).toFixed(4)}: no difference can be significant; measure more runs`
    : null;

  const rankOf = (r: Results) => new Map(ranked(r).map((c) => [c.name, c.rank]));
  const [ra, rb] = [rankOf(a), rankOf(b)];
  const rankChanges = both.filter((c) => ra.get(c.name) !== rb.get(c.name)).map((c) => `${c.name} ${ra.get(c.name)} → ${rb.get(c.name)}`);
  return { mode, rows, notCompared, commonShift: refB / refA, shared: dynamic.length, tooFewRuns, rankChanges };
}

const signed = (x: number, digits = 1) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)}%`;

export function renderComparison(c: Comparison): string {
  const what = c.mode === 'relative' ? 'index' : 'req/s';
  const digits = c.mode === 'relative' ? 3 : 0;
  const head = ['contender', 'req/s A', 'req/s B', `${what} A`, `${what} B`, 'change', 'p (Holm)', ''];
  const body = c.rows.map((r) => [r.name, r.medianA.toFixed(0), r.medianB.toFixed(0), r.a.toFixed(digits), r.b.toFixed(digits), signed(r.change), r.pHolm.toFixed(3), r.flagged ? 'changed' : '~']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ').trimEnd();
  const shift = c.commonShift - 1;
  const changes = c.rows.map((r) => Math.abs(r.change));
  const out = [
    `Common-mode shift: B's machine was ${Math.abs(shift * 100).toFixed(1)}% ${shift >= 0 ? 'faster' : 'slower'} overall (geometric mean of the ${c.shared} dynamic contenders both runs share).`,
    '',
    line(head),
    ...body.map(line),
    '',
    changes.length ? `|change| of the ${what}: median ${(median(changes) * 100).toFixed(1)}%, max ${(Math.max(...changes) * 100).toFixed(1)}%; ${c.rows.filter((r) => r.flagged).length} of ${c.rows.length} flagged as changed.` : 'No contender is in both runs.',
    `Rank groups: ${c.rankChanges.length ? `changed for ${c.rankChanges.join(', ')}` : 'the same in both runs'}.`,
  ];
  if (c.tooFewRuns) out.push(`Too few runs: ${c.tooFewRuns}.`);
  if (c.notCompared.length) out.push(`Not compared (missing, not ok or without runs in one of the two): ${[...new Set(c.notCompared)].join(', ')}.`);
  out.push(
    `Mann-Whitney U over the runs${c.mode === 'relative' ? ' of the relative index (each run ÷ its own run\'s reference)' : ' of req/s (--absolute)'}, Holm-corrected across all ${c.rows.length} tests; ~ = not significant at ${ALPHA}.`,
  );
  return out.join('\n');
}

/** A results.json, or a directory holding one. */
const resultsPath = (p: string) => (existsSync(p) && statSync(p).isDirectory() ? join(p, 'results.json') : p);

/** --html: the page goes beside B's results.json, named after A's run. */
function writePage(c: Comparison, fileA: string, fileB: string): string {
  const label = (f: string) => basename(dirname(resolve(f)));
  const out = join(dirname(resolve(fileB)), `compare-${label(fileA)}.html`);
  writeFileSync(out, comparisonHtml(c, { label: label(fileA), results: readResults(fileA) }, { label: label(fileB), results: readResults(fileB) }));
  return out;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const files = args.filter((x) => !x.startsWith('--'));
  const flags = args.filter((x) => x.startsWith('--'));
  if (files.length !== 2 || flags.some((f) => f !== '--absolute' && f !== '--html')) {
    console.error('usage: npm run compare -- A B [--absolute] [--html]   (A, B: results directories or results.json files)');
    process.exit(2);
  }
  try {
    const mode = flags.includes('--absolute') ? 'absolute' : 'relative';
    const [fileA, fileB] = files.map(resultsPath) as [string, string];
    const comparison = compare(readResults(fileA), readResults(fileB), mode);
    console.log(renderComparison(comparison));
    if (flags.includes('--html')) console.log(`comparison page: ${writePage(comparison, fileA, fileB)}`);
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(2);
  }
}
