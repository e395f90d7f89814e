// Where the answers hold: each answer this run decided, in the other kept runs (answers/held.ts) of other days and
// machines. Answers are per machine: a decided answer says what this machine did, and this table what the others
// did with the same comparison.
import type { Analysis } from '../answers/analysis';
import type { HeldUp } from '../answers/held';
import { HELD, type Held } from '../model/kept';
import { publishedAt } from './picks';

const fmt = (x: number) => x.toFixed(2);
const runLabel = (r: HeldUp['runs'][number]) =>
  `${r.started_at.slice(0, 10)}, ${r.commit.slice(0, 7)}, ${r.machine.split(',').slice(0, 2).join(',')}` +
  (r.sd_windows !== null ? `, sd ${(r.sd_windows * 100).toFixed(1)}%` : '');
/** 'not asked' is kept so in results.json; a reader sees what it means. */
const word = (h: Held) => (h === 'not asked' ? 'not measured there' : h);
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

/** The README's line: how this run's decided answers fared in each other kept run. */
export function heldLine(an: Analysis): string {
  const h = an.elsewhere;
  if (!h) return '';
  // The machine is named where it differs from this run's.
  const e = an.results.environment;
  const here = `${e.cpu_model}, ${e.logical_cpus} logical CPUs`;
  const sd = (r: HeldUp['runs'][number]) => (r.sd_windows !== null ? `, sd ${(r.sd_windows * 100).toFixed(1)}%` : '');
  const label = (r: HeldUp['runs'][number]) =>
    r.machine.startsWith(here) ? `${r.started_at.slice(0, 10)} (${r.commit.slice(0, 7)}${sd(r)})` : runLabel(r);
  const each = h.runs.map(
    (r, i) => `${label(r)}: ${countsText(h.counts[i]!)}${h.counts[i]!.reversed ? '' : ', none reversed'}`,
  );
  return (
    `**Other runs:** of the ${h.rows.length} answers the latest run decided on its own, ` +
    `the runs kept from ${each.join('; ')} ` +
    `([where the answers hold](results/${publishedAt(an).dir}/results.md)).`
  );
}
