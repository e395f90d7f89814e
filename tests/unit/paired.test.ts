import { describe, expect, test } from 'bun:test';
import {
  hodgesLehmann, mannWhitneyNull, mannWhitneyShift, minPairsFor, pairedRatio, signedRankNull, signedRankTest, smallestSignedRankP, walshAverages,
  pairedT,
} from '../../packages/harness/src/paired';
import { seededRandom } from '../../packages/harness/src/stats';

/** Brute force, independent of the DP: the W+ of all 2^n sign patterns of ranks 1..n. */
function allSignedRankSums(n: number): number[] {
  const sums: number[] = [];
  for (let mask = 0; mask < 2 ** n; mask++) {
    let w = 0;
    for (let r = 1; r <= n; r++) if (mask & (1 << (r - 1))) w += r;
    sums.push(w);
  }
  return sums;
}

/** Brute force: the U of every way to choose which m of m+n ranked values are a's. */
function allUs(m: number, n: number): number[] {
  const us: number[] = [];
  for (let mask = 0; mask < 2 ** (m + n); mask++) {
    const bits = [...Array(m + n).keys()].map((i) => (mask >> i) & 1);
    if (bits.filter(Boolean).length !== m) continue;
    let u = 0;
    bits.forEach((isA, i) => isA && (u += bits.slice(0, i).filter((x) => !x).length)); // b's below this a
    us.push(u);
  }
  return us;
}

const share = (xs: number[], keep: (x: number) => boolean) => xs.filter(keep).length / xs.length;

/** Standard normal draws by Box–Muller from a seeded uniform source. */
const normal = (rand: () => number) => () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

/** Sum of the mid-ranks of |d| over the positive d, computed directly (ties share the mean rank). */
function midRankWPlus(d: number[]): number {
  const abs = d.map(Math.abs);
  return d.reduce((s, x, i) => {
    if (x <= 0) return s;
    const below = abs.filter((a) => a < abs[i]!).length;
    const tied = abs.filter((a) => a === abs[i]!).length;
    return s + below + (tied + 1) / 2;
  }, 0);
}

