// The published answers from every kept run: each comparison pooled over the runs (on any machine) whose two
// contenders were built and run from the same inputs as today's (stats/pool.ts), decided as one family, Holm's
// step-down at DECISION.alpha for "faster" and two one-sided tests at α/m each for "equal" within the margin, as a
// run's own answers are (decide.ts look). Where the answers hold is said with them: on how many runs and machines,
// the between-run sd τ, and where a new run is expected (the prediction interval).
import { lacks, machineKey, type KeptAnswer, type KeptAnswers } from '../model/kept';
import type { Holds, PoolAnswer, PoolRun, PoolResult } from '../model/pool';
import type { Comparison } from '../model/questions';
import type { Results } from '../model/results';
import { moderatedT } from '../stats/moderated';
import { type PooledRatio, type PoolPrior, poolPrior, poolRuns, type RunEstimate, TAU_GRID } from '../stats/pool';
import { DECISION, familyPrior, holmLevels, roundMeans, windowPairs } from './decide';

/**
 * Each comparison of a run's family estimated over every round it measured, by the answers' own procedure (the
 * moderated t with the family's prior): what a kept record keeps for pooling.
 */
export function runEstimates(r: Results): Map<string, NonNullable<KeptAnswer['estimate']>> {
  const comparisons = r.family?.comparisons ?? [];
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  const data = comparisons.map((c) => windowPairs(byName.get(c.a), byName.get(c.b)));
  const { reps, prior, covariates } = familyPrior(
    data,
    comparisons.map((c) => !!c.side_by_side),
  );
  const out = new Map<string, NonNullable<KeptAnswer['estimate']>>();
  comparisons.forEach((c, i) => {
    const t = moderatedT(reps[i]!, prior, 0.95, prior.scale(covariates[i]));
    if (t.short || !(t.n > 0)) return;
    const rounds = roundMeans(data[i]!).map((x) => +x.toFixed(6));
    out.set(c.id, { ln: reps[i]!.mean, se: t.sd / Math.sqrt(t.n), df: t.df, procedure: 'moderated-t', rounds });
  });
  return out;
}

/** The kept answer of `c` in a record, turned to c's order (a ↔ b swapped: ln negated). */
function estimateIn(
  k: KeptAnswers,
  c: Pick<Comparison, 'a' | 'b'>,
): { e: KeptAnswer['estimate']; x: KeptAnswer } | null {
  const x = k.answers.find((o) => (o.a === c.a && o.b === c.b) || (o.a === c.b && o.b === c.a));
  if (!x || x.out) return null;
  if (!x.estimate || x.a === c.a) return { e: x.estimate, x };
  const e = x.estimate;
  return { e: { ...e, ln: -e.ln, rounds: e.rounds.map((d) => -d) }, x };
}

/** Why a run is not pooled for any comparison, or null (`anyInputs`: its inputs are not asked for). */
function notPooled(k: KeptAnswers, workload: string, anyInputs: boolean): string | null {
  if (k.workload !== workload) return `another workload (${k.workload})`;
  const missing = lacks(k).filter((w) => !w.includes('placement') && !(anyInputs && w.includes('input')));
  return missing.length ? `kept before pooling: it lacks ${missing.join(' and ')}` : null;
}

/**
 * The runs' handicap checks pooled as the answers are (the same model, under the answers' prior, at 95%): whether the
 * pooled answers see the known 10%. Runs whose check contender or its twin changed are left out.
 */
function pooledCheck(
  records: KeptAnswers[],
  runs: PoolRun[],
  same: (k: KeptAnswers, name: string) => boolean,
  prior: PoolPrior,
): PoolResult['check'] | null {
  const with_ = records.flatMap((k, j) => {
    const c = k.check;
    const twin = c?.contender.replace(/-handicap$/, '');
    if (runs[j]!.left_out || !c || c.se === undefined || !same(k, c.contender) || !same(k, twin!)) return [];
    return [
      { c, e: { y: Math.log(c.ratio), se: c.se, df: c.df ?? 1e6, run: k.started_at, machine: runs[j]!.machine } },
    ];
  });
  if (!with_.length) return null;
  const r = poolRuns(
    with_.map((x) => x.e),
    prior,
  ).at(0.95);
  const { contender, pct } = with_[0]!.c;
  const { ratio, lo, hi, n: pooledRuns, machines } = r;
  return { contender, pct, ratio, lo, hi, runs: pooledRuns, machines, detected: hi < 1 };
}

/** A kept run as the pool reads it, before it is counted in any comparison. */
function poolRun(k: KeptAnswers, workload: string, anyInputs: boolean): PoolRun {
  const why = notPooled(k, workload, anyInputs);
  return {
    started_at: k.started_at,
    commit: k.commit,
    machine: machineKey(k),
    sd_windows: k.sd_windows,
    inputs_from: k.inputs_from ?? null,
    pooled: 0,
    changed: [],
    ...(why ? { left_out: why } : {}),
    ...(k.check ? { check: k.check } : {}),
  };
}

