// Two runs compared (npm run compare, cli/compare.ts): per contender in both runs, the change of its
// relative index, tested as the answers are: a moderated t (moderated.ts) on the two runs' launch
// means (unpaired: two runs share no rounds), every contender's variance shrunk toward the others',
// plus the variance a whole run adds (run-effect.ts: a contender can run 13% off in every launch
// of one run, which its launches' spread cannot show), and Holm's correction across every
// contender. A launch's index is its mean log req/s with its block's drift removed, less its
// runtime's reference; B's less its own reference shift too (the mean move of the other
// contenders of its runtime, those flagged left out, as TMM normalisation leaves out the genes
// that changed). The index is taken within a runtime because a run measures each runtime in a
// block of its own: a whole runtime can move against the others between two runs (by 8% in one
// pair of runs, docs/runs/answers-by-design.md), and against the whole run's reference that would
// read as a change of each of its contenders. The machine's and each runtime's shift are reported
// on their own lines.
import jstat from 'jstat';
import { median } from 'simple-statistics';
import type { ContenderResult, Results } from '../model/results';
import { ranked } from './ranking';
import { keptRuns } from './verdicts';
import { additiveFit, holm, mean } from '../stats/stats';
import { DECISION, holmLevels, windowsByRound } from './decide';
import { fitPrior, type Prior, type Replicates } from '../stats/moderated';
import { testRatio } from '../stats/procedures';
import { MIN_FOR_RUN_EFFECT, runEffectVariance } from '../stats/run-effect';
import { answersAgreement, CompareRefused, setupDifferences, type Agreement } from './agreement';

const ALPHA = DECISION.alpha;

export interface Row {
  name: string;
  medianA: number;
  medianB: number;
  /** Geometric means of the compared values: relative indices, or req/s with --absolute. */
  a: number;
  b: number;
  /** B ÷ A − 1, with the interval at the level Holm tested it at. */
  change: number;
  lo: number;
  hi: number;
  p: number;
  pHolm: number;
  flagged: boolean;
  /**
   * The change these two runs would flag about half the time: the half-width, as a share, of the
   * interval at Holm's first level (alpha over every contender). Smaller changes mostly pass unseen.
   */
  detectable: number;
}

export interface Comparison {
  mode: 'relative' | 'absolute';
  /** The level every change was tested at (Holm over the contenders): DECISION.alpha, as the report states it. */
  alpha: number;
  rows: Row[];
  notCompared: string[];
  /** B's reference ÷ A's: the shared dynamic contenders' req/s in B over A, overall (a figure, not a test). */
  commonShift: number;
  shared: number;
  /**
   * Per reference group (a runtime; "*" for contenders alone in theirs): B's reference ÷ A's, and how many dynamic
   * contenders it rests on.
   */
  shifts: { group: string; shift: number; shared: number }[];
  /**
   * The prior the contenders' variances were shrunk toward: sd of one launch's index, worth d0 df
   * (null: infinite); with `trend`, its scale follows each contender's within-launch noise and s0
   * is the scale at the family's mean noise.
   */
  prior: { d0: number | null; s0: number; trend: boolean };
  /**
   * What a run adds to a change beyond its launches' noise (stats/run-effect.ts): sd in ln, from `on` dynamic
   * contenders' changes.
   */
  /** The run effect's sd, over how many dynamic contenders, and the fewest it is estimated on. */
  runEffect: { sd: number; on: number; min: number };
  /** Set when no difference could reach significance at these run counts. */
  tooFewRuns: string | null;
  /** The contenders whose rank interval moved; null: the two runs ranked different contenders. */
  rankChanges: string[] | null;
  answers: Agreement;
  /** |change| over the rows: the median and the largest (null: no row). */
  changeSize: { median: number; max: number } | null;
  /**
   * What the two runs could find: over the rows with one, the median of Row.detectable and its range (null: none).
   */
  detectable: { n: number; median: number; min: number; max: number } | null;
}

