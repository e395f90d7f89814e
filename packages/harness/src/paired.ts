// Hodges–Lehmann shifts with their exact distribution-free intervals and tests.
//
// pairedRatio: use when the rounds of a benchmark pair A's measured windows with B's (same
// round, same window index), so drift shared by the round cancels in each difference. The
// values are log req/s, so a shift is a ratio. The procedure is the Wilcoxon signed-rank
// test and the Hodges–Lehmann interval that inverts it, so "the interval excludes 1" and
// "p ≤ α" are the same statement.
//
// pairedT: the same pairs by a Student t on the log differences, variance and degrees of freedom
// taken from the design effect; what the family's answers use (decide.ts), since a rank test
// on a few clustered pairs cannot reach a family's level whatever the gap (see pairedT).
//
// mannWhitneyShift: the unpaired counterpart (Mann–Whitney U and the two-sample
// Hodges–Lehmann shift), for two runs whose values do not pair, as in `compare`.
//
// Both statistics are counted on the sorted estimates the interval is read from (Walsh
// averages, pairwise differences), which makes the duality hold by construction.
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
const EXACT_SIGNED_RANK_MAX = 200;
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

/** Number of positive values, a zero counting ½: W+ over Walsh averages, U over differences. */
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

// ---- Wilcoxon signed-rank (paired) ----

const signedRankCache = new Map<number, Float64Array>();

/**
 * Exact null distribution of Wilcoxon's W+ for n nonzero pairs: P(W+ = w), w = 0..n(n+1)/2.
 * Under H0 each rank 1..n is positive with probability ½, independently, so the counts obey
 * c_k(w) = c_{k−1}(w) + c_{k−1}(w − k); halving at each step keeps them probabilities (no 2^n
 * overflow). Exact dyadic values while the counts fit in 53 bits (n ≲ 50); rounding beyond.
 */
export function signedRankNull(n: number): Float64Array {
  const cached = signedRankCache.get(n);
  if (cached) return cached;
  const pmf = new Float64Array((n * (n + 1)) / 2 + 1);
  pmf[0] = 1;
  for (let k = 1; k <= n; k++) {
    for (let w = (k * (k + 1)) / 2; w >= 0; w--) pmf[w] = (pmf[w]! + (w >= k ? pmf[w - k]! : 0)) / 2;
  }
  signedRankCache.set(n, pmf);
  return pmf;
}

/**
 * W+ under H0 for n pairs: exact up to 200 independent pairs, normal beyond (variance without tie
 * correction). Pairs in clusters (the windows of one round share that round's launches) are worth
 * fewer independent ones: a design effect above 1 (Kish: 1 + (m − 1)·ICC for clusters of m)
 * multiplies the null variance, and the normal approximation takes over, as in the clustered
 * signed-rank test of Rosner, Glynn & Lee (Biometrics 62, 2006).
 */
/** A design effect this close to 1 is 1: the exact distribution applies. */
const INDEPENDENT = 1 + 1e-9;

const signedRankH0 = (n: number, designEffect = 1): SymmetricNull =>
  n <= EXACT_SIGNED_RANK_MAX && designEffect <= INDEPENDENT
    ? tabulated(signedRankNull(n))
    : normalNull((n * (n + 1)) / 2, (designEffect * (n * (n + 1) * (2 * n + 1))) / 24);

/** The smallest two-sided p an exact signed-rank test can give at n pairs: all signs alike. */
export const smallestSignedRankP = (n: number) => Math.min(1, 2 / 2 ** n);

/** All (d_i + d_j)/2 for i ≤ j, sorted: the n(n+1)/2 estimates the Hodges–Lehmann shift is read from. */
export function walshAverages(d: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < d.length; i++) for (let j = i; j < d.length; j++) out.push((d[i]! + d[j]!) / 2);
  return out.sort((x, y) => x - y);
}

