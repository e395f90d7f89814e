// Where the answers hold: each answer this run decided, in the other kept runs (answers/held.ts) of other days and
// machines. Answers are per machine: a decided answer says what this machine did, and this table what the others
// did with the same comparison. On a pooled page the rows stay this run's own answers, and the title says so.
import type { Analysis } from '../answers/analysis';
import type { HeldUp } from '../answers/held';
import { HELD, type Held, machineKeys, machineKind, placementOf } from '../model/kept';
import { autoPlacement } from '../system/placement';
import { publishedAt } from './picks';

const fmt = (x: number) => x.toFixed(2);
/** 'not asked' is kept so in results.json; a reader sees what it means. */
const word = (h: Held) => (h === 'not asked' ? 'not measured there' : h);
/** A run's placement where it is not the one a default run takes on its machine. */
const apart = (r: HeldUp['runs'][number]) => placementOf(r) !== autoPlacement(r.host?.logical_cpus ?? 0);
/** A run in a sentence: its start, commit, kind of machine and placement when not the default. */
const shortLabel = (r: HeldUp['runs'][number]) =>
  `the run of ${r.started_at.slice(0, 16).replace('T', ' ')} (${r.commit.slice(0, 7)}, ${machineKind(r.machine)}` +
  `${apart(r) ? `, placement ${placementOf(r)}` : ''})`;
/** "4 same, 5 open, 2 reversed": each outcome counted; `reversed`, the runs that reversed it, named after its count. */
const countsText = (c: Record<Held, number>, reversed: string[] = []) =>
  HELD.filter((h) => c[h])
    .map((h) => `${c[h]} ${word(h)}${h === 'reversed' && reversed.length ? ` (${reversed.join(', ')})` : ''}`)
    .join(', ');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The other runs by machine (its hardware: machineKeys) and placement, a column each: its runs' indexes. */
function byMachine(runs: HeldUp['runs']): { label: string; at: number[] }[] {
  const keyOf = machineKeys(runs);
  const groups = new Map<string, number[]>();
  runs.forEach((r, i) => {
    const key = `${keyOf(r)}${apart(r) ? ` (placement ${placementOf(r)})` : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  // The default placement's columns first; each kind in the order of its first run.
  const placed = (at: number[]) => apart(runs[at[0]!]!);
  return [...groups]
    .sort(([, a], [, b]) => Number(placed(a)) - Number(placed(b)))
    .map(([key, at]) => {
      const dates = at.map((i) => runs[i]!.started_at.slice(0, 10)).sort();
      const sds = at.map((i) => runs[i]!.sd_windows).filter((x): x is number => x !== null);
      const span = dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} to ${dates.at(-1)}`;
      const [lo, hi] = [Math.min(...sds), Math.max(...sds)];
      const sd = !sds.length ? '' : lo === hi ? `, sd ${pct(lo)}` : `, sd ${pct(lo)}–${pct(hi)}`;
      return { label: `${key}: ${at.length} run${at.length === 1 ? '' : 's'}, ${span}${sd}`, at };
    });
}

/** How one answer fared in one machine's runs: the count of each outcome, the runs that reversed it named by date. */
function cell(there: Held[], at: number[], runs: HeldUp['runs']): string {
  const c = Object.fromEntries(HELD.map((h) => [h, 0])) as Record<Held, number>;
  for (const i of at) c[there[i]!]++;
  const reversed = at.filter((i) => there[i] === 'reversed');
  return countsText(
    c,
    reversed.map((i) => runs[i]!.started_at.slice(0, 16).replace('T', ' ')),
  );
}

/**
 * What the table's rows are, in its title and first column. A page of the run's own answers: the answers decided
 * here. A pooled page: the rows are still the published run's own answers, each decided by that run alone at its own
 * level, not the pooled answers the rest of the page gives; said so, with the run's date.
 */
function ownWords(an: Analysis): { head: string; column: string } {
  if (!an.pool) return { head: '**Where the answers hold**: each answer decided here', column: 'answer here' };
  const run = `the run of ${an.results.started_at.slice(0, 10)}`;
  return {
    head:
      `**How ${run}'s own answers held up in the kept runs**: each answer ${run} decided on its own, at its own ` +
      'level (not the pooled answers above, which may differ)',
    column: `${run} alone: its answer`,
  };
}

/**
 * The table: one row per decided answer, one column per machine (and placement) the other kept runs were measured on,
 * each cell counting how the answer fared in that machine's runs, a reversal named by its run.
 */
export function heldTable(an: Analysis): string {
  const h = an.elsewhere;
  if (!h) return '';
  const machines = byMachine(h.runs);
  const own = ownWords(an);
  const head =
    `| ${own.column} (A ÷ B req/s) | ${machines.map((m) => m.label).join(' | ')} |\n` +
    `|---|${machines.map(() => '---').join('|')}|`;
  const rows = h.rows.map(
    (r) =>
      `| ${r.a} ÷ ${r.b}: ${fmt(r.ratio)} (${fmt(r.lo)}–${fmt(r.hi)}) | ` +
      `${machines.map((m) => cell(r.there, m.at, h.runs)).join(' | ')} |`,
  );
  const sum = (at: number[]) =>
    Object.fromEntries(HELD.map((k) => [k, at.reduce((s, i) => s + h.counts[i]![k], 0)])) as Record<Held, number>;
  const total = `| **of ${h.rows.length} in each run** | ${machines.map((m) => countsText(sum(m.at))).join(' | ')} |`;
  return (
    `${own.head}, in the other runs kept in \`results/runs/\`, counted over ` +
    'the runs of each machine (the column names it, its runs, their dates and sd between windows): **same** ' +
    '(decided the same way), **equal**, **open**, **reversed** (decided the other way; the run named by its start) ' +
    'or **not measured there** (a contender missing there). Answers are per machine and per day: a reversal is a ' +
    'machine × stack difference, or one of the false answers the error rate allows.\n\n' +
    [head, ...rows, total].join('\n')
  );
}

/**
 * The README's line: how this run's decided answers fared in the other kept runs, in one sentence (each machine's
 * counts are in results.md's table): the runs' dates and kinds of machine, every reversal named, the range of "same".
 */
export function heldLine(an: Analysis): string {
  const h = an.elsewhere;
  if (!h?.runs.length) return '';
  const dates = h.runs.map((r) => r.started_at.slice(0, 10)).sort();
  const kinds = new Set(h.runs.map((r) => machineKind(r.machine)));
  const span = dates[0] === dates.at(-1) ? `on ${dates[0]}` : `from ${dates[0]} to ${dates.at(-1)}`;
  const reversals = h.rows.flatMap((row) =>
    h.runs.flatMap((r, i) => (row.there[i] === 'reversed' ? [`${row.a} ÷ ${row.b} in ${shortLabel(r)}`] : [])),
  );
  const same = h.counts.map((c) => c.same);
  const [lo, hi] = [Math.min(...same), Math.max(...same)];
  const n = h.runs.length;
  return (
    `**Other runs:** of the ${h.rows.length} answers the latest run decided on its own, in the ${n} other ` +
    `run${n === 1 ? '' : 's'} kept (${span}, on ${kinds.size} kind${kinds.size === 1 ? '' : 's'} of machine): ` +
    (reversals.length
      ? `reversed ${reversals.length} time${reversals.length === 1 ? '' : 's'} (${reversals.join('; ')})`
      : 'none reversed') +
    `; decided the same way in ${lo === hi ? lo : `${lo}–${hi}`} per run, the rest open, equal or not ` +
    `measured there ([per machine](results/${publishedAt(an).dir}/results.md)).`
  );
}
