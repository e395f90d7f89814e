// Wilcoxon's signed-rank test on one pair's per-round log ratios, with the Hodges–Lehmann
// estimate (the median of the Walsh averages) and the interval that inverts the test (Hollander
// & Wolfe, Nonparametric Statistical Methods, 3.1–3.3; R's wilcox.test(conf.int = TRUE)).
//
// Why a rank procedure for a pair measured side by side: a launch of two fresh processes now and
// then runs 20–30% apart for its whole life (one side's JIT or placement), while most launches
// agree within a few %. A t on the round means lets those few launches set the interval; the
// signed-rank interval is hardly moved by them, and under the null (two sides treated alike,
// which goes first alternating) the round ratios are symmetric about 0, which is all it assumes.
// Its error rate is exact at any n (the null distribution is enumerated, not approximated).

import type { ModeratedRatio } from './moderated';
import { sampleVariance } from './stats';

/**
 * What the test says of a pair: the moderated t's fields, with the rank procedure's name and `sd` for the report
 * only.
 */
export type RankRatio = Omit<ModeratedRatio, 'procedure'> & {
  procedure: 'signed-rank';
};

/** P(W+ ≤ w) for w = 0 … n(n+1)/2 under the null: each rank's sign a fair coin. */
export function signedRankCdf(n: number): Float64Array {
  const max = (n * (n + 1)) / 2;
  const p = new Float64Array(max + 1);
  p[0] = 1;
  for (let k = 1; k <= n; k++) {
    for (let s = (k * (k + 1)) / 2; s >= 0; s--) p[s] = (p[s]! + (s >= k ? p[s - k]! : 0)) / 2;
  }
  for (let s = 1; s <= max; s++) p[s] = p[s]! + p[s - 1]!;
  return p;
}

const cdfs = new Map<number, Float64Array>();
const cdfOf = (n: number) => cdfs.get(n) ?? cdfs.set(n, signedRankCdf(n)).get(n)!;

/** W+: the sum of the ranks of |x| over the positive x (ties share their mean rank; zeros are dropped). */
function wPlus(xs: number[]): { w: number; n: number } {
  const nz = xs.filter((x) => x !== 0).map((x) => ({ a: Math.abs(x), pos: x > 0 }));
  nz.sort((u, v) => u.a - v.a);
  let w = 0;
  for (let i = 0; i < nz.length; ) {
    let j = i;
    while (j + 1 < nz.length && nz[j + 1]!.a === nz[i]!.a) j++;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) if (nz[k]!.pos) w += rank;
    i = j + 1;
  }
  return { w, n: nz.length };
}

const procedure = 'signed-rank' as const;

/**
 * The k-th smallest of `a` (from 0), found by partitioning `a` in place (Hoare's selection, a median-of-three pivot):
 * the test reads three or four of the Walsh averages (the median, the interval's ends), and selecting them costs about
 * a quarter of sorting them all at 51 rounds (18 µs against 79 µs), a fifth at 100. A later call finds `a` partly
 * in order.
 */
export function orderStatistic(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const x = a[lo]!;
    const y = a[(lo + hi) >> 1]!;
    const z = a[hi]!;
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i > j) break;
      const t = a[i]!;
      a[i++] = a[j]!;
      a[j--] = t;
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** What the test reads of a sample at any level: its Walsh averages (in no set order), W+ and the non-zero count. */
interface RankData {
  xs: number[];
  walsh: Float64Array;
  w: number;
  nz: number;
}

/**
 * The last sample's rank data: a look asks for one pair's p, then for its interval at another level, on equal rounds.
 * Equal means the same values in the same order, so a caller that changes its array afterwards gets a fresh one.
 */
let last: RankData | null = null;

function rankData(xs: number[]): RankData {
  if (last && last.xs.length === xs.length && last.xs.every((x, i) => Object.is(x, xs[i]))) return last;
  // The interval is read off the same sample the test ranks: zeros dropped from both (as R's wilcox.test does), so
  // a p below α never comes with an interval that reaches 1.
  const ys = xs.filter((x) => x !== 0);
  const n = ys.length;
  const walsh = new Float64Array((n * (n + 1)) / 2);
  let at = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh[at++] = (ys[i]! + ys[j]!) / 2;
  const { w, n: nz } = wPlus(xs);
  last = { xs: [...xs], walsh, w, nz };
  return last;
}

/**
 * The fewest rounds (none at 0) with an interval at `level`: the widest, from the least to the greatest Walsh
 * average, covers with 1 − 2^(1 − n), so n ≥ log2(2 / (1 − level)); 6 at 95%.
 */
export const roundsForInterval = (level: number) => Math.ceil(Math.log2(2 / (1 - level)));

/** The test of "no change" (two-sided p), the Hodges–Lehmann ratio and its interval at `level`. */
export function signedRank(xs: number[], level = 0.95): RankRatio {
  const n = xs.length;
  const sd = n > 1 ? Math.sqrt(sampleVariance(xs)) : NaN;
  const { walsh, w, nz } = rankData(xs);
  const m = walsh.length;
  const at = (k: number) => orderStatistic(walsh, k);
  // Every round at 0 (none left once zeros are dropped): no change, the ratio 1.
  const hl = m ? (m % 2 ? at((m - 1) / 2) : (at(m / 2 - 1) + at(m / 2)) / 2) : n ? 0 : NaN;
  const test = cdfOf(nz);
  const max = (nz * (nz + 1)) / 2;
  const below = test[Math.floor(w)]!;
  const above = 1 - (Math.ceil(w) >= 1 ? test[Math.ceil(w) - 1]! : 0);
  const p = nz ? Math.min(1, 2 * Math.min(below, above)) : 1;
  // The interval [walsh_(k), walsh_(m+1-k)] covers with 1 − 2·P(W+ ≤ k − 1): the largest such k.
  const cdf = cdfOf(nz);
  let k = 0;
  while (k < max && cdf[k]! <= (1 - level) / 2) k++;
  const base = { procedure, ratio: Math.exp(hl), level, p, n, own_df: n - 1, df: n - 1, sd };
  if (k < 1 || max < 1) {
    const zeros = n - nz ? ` (${n - nz} at 0, which count for nothing)` : '';
    const pct = `${(level * 100).toFixed(1)}%`;
    const need = roundsForInterval(level);
    const short = `an interval at ${pct} needs at least ${need} rounds: ${nz} round(s)${zeros} cannot reach it`;
    return { ...base, lo: 0, hi: Infinity, short };
  }
  return { ...base, lo: Math.exp(at(k - 1)), hi: Math.exp(at(m - k)) };
}
