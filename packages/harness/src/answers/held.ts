// How a run's decided answers held up in the other kept runs (model/kept.ts), on other days and machines: the same
// comparison decided the same way, found equal, left open, decided the other way, or not asked there.
import { HELD, type Held, type KeptAnswers, type KeptHost } from '../model/kept';
import type { Results, Verdict } from '../model/results';
import { runEstimates } from './across-runs';

type Answered = KeptAnswers['answers'][number];
type Side = Pick<Answered, 'a' | 'b' | 'ratio'>;

export interface HeldUp {
  /** The other kept runs, oldest first. */
  runs: Omit<KeptAnswers, 'answers'>[];
  /** Each answer decided here, and what each other run said of it. */
  rows: (Answered & { there: Held[] })[];
  /** Per other run, how many of the rows came out each way. */
  counts: Record<Held, number>[];
}

/**
 * What this run keeps of itself: where, when, its noise, every answer, and for pooling (schema 2) each answer's
 * estimate over all its rounds, its contenders' inputs (recorded by the run, or `inputs` recovered from its commit)
 * and its check.
 */
export function keptOf(
  results: Results,
  answers: (Omit<Answered, 'estimate'> & { id?: string; question?: string })[],
  sdWindows: number | null,
  inputs?: Record<string, string> | null,
): KeptAnswers {
  const e = results.environment;
  const estimates = runEstimates(results);
  const recorded = e.inputs ?? null;
  const check = checkOf(results);
  return {
    schema: 2,
    started_at: results.started_at,
    workload: results.settings.workload,
    commit: e.git_commit,
    machine: `${e.cpu_model}, ${e.logical_cpus} logical CPUs, ${e.kernel}`,
    sd_windows: sdWindows,
    host: hostOf(results),
    ...(e.inputs_used ? { inputs_used: e.inputs_used, inputs_used_scheme: e.inputs_used_scheme ?? 1 } : {}),
    ...(recorded
      ? { inputs: recorded, inputs_from: 'run' as const }
      : inputs
        ? { inputs, inputs_from: 'git' as const }
        : {}),
    ...(check ? { check } : {}),
    answers: answers.map(({ id, question, a, b, ratio, lo, hi, verdict, out }) => {
      const est = id ? estimates.get(id) : undefined;
      const named = { ...(id ? { id } : {}), ...(question ? { question } : {}) };
      return { ...named, a, b, ratio, lo, hi, verdict, ...(out ? { out } : { ...(est ? { estimate: est } : {}) }) };
    }),
  };
}

/** Where it ran: the machine, and whether Redis and the load generator shared the app's CPUs. */
function hostOf(results: Results): KeptHost {
  const e = results.environment;
  const p = results.settings.placement;
  return {
    cpu_model: e.cpu_model,
    ...(e.cpu_id ? { cpu_id: e.cpu_id } : {}),
    logical_cpus: e.logical_cpus,
    ...(e.arch ? { arch: e.arch } : {}),
    kernel: e.kernel,
    ...(e.boot_id ? { boot_id: e.boot_id } : {}),
    placement: p?.name ?? 'none',
    shared_cpus: !p || p.name === 'none' || p.app === null,
  };
}

/** The default run's handicap check as it was judged (not a --handicap NAME pair, whose twin is <name>@base). */
function checkOf(results: Results): KeptAnswers['check'] | null {
  const h = results.handicap?.find((x) => x.measured && x.compared_with && !x.compared_with.endsWith('@base'));
  if (!h?.measured) return null;
  const { ratio, lo, hi, se, df } = h.measured;
  const pooling = se !== undefined && df !== undefined ? { se, df } : {};
  return { contender: h.contender, pct: h.pct, ratio, lo, hi, detected: !!h.detected, ...pooling };
}

/** What another run's `answers` said of the decided answer `x`, whichever side it put first. */
export function heldIn(x: Side, answers: (Side & { verdict: Verdict; out?: string })[]): Held {
  const y = answers.find((o) => (o.a === x.a && o.b === x.b) || (o.a === x.b && o.b === x.a));
  if (!y || y.out) return 'not asked';
  if (y.verdict === 'equal') return 'equal';
  if (y.verdict !== 'faster') return 'open';
  const ratio = y.a === x.a ? y.ratio : 1 / y.ratio;
  return ratio > 1 === x.ratio > 1 ? 'same' : 'reversed';
}

/**
 * This run's decided answers in each other kept run of its workload (not itself); null when there is none or nothing
 * decided.
 */
export function heldUp(here: KeptAnswers, kept: KeptAnswers[]): HeldUp | null {
  const others = kept.filter((k) => k.started_at !== here.started_at && k.workload === here.workload);
  const decided = here.answers.filter((x) => x.verdict === 'faster' && !x.out);
  if (!others.length || !decided.length) return null;
  const rows = decided.map((x) => ({ ...x, there: others.map((o) => heldIn(x, o.answers)) }));
  const counts = others.map((_, i) =>
    Object.fromEntries(HELD.map((h) => [h, rows.filter((r) => r.there[i] === h).length])),
  ) as Record<Held, number>[];
  return { runs: others.map(({ answers: _, ...run }) => run), rows, counts };
}
