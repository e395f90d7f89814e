// Where the answers hold: each answer this run decided, in the other kept runs (answers/held.ts) of other days and
// machines. Answers are per machine: a decided answer says what this machine did, and this table what the others
// did with the same comparison.
import type { Analysis } from '../answers/analysis';
import type { HeldUp } from '../answers/held';
import { HELD, type Held, machineKind } from '../model/kept';
import { publishedAt } from './picks';

const fmt = (x: number) => x.toFixed(2);
const runLabel = (r: HeldUp['runs'][number]) =>
  `${r.started_at.slice(0, 10)}, ${r.commit.slice(0, 7)}, ${r.machine.split(',').slice(0, 2).join(',')}` +
  (r.sd_windows !== null ? `, sd ${(r.sd_windows * 100).toFixed(1)}%` : '');
/** 'not asked' is kept so in results.json; a reader sees what it means. */
const word = (h: Held) => (h === 'not asked' ? 'not measured there' : h);
/** A run in a sentence: its start, commit, kind of machine and placement when not the default. */
const shortLabel = (r: HeldUp['runs'][number]) =>
  `the run of ${r.started_at.slice(0, 16).replace('T', ' ')} (${r.commit.slice(0, 7)}, ${machineKind(r.machine)}` +
  `${r.host && r.host.placement !== 'none' ? `, placement ${r.host.placement}` : ''})`;
const countsText = (c: Record<Held, number>) =>
  HELD.filter((h) => c[h])
    .map((h) => `${c[h]} ${word(h)}`)
    .join(', ');

/** The table: one row per decided answer, one column per other kept run. */
export function heldTable(an: Analysis): string {
  const h = an.elsewhere;
  if (!h) return '';
  const head =
    `| answer here (A ÷ B req/s) | ${h.runs.map(runLabel).join(' | ')} |\n` +
    `|---|${h.runs.map(() => '---').join('|')}|`;
  const rows = h.rows.map(
    (r) => `| ${r.a} ÷ ${r.b}: ${fmt(r.ratio)} (${fmt(r.lo)}–${fmt(r.hi)}) | ${r.there.map(word).join(' | ')} |`,
  );
  const total = `| **of ${h.rows.length}** | ${h.counts.map(countsText).join(' | ')} |`;
  return (
    '**Where the answers hold**: each answer decided here, in the other runs kept in `results/runs/` (their date, ' +
    'commit, machine and sd between windows): **same** (decided the same way), **equal**, **open**, **reversed** ' +
    '(decided the other way) or **not measured there** (a contender missing there). Answers are per machine and ' +
    'per day: a reversal is a machine × stack difference, or one of the false answers the error rate allows.\n\n' +
    [head, ...rows, total].join('\n')
  );
}

/**
 * The README's line: how this run's decided answers fared in the other kept runs, in one sentence (each run's counts
 * are in results.md's table): the runs' dates and kinds of machine, every reversal named, the range of "same".
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
    `measured there ([each run](results/${publishedAt(an).dir}/results.md)).`
  );
}