const usable = (c: ContenderResult | undefined) =>
  c && c.status === 'ok' && !c.self_check_of && !c.base_of && keptRuns(c.points[0]!).length > 0;

/**
 * Each contender's launches as log window req/s with its block's effect removed: a contender + round
 * additive fit on the launch means of each group apart (`groupOf`), so a round's drift is removed
 * per runtime block.
 */
export function roundAdjusted(
  r: Results,
  names: string[],
  groupOf: (name: string) => string = () => '*',
): Map<string, number[][]> {
  const launches = new Map(
    names.map((n) => [
      n,
      [...windowsByRound(r.contenders.find((c) => c.name === n))].map(([round, w]) => ({
        round,
        logs: w.map(Math.log),
      })),
    ]),
  );
  const out = new Map<string, number[][]>();
  for (const group of new Set(names.map(groupOf))) {
    const members = [...launches].filter(([n]) => groupOf(n) === group);
    // One member alone: a round's drift cannot be told from its own launch's noise, and is left in.
    const { effect } =
      members.length < 2
        ? { effect: new Map<number, number>() }
        : additiveFit(members.flatMap(([unit, ls]) => ls.map((l) => ({ unit, block: l.round, x: mean(l.logs) }))));
    for (const [n, ls] of members)
      out.set(
        n,
        ls.map((l) => l.logs.map((x) => x - (effect.get(l.round) ?? 0))),
      );
  }
  return new Map(names.map((n) => [n, out.get(n)!]));
}

/**
 * The group a contender's index is taken within: its runtime when 2 or more of that runtime's dynamic contenders are in
 * both runs, else "*" (the rest together); all in "*" where the rest would be one alone (its own reference).
 */
function referenceGroups(both: ContenderResult[], mode: 'relative' | 'absolute'): (name: string) => string {
  const dynamic = both.filter((c) => !c.static && !c.ceiling);
  const own = (c: ContenderResult) => dynamic.filter((x) => x.runtime === c.runtime).length >= 2;
  const byRuntime = mode === 'relative' && dynamic.filter((c) => !own(c)).length !== 1;
  const groups = new Map(both.map((c) => [c.name, byRuntime && own(c) ? c.runtime : '*']));
  return (name) => groups.get(name) ?? '*';
}

/**
 * B − A over launch means, as the replicates a moderated t takes: the pooled within-run variance
 * on nA + nB − 2 df, and n = 1/(1/nA + 1/nB) so that s²/n is the variance of the difference.
 */
export function twoSample(xa: number[], xb: number[]): Replicates {
  const [na, nb] = [xa.length, xb.length];
  const [ma, mb] = [mean(xa), mean(xb)];
  const df = na + nb - 2;
  const ss = xa.reduce((s, x) => s + (x - ma) ** 2, 0) + xb.reduce((s, x) => s + (x - mb) ** 2, 0);
  return { n: na && nb ? 1 / (1 / na + 1 / nb) : 0, mean: mb - ma, s2: df > 0 ? ss / df : NaN, df: Math.max(0, df) };
}

/**
 * Both runs' launches, each contender's index group and its dynamic ones: what the tests and the shifts are taken from.
 */
interface Indexed {
  names: string[];
  groupOf: (name: string) => string;
  wa: Map<string, number[][]>;
  wb: Map<string, number[][]>;
  dynamic: string[];
}

const level = (w: Map<string, number[][]>, n: string) => mean(w.get(n)!.flat());
const dynamicOf = (ix: Indexed, group?: string) =>
  ix.dynamic.filter((n) => group === undefined || ix.groupOf(n) === group);
const ref = (ix: Indexed, w: Map<string, number[][]>, group?: string) =>
  dynamicOf(ix, group).length ? mean(dynamicOf(ix, group).map((n) => level(w, n))) : 0;

/**
 * The mean move, B against A, of `names` less those `left` out (the ones flagged as changed), unless none would
 * remain; and how many it rests on.
 */
