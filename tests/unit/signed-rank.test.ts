// The signed-rank procedure of a change's pair (stats/signed-rank.ts): its null distribution, its
// p-value on a textbook example, and its interval as the inverted test.
import { describe, expect, test } from 'bun:test';
import { orderStatistic, signedRank, signedRankCdf } from '../../packages/harness/src/stats/signed-rank';
import { seededRandom } from '../../packages/harness/src/stats/stats';

describe('Wilcoxon signed-rank with the Hodges–Lehmann interval', () => {
  test('the null distribution equals the enumeration of every sign pattern (n = 8)', () => {
    const n = 8;
    const counts = new Array((n * (n + 1)) / 2 + 1).fill(0);
    for (let mask = 0; mask < 2 ** n; mask++) {
      let w = 0;
      for (let r = 1; r <= n; r++) if (mask & (1 << (r - 1))) w += r;
      counts[w]++;
    }
    let acc = 0;
    const cdf = signedRankCdf(n);
    for (const [w, c] of counts.entries()) {
      acc += c / 2 ** n;
      expect(cdf[w]).toBeCloseTo(acc, 12);
    }
  });

  test("Hollander & Wolfe's depression scores: V = 40, two-sided p = 0.03906 (as R's wilcox.test)", () => {
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const r = signedRank(x.map((v, i) => v - y[i]!));
    expect(r.p).toBeCloseTo(0.0390625, 6);
    expect(r.n).toBe(9);
  });

  test('the interval is the inverted test: shifts inside it are not rejected, shifts outside are', () => {
    const random = seededRandom(7);
    const xs = Array.from({ length: 25 }, () => (random() - 0.5) * 0.2 + (random() < 0.15 ? 0.3 : 0));
    const r = signedRank(xs, 0.9);
    const lo = Math.log(r.lo);
    const hi = Math.log(r.hi);
    const p = (shift: number) => signedRank(xs.map((x) => x - shift)).p;
    for (const inside of [lo + 1e-6, (lo + hi) / 2, hi - 1e-6]) expect(p(inside)).toBeGreaterThan(0.1);
    for (const outside of [lo - 1e-3, hi + 1e-3]) expect(p(outside)).toBeLessThanOrEqual(0.1);
    expect(Math.log(r.ratio)).toBeGreaterThan(lo);
    expect(Math.log(r.ratio)).toBeLessThan(hi);
  });

  test("a few launches 25% off move the interval little; they move the mean's t interval a lot", () => {
    const random = seededRandom(11);
    const core = Array.from({ length: 60 }, () => (random() - 0.5) * 0.08);
    const spoilt = core.map((x, i) => (i % 10 === 3 ? x - 0.25 : i % 10 === 7 ? x + 0.25 : x));
    const width = (xs: number[]) => {
      const r = signedRank(xs, 0.91);
      return Math.log(r.hi) - Math.log(r.lo);
    };
    const sd = (xs: number[]) => {
      const m = xs.reduce((s, x) => s + x, 0) / xs.length;
      return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
    };
    // One launch in five 25% off: the rank interval widens by about 1.6×, a t interval (∝ sd) by over 3×.
    expect(width(spoilt) / width(core)).toBeLessThan(1.7);
    expect(sd(spoilt) / sd(core)).toBeGreaterThan(3);
  });

  test('the order statistics it reads are the sorted ones, ties and repeated calls on one array included', () => {
    const random = seededRandom(5);
    for (const m of [1, 2, 3, 10, 78, 1326]) {
      // Values from a coarse grid: many ties, as Walsh averages of rounds that repeat have.
      const a = Float64Array.from({ length: m }, () => Math.round(random() * 20) / 10);
      const sorted = Float64Array.from(a).sort();
      for (const k of [0, m - 1, m >> 1, Math.floor(random() * m), 0, m >> 2])
        expect(orderStatistic(a, k)).toBe(sorted[k]!);
      expect(Float64Array.from(a).sort()).toEqual(sorted); // reordered, not changed
    }
    // Every k of many seeded arrays, fresh and reused, coarse (ties) and fine: a selection off by one partition step
    // returned another element for about one call in five.
    for (let t = 0; t < 300; t++) {
      const m = 1 + Math.floor(random() * 60);
      const grid = t % 2 ? 10 : 1e6;
      const a = Float64Array.from({ length: m }, () => Math.round(random() * grid) / grid);
      const sorted = Float64Array.from(a).sort();
      const reused = Float64Array.from(a);
      for (let k = 0; k < m; k++) {
        expect(orderStatistic(Float64Array.from(a), k)).toBe(sorted[k]!);
        expect(orderStatistic(reused, k)).toBe(sorted[k]!);
      }
    }
    // A sample asked for at two levels, then a changed copy of it: each answer is the one a fresh call gives.
    const xs = Array.from({ length: 30 }, () => random() - 0.45);
    const at90 = signedRank(xs, 0.9);
    expect(signedRank(xs, 0.99).p).toBe(at90.p);
    const moved = xs.map((x) => x + 0.1);
    expect(signedRank(moved, 0.9).ratio).toBeCloseTo(at90.ratio * Math.exp(0.1), 12);
    expect(signedRank(xs, 0.9)).toEqual(at90);
  });

  test('zeros are dropped from the test and the interval alike: a p below 5% never has an interval reaching 1', () => {
    // With the zeros in its Walsh averages, this sample's 95% interval began at exactly 1 while its p was 0.031.
    const r = signedRank([0, 0, 0, 0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06]);
    expect(r.p).toBeLessThan(0.05);
    expect(r.lo).toBeGreaterThan(1);
    expect(r.n).toBe(10);
    // Every round at 0: no change (ratio 1); too few rounds are counted without their zeros.
    expect(signedRank([0, 0, 0, 0, 0, 0, 0, 0]).ratio).toBe(1);
    expect(signedRank([0.01, 0.02, 0, 0.03]).short).toMatch(/: 3 round\(s\) \(1 at 0, which count for nothing\)/);
  });

  test('too few rounds for the level: no interval, and says so', () => {
    const r = signedRank([0.01, 0.02, -0.01], 0.95);
    expect(r.hi).toBe(Infinity);
    expect(r.short).toMatch(/3 round\(s\) cannot reach it/);
    expect(r.p).toBeGreaterThan(0.25);
    // The rounds it says it needs are the fewest with an interval: 2^(1 − n) ≤ 5% from n = 6 at 95% (2^-5 = 3.1%).
    const all = [0.01, 0.02, -0.01, 0.03, 0.02, 0.015, 0.01, 0.025];
    for (const [level, need] of [
      [0.95, 6],
      [0.99, 8],
    ] as const) {
      expect(signedRank(all.slice(0, need - 1), level).short).toContain(`needs at least ${need} rounds`);
      expect(signedRank(all.slice(0, need), level).short).toBeUndefined();
      expect(Number.isFinite(signedRank(all.slice(0, need), level).hi)).toBe(true);
    }
  });
});

