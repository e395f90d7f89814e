// The pair design's checks by hand (answers/pair-design.ts): rounds of one pair whose windows are set exactly, so the
// bias check's interval and the F test that weighs the duet against alternating windows are figures worked here.
import { describe, expect, test } from 'bun:test';
import { chooseDesign, designPairs } from '../../packages/harness/src/answers/pair-design';
import type { Results } from '../../packages/harness/src/model/results';

/**
 * A pair a against a@base: round k's alternating window pair reads ln ratio alone[k], its duet pair duet[k]; rounds
 * past alone's end are duets only.
 */
function pair(alone: number[], duet: number[]): Results {
  const runs = (side: number) =>
    duet.map((v, i) => ({
      round: i + 1,
      rps: 1000,
      ...(i < alone.length
        ? { windows: [{ rps: 1000 * Math.exp(side === 0 ? alone[i]! : 0) }] }
        : { windows: [], duet_only: true }),
      duet: [{ partner: side === 0 ? 'a@base' : 'a', rps: 1000 * Math.exp(side === 0 ? v : 0) }],
    }));
  return {
    contenders: ['a', 'a@base'].map((name, side) => ({ name, status: 'incomplete', points: [{ runs: runs(side) }] })),
    settings: { runs: 'auto', windows: 1, duration_s: 1, against: { pair: 'auto', equal_pct: 2 } },
    changes: { comparisons: [{ id: 'a vs a@base', question: 'change: a', a: 'a', b: 'a@base' }] },
  } as unknown as Results;
}

describe('the pair design by hand', () => {
  test('the bias check: duet − alternating per round, 1%, 2%, 3%: mean 2%, ± t(0.975, 2)·1%/√3', () => {
    // 4.302653 × 0.01 / √3 = 0.024841: −0.48% to 4.48%, which holds 0.
    const d = chooseDesign(pair([0, 0, 0], [0.01, 0.02, 0.03]), 3)!;
    expect(d.bias).toEqual({ mean: 0.02, lo: -0.0048, hi: 0.0448, rounds: 3, agree: true });
  });

  test('a duet 25 times as variable per round, on 5 df against 2: within twice F(0.95; 5, 2) = 38.6: duet', () => {
    // Alternating: −2%, 0, 2% (sd 2%, 2 df); duet: ±c, 0 twice (variance 4c²/5 = 25 × 0.0004, 5 df). Half the cost
    // per window pair, so the duet gives way only past 2 × 19.30; F(0.95; 2, 5) would have been 5.79.
    const c = Math.sqrt(0.0125);
    const d = chooseDesign(pair([-0.02, 0, 0.02], [c, -c, 0, c, -c, 0]), 6)!;
    expect(d.alternate!.df).toBe(2);
    expect(d.duet!.df).toBe(5);
    expect((d.duet!.sd_round / d.alternate!.sd_round) ** 2).toBeCloseTo(25, 2);
    expect(d.bias!.agree).toBe(true);
    expect(d.chosen).toBe('duet');
    expect(d.why).toContain('within chance of no worse');
  });

  test('a duet chosen under auto whose bias check later disagrees gives way to the alternating pairs', () => {
    const r = pair([0, 0.01, 0.02], [0.01, 0.02, 0.03, 0.04]);
    const design = (agree: boolean) => ({ chosen: 'duet', asked: 'auto', bias: { agree } });
    r.changes!.design = design(true) as never;
    expect(designPairs(r, 'a', 'a@base').a).toHaveLength(4);
    r.changes!.design = design(false) as never;
    expect(designPairs(r, 'a', 'a@base').a).toHaveLength(3);
  });
});
