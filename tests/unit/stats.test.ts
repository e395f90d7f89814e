import { describe, expect, test } from 'bun:test';
import { levelLabel } from '../../packages/harness/src/report/words';
import {
  additiveFit,
  halfWidth,
  holm,
  medianInterval,
  orderStatCoverage,
  rankIntervals,
  rankLabel,
  seededRandom,
  shuffled,
  spread,
  summarize,
} from '../../packages/harness/src/stats/stats';
import { covariateT } from '../../packages/harness/src/stats/covariate';

/** Exact coverage of [x(k), x(n-k+1)], in rationals (BigInt), independent of the code under test. */
function exactCoverage(n: number, k: number): number {
  let c = 1n;
  let tail = 0n;
  for (let i = 0; i < k; i++) {
    tail += c;
    c = (c * BigInt(n - i)) / BigInt(i + 1);
  }
  return 1 - Number(2n * tail) / Number(2n ** BigInt(n));
}

describe('order-statistic interval of the median', () => {
  // Rank k of [x(k), x(n-k+1)], the narrowest with coverage >= 95% (n >= 6), as in Conover's tables.
  const K95: Record<number, number> = {
    5: 1,
    6: 1,
    7: 1,
    8: 1,
    9: 2,
    10: 2,
    11: 2,
    12: 3,
    13: 3,
    14: 3,
    15: 4,
    16: 4,
    17: 5,
    18: 5,
    19: 5,
    20: 6,
  };
  for (let n = 5; n <= 20; n++) {
    test(`n = ${n}: ranks ${K95[n]} and ${n - K95[n]! + 1}, exact coverage`, () => {
      const xs = shuffled(
        Array.from({ length: n }, (_, i) => (i + 1) * 10),
        seededRandom(n),
      );
      const ci = medianInterval(xs);
      const k = K95[n]!;
      expect([ci.lo, ci.hi]).toEqual([k * 10, (n - k + 1) * 10]);
      expect(ci.level).toBeCloseTo(exactCoverage(n, k), 10);
      expect(orderStatCoverage(n, k)).toBeCloseTo(exactCoverage(n, k), 10);
      if (n >= 6) {
        expect(ci.level).toBeGreaterThanOrEqual(0.95);
        expect(exactCoverage(n, k + 1)).toBeLessThan(0.95); // narrowest that still covers 95%
      }
    });
  }
  test('a coverage exactly at the level asked is enough: 6 runs at 78.125% are ranks 2 and 5', () => {
    // 1 − 2·P(X ≤ 1) for X ~ Binomial(6, 1/2) = 1 − 2·7/64.
    expect(medianInterval([1, 2, 3, 4, 5, 6], 1 - 14 / 64)).toEqual({ lo: 2, hi: 5, level: 0.78125 });
    expect(medianInterval([1, 2, 3, 4, 5, 6], 0.79)).toEqual({ lo: 1, hi: 6, level: 0.96875 });
  });

  test('n = 5 has no 95% interval: [min, max] at 93.75%, labelled with its real level', () => {
    const ci = medianInterval([480, 520, 500, 495, 505]);
    expect(ci).toEqual({ lo: 480, hi: 520, level: 0.9375 });
    expect(levelLabel(ci.level)).toBe('93.8% CI');
    expect(levelLabel(medianInterval([1, 2, 3, 4, 5, 6]).level)).toBe('95% CI');
  });
  test('covers the true median of a known distribution as often as it says', () => {
    const rand = seededRandom(42);
    for (const n of [6, 9, 12]) {
      let covered = 0;
      for (let i = 0; i < 4000; i++) {
        const ci = medianInterval(Array.from({ length: n }, rand)); // uniform(0,1): median 0.5
        if (ci.lo <= 0.5 && 0.5 <= ci.hi) covered++;
      }
      expect(Math.abs(covered / 4000 - exactCoverage(n, K95[n]!))).toBeLessThan(0.015);
    }
  });
  test('summarize, half-width and spread', () => {
    const s = summarize([400, 500, 450]);
    expect([s.median, s.min, s.max, s.n]).toEqual([450, 400, 500, 3]);
    expect(s.ci.level).toBeCloseTo(0.75, 12);
    expect(halfWidth(450, s.ci)).toBeCloseTo(50 / 450);
    expect(spread([400, 500, 450])).toBeCloseTo(100 / 450);
  });
});

describe('rank intervals', () => {
  test('a contender ranks below what is decided faster and above what it is decided faster than', () => {
    // 0 beats 2 and 3; 1 beats 3; 0 vs 1, 1 vs 2 and 2 vs 3 undecided.
    const g = rankIntervals(4, [
      [0, 2],
      [0, 3],
      [1, 3],
    ]);
    expect(g.map(rankLabel)).toEqual(['1–2', '1–3', '2–4', '3–4']);
  });
  test('every pair decided gives single ranks; none decided gives 1–n for all', () => {
    expect(
      rankIntervals(3, [
        [0, 1],
        [0, 2],
        [1, 2],
      ]).map(rankLabel),
    ).toEqual(['1', '2', '3']);
    expect(rankIntervals(3, []).map(rankLabel)).toEqual(['1–3', '1–3', '1–3']);
  });
});

