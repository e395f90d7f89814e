import { describe, expect, test } from 'bun:test';
import { bootstrapMedianCI, mannWhitneyU, seededRandom, spread, summarize } from '../../packages/harness/src/stats';

describe('bootstrap CI of the median', () => {
  const xs = [480, 495, 500, 505, 520];
  test('brackets the median and stays within the data', () => {
    const [lo, hi] = bootstrapMedianCI(xs);
    expect(lo).toBeLessThanOrEqual(500);
    expect(hi).toBeGreaterThanOrEqual(500);
    expect(lo).toBeGreaterThanOrEqual(480);
    expect(hi).toBeLessThanOrEqual(520);
  });
  test('is reproducible (seeded) and degenerate for constant data', () => {
    expect(bootstrapMedianCI(xs)).toEqual(bootstrapMedianCI(xs));
    expect(bootstrapMedianCI([7, 7, 7])).toEqual([7, 7]);
    expect(bootstrapMedianCI([3])).toEqual([3, 3]);
  });
  test('covers the true median of a known distribution about 95% of the time', () => {
    // 200 samples of 9 from uniform(0,1), whose median is 0.5.
    const rand = seededRandom(42);
    let covered = 0;
    for (let i = 0; i < 200; i++) {
      const [lo, hi] = bootstrapMedianCI(Array.from({ length: 9 }, rand), 0.95, 2000, seededRandom(i));
      if (lo <= 0.5 && 0.5 <= hi) covered++;
    }
    expect(covered / 200).toBeGreaterThan(0.88);
  });
  test('summarize and spread', () => {
    const s = summarize([400, 500, 450]);
    expect([s.median, s.min, s.max]).toEqual([450, 400, 500]);
    expect(spread([400, 500, 450])).toBeCloseTo(100 / 450);
  });
});

describe('Mann-Whitney U', () => {
  // Reference values: scipy.stats.mannwhitneyu(a, b, method='exact', alternative='two-sided').
  test('completely separated samples of 5: U=0, p=2/252', () => {
    const { u, p } = mannWhitneyU([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]);
    expect(u).toBe(0);
    expect(p).toBeCloseTo(2 / 252, 6);
  });
  test('interleaved samples: U=10, p=174/252', () => {
    const { u, p } = mannWhitneyU([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]);
    expect(u).toBe(10);
    expect(p).toBeCloseTo(174 / 252, 6);
  });
  test('identical samples are not significant', () => {
    expect(mannWhitneyU([5, 5, 5], [5, 5, 5]).p).toBe(1);
    expect(mannWhitneyU([480, 500, 520], [480, 500, 520]).p).toBe(1);
  });
  test('large samples use the normal approximation', () => {
    const a = Array.from({ length: 30 }, (_, i) => i);
    const b = Array.from({ length: 30 }, (_, i) => i + 15);
    const { p } = mannWhitneyU(a, b);
    expect(p).toBeGreaterThan(0.0001);
    expect(p).toBeLessThan(0.01);
  });
});