function meanMove(ix: Indexed, names: string[], left: Set<string>): { shift: number; on: number } {
  const unflagged = names.filter((n) => !left.has(n));
  const kept = unflagged.length ? unflagged : names;
  return { shift: kept.length ? mean(kept.map((n) => level(ix.wb, n) - level(ix.wa, n))) : 0, on: kept.length };
}

/**
 * A contender's reference shift: the mean move of the other dynamic contenders of its group. Its
 * own move stays out: counted in, a contender's 9% slow-down read as about 7% in a runtime of five.
 */
const shiftOf = (ix: Indexed, name: string, left: Set<string>) =>
  meanMove(
    ix,
    dynamicOf(ix, ix.groupOf(name)).filter((n) => n !== name),
    left,
  );

/** Each group's shift as reported: the mean move of all its dynamic contenders. */
const groupShifts = (ix: Indexed, left: Set<string>) =>
  new Map([...new Set(ix.names.map(ix.groupOf))].map((g) => [g, meanMove(ix, dynamicOf(ix, g), left).shift]));

/**
 * Every contender's change tested: the moderated t on its launch means (relative: against its
 * group's reference, B's less its own reference shift). That shift is a mean over k other
 * contenders' moves, so it adds about 1/k of the contender's variance to the change's: n is taken
 * as n·k/(k + 1), assuming the others about as noisy as this one.
 */
function tested(a: Results, b: Results, ix: Indexed, left: Set<string>, mode: Comparison['mode']) {
  const relative = mode === 'relative';
  // One value per launch: the mean of its windows' logs (the windows of one launch are not independent).
  const launchMeans = (w: Map<string, number[][]>, name: string, less: number) =>
    w.get(name)!.map((l) => mean(l) - (relative ? ref(ix, ix.wa, ix.groupOf(name)) + less : 0));
  const tests = ix.names.map((name) => {
    const { shift, on } = relative ? shiftOf(ix, name, left) : { shift: 0, on: 0 };
    return { name, on, xa: launchMeans(ix.wa, name, 0), xb: launchMeans(ix.wb, name, shift) };
  });
  const reps = tests.map((t) => {
    const r = twoSample(t.xa, t.xb);
    return t.on > 0 ? { ...r, n: (r.n * t.on) / (t.on + 1) } : r;
  });
  // The prior's scale follows each contender's within-launch noise, as the answers' does (decide.ts
  // noiseOf): a Next.js page with three launches a side is not lent the quiet raw servers' variance.
  const noise = tests.map((t) => windowNoise([...ix.wa.get(t.name)!, ...ix.wb.get(t.name)!]));
  const fitted = fitPrior(
    reps.map((r) => r.s2),
    reps.map((r) => r.df),
    noise,
  );
  const prior: Prior = { ...fitted, d0: Math.min(fitted.d0, DECISION.maxPriorDf) };
  const within = reps.map((r, i) =>
    testRatio('moderated-t', { rounds: [], reps: r, prior, s02: prior.scale(noise[i]) }),
  );
  const se2 = within.map((t) => (t.sd * t.sd) / t.n);
  const dyn = tests.map((t, i) => (ix.dynamic.includes(t.name) ? i : -1)).filter((i) => i >= 0);
  // --absolute keeps the machine's shift in every change, so most contenders moved: no run effect is estimated there.
  const tau2 = relative
    ? runEffectVariance(
        dyn.map((i) => reps[i]!.mean),
        dyn.map((i) => se2[i]!),
      )
    : 0;
  const test = (i: number, level: number) => withRunEffect(reps[i]!.mean, se2[i]! + tau2, within[i]!.df, level);
  // The half-width at Holm's first step (alpha over all): a change that large has p = alpha / m.
  const detectableOf = (i: number) => withRunEffect(0, se2[i]! + tau2, within[i]!.df, 1 - ALPHA / tests.length).hi - 1;
  const ps = reps.map((_, i) => test(i, 0.95).p);
  const adjusted = holm(ps);
  const levels = holmLevels(ps, ALPHA);
  const rows = tests.map(({ name, xa, xb }, i): Row => {
    const t = test(i, 1 - (levels[i] ?? ALPHA / tests.length));
    const rps = (r: Results) => r.contenders.find((c) => c.name === name)!.points[0]!.rps?.median ?? NaN;
    return {
      name,
      medianA: rps(a),
      medianB: rps(b),
      a: Math.exp(mean(xa)),
      b: Math.exp(mean(xb)),
      change: t.ratio - 1,
      lo: t.lo - 1,
      hi: t.hi - 1,
      p: ps[i]!,
      pHolm: adjusted[i]!,
      flagged: adjusted[i]! < ALPHA,
      detectable: detectableOf(i),
    };
  });
  return { rows, reps, prior, runEffect: { sd: Math.sqrt(tau2), on: dyn.length, min: MIN_FOR_RUN_EFFECT } };
}

