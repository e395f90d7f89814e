// answers/decide.ts and racing.ts by hand, at their edges: Holm's stop, "faster" at α/m beside "equal" (and why not
// Holm's step-down there), the changes' spending of α over the run,
// "equal"'s bound on a ratio scale, the words' bound, the older files' open level, when the layout enters the prior,
// and which procedure a family of changes gets.
import { describe, expect, test } from 'bun:test';
import {
  bound,
  changesInterimAlpha,
  decidedByStepDown,
  decidedLevels,
  familyPrior,
  holmLevels,
  interimAlpha,
  look,
  openAtEqualsLevel,
  seenHalfTheTime,
  type WindowPairs,
} from '../../packages/harness/src/answers/decide';
import { changesProcedure, lookAt } from '../../packages/harness/src/answers/racing';
import type { Comparison } from '../../packages/harness/src/model/questions';
import type { Answer, Results } from '../../packages/harness/src/model/results';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import jstat from 'jstat';

const CMP: Comparison = { id: 'a vs b', question: 'q', a: 'a', b: 'b' };

/** One comparison's window pairs: one pair per round, these ln ratios. */
const pairsOf = (d: number[]): WindowPairs => ({
  a: [],
  b: [],
  rounds: d.length,
  byRound: d.map((x) => [x]),
  within: NaN,
});

/**
 * Five rounds of mean ln ratio −0.04 whose interval at 90% (1 − 2α/m, α 0.05, m 1) starts at `lo`: its own t on
 * 4 df (a family of one lends no variance), t(0.95, 4) = 2.1318467863.
 */
function roundsWithLo(lo: number): number[] {
  const se = (-Math.log(lo) - 0.04) / 2.1318467863;
  const sd = se * Math.sqrt(5);
  return [-2, -1, 0, 1, 2].map((z) => -0.04 + (sd * z) / Math.sqrt(2.5));
}

