import { describe, expect, test } from 'bun:test';
import {
  mannWhitneyNull, mannWhitneyShift, pairedT,
} from '../../packages/harness/src/paired';
import { seededRandom } from '../../packages/harness/src/stats';

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