/**
 * Pool the kept runs' answers to `comparisons` (today's family): a run counts for a comparison when both its
 * contenders' inputs equal `today`'s (null: take every run as today's, for runs from elsewhere with no checkout to
 * compare against). Each answer says how many runs and machines it rests on.
 */
export function poolAnswers(
  records: KeptAnswers[],
  comparisons: Comparison[],
  today: Record<string, string> | null,
  workload: string,
  marginPct: number,
  alpha: number = DECISION.alpha,
): PoolResult {
  const runs = records.map((k) => poolRun(k, workload, today === null));
  const same = (k: KeptAnswers, name: string) => !today || (!!k.inputs?.[name] && k.inputs[name] === today[name]);
  const family: RunEstimate[][] = comparisons.map((c) =>
    records.flatMap((k, j) => {
      if (runs[j]!.left_out) return [];
      for (const name of [c.a, c.b])
        if (!same(k, name) && !runs[j]!.changed.includes(name)) runs[j]!.changed.push(name);
      if (!same(k, c.a) || !same(k, c.b)) return [];
      const got = estimateIn(k, c);
      if (!got?.e) return [];
      runs[j]!.pooled++;
      return [{ y: got.e.ln, se: got.e.se, df: got.e.df, run: k.started_at, machine: runs[j]!.machine }];
    }),
  );
  const prior = poolPrior(family);
  const m = comparisons.length;
  const pooled = family.map((runsOf) => poolRuns(runsOf, prior));
  const at = (i: number, level: number) => pooled[i]!.at(level);
  const rejected = holmLevels(
    pooled.map((x) => x.p),
    alpha,
  );
  const margin = marginPct / 100;
  const answers = comparisons.map((c, i): PoolAnswer => {
    const runsOf = family[i]!;
    if (rejected[i] !== null) return answerOf(c, at(i, 1 - rejected[i]!), runsOf, 'faster', marginPct, prior.machines);
    const r = at(i, 1 - (2 * alpha) / m);
    const inside = r.lo >= 1 / (1 + margin) && r.hi <= 1 + margin;
    return answerOf(c, r, runsOf, inside ? 'equal' : 'undecided', marginPct, prior.machines);
  });
  const check = pooledCheck(records, runs, same, prior);
  return {
    workload,
    alpha,
    margin_pct: marginPct,
    prior: priorRecord(prior),
    ...(check ? { check } : {}),
    runs,
    machines: new Set(runs.filter((r) => r.pooled).map((r) => r.machine)).size,
    answers,
  };
}

/**
 * Whether a pooled answer holds where it was not measured: a "faster" one when its 95% prediction interval for a new
 * run is on the decided side of 1, an "equal" one when it lies within ±margin.
 */
export function holdsOf(
  r: Pick<PooledRatio, 'prediction' | 'hi'>,
  verdict: PoolAnswer['verdict'],
  marginPct: number,
  machines: number,
): Holds {
  const pi = r.prediction;
  if (verdict === 'undecided' || !pi) return 'open';
  const m = marginPct / 100;
  const inside = verdict === 'equal' ? pi.lo >= 1 / (1 + m) && pi.hi <= 1 + m : r.hi < 1 ? pi.hi < 1 : pi.lo > 1;
  return inside ? 'holds' : machines > 1 ? 'depends on the machine' : 'depends on the run';
}

/** The priors as pool.json records them: the mean τ each puts on runs and machines, and what they were learnt from. */
function priorRecord(p: PoolPrior): PoolResult['prior'] {
  const mean = (w: number[]) => +TAU_GRID.reduce((s, t, g) => s + t * w[g]!, 0).toFixed(4);
  return { tau: mean(p.run), tau_machine: mean(p.machine), comparisons: p.n, machines: p.machines };
}

function answerOf(
  c: Comparison,
  r: PooledRatio,
  runs: RunEstimate[],
  verdict: PoolAnswer['verdict'],
  marginPct: number,
  machines: number,
): PoolAnswer {
  return {
    id: c.id,
    question: c.question,
    a: c.a,
    b: c.b,
    ...(c.side_by_side ? { side_by_side: true as const } : {}),
    verdict,
    ratio: r.ratio,
    lo: r.lo,
    hi: r.hi,
    level: r.level,
    p: r.p,
    pairs: 0,
    rounds: runs.length,
    look: 1,
    procedure: r.procedure,
    df: r.df,
    sd: Number.isFinite(r.se) ? +r.se.toFixed(4) : undefined,
    ...(r.short ? { short: r.short } : {}),
    pool: {
      runs: r.n,
      machines: r.machines,
      tau: r.tau,
      tau_machine: r.tau_machine,
      prediction: r.prediction,
      holds: holdsOf(r, verdict, marginPct, machines),
      estimates: runs.map((x) => ({ run: x.run, ratio: Math.exp(x.y), se: x.se })),
    },
  };
}