describe('additive fit', () => {
  test('recovers unit levels and centred block effects from unbalanced exact data', () => {
    const level: Record<string, number> = { a: 6.5, b: 6.0, c: 5.2 };
    const effect = [0.1, -0.05, 0.02, -0.07];
    // Block 3 measures only a and b, as a racing round does.
    const xs = ['a', 'b', 'c']
      .flatMap((unit) => effect.map((e, block) => ({ unit, block, x: level[unit]! + e })))
      .filter((d) => !(d.unit === 'c' && d.block === 3));
    const fit = additiveFit(xs, 200);
    const centre = effect.reduce((s, e) => s + e, 0) / effect.length;
    for (const [b, e] of effect.entries()) expect(fit.effect.get(b)!).toBeCloseTo(e - centre, 6);
    for (const u of ['a', 'b', 'c']) expect(fit.level.get(u)!).toBeCloseTo(level[u]! + centre, 6);
  });
});

describe('Holm correction', () => {
  test('step-down adjusted p-values, monotone, in the input order', () => {
    const adj = holm([0.01, 0.04, 0.03, 0.005]);
    const want = [0.03, 0.06, 0.06, 0.02];
    for (const [i, p] of adj.entries()) expect(p).toBeCloseTo(want[i]!, 12);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });
});

describe('a pair adjusted for a covariate (least squares, ANCOVA)', () => {
  test('a worked example: d = −0.1 + 0.5·x, residuals ±0.01–0.02', () => {
    // Σx = 0, Sxx = 10, Sxy = 5: slope 0.5, δ = mean d = −0.1; RSS = 0.001 on 3 df,
    // se(δ) = √(0.001/3 / 5) = 0.008165, t(0.975, 3) = 3.182446: δ ± 0.025985.
    const r = covariateT([-1.09, -0.62, -0.1, 0.42, 0.89], [-2, -1, 0, 1, 2]);
    expect(r.slope).toBeCloseTo(0.5, 10);
    expect(r.ratio).toBeCloseTo(Math.exp(-0.1), 10);
    expect(r.lo).toBeCloseTo(Math.exp(-0.125985), 5);
    expect(r.hi).toBeCloseTo(Math.exp(-0.074015), 5);
    expect(r).toMatchObject({ n: 5, df: 3, level: 0.95 });
    expect(r.sd).toBeCloseTo(Math.sqrt(0.001 / 3), 10);
    // |t| = 12.25 on 3 df.
    expect(r.p).toBeGreaterThan(0.0005);
    expect(r.p).toBeLessThan(0.002);
    expect(r.corr).toBeGreaterThan(0.99);
  });

  test('a covariate centred off zero widens δ by its distance (se² = s²·(1/n + x̄²/Sxx))', () => {
    const d = [-1.09, -0.62, -0.1, 0.42, 0.89];
    const centred = covariateT(d, [-2, -1, 0, 1, 2]);
    const off = covariateT(d, [0, 1, 2, 3, 4]);
    expect(off.slope).toBeCloseTo(0.5, 10);
    expect(Math.log(off.ratio)).toBeCloseTo(-0.1 - 0.5 * 2, 10);
    const width = (r: { lo: number; hi: number }) => Math.log(r.hi / r.lo);
    expect(width(off) / width(centred)).toBeCloseTo(Math.sqrt(1 + 5 * (4 / 10)), 6);
  });

  test('no difference: 95% intervals exclude it about 5% of the time, with a launch now and then far off', () => {
    const random = seededRandom(7);
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    let claims = 0;
    const runs = 2000;
    for (let k = 0; k < runs; k++) {
      // 36 launches of a check beside a neighbour: x its share denied, one launch in ten 4× as noisy.
      const x = Array.from({ length: 36 }, () => 0.4 * (random() - 0.5));
      const d = x.map((v) => 0.9 * v + 0.05 * normal() * (random() < 0.1 ? 4 : 1));
      const r = covariateT(d, x);
      if (r.lo > 1 || r.hi < 1) claims++;
    }
    // Binomial sd at 5% over 2000 runs is 0.49%.
    expect(claims / runs).toBeLessThan(0.065);
    expect(claims / runs).toBeGreaterThan(0.02);
  });

  test('no interval from a flat covariate or under 4 units', () => {
    expect(covariateT([0.1, -0.1, 0.2, 0], [0.3, 0.3, 0.3, 0.3]).short).toMatch(/covariate that varies/);
    expect(covariateT([0.1, -0.1, 0.2], [1, 2, 3]).hi).toBe(Infinity);
  });
});
