// Ratios of req/s with their intervals and tests; values are log req/s, so a shift is a ratio.
//
// pairedT: use when the rounds of a benchmark pair A's measured windows with B's (same round,
// same window index), so drift shared by the round cancels in each difference. A Student t on
// the log differences, variance and degrees of freedom taken from the design effect; what the
// family's answers use (decide.ts). An earlier version used the Wilcoxon signed-rank test: on
// a few clustered pairs a rank test cannot reach a family's level whatever the gap (see pairedT).
//
// mannWhitneyShift: the unpaired counterpart (Mann–Whitney U and the two-sample Hodges–Lehmann
// shift), for two runs whose values do not pair, as in `compare`. Its statistic is counted on
// the sorted pairwise differences the interval is read from, so the duality holds by construction.
import jstat from 'jstat';
import { errorFunction, mean, sampleStandardDeviation } from 'simple-statistics';

/** jStat's Student t (cdf, inv); the package ships no types. */
const studentT: { cdf(t: number, df: number): number; inv(p: number, df: number): number } = (jstat as any).studentt ?? (jstat as any).jStat.studentt;

/** An interval of a shift; too few values for the asked level give (−∞, +∞) and `short`. */
export interface Bounds {
  lo: number;
  hi: number;
  /** Exact coverage of [lo, hi]; the asked level when there are too few values for one. */
  level: number;
  /** Set when no interval reaches the asked level: what would fix it. */
  short?: string;
}

/** Up to these sizes the null distributions are exact (DP); beyond, normal approximations. */
const EXACT_U_MAX = 60;

/** Φ(z). simple-statistics' erf has fractional error below 1.2e-7 (its stdnormal table is coarser). */
const normalCdf = (z: number) => 0.5 * (1 + errorFunction(z / Math.SQRT2));

/** A null distribution on 0..max, symmetric about max/2, given by its lower tail P(S ≤ s). */
interface SymmetricNull {
  max: number;
  cdf: (s: number) => number;
}

/** The lower tail of an exact probability table; a half-integer s (ties) reads P(S ≤ ⌊s⌋). */
function tabulated(pmf: Float64Array): SymmetricNull {
  const cdf = new Float64Array(pmf.length);
  pmf.reduce((s, p, i) => (cdf[i] = s + p), 0);
  const max = pmf.length - 1;
  return { max, cdf: (s) => (s < 0 ? 0 : cdf[Math.min(Math.floor(s), max)]!) };
}

/** Normal approximation with continuity correction, on the same integer lattice as the exact table. */
const normalNull = (max: number, variance: number): SymmetricNull => ({
  max,
  cdf: (s) => normalCdf((Math.floor(s) + 0.5 - max / 2) / Math.sqrt(variance)),
});

/** Two-sided p: twice the smaller tail, P(S ≥ s) read as P(S ≤ max − s) by symmetry. */
const twoSidedP = (h0: SymmetricNull, s: number) => Math.min(1, 2 * Math.min(h0.cdf(s), h0.cdf(h0.max - s)));

/** Number of positive values, a zero counting ½: U over the pairwise differences. */
const positives = (xs: number[]) => xs.reduce((s, x) => s + (x > 0 ? 1 : x === 0 ? 0.5 : 0), 0);

