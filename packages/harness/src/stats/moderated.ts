// The empirical-Bayes moderated t (Smyth, "Linear models and empirical Bayes methods for
// assessing differential expression", Stat. Appl. Genet. Mol. Biol. 3(1), 2004; limma's
// fitFDist, squeezeVar and eBayes, without covariates). Use when a family of comparisons each
// has a few replicates of its own: with 3 rounds a comparison's variance has 2 degrees of
// freedom, and a t at a family's level (α/45) on 2 df needs a critical value near 30. Each
// comparison's variance is shrunk toward the family's, s̃² = (d₀·s₀² + d·s²)/(d₀ + d), and its t
// gets d₀ + d degrees of freedom. d₀ is estimated from how much the comparisons' variances
// disagree: when they differ more than sampling explains (Next.js against raw servers), d₀ is
// small and each keeps mostly its own; when they agree, d₀ is large and the family's decides.
//
// The unit is one round: d_r, the mean over the round's paired windows of ln A − ln B. Rounds are
// independent launches, so no design effect is needed; what the windows of one launch share is
// inside d_r. digamma and trigamma come from stdlib; trigamma's inverse is limma's, solved here
// by bisection (trigamma is monotone) because stdlib has no tetragamma for limma's Newton step.
import digamma from '@stdlib/math-base-special-digamma';
import trigamma from '@stdlib/math-base-special-trigamma';
import jstat from 'jstat';
import { mean, type RatioEstimate, sampleVariance } from './stats';

/** jStat's Student t (cdf, inv); the package ships no types. */
export const studentT: { cdf(t: number, df: number): number; inv(p: number, df: number): number } =
  // biome-ignore lint/suspicious/noExplicitAny: jstat's typings lack studentt, which it exports either way round
  (jstat as any).studentt ?? (jstat as any).jStat.studentt;

/**
 * The family's prior on a comparison's variance: s² ~ s₀²·χ²(d₀)/d₀. d₀ = Infinity: every variance
 * is s₀². With a covariate, s₀² differs by comparison (`scale(i)`); without, it is one value.
 */
export interface Prior {
  d0: number;
  s02: number;
  /** The prior scale of a comparison with these covariate values (s02 for all without a covariate). */
  scale: (covariate?: number | number[]) => number;
  /** Comparisons (with d > 0) it was estimated from, and their degrees of freedom added up. */
  n: number;
  df_sum: number;
  /** With a covariate: the fitted log-variance's slope on the first (1: the variance scales with the covariate's). */
  slope?: number;
}

/** y with trigamma(y) = x (limma's trigammaInverse, by bisection on log y: 200 halvings reach 1e-12). */
export function trigammaInverse(x: number): number {
  if (x > 1e7) return 1 / Math.sqrt(x);
  if (x < 1e-6) return 1 / x;
  let [lo, hi] = [Math.log(1e-8), Math.log(1e8)];
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (trigamma(Math.exp(mid)) > x) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}

/**
 * Least squares y ≈ intercept + Σ slope_k·x_k (no columns: y ≈ its mean), and the residual sum of
 * squares, by the normal equations of the centred columns (two at most here: a Gauss–Jordan
 * elimination is enough). A column that does not vary, or repeats another, gets slope 0.
 */
function ols(y: number[], x: number[][]): { intercept: number; slopes: number[]; rss: number } {
  const p = x[0]?.length ?? 0;
  const my = mean(y);
  const mx = Array.from({ length: p }, (_, k) => mean(x.map((r) => r[k]!)));
  const a = Array.from({ length: p }, (_, j) => [
    ...Array.from({ length: p }, (_, k) => x.reduce((s, r) => s + (r[j]! - mx[j]!) * (r[k]! - mx[k]!), 0)),
    x.reduce((s, r, i) => s + (r[j]! - mx[j]!) * (y[i]! - my), 0),
  ]);
  const slopes = new Array<number>(p).fill(0);
  const live: number[] = [];
  for (let j = 0; j < p; j++) {
    if (!(Math.abs(a[j]![j]!) > 1e-12 * (1 + Math.abs(a[j]![p]!)))) continue;
    live.push(j);
    for (let i = 0; i < p; i++) {
      if (i === j) continue;
      const f = a[i]![j]! / a[j]![j]!;
      for (let k = 0; k <= p; k++) a[i]![k]! -= f * a[j]![k]!;
    }
  }
  for (const j of live) slopes[j] = a[j]![p]! / a[j]![j]!;
  const intercept = my - slopes.reduce((s, b, k) => s + b * mx[k]!, 0);
  const fit = (r: number[]) => intercept + slopes.reduce((s, b, k) => s + b * r[k]!, 0);
  return { intercept, slopes, rss: y.reduce((s, v, i) => s + (v - fit(x[i]!)) ** 2, 0) };
}

