// Answers: each comparison of the family (questions.ts) tested on its contenders' measured
// windows paired by round and window index (paired.ts pairedT: a t on the log ratios with the
// design effect of windows that share launches). One verdict each: faster, equal within ±h, or
// undecided with the interval it has.
import type { Comparison } from './questions';
import type { ContenderResult, Results } from './results';
import { median } from 'simple-statistics';
import { pooledComponents } from './components';
import { pairedT } from './paired';

type PairedRatio = ReturnType<typeof pairedT>;

/**
 * The defaults of every decision, in one place. The family is every comparison of the run's
 * questions; `alpha` bounds the chance of any false "faster" claim over the whole family and
 * every look together (Bonferroni over looks, Holm's step-down across the family within one).
 * The interim looks of racing spend `interimShare` of alpha between them, interim look k
 * alpha·share/2^k: they can stop only the clearest gaps, a few rounds having too few pairs for
 * more. The last look, once the rounds end, spends what is left (at least
 * 90%): that is where a 15-minute run has the pairs to decide. A fixed --runs looks once.
 */
export const DECISION = {
  alpha: 0.05,
  interimShare: 0.1,
  /** The handicap check is one test, outside the family. */
  handicapLevel: 0.95,
} as const;

export type Verdict = 'faster' | 'equal' | 'undecided';

export interface Answer extends Comparison {
  verdict: Verdict;
  /** a ÷ b req/s: exp of the mean log ratio, and its t interval (at `level`). */
  ratio: number;
  lo: number;
  hi: number;
  level: number;
  p: number;
  pairs: number;
  rounds: number;
  /** The look that decided it, or the last look for an open one. */
  look: number;
  /** The design effect its test and interval allowed for (windows of one round are not independent). */
  design_effect: number;
  /** Set when there were too few pairs for any interval at the asked level. */
  short?: string;
  /** Set when a contender of it failed or is invalid: it can never be answered. */
  out?: string;
}

/** Each kept launch's window req/s, by round (older results: the run itself is one window). */
export function windowsByRound(c: ContenderResult | undefined): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const run of c?.points[0]?.runs ?? []) if (!run.fault) out.set(run.round, run.windows?.map((w) => w.rps) ?? [run.rps]);
  return out;
}

export interface WindowPairs {
  a: number[];
  b: number[];
  rounds: number;
  /** ln a − ln b per round, for the clustering of the pairs. */
  byRound: number[][];
}

/** A's and B's windows paired by round and window index, in the rounds where both were measured. */
export function windowPairs(a: ContenderResult | undefined, b: ContenderResult | undefined): WindowPairs {
  const wa = windowsByRound(a);
  const wb = windowsByRound(b);
  const out: WindowPairs = { a: [], b: [], rounds: 0, byRound: [] };
  for (const [round, xs] of wa) {
    const ys = wb.get(round);
    if (!ys) continue;
    out.rounds++;
    const d: number[] = [];
    for (let j = 0; j < Math.min(xs.length, ys.length); j++) {
      if (!(xs[j]! > 0 && ys[j]! > 0)) continue;
      out.a.push(xs[j]!);
      out.b.push(ys[j]!);
      d.push(Math.log(xs[j]!) - Math.log(ys[j]!));
    }
    out.byRound.push(d);
  }
  return out;
}

/**
 * How much less than independent the window pairs are: Kish's design effect 1 + (m − 1)·ICC for
 * rounds of m pairs, with the ICC of ln a − ln b between rounds, from Kalibera & Jones's components
 * pooled over every comparison of the family (one comparison's few rounds estimate it poorly).
 * 1 when each round has one pair, or when rounds vary no more than their windows predict.
 */
export function designEffect(pairs: WindowPairs[]): { designEffect: number; icc: number } {
  const nested = pairs.map((p) => p.byRound.filter((d) => d.length >= 2)).filter((rounds) => rounds.length >= 2);
  if (!nested.length) return { designEffect: 1, icc: 0 };
  const c = pooledComponents(nested);
  const [within, between] = [Math.max(0, c.T2(1)), Math.max(0, c.T2(2))];
  const icc = within + between > 0 ? between / (within + between) : 0;
  return { designEffect: kish(nested, icc), icc };
}

/**
 * Each comparison's design effect: the family's pooled one, or the comparison's own where its
 * rounds differ more (a pair whose launches vary more does not borrow the family's smaller
 * clustering; with the pooled one alone the null simulation made 5.3% false claims).
 */