describe('a look at its edges', () => {
  test("Holm's step-down stops at the first p it cannot reject: a larger p below its own level is not rejected", () => {
    // Sorted: 0.03 against 0.05/2 fails, so 0.04 is never tried against 0.05.
    expect(holmLevels([0.03, 0.04], 0.05)).toEqual([null, null]);
    expect(holmLevels([0.04, 0.02], 0.05)).toEqual([0.05, 0.025]);
  });

  test('"faster" at α/m, not by step-down: a second gap at p 0.031 of two is "equal", not "faster" at α', () => {
    const C = [CMP, { id: 'c vs d', question: 'q', a: 'c', b: 'd' }];
    const rounds: Record<string, number[]> = {
      'a vs b': [0.3, 0.31, 0.29, 0.3, 0.32, 0.28],
      'c vs d': [-2, -1, 0, 1, 2, 0].map((z) => 0.025 + 0.02 * z),
    };
    const [gap, small] = look({ contenders: [] } as unknown as Results, C, 1, 0.05, 10, [], {
      pairs: (c) => pairsOf(rounds[c.id]!),
    });
    expect(gap!.verdict).toBe('faster');
    expect(gap!.level).toBeCloseTo(1 - 0.05 / 2, 12);
    // Holm's second step would decide it at α = 0.05; at α/m = 0.025 it is not, and its interval lies within ±10%.
    expect(small!.p).toBeGreaterThan(0.025);
    expect(small!.p).toBeLessThan(0.05);
    expect(small!.verdict).toBe('equal');
    expect(decidedLevels([1e-12, 0.031], 0.05)).toEqual([0.025, null]);
    expect(holmLevels([1e-12, 0.031], 0.05)).toEqual([0.025, 0.05]);
  });

  test('with "equal" in the family, any false claim ≤ 5% at α/m; by step-down, over 6% (seeded simulation)', () => {
    // Half the comparisons have no difference ("faster" false), half a gap just beyond ±10% ("equal" false), each
    // estimate normal with se such that the gaps are decided nearly always: the layout that makes Holm's step-down
    // spend α twice (its α/m of a decided gap passed on to the nulls, while an undecided one can say "equal").
    const margin = Math.log(1.1);
    const families = (m: number, levels: (ps: number[], alpha: number) => (number | null)[], n: number) => {
      const random = seededRandom(91);
      const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const z = jstat.normal.inv(1 - 0.05 / m, 0, 1);
      const se = margin / (2 * z);
      const theta = Array.from({ length: m }, (_, i) => (i % 2 ? margin * 1.02 : 0));
      let bad = 0;
      for (let s = 0; s < n; s++) {
        const x = theta.map((t) => t + se * normal());
        const decided = levels(
          x.map((e) => 2 * (1 - jstat.normal.cdf(Math.abs(e) / se, 0, 1))),
          0.05,
        );
        const wrong = x.some((e, i) =>
          decided[i] !== null
            ? theta[i] === 0 || Math.sign(e) !== Math.sign(theta[i]!)
            : Math.abs(e) + z * se <= margin && theta[i] !== 0,
        );
        if (wrong) bad++;
      }
      return bad / n;
    };
    const [two, twenty] = [families(2, decidedLevels, 40_000), families(20, decidedLevels, 10_000)];
    const [holm2, holm20] = [families(2, holmLevels, 40_000), families(20, holmLevels, 10_000)];
    console.log(
      `any false claim, "faster" at α/m: ${(two * 100).toFixed(1)}% (m 2), ${(twenty * 100).toFixed(1)}% (m 20); ` +
        `by Holm's step-down: ${(holm2 * 100).toFixed(1)}%, ${(holm20 * 100).toFixed(1)}%`,
    );
    expect(Math.max(two, twenty)).toBeLessThanOrEqual(0.05);
    expect(Math.min(holm2, holm20)).toBeGreaterThan(0.06); // the simulation finds the step-down's double spending
  });

  test("results decided by Holm's step-down (earlier versions) are told from those at α/m, by their levels", () => {
    const looks = [{ alpha: 0.0025 }, { alpha: 0.045 }];
    const at = (look: number, level: number, verdict = 'faster') => ({ look, level, verdict }) as Answer;
    // Two comparisons: α/m at the last look is 0.0225, Holm's second step 0.045.
    expect(decidedByStepDown(looks, [at(2, 1 - 0.0225), at(2, 1 - 0.0225)])).toBe(false);
    expect(decidedByStepDown(looks, [at(2, 1 - 0.0225), at(2, 1 - 0.045)])).toBe(true);
    expect(decidedByStepDown(looks, [at(1, 1 - 0.00125), at(2, 0.95, 'undecided')])).toBe(false);
    expect(decidedByStepDown(undefined, [at(1, 0.5)])).toBe(false);
  });

  test('"equal" within ±10% is a ratio bound: its interval at 1 − 2α/m from 1/1.1 (0.909), not from 0.9', () => {
    const at = (lo: number) =>
      look({ contenders: [] } as unknown as Results, [CMP], 1, 0.05, 10, [], {
        pairs: () => pairsOf(roundsWithLo(lo)),
      })[0]!;
    const open = at(0.905);
    expect(open.p).toBeGreaterThan(0.05);
    expect(open.verdict).toBe('undecided');
    expect(open.level).toBeCloseTo(0.95, 12);
    const equal = at(0.912);
    expect(equal.verdict).toBe('equal');
    expect(equal.level).toBeCloseTo(0.9, 12);
    expect(equal.lo).toBeCloseTo(0.912, 9);
  });

  test("an equal answer's bound is its farther end on a ratio scale: 0.90–1.05 is ±11.1%, not ±10%", () => {
    expect(bound({ lo: 0.9, hi: 1.05 })).toBeCloseTo(1 / 0.9 - 1, 12);
    expect(bound({ lo: 0.98, hi: 1.05 })).toBeCloseTo(0.05, 12);
    // The size seen half the time: the interval's half-width on the log scale, 0.8–1.25 is ±11.8%.
    expect(seenHalfTheTime({ lo: 0.8, hi: 1.25 })).toBeCloseTo(Math.sqrt(1.25 / 0.8) - 1, 12);
  });

  test('open answers stated at 1 − 2α/m (results written before) are told from those at 1 − α/m', () => {
    const r = { looks: [{ round: 5, alpha: 0.04, open: [] }] } as unknown as Results;
    const answers = (level: number) =>
      [0, 1, 2, 3].map((i) => ({ id: `${i}`, verdict: i < 2 ? 'undecided' : 'faster', level })) as Answer[];
    expect(openAtEqualsLevel(r, answers(1 - (2 * 0.04) / 4))).toBe(true);
    expect(openAtEqualsLevel(r, answers(1 - 0.04 / 4))).toBe(false);
    expect(openAtEqualsLevel({} as Results, answers(1 - (2 * 0.04) / 4))).toBe(false);
  });
});