/**
 * The fewest comparisons a trend is fitted from: a slope from a handful of log variances (each ±1.3 at 2 df) would be
 * noise.
 */
export const MIN_TREND = 10;

/**
 * limma's fitFDist: d₀ and s₀² by the method of moments on log s². Variances of exactly 0 (a
 * comparison whose rounds agree to the last digit) are raised to 1e-5 of the median, as limma
 * does, so a log exists. Under two comparisons with d > 0: no prior (d₀ = 0).
 *
 * `covariate` (limma's trend): a value, or a few, per comparison that predict its log variance,
 * fitted here by least squares (limma fits a natural spline of up to 4 df on one covariate), from
 * MIN_TREND comparisons on. The answers pass the log of the comparison's within-launch window
 * variance: in a nested design the windows' spread inside a launch is independent of how launch
 * means vary, and a noisy contender (Next.js) is noisy at both levels, so its comparisons get a
 * larger prior scale instead of the quiet pairs' one. They add 1 for a comparison measured side by
 * side, 0 for one apart, when the family has both (answers/decide.ts): one d₀ from the whole
 * family, each kind of layout its own scale.
 *
 * When the variances agree more than sampling predicts, d₀ is infinite and s₀² the pooled
 * variance Σd·s²/Σd (limma since 2017 takes mean(s²), the same when every d is equal; the rounds
 * of racing give comparisons unequal d, and the pooled variance is then the scale's MLE); with a
 * covariate, exp of the fitted line, as limma does.
 */
export function fitPrior(s2: number[], df: number[], covariate?: number[] | number[][]): Prior {
  const rows = covariate?.map((c) => (Array.isArray(c) ? c : [c]));
  const ok = s2.map((_, i) => i).filter((i) => df[i]! > 0 && Number.isFinite(s2[i]!) && s2[i]! >= 0);
  const df_sum = ok.reduce((s, i) => s + df[i]!, 0);
  const trend = !!rows && ok.length >= MIN_TREND && ok.every((i) => rows[i]!.every(Number.isFinite));
  if (ok.length < 2) return { d0: 0, s02: NaN, scale: () => NaN, n: ok.length, df_sum };
  const sorted = ok.map((i) => s2[i]!).sort((a, b) => a - b);
  const m = sorted[sorted.length >> 1]! || 1;
  const x = ok.map((i) => Math.max(s2[i]!, 1e-5 * m));
  const e = ok.map((i, k) => Math.log(x[k]!) - digamma(df[i]! / 2) + Math.log(df[i]! / 2));
  const cov = trend ? ok.map((i) => rows![i]!) : ok.map(() => []);
  const fit = ols(e, cov);
  const evar = fit.rss / (e.length - 1 - fit.slopes.length) - mean(ok.map((i) => trigamma(df[i]! / 2)));
  // The fitted mean log scale at a covariate value (a value missing or not finite: the family's mean there).
  const centreOf = (k: number) => mean(cov.map((r) => r[k]!));
  const logScale = (c?: number | number[]) => {
    const at = c === undefined ? [] : Array.isArray(c) ? c : [c];
    return fit.intercept + fit.slopes.reduce((s, b, k) => s + b * (Number.isFinite(at[k]) ? at[k]! : centreOf(k)), 0);
  };
  const centre = logScale();
  const base = { n: ok.length, df_sum, ...(trend ? { slope: fit.slopes[0]! } : {}) };
  if (!(evar > 0)) {
    const pooled = ok.reduce((s, i, k) => s + df[i]! * x[k]!, 0) / df_sum;
    return trend
      ? { d0: Infinity, s02: Math.exp(centre), scale: (c) => Math.exp(logScale(c)), ...base }
      : { d0: Infinity, s02: pooled, scale: () => pooled, ...base };
  }
  const d0 = 2 * trigammaInverse(evar);
  const shift = digamma(d0 / 2) - Math.log(d0 / 2);
  return { d0, s02: Math.exp(centre + shift), scale: (c) => Math.exp(logScale(c) + shift), ...base };
}

/**
 * squeezeVar: the posterior variance of one comparison, toward its prior scale `s02`, and its
 * degrees of freedom (capped, as in limma, at the family's total).
 */
