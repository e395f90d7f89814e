import { describe, expect, test } from 'bun:test';
import { CHI2_1_MEDIAN, MIN_FOR_RUN_EFFECT, runEffectVariance } from '../../packages/harness/src/stats/run-effect';

describe('the run effect between two runs (τ², stats/run-effect.ts)', () => {
  test("χ²₁'s median is 0.4549", () => expect(CHI2_1_MEDIAN).toBeCloseTo(0.45494, 5));

  test('a worked example: twelve changes of ±4% on a within-run se of 2% need τ² = 0.04²/0.4549 − 0.02²', () => {
    const d = Array.from({ length: 12 }, (_, i) => (i % 2 ? 0.04 : -0.04));
    const se2 = d.map(() => 0.02 ** 2);
    const tau2 = runEffectVariance(d, se2);
    expect(tau2).toBeCloseTo(0.04 ** 2 / CHI2_1_MEDIAN - 0.02 ** 2, 10);
    // At that τ², the median z² is χ²₁'s median.
    expect(0.04 ** 2 / (0.02 ** 2 + tau2)).toBeCloseTo(CHI2_1_MEDIAN, 8);
  });

  test('the few that really changed do not count: three of twelve 30% off leave τ² as it was', () => {
    const d = Array.from({ length: 12 }, (_, i) => (i < 3 ? -0.3 : i % 2 ? 0.04 : -0.04));
    expect(
      runEffectVariance(
        d,
        d.map(() => 0.02 ** 2),
      ),
    ).toBeCloseTo(0.04 ** 2 / CHI2_1_MEDIAN - 0.02 ** 2, 10);
  });

  test("a median z² between χ²₁'s median and 1 is past noise: τ² from it; eight changes are enough", () => {
    // ±1.67% on an se of 2%: z² 0.70, above 0.4549 (though under 1).
    const d = Array.from({ length: 8 }, (_, i) => (i % 2 ? 0.0167 : -0.0167));
    const tau2 = runEffectVariance(
      d,
      d.map(() => 0.02 ** 2),
    );
    expect(tau2).toBeCloseTo(0.0167 ** 2 / CHI2_1_MEDIAN - 0.02 ** 2, 10);
    // Seven of them are too few.
    expect(
      runEffectVariance(
        d.slice(1),
        d.slice(1).map(() => 0.02 ** 2),
      ),
    ).toBe(0);
  });

  test("0 when the changes are no wider than their launches' noise, or too few to tell", () => {
    const d = Array.from({ length: 12 }, (_, i) => (i % 2 ? 0.01 : -0.01));
    expect(
      runEffectVariance(
        d,
        d.map(() => 0.02 ** 2),
      ),
    ).toBe(0);
    const few = d.slice(0, MIN_FOR_RUN_EFFECT - 1).map((x) => 10 * x);
    expect(
      runEffectVariance(
        few,
        few.map(() => 0.02 ** 2),
      ),
    ).toBe(0);
    // Unusable entries (no variance) are left out, not counted as zeros.
    expect(runEffectVariance([...d.map((x) => 10 * x), 0.5], [...d.map(() => 0.02 ** 2), NaN])).toBeGreaterThan(0);
  });
});
