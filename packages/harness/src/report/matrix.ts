// Per runtime, a framework × client grid of one results.json; the answers themselves are in answers.ts.
import { CLIENTS } from '@bench/stream';
import { rowOf } from '../model/questions';
import type { ContenderResult, Results } from '../model/results';
import type { Analysis } from '../answers/analysis';
import type { RankedContender } from '../answers/ranking';

const fmt0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
const unique = <T>(xs: T[]) => [...new Set(xs)];
const isPlain = (c: ContenderResult) => !c.tuned?.length;
const byClientOrder = (a: string, b: string) => CLIENTS.indexOf(a as never) - CLIENTS.indexOf(b as never);

/** One cell: the median and the run-wide rank interval, or why there is no figure. */
function cell(r: Results, ok: RankedContender[], runtime: string, row: string, client: string): string {
  const c = ok.find((x) => x.runtime === runtime && rowOf(x) === row && x.client === client);
  if (c) return `${fmt0(c.rps!.median)} (${c.rank})${c.static ? ' static' : ''}`;
  const bad = r.contenders.find(
    (x) =>
      isPlain(x) && !x.self_check_of && !x.base_of && x.runtime === runtime && rowOf(x) === row && x.client === client,
  );
  if (bad) return bad.status;
  const name = [runtime, row.replace(' ', '-'), client].join('-');
  return r.unsupported?.some((u) => u.name === name) ? 'unsupported' : '';
}

/** Per runtime, a framework × client grid of median req/s (default settings) with rank intervals. */
export function gridTables(an: Analysis): string {
  const r = an.results;
  const ok = an.ranked.filter(isPlain);
  const all = r.contenders.filter((c) => isPlain(c) && !c.self_check_of && !c.base_of);
  const out: string[] = [];
  for (const runtime of unique(all.map((c) => c.runtime))) {
    const mine = all.filter((c) => c.runtime === runtime);
    const clients = unique(mine.map((c) => c.client)).sort(byClientOrder);
    // Rows fastest first, by their best cell.
    const best = (row: string) =>
      Math.max(0, ...ok.filter((c) => c.runtime === runtime && rowOf(c) === row).map((c) => c.rps!.median));
    const rows = unique(mine.map(rowOf)).sort((a, b) => best(b) - best(a));
    const head = `| ${runtime} | ${clients.join(' | ')} |\n|---|${clients.map(() => '---:').join('|')}|`;
    out.push(
      [
        head,
        ...rows.map((row) => `| ${row} | ${clients.map((cl) => cell(r, ok, runtime, row, cl)).join(' | ')} |`),
      ].join('\n'),
    );
  }
  if (!out.length) return '';
  return (
    '**Framework × client, per runtime** ' +
    `(median req/s with default settings; in brackets the rank interval of the whole run)\n\n${out.join('\n\n')}`
  );
}
