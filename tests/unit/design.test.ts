// The design every run records (answers/design.ts), on a hand-made run whose every figure is worked out by hand:
// the components of ln A − ln B between windows and between rounds, each cost, the first window's bias and the
// residual variance of launches near and far apart in one round.
import { describe, expect, test } from 'bun:test';
import { designOf } from '../../packages/harness/src/answers/design';
import type { ContenderResult, Results, RunRecord } from '../../packages/harness/src/model/results';

/** A launch of `round` started at `startS` s: 10-second windows of req/s 1000·e^x for each x, 50 s in all. */
function launch(round: number, startS: number, xs: number[]): RunRecord {
  const windows = xs.map((x, index) => ({
    index,
    started_at: (startS + 10 * index) * 1000,
    ended_at: (startS + 10 * (index + 1)) * 1000,
    rps: 1000 * Math.exp(x),
  }));
  return { round, started_at: startS * 1000, trial_s: 50, rps: 1000, windows } as unknown as RunRecord;
}

const contender = (name: string, runs: RunRecord[]) =>
  ({ name, status: 'ok', static: false, points: [{ runs }], runs }) as unknown as ContenderResult;

/**
 * A against B, and C beside them: B and C at req/s 1000 in every window; A's ln ratio 0, .2, .4 in round 1 (launch
 * mean .2) and .4, .6, .8 in round 2 (mean .6). Round 1: A at 0 s, B at 10 s (near), C at 100 s; round 2 all 100 s
 * apart.
 */
function handMade(): Results {
  return {
    settings: { windows: 3 },
    family: { questions: [], comparisons: [{ id: 'a-b', question: 'q', a: 'A', b: 'B' }] },
    contenders: [
      contender('A', [launch(1, 0, [0, 0.2, 0.4]), launch(2, 1000, [0.4, 0.6, 0.8])]),
      contender('B', [launch(1, 10, [0, 0, 0]), launch(2, 1100, [0, 0, 0])]),
      contender('C', [launch(1, 100, [0, 0, 0]), launch(2, 1200, [0, 0, 0])]),
    ],
  } as unknown as Results;
}

describe('designOf, on a run worked by hand', () => {
  const d = designOf(handMade())!;

  test('T² between windows: var(0,.2,.4) = var(.4,.6,.8) = .04; between rounds: var(.2,.6) − .04/3', () => {
    expect(d.t2_window).toBeCloseTo(0.04, 10);
    // S2² = var(.2, .6) = .08; T2² takes off what the windows' noise adds to a round's mean.
    expect(d.t2_launch).toBeCloseTo(0.08 - 0.04 / 3, 10);
    expect(d.warnings).toEqual([]);
    expect(d.comparisons).toBe(1);
    expect(d.windows).toBe(3);
  });

  test("a window costs 10 s; a launch, its 50 s trial less its three windows' 30 s", () => {
    expect(d.cost_window_s).toBe(10);
    expect(d.cost_launch_s).toBe(20);
    // ⌈√((20/10) · .04 / .0667)⌉ = ⌈√1.2⌉ = 2.
    expect(d.optimal_windows).toBe(2);
  });

  test("first window's bias: A's launches 0 − (.2+.4)/2 and .4 − (.6+.8)/2, the four others 0: −.6/6", () => {
    expect(d.first_window_bias).toBe(-0.1);
  });

  test("launches near and far apart: residuals A ∓.4/3, B and C ±.2/3: (e_A − e_B)² = .04, B−C's 0", () => {
    // Near (under 30 s): round 1's A–B only. Far: round 1's A–C and B–C, round 2's three pairs: .04·3 / 5.
    expect(d.by_gap!.near_s).toBe(30);
    expect(d.by_gap!.pairs_near).toBe(1);
    expect(d.by_gap!.pairs_far).toBe(5);
    expect(d.by_gap!.near).toBeCloseTo(0.04, 10);
    expect(d.by_gap!.far).toBeCloseTo(0.024, 10);
  });
});
