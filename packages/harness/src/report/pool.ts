// The published answers' provenance: the kept runs they pool (answers/pool.ts), the ones left out and why, and where
// the answers hold (on every machine measured, or depending on it).
import type { Analysis, AnswerFigures } from '../answers/analysis';
import type { Holds, PoolResult } from '../model/pool';
import { listed, term } from './words';
import { isBase } from '../model/questions';
import { machineDifference } from '../model/kept';

const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;
const signed = (r: number) => `${r >= 1 ? '+' : '−'}${pct1(Math.abs(r - 1))}`;

/** " [3 runs on 2 machines, τ 1.2% between runs; a new run: +4.0%…+31.0%: holds]": a pooled answer's suffix. */
export function poolSuffix(a: AnswerFigures): string {
  const p = a.pool;
  if (!p) return '';
  const on = `${p.runs} run${p.runs === 1 ? '' : 's'} on ${p.machines} machine${p.machines === 1 ? '' : 's'}`;
  const machine = p.tau_machine > 0 ? `, ${pct1(p.tau_machine)} between machines` : '';
  const tau = `, τ ${pct1(p.tau)} between runs${machine}`;
  // In the sentence's own terms: a decided answer names the faster side first.
  const flip = a.verdict === 'faster' && a.ratio < 1;
  const [lo, hi] = p.prediction
    ? flip
      ? [1 / p.prediction.hi, 1 / p.prediction.lo]
      : [p.prediction.lo, p.prediction.hi]
    : [];
  const range = (x: number, y: number) => {
    if (x >= 1.5) return `${x.toFixed(1)}–${y.toFixed(1)}×`;
    return `${signed(x)}…${signed(y)}`;
  };
  const pi = lo !== undefined && hi !== undefined ? `; a new run: ${range(lo, hi)}` : '';
  const holds = p.holds === 'open' ? '' : `: ${p.holds}`;
  return ` [${on}${tau}${pi}${holds}]`;
}

/** How the pooled answers were tested, in the family line's words. */
export function poolProcedureText(an: Analysis): string {
  const p = an.pool!;
  const machines =
    p.prior.machines > 1
      ? `over the ${p.prior.machines} machines measured, each counted once`
      : 'on the one machine measured';
  const beyond =
    p.prior.machines > 1
      ? `; the machines' sd (a prior of mean ${pct1(p.prior.tau_machine)}) sets where a new machine falls`
      : '';
  return (
    "Each pools the kept runs' estimates (each run's mean ln A − ln B over all its rounds, with its moderated t's " +
    `standard error) ${machines}, the run a random effect whose sd is learnt from the whole family (a prior of mean ` +
    `${pct1(p.prior.tau)}, from ${p.prior.comparisons} comparisons with 2 runs on a machine or more)${beyond}; p and ` +
    'interval from the posterior of the difference'
  );
}

const countOf = (an: Analysis, h: Holds) => an.answers.filter((a) => a.pool?.holds === h).length;