describe('signed-rank null distribution', () => {
  test('matches enumeration of all sign patterns, n = 1..12', () => {
    for (let n = 1; n <= 12; n++) {
      const sums = allSignedRankSums(n);
      const pmf = signedRankNull(n);
      expect(pmf.length).toBe((n * (n + 1)) / 2 + 1);
      pmf.forEach((p, w) => expect(p).toBe(sums.filter((s) => s === w).length / 2 ** n)); // dyadic: exact
    }
  });
  test('n = 200: sums to 1, symmetric', () => {
    const pmf = signedRankNull(200);
    expect(pmf.length).toBe(20101);
    expect(pmf.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
    expect(pmf[100]! / pmf[20000]!).toBeCloseTo(1, 9);
    expect(pmf[0]).toBe(2 ** -200);
  });
});

describe('Wilcoxon signed-rank test', () => {
  test('all differences positive: p = 2/2^n', () => {
    const ones = (n: number) => Array.from({ length: n }, (_, i) => 0.1 * (i + 1));
    expect(signedRankTest(ones(5))).toEqual({ n: 5, wPlus: 15, p: 0.0625 });
    expect(signedRankTest(ones(6)).p).toBe(0.03125);
    expect(signedRankTest(ones(10)).p).toBe(2 / 1024);
    expect(signedRankTest(ones(10).map((x) => -x)).p).toBe(2 / 1024);
    expect(smallestSignedRankP(5)).toBe(0.0625);
    expect(smallestSignedRankP(1)).toBe(1);
  });
  test('exact zeros are dropped (Wilcoxon)', () => {
    expect(signedRankTest([0, 0.1, 0.2, 0, 0.3, 0.4, 0.5])).toEqual({ n: 5, wPlus: 15, p: 0.0625 });
    expect(signedRankTest([0, 0])).toEqual({ n: 0, wPlus: 0, p: 1 });
  });
  test('W+ counted on Walsh averages equals the mid-rank sum, with ties', () => {
    expect(signedRankTest([1, -1, 2, 2, 3]).wPlus).toBe(13.5); // ranks 1.5, 1.5, 3.5, 3.5, 5
    const rand = seededRandom(7);
    for (let t = 0; t < 50; t++) {
      const d = Array.from({ length: 3 + (t % 12) }, () => Math.round((rand() - 0.4) * 8)).filter((x) => x !== 0);
      expect(signedRankTest(d).wPlus).toBe(midRankWPlus(d));
    }
  });
  // Hollander & Wolfe (1973, p. 29), the example in R's ?wilcox.test: Hamilton depression scale,
  // first (x) and second (y) visit. R: V = 40, p-value = 0.03906, (pseudo)median 0.46.
  const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
  const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
  const d = x.map((xi, i) => xi - y[i]!);
  test('Hamilton depression data: V = 40, exact p = 20/512', () => {
    // Negative differences are the 2nd and 3rd smallest |d| (-0.08, -0.147): W- = 5, W+ = 45 - 5.
    // P(W+ ≥ 40) = P(W+ ≤ 5) = #{subsets of 1..9 summing to ≤ 5} / 2^9 = 10/512.
    expect(signedRankTest(d)).toEqual({ n: 9, wPlus: 40, p: 20 / 512 });
    expect(20 / 512).toBe(0.0390625);
  });
  test('Hamilton depression data: Hodges–Lehmann 0.46 and the narrowest exact 95% interval', () => {
    const walsh: number[] = [];
    d.forEach((di, i) => d.forEach((dj, j) => j >= i && walsh.push((di + dj) / 2)));
    walsh.sort((a, b) => a - b);
    expect(walshAverages(d)).toEqual(walsh);
    const hl = hodgesLehmann(d, 0.95);
    expect(hl.estimate).toBe(walsh[22]!); // the 23rd of 45
    expect(hl.estimate).toBeCloseTo(0.46, 12); // (0.43 + 0.49)/2, from the 4th and 7th differences: R's 0.46 checks out
    // Coverage of [W(k), W(46-k)] is 1 - 2 P(W+ ≤ k-1); count the tail by enumeration.
    const sums = allSignedRankSums(9);
    const coverage = (k: number) => 1 - 2 * share(sums, (s) => s <= k - 1);
    expect([hl.lo, hl.hi]).toEqual([walsh[5]!, walsh[39]!]); // k = 6, as R's qsignrank(0.025, 9) gives
    expect(hl.level).toBe(coverage(6));
    expect(hl.level).toBe(1 - 20 / 512);
    expect(coverage(6)).toBeGreaterThanOrEqual(0.95);
    expect(coverage(7)).toBeLessThan(0.95); // k + 1 would be narrower but miss 95%: this is the narrowest
    expect(hl.short).toBeUndefined();
  });
});

describe('Hodges–Lehmann interval', () => {
  test('too few pairs: infinite interval and a warning that names the fix', () => {
    const hl = hodgesLehmann([0.1, 0.2, 0.3, 0.4, 0.5], 0.95);
    expect(hl).toEqual({ estimate: 0.3, lo: -Infinity, hi: Infinity, level: 0.95, n: 5, short: 'need ≥ 6 pairs for a 95% interval; have 5' });
    expect(hodgesLehmann([1, 2, 3, 4], 0.9).short).toBe('need ≥ 5 pairs for a 90% interval; have 4');
    expect(hodgesLehmann([1, 2, 3, 4, 5, 6], 0.95).lo).toBe(1); // k = 1: [min, max] at 1 - 2/64
    expect(hodgesLehmann([1, 2, 3, 4, 5, 6], 0.95).level).toBe(1 - 2 / 64);
    expect(minPairsFor(0.95)).toBe(6);
    expect(minPairsFor(0.99)).toBe(8);
  });
  test('is the dual of the signed-rank test: excludes 0 iff p ≤ α', () => {
    const rand = seededRandom(2024);
    const z = normal(rand);
    let rejected = 0;
    let trials = 0;
    for (const level of [0.9, 0.95, 0.99]) {
      for (let t = 0; t < 150; t++) {
        const n = 6 + (t % 25);
        const shift = (rand() - 0.5) * 1.2;
        const d = Array.from({ length: n }, () => shift + z());
        const hl = hodgesLehmann(d, level);
        const { p } = signedRankTest(d);
        expect(hl.lo > 0 || hl.hi < 0).toBe(p <= 1 - level);
        rejected += +(p <= 1 - level);
        trials++;
      }
    }
    expect(rejected).toBeGreaterThan(trials / 5); // both outcomes occur: the check is not vacuous
    expect(rejected).toBeLessThan(trials * 0.8);
  });
  test('duality holds under the normal approximation too (n > 200)', () => {
    const rand = seededRandom(11);
    const z = normal(rand);
    for (const shift of [0, 0.1, 0.15, 0.2]) {
      const d = Array.from({ length: 250 }, () => shift + z());
      const hl = hodgesLehmann(d, 0.95);
      expect(hl.lo > 0 || hl.hi < 0).toBe(signedRankTest(d).p <= 0.05);
      expect(hl.level).toBeGreaterThanOrEqual(0.95);
      expect(hl.level).toBeLessThan(0.951);
    }
  });
  test('covers the true shift of normal differences as often as it says (seeded simulation)', () => {
    const z = normal(seededRandom(99));
    const [n, shift, draws] = [10, 0.3, 2000];
    let covered = 0;
    let level = 0;
    for (let i = 0; i < draws; i++) {
      const hl = hodgesLehmann(Array.from({ length: n }, () => shift + z()), 0.95);
      if (hl.lo <= shift && shift <= hl.hi) covered++;
      level = hl.level;
    }
    const se = Math.sqrt((level * (1 - level)) / draws);
    console.info(`HL coverage, n = ${n}: nominal ${(level * 100).toFixed(2)}%, observed ${((covered / draws) * 100).toFixed(2)}% (±${(se * 300).toFixed(2)} at 3 s.e.)`);
    expect(level).toBe(1 - (2 * 25) / 1024); // k = 9: P(W+ ≤ 8) = 25/1024
    expect(Math.abs(covered / draws - level)).toBeLessThan(3 * se);
  });
});

describe('paired ratio', () => {
  test('log differences: a steady 10% lead is a ratio of 1.1 whatever the drift of each round', () => {
    const drift = [900, 1000, 1100, 950, 1050, 1020, 980];
    const noise = [1.001, 0.999, 1.002, 0.998, 1.0, 1.003, 0.997];
    const b = drift;
    const a = drift.map((x, i) => x * 1.1 * noise[i]!);
    const r = pairedRatio(a, b);
    expect(r.procedure).toBe('paired Hodges–Lehmann (Wilcoxon signed-rank)');
    expect(r.ratio).toBeCloseTo(1.1, 3);
    expect(r.lo).toBeGreaterThan(1.09);
    expect(r.hi).toBeLessThan(1.11);
    expect(r.n).toBe(7);
    expect(r.p).toBe(2 / 128);
    expect(r.level).toBe(1 - 6 / 128); // k = 3: P(W+ ≤ 2) = #{∅, {1}, {2}} / 2^7
  });
  test('too few pairs, dropped values, misaligned input', () => {
    const r = pairedRatio([110, 120, 0, 130], [100, 100, 100, 100]);
    expect(r.n).toBe(3);
    expect([r.lo, r.hi]).toEqual([0, Infinity]);
    expect(r.short).toBe('need ≥ 6 pairs for a 95% interval; have 3');
    expect(() => pairedRatio([1, 2], [1])).toThrow('pairs must align');
  });
});

describe('paired t on log ratios', () => {
  // Student (1908) / Cushny & Peebles: extra sleep, drug 2 minus drug 1, ten patients. R's
  // t.test(extra ~ group, sleep, paired = TRUE): t = −4.0621, df = 9, p = 0.002833, 95% CI of the
  // mean difference 0.7001–2.4599 (here with the signs of drug 2 − drug 1).
  const d = [1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4];
  // As ratios: a = e^d, b = 1, so ln a − ln b is d itself.
  const a = d.map(Math.exp);
  const b = d.map(() => 1);
  test('matches the textbook paired t: p, df and the interval (as ratios)', () => {
    const r = pairedT(a, b, 0.95);
    expect(r.df).toBe(9);
    expect(r.p).toBeCloseTo(0.002833, 5);
    expect(Math.log(r.ratio)).toBeCloseTo(1.58, 10);
    expect(Math.log(r.lo)).toBeCloseTo(0.7001, 4);
    expect(Math.log(r.hi)).toBeCloseTo(2.4599, 4);
  });
  test('a design effect of 2 halves the effective pairs: wider interval, larger p, df n/2 − 1', () => {
    const r = pairedT(a, b, 0.95, 2);
    expect(r.df).toBe(4);
    expect(r.p).toBeGreaterThan(0.002833);
    expect(r.hi / r.lo).toBeGreaterThan(pairedT(a, b, 0.95).hi / pairedT(a, b, 0.95).lo);
  });
  test('too few pairs for any interval say so', () => {
    expect(pairedT([2, 3], [1, 1], 0.95, 1.5)).toMatchObject({ lo: 0, hi: Infinity, p: 1, short: 'need ≥ 3 pairs for any interval; have 2' });
  });
});

describe('Mann–Whitney shift', () => {
  test('exact U null matches enumeration and sums to 1', () => {
    for (const [m, n] of [[1, 1], [2, 3], [3, 2], [4, 4], [3, 6], [5, 5]] as const) {
      const us = allUs(m, n);
      mannWhitneyNull(m, n).forEach((p, u) => expect(p).toBeCloseTo(share(us, (x) => x === u), 14));
    }
    expect(mannWhitneyNull(60, 60).reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
  });
  test('separated samples of 4: p = 2/70, shift = median of all differences', () => {
    const a = [1, 2, 3, 4];
    const b = [5, 6, 7, 8];
    const r = mannWhitneyShift(a, b);
    const diffs = a.flatMap((x) => b.map((y) => x - y)).sort((p, q) => p - q);
    expect(r.p).toBeCloseTo(2 / 70, 15);
    expect(r.shift).toBe((diffs[7]! + diffs[8]!) / 2);
    expect(r.shift).toBe(-4);
    expect([r.lo, r.hi, r.level]).toEqual([diffs[0]!, diffs[15]!, +(1 - 2 / 70).toFixed(12)]);
  });
  test('U counts #(a > b) + ½ #(a = b), the mid-rank U, also with ties', () => {
    const rand = seededRandom(5);
    for (let t = 0; t < 40; t++) {
      const [m, n] = [3 + (t % 5), 3 + ((t * 7) % 6)];
      const tied = (k: number) => Array.from({ length: k }, () => Math.round(rand() * 6));
      const [a, b] = [tied(m), tied(n)];
      const brute = a.reduce((s, x) => s + b.reduce((k, y) => k + (x > y ? 1 : x === y ? 0.5 : 0), 0), 0);
      expect(mannWhitneyShift(a, b).u).toBe(brute);
    }
  });
  test('is the dual of its test, and too-small samples say how many are needed', () => {
    const z = normal(seededRandom(3));
    for (let t = 0; t < 100; t++) {
      const [m, n] = [4 + (t % 9), 4 + ((t * 5) % 11)];
      const shift = (t % 7) * 0.25;
      const r = mannWhitneyShift(Array.from({ length: m }, () => shift + z()), Array.from({ length: n }, z));
      expect(r.lo > 0 || r.hi < 0).toBe(r.p <= 0.05);
    }
    expect(mannWhitneyShift([1, 2, 3], [4, 5, 6]).short).toBe('need ≥ 4 runs on each side for a 95% interval; have 3 and 3');
  });
  test('beyond 60 per side the normal approximation continues the exact p', () => {
    const z = normal(seededRandom(8));
    const a = Array.from({ length: 61 }, () => 0.4 + z());
    const b = Array.from({ length: 61 }, z);
    const approx = mannWhitneyShift(a, b).p;
    const exact = mannWhitneyShift(a.slice(0, 60), b.slice(0, 60)).p;
    expect(approx).toBeGreaterThan(exact / 3);
    expect(approx).toBeLessThan(exact * 3);
  });
});
