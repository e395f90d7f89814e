// Answers: each comparison of the family (questions.ts) tested on its contenders' rounds: per
// round, the mean over its paired windows of ln A − ln B, and across rounds a moderated t whose
// variance borrows from every comparison of the family (moderated.ts). One verdict each: faster,
// equal within ±h, or undecided with the interval it has.
import type { Comparison } from '../model/questions';
import type { ContenderResult, Results } from '../model/results';
import { fitPrior, type Prior, type Replicates, replicates } from '../stats/moderated';
import { type ProcedureName, type RatioTest, testRatio } from '../stats/procedures';
import { sampleVariance } from '../stats/stats';
import type { Answer, Verdict } from '../model/results';

/**
 * The defaults of every decision, in one place. The family is every comparison of the run's
 * questions; `alpha` bounds the chance of any false claim, "faster" or "equal", over the whole family and
 * every look together (Bonferroni over looks, and within one over the family: decidedLevels).
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
  /**
   * The most degrees of freedom the family's prior may lend a comparison (moderated.ts). limma's
   * prior assumes normal replicates; a round's log ratio is heavier-tailed here (a launch now and
   * then runs 20% off), and a t on ~90 lent df treats three rounds as if their mean were normal.
   * Measured on recorded launches, three rounds of ten contenders with every other twice as noisy
   * (tests/unit/racing.test.ts): P(p < 0.001) under the null was 0.0058 for the noisy pairs at an
   * uncapped d0, 0.0030 at 16, 0.0010 at 8, 0.0003 at 4. The whole racing procedure made false
   * claims in 0.9%, 1.3% and 2.0% of runs at 8, 12 and 16 (1.8%, 2.8%, 3.6% with uneven noise): 12
   * keeps it well inside 5% with the looks and racing, and lends more df than 8.
   */
  maxPriorDf: 12,
} as const;

/** The answers' procedure: every comparison of the family, and the default run's handicap check, is tested by it. */
export const ANSWERS_PROCEDURE: ProcedureName = 'moderated-t';

type Win = { rps: number; seq?: number };

/**
 * Each kept launch's windows alone (req/s and place in its block), by round; a launch recorded without windows is
 * one; a duet-only round has none.
 */
function launchWindows(c: ContenderResult | undefined): Map<number, Win[]> {
  const out = new Map<number, Win[]>();
  for (const run of c?.points[0]?.runs ?? [])
    if (!run.fault && !run.duet_only) out.set(run.round, run.windows ?? [{ rps: run.rps }]);
  return out;
}

/** Each kept launch's window req/s, by round. */
export const windowsByRound = (c: ContenderResult | undefined): Map<number, number[]> =>
  new Map([...launchWindows(c)].map(([round, ws]) => [round, ws.map((w) => w.rps)]));

/**
 * A's and B's windows of one round as pairs: under --layout walk (every window has its place in
 * the block's order), each A window with a B window measured right before or after it, each
 * window used once; where the windows have no place (other layouts, or none recorded), by window index.
 */
function pairUp(xs: Win[], ys: Win[]): [number, number][] {
  const placed = (w: Win) => w.seq !== undefined;
  if (!(xs.every(placed) && ys.every(placed))) return xs.slice(0, ys.length).map((x, j) => [x.rps, ys[j]!.rps]);
  const bySeq = new Map(ys.map((w) => [w.seq!, w]));
  const used = new Set<number>();
  const out: [number, number][] = [];
  for (const x of xs) {
    const s = [x.seq! - 1, x.seq! + 1].find((k) => bySeq.has(k) && !used.has(k));
    if (s === undefined) continue;
    used.add(s);
    out.push([x.rps, bySeq.get(s)!.rps]);
  }
  return out;
}

export interface WindowPairs {
  a: number[];
  b: number[];
  rounds: number;
  /** ln a − ln b per round, for the clustering of the pairs. */
  byRound: number[][];
  /** The round number of each of byRound (the rounds both were measured in); absent where units are not rounds. */
  roundIds?: number[];
  /**
   * Mean over the paired rounds of var(ln a's windows) + var(ln b's windows): how noisy the pair is inside a launch
   * (NaN under 2 windows).
   */
  within: number;
  /**
   * The default run's check: per unit and pair, the same pairs' covariate (answers/handicap.ts deniedOf), where every
   * window has it.
   */
  covariate?: number[][];
  /** The default run's check: the round of each unit of byRound (a round holds several launches). */
  unitRound?: number[];
}

/**
 * A's and B's windows paired in the rounds where both were measured (pairUp), with how noisy each side is inside a
 * launch.
 */