/** Contenders a and b measured over `n` rounds, two windows each, and the family of their one comparison. */
function twoRounds(n: number) {
  const windows = (x: number) => [{ rps: x }, { rps: x * 1.01 }];
  const runs = (x: number) =>
    Array.from({ length: n }, (_, k) => ({ round: k + 1, rps: x, windows: windows(x * (1 + (k + 1) / 50)) }));
  return {
    contenders: ['a', 'b'].map((name, i) => ({ name, status: 'ok', points: [{ runs: runs(100 + i) }] })),
    family: { comparisons: [CMP] },
  };
}

describe('the spending of α', () => {
  test("the changes' interim looks spend α·share·t² by the run's time, t capped at 1", () => {
    expect(changesInterimAlpha(0.5, 0)).toBeCloseTo(0.05 * 0.1 * 0.25, 15);
    expect(changesInterimAlpha(1, 0.5)).toBeCloseTo(0.05 * 0.1 * 0.75, 15);
    expect(changesInterimAlpha(1.3, 0.9)).toBeCloseTo(0.05 * 0.1 * (1 - 0.81), 15);
  });

  test('the first interim look after round 3 spends α·share/2 (0.0025), the next half that', () => {
    const r = { ...twoRounds(4), settings: { runs: 'auto', target_ci_pct: 10 } } as unknown as Results;
    expect(lookAt(r, 2)).toBeNull();
    const first = lookAt(r, 3)!;
    expect(first.looks!.at(-1)!.alpha).toBeCloseTo(0.0025, 15);
    expect(lookAt({ ...r, ...first }, 4)!.looks!.at(-1)!.alpha).toBeCloseTo(interimAlpha(2), 15);
    expect(interimAlpha(2)).toBeCloseTo(0.00125, 15);
  });

  test("a change's look spends α·share·(t² − t_before²): after round 4 of 10, following one at 0.3", () => {
    const r = {
      ...twoRounds(4),
      settings: { runs: 'auto', target_ci_pct: 10, budget_s: 0, max_runs: 10, against: { equal_pct: 2 } },
      changes: { comparisons: [CMP], answers: [], looks: [{ round: 3, alpha: 0.00045, share: 0.3, open: [] }] },
    } as unknown as Results;
    const last = lookAt(r, 4)!.changes!.looks!.at(-1)!;
    expect(last.share).toBe(0.4);
    expect(last.alpha).toBeCloseTo(0.05 * 0.1 * (0.16 - 0.09), 15);
  });
});

describe('who the rounds go to', () => {
  test('a comparison with a side out (failed) sends no rounds to either of its contenders', () => {
    const r = { ...twoRounds(3), settings: { runs: 'auto', target_ci_pct: 10 } } as unknown as Results;
    r.contenders[1]!.status = 'failed';
    const patch = lookAt(r, 3)!;
    expect(patch.answers![0]!.out).toBe('b is failed');
    expect(patch.open).toEqual([]);
  });

  test('a --handicap pair is measured on once decided faster, not once found equal', () => {
    const cmp = { id: 'a vs a@base', question: 'change: a', a: 'a', b: 'a@base' };
    const base = twoRounds(3);
    base.contenders[1]!.name = 'a@base';
    const open = (verdict: string) => {
      const answer = { ...cmp, verdict, ratio: 0.9, lo: 0.85, hi: 0.95, level: 0.99 };
      const r = {
        ...base,
        family: { comparisons: [] },
        settings: { runs: 'auto', target_ci_pct: 10, budget_s: 0, max_runs: 10, against: { equal_pct: 2 } },
        handicap: [{ contender: 'a', compared_with: 'a@base', pct: 10 }],
        changes: { comparisons: [cmp], answers: [answer], looks: [] },
      } as unknown as Results;
      return lookAt(r, 3)!.changes!.looks!.at(-1)!.open;
    };
    expect(open('faster')).toEqual(['a', 'a@base']);
    expect(open('equal')).toEqual([]);
  });
});

describe('who the prior and the procedure are', () => {
  test('the layout enters the prior from 6 comparisons with rounds on each side, not 5', () => {
    const data = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ ...pairsOf([0.01, -0.02, 0.01 * i]), within: 0.01 }));
    const split = (near: number) =>
      familyPrior(
        data(near + 6),
        Array.from({ length: near + 6 }, (_, i) => i < near),
      ).split;
    expect(split(6)).toBe(true);
    expect(split(5)).toBe(false);
  });

  test('changes are tested by the moderated t from 6 pairs, by the signed-rank test under 6', () => {
    expect(changesProcedure(6)).toBe('moderated-t');
    expect(changesProcedure(5)).toBe('signed-rank');
  });
});