function sortedMedian(s: number[]): number {
  const h = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** "95%", "99.986%": enough digits that a level just under 1 never prints as 100%. */
const percent = (level: number) => `${+(level * 100).toFixed(level > 0.999 ? 3 : 1)}%`;

/**
 * The interval dual to the test with null `h0`, read from the `sorted` estimates (N = h0.max
 * of them): [s(k), s(N−k+1)] with k the largest integer such that P(S ≤ k−1) ≤ (1−level)/2, so its
 * exact coverage 1 − 2·P(S ≤ k−1) is at least `level`, and k+1 would fall below it. (R's
 * wilcox.test picks the same k except when P(S ≤ k−1) equals (1−level)/2 exactly.) Undefined when
 * even k = 1 misses the level.
 */
function dualInterval(sorted: number[], h0: SymmetricNull, level: number): Bounds | undefined {
  const half = (1 - level) / 2;
  if (!(h0.cdf(0) <= half)) return undefined;
  let [k, top] = [1, Math.ceil(h0.max / 2)]; // invariant: cdf(k−1) ≤ half; the answer is ≤ top
  while (k < top) {
    const mid = Math.ceil((k + top) / 2);
    if (h0.cdf(mid - 1) <= half) k = mid;
    else top = mid - 1;
  }
  return { lo: sorted[k - 1]!, hi: sorted[h0.max - k]!, level: +(1 - 2 * h0.cdf(k - 1)).toFixed(12) };
}

// ---- Paired t (the family's answers) ----

/**
 * A/B throughput ratio from paired windows by a Student t on d = ln a − ln b: ratio exp(mean d),
 * interval exp(mean ± t·se). The pairs of one round share their launches, so the variance is
 * inflated by Kish's design effect and the degrees of freedom are those of n/DE effective pairs.
 * Why not the signed-rank test here: it counts signs and ranks only, so its smallest p is fixed
 * by n (16 pairs at design effect 1.34: about 0.003), while a family of 45 comparisons at 5%
 * needs p < 0.0011 at its first step; the t also weighs how large the gap is. Its error rate on
 * this machine's skewed, clustered windows is measured by the null simulation
 * (tests/unit/racing.test.ts), not assumed.
 */
export function pairedT(a: number[], b: number[], level = 0.95, designEffect = 1) {
  if (a.length !== b.length) throw new Error(`pairedT: ${a.length} values of A but ${b.length} of B; pairs must align`);
  const d = a.map((x, i) => Math.log(x) - Math.log(b[i]!)).filter(Number.isFinite);
  const n = d.length;
  const procedure = 'paired t on log req/s, with the design effect' as const;
  const nEff = n / Math.max(1, designEffect);
  if (nEff < 2) return { procedure, ratio: n ? Math.exp(mean(d)) : NaN, lo: 0, hi: Infinity, level, n, p: 1, df: 0, short: `need ≥ ${Math.ceil(2 * Math.max(1, designEffect))} pairs for any interval; have ${n}` };
  const m = mean(d);
  const se = sampleStandardDeviation(d) / Math.sqrt(nEff);
  const df = nEff - 1;
  const t = se > 0 ? m / se : m === 0 ? 0 : Math.sign(m) * Infinity;
  const q = studentT.inv(1 - (1 - level) / 2, df);
  return { procedure, ratio: Math.exp(m), lo: Math.exp(m - q * se), hi: Math.exp(m + q * se), level, n, p: Math.min(1, 2 * (1 - studentT.cdf(Math.abs(t), df))), df };
}

// ---- Mann–Whitney U (unpaired) ----

const uCache = new Map<string, Float64Array>();

/**
 * Exact null distribution of Mann–Whitney's U = #{(i, j): a_i > b_j} for sizes m and n:
 * P(U = u), u = 0..mn. The largest of the m + n values is either an a, beating all n b's, or a b,
 * beating none: N(u; m, n) = N(u − n; m − 1, n) + N(u; m, n − 1). Counts are summed in floating
 * point (no cancellation) and divided by their total, C(m+n, m).
 */
export function mannWhitneyNull(m: number, n: number): Float64Array {
  const key = `${m},${n}`;
  const cached = uCache.get(key);
  if (cached) return cached;
  let rows = Array.from({ length: n + 1 }, () => Float64Array.of(1)); // rows[j]: counts for sizes (i, j)
  for (let i = 1; i <= m; i++) {
    const next = [Float64Array.of(1)];
    for (let j = 1; j <= n; j++) {
      const c = new Float64Array(i * j + 1);
      rows[j]!.forEach((v, u) => (c[u + j]! += v));
      next[j - 1]!.forEach((v, u) => (c[u]! += v));
      next.push(c);
    }
    rows = next;
  }
  const counts = rows[n]!;
  const total = counts.reduce((s, c) => s + c, 0);
  const pmf = counts.map((c) => c / total);
  uCache.set(key, pmf);
  return pmf;
}

/**
 * U under H0: exact while both sizes are ≤ 60 and the values independent, normal beyond (variance
 * without tie correction). Values in clusters (the windows of one launch) take a design effect
 * on the variance, as in the clustered rank tests of Rosner, Glynn & Lee (Biometrics 2006).
 */
/** Above this a design effect counts: the values are clustered, no longer independent. */
const INDEPENDENT = 1 + 1e-9;

const uH0 = (m: number, n: number, designEffect = 1): SymmetricNull =>
  m <= EXACT_U_MAX && n <= EXACT_U_MAX && designEffect <= INDEPENDENT
    ? tabulated(mannWhitneyNull(m, n))
    : normalNull(m * n, (designEffect * m * n * (m + n + 1)) / 12);

/** The fewest values on each side with a Mann–Whitney interval at `level` (4 for 95%). */
function minPerSideFor(level: number): number {
  if (!(level < 1)) return Infinity;
  let s = 1;
  while (!(mannWhitneyNull(s, s)[0]! <= (1 - level) / 2)) s++;
  return s;
}

/**
 * Two-sample Hodges–Lehmann shift of a over b (median of all a_i − b_j) with its exact
 * distribution-free interval, the order statistics D(k), D(mn−k+1) of the mn differences
 * (Bauer 1972), and the two-sided Mann–Whitney p it inverts. U counts the positive differences
 * (a zero counts ½, the mid-rank rule); with ties the exact null is approximate.
 */
export function mannWhitneyShift(a: number[], b: number[], level = 0.95, designEffect = 1) {
  const [m, n] = [a.length, b.length];
  const diffs = a.flatMap((x) => b.map((y) => x - y)).sort((x, y) => x - y);
  const h0 = uH0(m, n, designEffect);
  const ci = m > 0 && n > 0 ? dualInterval(diffs, h0, level) : undefined;
  const tooFew: Bounds = { lo: -Infinity, hi: Infinity, level, short: `need ≥ ${minPerSideFor(level)} runs on each side for a ${percent(level)} interval; have ${m} and ${n}` };
  const u = positives(diffs);
  return {
    procedure: 'two-sample Hodges–Lehmann (Mann–Whitney U)' as const,
    shift: sortedMedian(diffs), ...(ci ?? tooFew), m, n, u,
    p: m > 0 && n > 0 ? twoSidedP(h0, u) : 1,
  };
}