export function windowPairs(a: ContenderResult | undefined, b: ContenderResult | undefined): WindowPairs {
  const wa = launchWindows(a);
  const wb = launchWindows(b);
  const out: WindowPairs = { a: [], b: [], rounds: 0, byRound: [], roundIds: [], within: NaN };
  const within: number[] = [];
  for (const [round, xs] of wa) {
    const ys = wb.get(round);
    if (!ys) continue;
    out.rounds++;
    const d: number[] = [];
    for (const [x, y] of pairUp(xs, ys)) {
      if (!(x > 0 && y > 0)) continue;
      out.a.push(x);
      out.b.push(y);
      d.push(Math.log(x) - Math.log(y));
    }
    out.byRound.push(d);
    out.roundIds!.push(round);
    const logs = (ws: Win[]) => ws.map((w) => Math.log(w.rps)).filter(Number.isFinite);
    if (xs.length > 1 && ys.length > 1) within.push(sampleVariance(logs(xs)) + sampleVariance(logs(ys)));
  }
  out.within = within.length ? within.reduce((s, x) => s + x, 0) / within.length : NaN;
  return out;
}

/** Level of interim look k (1-based): every interim look together spends at most alpha·interimShare. */
export const interimAlpha = (k: number, alpha: number = DECISION.alpha) => (alpha * DECISION.interimShare) / 2 ** k;

/**
 * The changes' interim looks (--against, --handicap NAME:PCT) spend their tenth of alpha over the
 * run's time instead: by the share `t` of its budget (or of its round cap) used so far, alpha·share·t²
 * in all (Lan & DeMets 1983, a power family). A geometric share per look, as the answers' looks
 * have, leaves a pair looked at after every one of 60 rounds nothing to stop with after the first
 * dozen; an exact rank test cannot go below 2^(1−n) either. A schedule set by the clock and not
 * by the data keeps the Bonferroni bound over the looks.
 */
export const changesInterimAlpha = (t: number, tBefore: number, alpha: number = DECISION.alpha) =>
  alpha * DECISION.interimShare * (Math.min(1, t) ** 2 - Math.min(1, tBefore) ** 2);

/** Level of the last look: what the looks before it left of alpha. */
export const lastAlpha = (spent: number[], alpha: number = DECISION.alpha) => alpha - spent.reduce((s, x) => s + x, 0);

/**
 * The level each comparison of a family that also says "equal" is decided "faster" at, or null: Bonferroni's α/m.
 * Not Holm's step-down: at most one of a comparison's two nulls is true (no difference, or one beyond the margin),
 * so a test of each at α/m keeps any false claim of either kind at most α together; Holm's step-down passes on the
 * α of the gaps it decided, which are the comparisons whose "equal" null is true, and so spends it twice: with half a
 * family's gaps just beyond the margin and half at 0, a false claim in 6.8% of families against 4.5%
 * (tests/unit/decide.test.ts).
 */
export function decidedLevels(ps: number[], alpha: number): (number | null)[] {
  const level = alpha / Math.max(1, ps.length);
  return ps.map((p) => (p < level ? level : null));
}

/** Holm's step-down at `alpha`: for each test, the level it was rejected at, or null (a family of "faster" only). */
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

/** Per round, the mean ln A − ln B over the round's paired windows: the replicates a comparison's t rests on. */
export const roundRatios = (d: WindowPairs) =>
  replicates(d.byRound.filter((r) => r.length).map((r) => r.reduce((s, x) => s + x, 0) / r.length));

/** Per round, the mean ln A − ln B over the round's paired windows, as a list (the signed-rank test's data). */
export const roundMeans = (d: WindowPairs) =>
  d.byRound.filter((r) => r.length).map((r) => r.reduce((s, x) => s + x, 0) / r.length);

/** The covariate a comparison's prior scale follows: the log of its within-launch window variance. */
export const noiseOf = (d: WindowPairs) => Math.log(d.within);

/**
 * The fewest comparisons with rounds on each side (side by side, apart) for the layout to enter the prior as a
 * covariate.
 */
export const MIN_STRATUM = 6;

export interface FamilyPrior {
  reps: Replicates[];
  prior: Prior;
  /**
   * Each comparison's covariates, for prior.scale: its within-launch noise, and 1 or 0 for side by side or apart when
   * `split`.
   */
  covariates: number[][];
  split: boolean;
}

