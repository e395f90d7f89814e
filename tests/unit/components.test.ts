import { describe, expect, test } from 'bun:test';
import { Components, pooledComponents } from '../../packages/harness/src/stats/components';

// Data and expected values from libkalibera's own tests (softdevteam/libkalibera,
// python/tests/test_data.py). libkalibera keys its data by index tuples, highest level first,
// and lists costs high to low; here data is nested arrays and costs[i - 1] = c_i.

describe('variance components (Kalibera & Jones)', () => {
  // test_ti2, test_optimal_reps_*: 3 levels, r = (r3, r2, r1) = (2, 2, 3).
  const libkalibera = [
    [
      [3, 4, 3],
      [1.2, 3.1, 3],
    ],
    [
      [0.2, 1, 1.5],
      [1, 2, 3],
    ],
  ];
  test("libkalibera's T_i² and optimal repetitions: costs (100, 20, 3) give r1 = 5, r2 = 2", () => {
    const c = Components.fromNested(libkalibera);
    expect(c.r).toEqual([3, 2, 2]);
    expect(c.S2(1)).toBeCloseTo(0.72667, 4); // test_si2_bigger_example
    for (const [k, t] of [0.7266667, 0.262777778, 0.7747].entries()) expect(c.T2(k + 1)).toBeCloseTo(t, 4);
    const costs = [3, 20, 100]; // c1, c2, c3; libkalibera writes (100, 20, 3)
    expect(Math.sqrt((20 / 3) * (c.T2(1) / c.T2(2)))).toBeCloseTo(4.2937, 3); // libkalibera, unrounded
    expect(Math.sqrt((100 / 20) * (c.T2(2) / c.T2(3)))).toBeCloseTo(1.3023, 3);
    expect([c.optimalReps(1, costs), c.optimalReps(2, costs)]).toEqual([5, 2]);
    expect(c.warnings).toEqual([]);
  });

  // test_worked_example_2_level: three launches of four windows.
  test("the paper's 2-level worked example, by hand", () => {
    const c = Components.fromNested([
      [9, 5, 8, 3],
      [10, 6, 7, 11],
      [1, 12, 2, 4],
    ]);
    // Launch means 6.25, 8.5, 4.75; sums of squared deviations within launches 22.75, 17, 74.75.
    const s1 = (22.75 / 3 + 17 / 3 + 74.75 / 3) / 3;
    const s2 = (0.25 ** 2 + 2 ** 2 + 1.75 ** 2) / 2; // about the grand mean 6.5
    expect(c.S2(1)).toBeCloseTo(s1, 12);
    expect(c.S2(2)).toBeCloseTo(s2, 12);
    expect(c.T2(1)).toBeCloseTo(s1, 12);
    expect(c.T2(2)).toBeCloseTo(s2 - s1 / 4, 12);
    expect([c.S2(1), c.S2(2), c.T2(2)].map((v) => +v.toFixed(1))).toEqual([12.7, 3.6, 0.4]); // libkalibera's rounding
  });

  // test_worked_example_3_level: the paper's example whose T_2² is negative.
  test('T2 ≤ 0 is reported, and counts as 0 in optimalReps', () => {
    const c = Components.fromNested([
      [
        [9, 5],
        [8, 3],
      ],
      [
        [10, 6],
        [7, 11],
      ],
      [
        [1, 12],
        [2, 4],
      ],
    ]);
    expect([1, 2, 3].map((i) => +c.S2(i).toFixed(1))).toEqual([16.5, 2.6, 3.6]);
    expect([1, 2, 3].map((i) => +c.T2(i).toFixed(1))).toEqual([16.5, -5.7, 2.3]);
    expect(c.T2(2)).toBeCloseTo(31 / 12 - 16.5 / 2, 12); // S2² = (1.5²/2 + 0.5²/2 + 3.5²/2) / 3 = 31/12
    expect(c.warnings).toEqual([
      'T2 ≤ 0 at level 2: launches vary no more than windows predict; treat the launch component as 0',
    ]);
    expect(c.optimalReps(1, [3, 20, 100])).toBe(20); // T2² → 0: infinite, so the cap
    expect(c.optimalReps(1, [3, 20, 100], 8)).toBe(8);
    expect(c.optimalReps(2, [3, 20, 100])).toBe(1); // T2² → 0 at the top of the ratio: at least 1
  });

  test('unbalanced launches are trimmed to the fewest windows, keeping the first', () => {
    const trimmed = Components.fromNested([[1, 2, 3, 99], [4, 6, 5], [], [7, 8, 9, 10, 11]]);
    const balanced = Components.fromNested([
      [1, 2, 3],
      [4, 6, 5],
      [7, 8, 9],
    ]);
    expect(trimmed.r).toEqual([3, 3]);
    expect([trimmed.S2(1), trimmed.S2(2)]).toEqual([balanced.S2(1), balanced.S2(2)]);
    expect(Components.fromNested([[1, 2, 3]]).warnings).toEqual([
      'need ≥ 2 launches to estimate the launch component; have 1',
    ]);
  });

  test('pooled over contenders: the mean of each component', () => {
    const a = [
      [1, 2, 3],
      [2, 3, 4],
      [5, 6, 7],
    ];
    const b = [
      [10, 10.5, 11],
      [10, 11, 10.5],
      [10.2, 10.4, 10.9],
    ];
    const [ca, cb, pooled] = [Components.fromNested(a), Components.fromNested(b), pooledComponents([a, b])];
    for (const i of [1, 2]) {
      expect(pooled.S2(i)).toBeCloseTo((ca.S2(i) + cb.S2(i)) / 2, 12);
      expect(pooled.T2(i)).toBeCloseTo((ca.T2(i) + cb.T2(i)) / 2, 12);
    }
    expect(cb.warnings.length).toBe(1); // b alone: launches vary less than its windows predict
    expect(pooled.warnings).toEqual([]);
    expect(pooled.optimalReps(1, [1, 30])).toBe(Math.ceil(Math.sqrt((30 * pooled.T2(1)) / pooled.T2(2))));
  });

  test('pooled over contenders of unequal shapes: each level counts the fewest repetitions any has', () => {
    const three = [
      [1, 2, 3],
      [2, 3, 4],
      [5, 6, 7],
    ];
    const two = [
      [1, 2],
      [2, 4],
    ];
    expect(pooledComponents([three, two]).r).toEqual([2, 2]);
  });
});