export function squeeze(s2: number, df: number, prior: Prior, s02 = prior.s02): { s2: number; df: number } {
  if (!(prior.d0 > 0) || !Number.isFinite(s02)) return { s2: df > 0 ? s2 : NaN, df };
  if (prior.d0 === Infinity) return { s2: s02, df: prior.df_sum };
  const post = df > 0 ? (prior.d0 * s02 + df * s2) / (prior.d0 + df) : s02;
  return { s2: post, df: Math.min(prior.d0 + df, prior.df_sum) };
}

/** One comparison's replicates summarized: n per-round ln ratios, their mean, their sample variance (n − 1 df). */
export interface Replicates {
  n: number;
  mean: number;
  s2: number;
  df: number;
}

export function replicates(d: number[]): Replicates {
  const xs = d.filter(Number.isFinite);
  const n = xs.length;
  const m = n ? mean(xs) : NaN;
  return { n, mean: m, s2: n > 1 ? sampleVariance(xs) : NaN, df: Math.max(0, n - 1) };
}

export interface ModeratedRatio extends RatioEstimate {
  procedure: 'moderated-t';
  /** Rounds (replicates), the comparison's own df, the df its t used, and its posterior sd of one round's ln ratio. */
  n: number;
  own_df: number;
  df: number;
  sd: number;
  /** Set when no interval exists: what would fix it. */
  short?: string;
}

/** The moderated t of one comparison under the family's prior (its scale `s02`), with its interval at `level`. */
export function moderatedT(r: Replicates, prior: Prior, level = 0.95, s02 = prior.s02): ModeratedRatio {
  const procedure = 'moderated-t' as const;
  const post = squeeze(r.s2, r.df, prior, s02);
  if (!(r.n >= 1) || !(post.df >= 1) || !Number.isFinite(post.s2)) {
    return {
      procedure,
      ratio: r.n ? Math.exp(r.mean) : NaN,
      lo: 0,
      hi: Infinity,
      level,
      p: 1,
      n: r.n,
      own_df: r.df,
      df: post.df,
      sd: NaN,
      short:
        'need ≥ 2 rounds of this comparison, or a family of ≥ 2 ' +
        `comparisons with 2 rounds, for any interval; have ${r.n} round(s)`,
    };
  }
  const se = Math.sqrt(post.s2 / r.n);
  const t = se > 0 ? r.mean / se : r.mean === 0 ? 0 : Math.sign(r.mean) * Infinity;
  const q = studentT.inv(1 - (1 - level) / 2, post.df);
  return {
    procedure,
    ratio: Math.exp(r.mean),
    lo: Math.exp(r.mean - q * se),
    hi: Math.exp(r.mean + q * se),
    level,
    p: Math.min(1, 2 * (1 - studentT.cdf(Math.abs(t), post.df))),
    n: r.n,
    own_df: r.df,
    df: +post.df.toFixed(2),
    sd: Math.sqrt(post.s2),
  };
}

/**
 * The chance that a moderated t with this standard error and these degrees of freedom rejects at `level` when the true
 * ln ratio is `delta`: the noncentral t of noncentrality |delta| / se, both tails (jStat's noncentralt). A central t
 * shifted by |delta| / se, the usual shortcut, reads it up to 13 points low at 3 df. It is the power at the se a run
 * measured, not at a known one, so it carries that estimate's noise.
 */
export function tPower(delta: number, se: number, df: number, level = 0.95): number {
  if (!(se > 0) || !(df >= 1) || !Number.isFinite(delta)) return NaN;
  const q = studentT.inv(1 - (1 - level) / 2, df);
  const k = Math.abs(delta) / se;
  const nct = (x: number) => jstat.noncentralt.cdf(x, df, k);
  return Math.min(1, Math.max(0, 1 - nct(q) + nct(-q)));
}

/**
 * About how many rounds bring tPower to `target`: the se of a mean of n rounds shrinks as 1/√n, the df held (more
 * rounds add df, so this errs high), the far tail left out.
 */
export function roundsForPower(delta: number, se: number, n: number, df: number, level = 0.95, target = 0.8): number {
  if (!(se > 0) || !(df >= 1) || !(n >= 1) || !(Math.abs(delta) > 0)) return NaN;
  const k = studentT.inv(1 - (1 - level) / 2, df) + studentT.inv(target, df);
  return Math.max(1, Math.ceil(n * ((k * se) / Math.abs(delta)) ** 2));
}