/** The section: the runs pooled and left out, and where the answers hold. */
export function poolSection(an: Analysis): string {
  const p = an.pool;
  if (!p) return '';
  const head =
    '| run | commit | machine | sd between windows | handicap check | comparisons pooled | not pooled |\n' +
    '|---|---|---|---:|---|---:|---|';
  const rows = p.runs.map((r) => {
    const changed =
      r.changed.length > 3
        ? `${r.changed.length} contenders changed since (${r.changed.slice(0, 2).join(', ')}, …)`
        : r.changed.length
          ? `changed since: ${r.changed.join(', ')}`
          : '';
    const not = r.left_out ?? changed;
    const sd = r.sd_windows === null ? '' : pct1(r.sd_windows);
    const from = r.inputs_from === 'git' ? ' (inputs from its commit)' : '';
    const c = r.check;
    const seen = c?.detected ? 'detected' : 'NOT detected';
    const check = c ? `${signed(c.ratio)} (${signed(c.lo)}…${signed(c.hi)}), ${seen}` : '';
    return (
      `| ${r.started_at.slice(0, 16)}Z | ${r.commit.slice(0, 7)}${from} | ${r.machine} | ${sd} | ${check} | ` +
      `${r.pooled} | ${not} |`
    );
  });
  const decided = an.answers.filter((a) => a.verdict !== 'undecided' && !a.out).length;
  const c = p.check;
  const check = c
    ? ` The handicap check (${c.contender}, ${c.pct}% slower by construction, ` +
      `−${pct1(1 - 1 / (1 + c.pct / 100))} req/s) ` +
      `pooled as the answers are over ${c.runs} run${c.runs === 1 ? '' : 's'}: ${signed(c.ratio)} ` +
      `(${signed(c.lo)}…${signed(c.hi)}, 95%), ${c.detected ? 'detected' : 'NOT detected'}.`
    : '';
  const other = p.machines > 1 ? 'a new run on a new machine' : 'a new run on this machine';
  return (
    `**Where the answers hold** (pooled over ${p.runs.filter((r) => r.pooled).length} runs on ${p.machines} ` +
    `machine${p.machines === 1 ? '' : 's'}): of the ${decided} answered, ${countOf(an, 'holds')} hold (the 95% ` +
    `prediction interval for ${other} is on the same side of 1, or inside ±${p.margin_pct}% for "equal"), ` +
    `${countOf(an, 'depends on the machine') + countOf(an, 'depends on the run')} ` +
    `depend on the ${p.machines > 1 ? 'machine' : 'run'}. A machine is a CPU model, CPU count, kernel and CPU ` +
    "placement (Redis and the load generator sharing the app's CPUs or not). A run counts for a " +
    "comparison when both its contenders' inputs (app folder, packages/stream, lockfile, build script, runtime " +
    `version) equal today's.${check}\n\n` +
    [head, ...rows].join('\n')
  );
}

/** What the pooled runs' machines share and where they differ (model/kept.ts machineDifference). */
function machinesText(p: Pick<PoolResult, 'runs'>): string {
  const keys = [...new Set(p.runs.filter((r) => r.pooled).map((r) => r.machine))];
  if (keys.length < 2) return '';
  const { shared, differ } = machineDifference(keys);
  return ` (${shared.length ? `all ${shared.join(', ')}; ` : ''}their ${listed(differ)} differ)`;
}

/** The README's line: how many runs and machines the answers pool, against the latest run alone. */
export function poolLine(an: Analysis): string {
  const p = an.pool;
  if (!p) return '';
  const answered = (xs: { verdict: string; out?: string }[]) => xs.filter((a) => a.verdict !== 'undecided' && !a.out);
  const own = an.results.answers ?? [];
  const used = p.runs.filter((r) => r.pooled).length;
  // On one machine, whether an answer holds on another is not known: say so, not "0 depend on the machine".
  const where =
    p.machines > 1
      ? `${countOf(an, 'depends on the machine')} depend on the machine`
      : `${countOf(an, 'depends on the run')} depend on the run, and whether they hold on another machine is not ` +
        'measured yet';
  return (
    `**These answers pool ${used} run${used === 1 ? '' : 's'} on ${p.machines} ` +
    `machine${p.machines === 1 ? '' : 's'}${machinesText(p)}:** ` +
    `${answered(an.answers).length} of ${an.answers.length} comparisons answered, against ` +
    `${answered(own).length} answered by the latest run alone; ${where}.${checkText(an)} ` +
    'Pool runs from your own machine with `npm run pool` ' +
    '([docs/usage.md](docs/usage.md#pooling-runs-npm-run-pool)).'
  );
}

/** The handicap check on the first screen: whether the pooled answers saw it, and whether the latest run did alone. */
export function checkText(an: Analysis): string {
  const c = an.pool?.check;
  if (!c) return '';
  const own = an.handicap.find((f) => !isBase(f.check.compared_with ?? ''))?.check;
  const chance = own?.measured?.power?.chance;
  // A miss where the run's own power was low is what its noise predicts: said, so it is not read as a fault.
  const odds =
    own && !own.detected && chance !== undefined
      ? ` (at its noise a run sees it about ${(chance * 100).toFixed(0)}% of the time)`
      : '';
  const alone = own ? `; the latest run alone: ${own.detected ? 'detected' : 'not detected'}${odds}` : '';
  return (
    ` The ${term('handicap check')} (a twin made to take ${c.pct}% longer per request on purpose, ` +
    `${signed(1 / (1 + c.pct / 100))} req/s), pooled as the answers are: ` +
    `${signed(c.ratio)} (${signed(c.lo)}…${signed(c.hi)}), ${c.detected ? 'detected' : 'not detected'}${alone}.`
  );
}