/**
 * Every comparison's replicates, and the family's prior on their variance, fitted from them all
 * with their within-launch noise as limma's trend covariate (moderated.ts fitPrior): a comparison
 * of two noisy contenders is shrunk toward what noisy pairs vary by, not toward the quiet ones.
 * When `sideBySide` marks at least MIN_STRATUM comparisons with rounds, and as many are apart, the
 * layout is a second covariate: side by side (model/questions.ts), a pair's per-round ln ratio
 * can vary less than half a block apart (docs/runs/answers-by-design.md: the handicap check's pair
 * by sd 4.9–7.6 points against 6–11; the twin questions at most a tenth less, and not in every
 * run), and one scale for both would pull a quiet side-by-side pair toward the others. One d₀
 * for the whole family: in the null simulation with 10 of 45 comparisons side by side and uneven
 * noise (tests/unit/racing.test.ts), a prior fitted per layout made false claims in 4.7% of runs,
 * this fit in 3.9%, as many as one scale for all.
 */
export function familyPrior(data: WindowPairs[], sideBySide: boolean[] = []): FamilyPrior {
  const reps = data.map(roundRatios);
  const enough = (want: boolean) =>
    data.filter((d, i) => !!sideBySide[i] === want && d.rounds > 1).length >= MIN_STRATUM;
  const split = enough(true) && enough(false);
  const covariates = data.map((d, i) => (split ? [noiseOf(d), sideBySide[i] ? 1 : 0] : [noiseOf(d)]));
  const prior = fitPrior(
    reps.map((r) => r.s2),
    reps.map((r) => r.df),
    covariates,
  );
  return { reps, prior: { ...prior, d0: Math.min(prior.d0, DECISION.maxPriorDf) }, covariates, split };
}

/**
 * A prior as results.json records it, at the family's mean within-launch noise; split, at one
 * layout (1 side by side, 0 apart) with that layout's share of the comparisons and their df.
 */
function priorRecord(f: FamilyPrior, layout?: 0 | 1) {
  const p = f.prior;
  const s0 = Math.sqrt(layout === undefined ? p.s02 : p.scale([NaN, layout]));
  const mine = f.reps.filter((r, i) => r.df > 0 && (layout === undefined || f.covariates[i]![1] === layout));
  return {
    d0: Number.isFinite(p.d0) ? +p.d0.toFixed(3) : null,
    s0: +s0.toFixed(5),
    comparisons: mine.length,
    df: mine.reduce((s, r) => s + r.df, 0),
    ...(p.slope !== undefined ? { slope: +p.slope.toFixed(3) } : {}),
  };
}

const answerOf = (c: Comparison, r: RatioTest, pairs: number, look: number, verdict: Verdict): Answer => ({
  ...c,
  verdict,
  ratio: r.ratio,
  lo: r.lo,
  hi: r.hi,
  level: r.level,
  p: r.p,
  pairs,
  rounds: r.n,
  look,
  procedure: r.procedure,
  df: r.df,
  sd: +r.sd.toFixed(4),
  ...(r.short ? { short: r.short } : {}),
});

/**
 * Another family than the answers' (the changes): where its prior is recorded, the window pairs
 * each comparison rests on (its pair design's), and its procedure: the moderated t (the answers'
 * family: many comparisons lend each other a variance) or the signed-rank test (a pair measured
 * side by side, with its own rounds only; stats/signed-rank.ts says why).
 */
export interface LookOf {
  sink?: Pick<Results, 'prior' | 'prior_side_by_side'>;
  pairs?: (c: Comparison) => WindowPairs;
  procedure?: ProcedureName;
}

/**
 * One look at the family with the data so far. Answers decided or bounded at an earlier look are
 * kept as they were; the rest are tested again, each with the family's prior as of this look.
 * Rejected at alpha_k / m (decidedLevels): "faster", with its interval at that level (it excludes 1).
 * Otherwise "equal" when two one-sided tests at the Bonferroni level alpha_k / m each (Schuirmann
 * 1987) put the ratio inside ±margin, that is its interval at 1 − 2·alpha_k / m lies inside; else
 * "undecided" with its interval at 1 − alpha_k / m, which holds 1 (an open answer never reads as decided). The chance
 * of any false "equal" over the looks is at most alpha.
 */