describe('the signed-rank test at its edges, by hand', () => {
  test('tied |x| share their mean rank: 1%, 1%, −2%, 3%, 4%, 5% is W+ = 18, p = 2·P(W+ ≤ 3) = 10/64', () => {
    // Subsets of ranks 1–6 summing to 3 or less: {}, {1}, {2}, {3}, {1, 2}.
    expect(signedRank([1, 1, -2, 3, 4, 5].map((x) => x / 100)).p).toBeCloseTo(10 / 64, 12);
  });

  test('an interval exactly at its coverage: 5 rounds at 1 − 2/32 reach from the least to the largest', () => {
    const r = signedRank([0.01, 0.02, 0.03, 0.04, 0.05], 1 - 2 / 32);
    expect(r.short).toBeUndefined();
    expect(r.lo).toBeCloseTo(Math.exp(0.01), 12);
    expect(r.hi).toBeCloseTo(Math.exp(0.05), 12);
  });

  test('Hodges–Lehmann of an even number of Walsh averages: the mean of the middle two', () => {
    // 0.1, 0.2, 0.4: Walsh averages 0.1, 0.15, 0.2, 0.25, 0.3, 0.4; their median (0.2 + 0.25) / 2.
    expect(signedRank([0.1, 0.2, 0.4]).ratio).toBeCloseTo(Math.exp(0.225), 12);
  });
});
