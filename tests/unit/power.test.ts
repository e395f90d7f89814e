// The check's power (stats/moderated.ts tPower, roundsForPower): by hand at large df, against a simulated t test at
// small df, and the rounds it asks for reach the target.
import { describe, expect, test } from 'bun:test';
import { roundsForPower, studentT, tPower } from '../../packages/harness/src/stats/moderated';
import { seededRandom } from '../../packages/harness/src/stats/stats';

describe('tPower: the chance a t test at this se detects a known size', () => {
  test('by hand at 1,000 df: |δ| / se = 1.96 is a coin toss, 2.80 is 80%, 0 is the level', () => {
    expect(tPower(-0.196, 0.1, 1000)).toBeCloseTo(0.5, 2);
    expect(tPower(0.28, 0.1, 1000)).toBeCloseTo(0.8, 2);
    expect(tPower(0, 0.1, 1000)).toBeCloseTo(0.05, 3);
    expect(tPower(0.1, 0, 10)).toBeNaN();
  });

  // At 3 and 5 df, where a central t shifted by |δ| / se reads the chance 7–13 points low (0.15, not 0.27, at 3 df).
  for (const [n, sigma, delta, lo, hi] of [
    [6, 0.08, -0.095, 0.4, 0.8],
    [4, 0.05, -0.048, 0.2, 0.4],
  ] as const)
    test(`against 20,000 simulated t tests on ${n} rounds (${n - 1} df): within 2 points of the rejection rate`, () => {
      const random = seededRandom(58);
      const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const q = studentT.inv(0.975, n - 1);
      let rejected = 0;
      const trials = 20_000;
      for (let i = 0; i < trials; i++) {
        const xs = Array.from({ length: n }, () => delta + sigma * normal());
        const m = xs.reduce((s, x) => s + x, 0) / n;
        const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
        if (Math.abs(m / (sd / Math.sqrt(n))) > q) rejected++;
      }
      const predicted = tPower(delta, sigma / Math.sqrt(n), n - 1);
      expect(predicted).toBeGreaterThan(lo);
      expect(predicted).toBeLessThan(hi);
      expect(Math.abs(rejected / trials - predicted)).toBeLessThan(0.02);
    });
});

describe('roundsForPower: the rounds that bring that chance to 80%', () => {
  test('a run of 5 rounds at se 6.7% for −9.5%: about 20 rounds, where the chance is at least 80% again', () => {
    const [delta, se, n, df] = [Math.log(1 / 1.1), 0.067, 5, 16];
    expect(tPower(delta, se, df)).toBeLessThan(0.3);
    const rounds = roundsForPower(delta, se, n, df);
    expect(rounds).toBeGreaterThan(15);
    expect(rounds).toBeLessThan(30);
    expect(tPower(delta, se * Math.sqrt(n / rounds), df)).toBeGreaterThanOrEqual(0.8);
    expect(tPower(delta, se * Math.sqrt(n / (rounds - 2)), df)).toBeLessThan(0.8);
  });

  test('a run that already has the power asks for no more rounds than it had', () => {
    expect(roundsForPower(Math.log(1 / 1.1), 0.021, 5, 10)).toBeLessThanOrEqual(5);
  });
});