/**
 * Two-sided Wilcoxon signed-rank test of "the differences d are symmetric about 0". Exact zeros
 * are dropped (Wilcoxon's rule). W+ is counted as the number of positive Walsh averages (a zero
 * one counts ½), which equals the sum of the mid-ranks of |d| over the positive d (Tukey). With
 * ties among |d| the exact null assumes no ties, so p is then approximate.
 */
export function signedRankTest(d: number[], designEffect = 1): { n: number; wPlus: number; p: number } {
  const nonzero = d.filter((x) => x !== 0);
  const n = nonzero.length;
  if (n === 0) return { n, wPlus: 0, p: 1 };
  const wPlus = positives(walshAverages(nonzero));
  return { n, wPlus, p: twoSidedP(signedRankH0(n, designEffect), wPlus) };
}

/** The fewest pairs with an interval at `level` when pairs carry a design effect (normal approximation). */
function minClusteredPairsFor(level: number, designEffect: number): number {
  let n = 1;
  while (n < 10_000 && !(signedRankH0(n, designEffect).cdf(0) <= (1 - level) / 2)) n++;
  return n;
}

/** The fewest pairs with any interval at `level`, exact or at a design effect. */
export const pairsNeeded = (level: number, designEffect = 1) => (designEffect > INDEPENDENT ? minClusteredPairsFor(level, designEffect) : minPairsFor(level));

/** The fewest pairs with a signed-rank interval at `level` (6 for 95%). */
export function minPairsFor(level: number): number {
  if (!(level < 1)) return Infinity;
  let n = 1;
  while (smallestSignedRankP(n) > 1 - level) n++;
  return n;
}

/**
 * One-sample Hodges–Lehmann estimate of the centre of d (median of the Walsh averages) with the
 * interval that inverts signedRankTest: at level 1−α it excludes 0 iff p ≤ α (up to ties and
 * zeros: the interval keeps zero differences, the test drops them). Too few pairs: (−∞, +∞).
 */
export function hodgesLehmann(d: number[], level = 0.95, designEffect = 1): Bounds & { estimate: number; n: number } {
  const n = d.length;
  const walsh = walshAverages(d);
  const ci = n > 0 ? dualInterval(walsh, signedRankH0(n, designEffect), level) : undefined;
  const need = pairsNeeded(level, designEffect);
  const at = designEffect > INDEPENDENT ? ` at design effect ${designEffect.toFixed(2)}` : '';
  const tooFew: Bounds = { lo: -Infinity, hi: Infinity, level, short: `need ≥ ${need} pairs for a ${percent(level)} interval${at}; have ${n}` };
  return { estimate: sortedMedian(walsh), ...(ci ?? tooFew), n };
}

/**
 * A/B throughput ratio from paired windows: a[i] and b[i] are req/s of the same round and window.
 * d = ln a − ln b; the ratio is exp of its Hodges–Lehmann estimate, the interval exp of its
 * interval, p the signed-rank test's, both with the same design effect (see signedRankH0).
 * Pairs with a non-positive or missing value are dropped.
 */
export function pairedRatio(a: number[], b: number[], level = 0.95, designEffect = 1) {
  if (a.length !== b.length) throw new Error(`pairedRatio: ${a.length} values of A but ${b.length} of B; pairs must align`);
  const d = a.map((x, i) => Math.log(x) - Math.log(b[i]!)).filter(Number.isFinite);
  const hl = hodgesLehmann(d, level, designEffect);
  return {
    procedure: 'paired Hodges–Lehmann (Wilcoxon signed-rank)' as const,
    ratio: Math.exp(hl.estimate), lo: Math.exp(hl.lo), hi: Math.exp(hl.hi), level: hl.level, n: hl.n,
    p: signedRankTest(d, designEffect).p,
    ...(hl.short !== undefined && { short: hl.short }),
  };
}

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
 * on the variance, as the signed-rank test does (see signedRankH0).
 */
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