/**
 * The log of a contender's pooled within-launch variance of log window req/s, over the launches of
 * both runs: the covariate of compare's prior, as of the answers'. NaN with no launch of two
 * windows (every launch measured as one), and then fitPrior fits no trend: one scale for all.
 */
function windowNoise(launches: number[][]): number {
  const many = launches.filter((l) => l.length > 1);
  const df = many.reduce((s, l) => s + l.length - 1, 0);
  const ss = many.reduce((s, l) => s + l.reduce((t, x) => t + (x - mean(l)) ** 2, 0), 0);
  return df > 0 && ss > 0 ? Math.log(ss / df) : NaN;
}

/**
 * A change's t with the run effect added to its within-run variance: on the moderated t's df (τ²,
 * estimated from the whole family, is taken as known). No interval without a finite variance.
 */
function withRunEffect(mean: number, variance: number, df: number, level: number) {
  if (!(variance >= 0) || !Number.isFinite(variance) || !(df >= 1))
    return { ratio: Math.exp(mean), lo: 0, hi: Infinity, p: 1 };
  if (variance === 0) return { ratio: Math.exp(mean), lo: Math.exp(mean), hi: Math.exp(mean), p: mean === 0 ? 1 : 0 };
  const se = Math.sqrt(variance);
  const q = jstat.studentt.inv(1 - (1 - level) / 2, df);
  return {
    ratio: Math.exp(mean),
    lo: Math.exp(mean - q * se),
    hi: Math.exp(mean + q * se),
    p: Math.min(1, 2 * (1 - jstat.studentt.cdf(Math.abs(mean / se), df))),
  };
}

/**
 * "name 2–4 → 1": the contenders of both runs whose rank interval differs between them. Null where the two runs
 * ranked different contenders: a rank among 4 and one among 29 are not the same scale.
 */
function rankChanges(a: Results, b: Results, both: ContenderResult[]): string[] | null {
  const rankOf = (r: Results) => new Map(ranked(r).map((c) => [c.name, c.rank]));
  const [ra, rb] = [rankOf(a), rankOf(b)];
  if (ra.size !== rb.size || [...ra.keys()].some((n) => !rb.has(n))) return null;
  return both
    .filter((c) => ra.get(c.name) !== rb.get(c.name))
    .map((c) => `${c.name} ${ra.get(c.name)} → ${rb.get(c.name)}`);
}

/** The rows' |change| and detectable change, summarised for the report. */
function summaries(rows: Row[]): Pick<Comparison, 'changeSize' | 'detectable'> {
  const changes = rows.map((r) => Math.abs(r.change));
  const d = rows.map((r) => r.detectable).filter((x) => Number.isFinite(x) && x > 0);
  return {
    changeSize: changes.length ? { median: median(changes), max: Math.max(...changes) } : null,
    detectable: d.length ? { n: d.length, median: median(d), min: Math.min(...d), max: Math.max(...d) } : null,
  };
}

/** At most this many passes, each leaving one more flagged contender out of its group's shift. */
const SHIFT_PASSES = 12;