export function designEffects(pairs: WindowPairs[]): number[] {
  const pooled = designEffect(pairs).designEffect;
  return pairs.map((d) => Math.max(pooled, ownDesignEffect(d)));
}

/**
 * One comparison's design effect. Under two rounds of several windows its launches' spread is
 * unknown, so it takes the worst case, ICC 1: each round counts as one pair (one launch's windows
 * alone decide nothing, however alike they are).
 */
function ownDesignEffect(d: WindowPairs): number {
  const clustered = d.byRound.filter((r) => r.length >= 2).length;
  if (clustered >= 2) return designEffect([d]).designEffect;
  return d.byRound.length ? kish([d.byRound], 1) : 1;
}

/** Kish's design effect 1 + (m − 1)·ICC, m the median number of windows per cluster. */
export const kish = (clusters: number[][][], icc: number) => 1 + (median(clusters.flatMap((c) => c.map((w) => w.length))) - 1) * icc;

/** Level of interim look k (1-based): every interim look together spends at most alpha·interimShare. */
export const interimAlpha = (k: number, alpha: number = DECISION.alpha) => (alpha * DECISION.interimShare) / 2 ** k;

/** Level of the last look: what the looks before it left of alpha. */
export const lastAlpha = (spent: number[], alpha: number = DECISION.alpha) => alpha - spent.reduce((s, x) => s + x, 0);

/** Holm's step-down at `alpha`: for each test, the level it was rejected at, or null. */
export function holmLevels(ps: number[], alpha: number): (number | null)[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number | null>(ps.length).fill(null);
  for (const [step, [p, i]] of order.entries()) {
    const level = alpha / (ps.length - step);
    if (!(p < level)) break;
    out[i] = level;
  }
  return out;
}

const answerOf = (c: Comparison, r: PairedRatio, rounds: number, look: number, de: number, verdict: Verdict): Answer => ({
  ...c, verdict, ratio: r.ratio, lo: r.lo, hi: r.hi, level: r.level, p: r.p, pairs: r.n, rounds, look, design_effect: +de.toFixed(3), ...('short' in r && r.short ? { short: r.short } : {}),
});

/**
 * One look at the family with the data so far. Answers decided or bounded at an earlier look are
 * kept as they were; the rest are tested again. Rejected by Holm: "faster", with the interval at
 * the level Holm rejected it at (it excludes 1). Otherwise the interval at the Bonferroni level
 * alpha_k / m: "equal" when it lies inside ±margin, else "undecided".
 */
export function look(results: Results, comparisons: Comparison[], k: number, alphaK: number, marginPct: number, before: Answer[] = []): Answer[] {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  const m = comparisons.length;
  const data = comparisons.map((c) => windowPairs(byName.get(c.a), byName.get(c.b)));
  const deOf = designEffects(data);
  const ratio = (i: number, level: number) => pairedT(data[i]!.a, data[i]!.b, level, deOf[i]!);
  const ps = data.map((_, i) => ratio(i, 0.95).p);
  const rejected = holmLevels(ps, alphaK);
  const margin = marginPct / 100;
  return comparisons.map((c, i) => {
    const kept = before.find((x) => x.id === c.id && x.verdict !== 'undecided');
    if (kept) return kept;
    const d = data[i]!;
    if (rejected[i] !== null) return answerOf(c, ratio(i, 1 - rejected[i]!), d.rounds, k, deOf[i]!, 'faster');
    const r = ratio(i, 1 - alphaK / m);
    const inside = r.lo >= 1 / (1 + margin) && r.hi <= 1 + margin;
    return answerOf(c, r, d.rounds, k, deOf[i]!, inside ? 'equal' : 'undecided');
  });
}

/** Contenders in a comparison that is still undecided: the ones the racing rounds go to. */
export const openContenders = (answers: Answer[]) => new Set(answers.filter((a) => a.verdict === 'undecided').flatMap((a) => [a.a, a.b]));

/** The faster and slower side of a decided answer. */
export const sides = (a: Answer) => (a.ratio >= 1 ? { winner: a.a, loser: a.b, factor: a.ratio, lo: a.lo, hi: a.hi } : { winner: a.b, loser: a.a, factor: 1 / a.ratio, lo: 1 / a.hi, hi: 1 / a.lo });

/** "the interval's largest distance from 1", as a share: the bound an "equal" answer rules out beyond. */
export const bound = (a: Pick<Answer, 'lo' | 'hi'>) => Math.max(a.hi - 1, 1 / a.lo - 1);
