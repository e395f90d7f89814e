// Statistics over repeated runs. Medians and the binomial distribution come from
// simple-statistics; the order-statistic interval of the median, Holm's correction, rank
// intervals and the additive fit of blocks are written here because no maintained JS library has
// them. The moderated t and the signed-rank test have files of their own.
import { binomialDistribution, max, median, min } from 'simple-statistics';

/** Seeded PRNG (mulberry32): the round order of a run repeats from its recorded seed. */
export function seededRandom(seed = 0x5eed): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates shuffle of a copy. */
export function shuffled<T>(xs: readonly T[], random: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** An interval with its exact coverage (0.9375 means a 93.75% interval). */
/**
 * One ratio A ÷ B estimated: exp of the mean ln ratio, its interval at `level`, and its test's two-sided p against 1.
 * Every procedure returns one (stats/procedures.ts), and every answer, pooled answer and check records one (model/).
 */
export interface RatioEstimate {
  ratio: number;
  lo: number;
  hi: number;
  level: number;
  p: number;
}

export interface Interval {
  lo: number;
  hi: number;
  level: number;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomCdfHalf(k: number, n: number): number {
  if (k < 0) return 0;
  const pmf = binomialDistribution(n, 0.5) ?? [];
  let s = 0;
  for (let i = 0; i <= k && i < pmf.length; i++) s += pmf[i]!;
  return Math.min(1, s);
}

/** Exact coverage of [x(k), x(n-k+1)] as an interval of the median of n runs. */
export const orderStatCoverage = (n: number, k: number) => +(1 - 2 * binomCdfHalf(k - 1, n)).toFixed(12);

/**
 * Distribution-free interval of the median from order statistics: the narrowest
 * [x(k), x(n-k+1)] whose coverage is at least `level`. When no such interval exists
 * (n ≤ 5 for 95%), the widest one, [min, max], with its real, lower coverage.
 */
export function medianInterval(xs: number[], level = 0.95): Interval {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return { lo: NaN, hi: NaN, level: 0 };
  let k = 1;
  while (k + 1 <= Math.ceil(n / 2) && orderStatCoverage(n, k + 1) >= level) k++;
  return { lo: s[k - 1]!, hi: s[n - k]!, level: orderStatCoverage(n, k) };
}

/** Largest distance from the median to an end of its interval, as a share of the median. */
export const halfWidth = (median: number, ci: Interval) => Math.max(median - ci.lo, ci.hi - median) / median;

export interface Summary {
  median: number;
  min: number;
  max: number;
  ci: Interval;
  n: number;
}

export function summarize(xs: number[], level = 0.95): Summary {
  const v = xs.filter(Number.isFinite);
  if (v.length === 0) return { median: NaN, min: NaN, max: NaN, ci: { lo: NaN, hi: NaN, level: 0 }, n: 0 };
  return { median: median(v), min: min(v), max: max(v), ci: medianInterval(v, level), n: v.length };
}

/** (max - min) / median: the run-to-run spread the README reports. */
export const spread = (xs: number[]) => (xs.length ? (max(xs) - min(xs)) / median(xs) : NaN);

export const geometricMean = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

/**
 * Rank intervals: the best and worst rank each item can have given the decided comparisons
 * ([faster, slower] index pairs). Best = 1 + how many are decided faster than it; worst = n −
 * how many it is decided faster than. Undecided pairs may fall either way.
 */
export function rankIntervals(n: number, decided: [number, number][]): { lo: number; hi: number }[] {
  return Array.from({ length: n }, (_, i) => ({
    lo: 1 + decided.filter(([, slower]) => slower === i).length,
    hi: n - decided.filter(([faster]) => faster === i).length,
  }));
}

export const rankLabel = (g: { lo: number; hi: number }) => (g.lo === g.hi ? `${g.lo}` : `${g.lo}–${g.hi}`);

/** Holm's step-down correction: adjusted p-values, in the input order. */
export function holm(ps: number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    out[i] = running;
  });
  return out;
}

/** The arithmetic mean (NaN of none). */
export const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Sample variance (n − 1 denominator); NaN for a single value. */
export function sampleVariance(xs: number[]): number {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}

/**
 * Two-way additive fit x ≈ level[unit] + effect[block] by alternating means (a few passes reach the
 * least-squares fit), block effects centred on 0. For unbalanced data, where later rounds measure
 * only the contenders still racing: a plain per-round mean would mix who was measured with the drift.
 */
export function additiveFit(
  xs: { unit: string; block: number; x: number }[],
  passes = 20,
): { level: Map<string, number>; effect: Map<number, number> } {
  const level = new Map<string, number>();
  const effect = new Map<number, number>();
  const units = [...new Set(xs.map((d) => d.unit))];
  const blocks = [...new Set(xs.map((d) => d.block))];
  for (let pass = 0; pass < passes; pass++) {
    for (const u of units)
      level.set(u, mean(xs.filter((d) => d.unit === u).map((d) => d.x - (effect.get(d.block) ?? 0))));
    for (const b of blocks) effect.set(b, mean(xs.filter((d) => d.block === b).map((d) => d.x - level.get(d.unit)!)));
    const centre = mean([...effect.values()]);
    for (const b of blocks) effect.set(b, effect.get(b)! - centre);
  }
  return { level, effect };
}