export function look(
  results: Results,
  comparisons: Comparison[],
  k: number,
  alphaK: number,
  marginPct: number,
  before: Answer[] = [],
  of: LookOf = {},
): Answer[] {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  const m = comparisons.length;
  // The prior is recorded where the caller asks (racing.ts: the look it returns), never into `results`.
  const sink = of.sink ?? {};
  const data = comparisons.map((c) => (of.pairs ? of.pairs(c) : windowPairs(byName.get(c.a), byName.get(c.b))));
  const fitted = familyPrior(
    data,
    comparisons.map((c) => !!c.side_by_side),
  );
  const { reps, prior, covariates, split } = fitted;
  sink.prior = priorRecord(fitted, split ? 0 : undefined);
  if (split) sink.prior_side_by_side = priorRecord(fitted, 1);
  else delete sink.prior_side_by_side;
  const procedure = of.procedure ?? ANSWERS_PROCEDURE;
  const ratio = (i: number, level: number) =>
    testRatio(
      procedure,
      { rounds: roundMeans(data[i]!), reps: reps[i]!, prior, s02: prior.scale(covariates[i]) },
      level,
    );
  const rejected = decidedLevels(
    data.map((_, i) => ratio(i, 0.95).p),
    alphaK,
  );
  const margin = marginPct / 100;
  return comparisons.map((c, i) => {
    const kept = before.find((x) => x.id === c.id && x.verdict !== 'undecided');
    if (kept) return kept;
    const pairs = data[i]!.a.length;
    if (rejected[i] !== null) return answerOf(c, ratio(i, 1 - rejected[i]!), pairs, k, 'faster');
    // Equal: Schuirmann's two one-sided tests, each at alpha_k / m, so the interval at 1 − 2·alpha_k / m.
    const r = ratio(i, 1 - (2 * alphaK) / m);
    if (r.lo >= 1 / (1 + margin) && r.hi <= 1 + margin) return answerOf(c, r, pairs, k, 'equal');
    // Open: the interval at Bonferroni's 1 − alpha_k / m, which holds 1 whenever it was not rejected
    // (p ≥ alpha_k / m).
    return answerOf(c, ratio(i, 1 - alphaK / m), pairs, k, 'undecided');
  });
}

/**
 * Whether a run's open answers were stated at "equal"'s 1 − 2α/m of their last look, as results written by earlier
 * versions recorded them (now: at 1 − α/m, which holds 1), read from the levels the file holds: the method line says
 * what the file holds.
 */
export function openAtEqualsLevel(r: Results, answers: Answer[]): boolean {
  const alpha = r.looks?.at(-1)?.alpha;
  if (alpha === undefined) return false;
  const m = answers.length;
  const open = answers.filter((a) => a.verdict === 'undecided' && !a.out && !a.short && a.level !== undefined);
  return open.length > 0 && open.every((a) => Math.abs(a.level - (1 - (2 * alpha) / m)) < 1e-9);
}

/**
 * Whether "faster" answers were decided by Holm's step-down, as results written before decidedLevels recorded them:
 * one decided at a level less strict than 1 − α/m of the look that decided it (`looks`: the family's looks). The
 * method line then says what the file holds, and its weaker guarantee (any false "faster"; "equal" at α/m beside it).
 */
export function decidedByStepDown(looks: { alpha: number }[] | undefined, answers: Answer[]): boolean {
  const m = answers.length;
  return answers.some((a) => {
    const alpha = looks?.[a.look - 1]?.alpha;
    return a.verdict === 'faster' && !a.out && alpha !== undefined && a.level < 1 - alpha / m - 1e-12;
  });
}

/** Contenders in a comparison that is still undecided: the ones the racing rounds go to. */
export const openContenders = (answers: Answer[]) =>
  new Set(answers.filter((a) => a.verdict === 'undecided').flatMap((a) => [a.a, a.b]));

/** The faster and slower side of a decided answer. */
export const sides = (a: Answer) =>
  a.ratio >= 1
    ? { winner: a.a, loser: a.b, factor: a.ratio, lo: a.lo, hi: a.hi }
    : { winner: a.b, loser: a.a, factor: 1 / a.ratio, lo: 1 / a.hi, hi: 1 / a.lo };

/**
 * The change a pair's test would decide about half the time, as a share: its interval's half-width on the log scale.
 * A true change of that size centres the estimate at it, so the interval clears "no change" in about half of runs
 * like this one; smaller changes mostly pass unseen. null: no finite interval (too few rounds).
 */
export const seenHalfTheTime = (a: Pick<Answer, 'lo' | 'hi'>): number | null =>
  Number.isFinite(a.lo) && Number.isFinite(a.hi) && a.lo > 0 ? Math.expm1((Math.log(a.hi) - Math.log(a.lo)) / 2) : null;

/** "the interval's largest distance from 1", as a share: the bound an "equal" answer rules out beyond. */
export const bound = (a: Pick<Answer, 'lo' | 'hi'>) => Math.max(a.hi - 1, 1 / a.lo - 1);