/**
 * The contenders both runs measured, indexed for the tests (each within its group, its rounds' drift removed), and
 * those only one did; refused where the runs do not compare, or a relative change has no others to be relative to.
 */
function indexBoth(a: Results, b: Results, mode: Comparison['mode']) {
  const diffs = setupDifferences(a, b);
  if (diffs.length)
    throw new CompareRefused(
      'A and B were not measured on the same machine, software, data and load, so their figures do not compare: ' +
        diffs.join('; '),
    );
  const inB = new Map(b.contenders.map((c) => [c.name, c]));
  const both = a.contenders.filter((c) => usable(c) && usable(inB.get(c.name)));
  const notCompared = [...a.contenders, ...b.contenders]
    .filter((c) => !c.self_check_of && !c.base_of && !both.some((x) => x.name === c.name))
    .map((c) => c.name);
  const names = both.map((c) => c.name);
  const groupOf = referenceGroups(both, mode);
  const dynamic = both.filter((c) => !c.static && !c.ceiling).map((c) => c.name);
  // Relative to the others' shift needs others: one contender is its own reference, and would read its whole move
  // (the machine's too) as a change of zero variance.
  if (mode === 'relative' && dynamic.length < 2)
    throw new CompareRefused(
      `A and B share ${dynamic.length} measured contender${dynamic.length === 1 ? '' : 's'}: a change ` +
        "relative to the others' shift needs 2 or more; give --absolute (its change in req/s, the machine's shift " +
        'included) or compare runs of more contenders',
    );
  const ix = { names, groupOf, wa: roundAdjusted(a, names, groupOf), wb: roundAdjusted(b, names, groupOf), dynamic };
  return { ix: ix as Indexed, notCompared, both };
}

export function compare(a: Results, b: Results, mode: 'relative' | 'absolute' = 'relative'): Comparison {
  const { ix, notCompared, both } = indexBoth(a, b, mode);
  let left = new Set<string>();
  let result = tested(a, b, ix, left, mode);
  // One contender that moved drags its group's shift, so its unmoved neighbours read a change of their own (in a
  // runtime of three, one +30% read the other two −12%, flagged). So the largest change flagged leaves the shifts
  // first, one a pass, and the rest are tested again without it.
  for (let pass = 1; pass < SHIFT_PASSES && mode === 'relative'; pass++) {
    const next = result.rows
      .filter((r) => r.flagged && !left.has(r.name))
      .sort((x, y) => Math.abs(Math.log1p(y.change)) - Math.abs(Math.log1p(x.change)))[0];
    if (!next) break;
    left = new Set([...left, next.name]);
    result = tested(a, b, ix, left, mode);
  }
  const { rows, reps, prior, runEffect } = result;
  const shifts = [...groupShifts(ix, left)]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([group, s]) => ({ group, shift: Math.exp(s), shared: dynamicOf(ix, group).length }));
  const short = reps.filter((r) => !(r.df > 0)).length;
  const tooFewRuns =
    short && !(prior.d0 > 0)
      ? `${short} contender(s) have one launch in each run and no other contender lends a variance: ` +
        'need ≥ 2 launches on a side; measure more rounds'
      : null;
  return {
    mode,
    alpha: ALPHA,
    rows,
    notCompared,
    commonShift: Math.exp(ref(ix, ix.wb) - ref(ix, ix.wa)),
    shared: ix.dynamic.length,
    shifts,
    prior: {
      d0: Number.isFinite(prior.d0) ? +prior.d0.toFixed(2) : null,
      s0: +Math.sqrt(prior.s02).toFixed(4),
      trend: prior.slope !== undefined,
    },
    tooFewRuns,
    runEffect: { sd: +runEffect.sd.toFixed(4), on: runEffect.on, min: runEffect.min },
    rankChanges: rankChanges(a, b, both),
    answers: answersAgreement(a, b),
    ...summaries(rows),
  };
}
