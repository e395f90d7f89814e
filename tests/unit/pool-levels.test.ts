// The pool's levels and figures checked exactly, where the seeded simulations (tests/unit/pool.test.ts) run far under
// their 5% and so cannot tell α from 2α: a machine's verdicts at α/m and the equal test's own levels, a pooled p,
// a boot's merged estimate, a prediction's width and df, each against its formula by hand.
import { describe, expect, test } from 'bun:test';
import jstat from 'jstat';
import { type Config, decideOn } from '../../packages/harness/src/answers/across-runs';
import {
  halfNormalOnGrid,
  mergeBoots,
  type Pooled,
  poolRuns,
  posterior,
  type RunEstimate,
  statedMachinePrior,
  TAU_GRID,
  TAU_IN_BOOT,
} from '../../packages/harness/src/stats/meta-analysis';
import { studentT } from '../../packages/harness/src/stats/moderated';
import { priorAt } from '../helpers/priors';

const z = (q: number) => jstat.normal.inv(q, 0, 1);
/** A posterior of ln ratio normal about `mean` with sd `se`: its two-sided p and its interval at any level. */
const normalPooled = (mean: number, se: number): Pooled => {
  const p = 2 * (1 - jstat.normal.cdf(Math.abs(mean) / se, 0, 1));
  const at = (level: number) => {
    const half = z((1 + level) / 2) * se;
    return { ratio: Math.exp(mean), lo: Math.exp(mean - half), hi: Math.exp(mean + half), level, p };
  };
  return { p, tau: 0.01, at: at as Pooled['at'] };
};
/** A mean whose two-sided p is `p` at sd `se`. */
const meanAt = (p: number, se: number) => se * z(1 - p / 2);
/** A mean and sd whose interval at `level` is lo–hi. */
const spanning = (lo: number, hi: number, level: number): [number, number] => [
  (Math.log(lo) + Math.log(hi)) / 2,
  (Math.log(hi) - Math.log(lo)) / 2 / z((1 + level) / 2),
];

describe("a machine's verdicts at their own levels (a worked example by hand)", () => {
  // Six comparisons measured, five on two boots (the family "faster" and the equal test run over, m = 5), one on one
  // boot (n = 6). α 5%: "faster" at α/5 = 1% for each (Holm's second step would be α/4 = 1.25%); "equal" at
  // 1 − 2α/m = 98%.
  const alpha = 0.05;
  const m = 5;
  const n = 6;
  const equalLevel = 1 - (2 * alpha) / m;
  const rows: [string, number, number, number][] = [
    // name, mean, sd, boots
    ['decided at α/m', meanAt(0.009, 0.05), 0.05, 2],
    ['p 1.1%: past α/m, inside what Holm’s second step (α/4) would decide', meanAt(0.011, 0.05), 0.05, 2],
    ['equal at 98% just out of ±10% (inside at 96%)', 0, Math.log(1.1 * 1.002) / z(1 - alpha / m), 2],
    ['lo 0.905: below 1/1.1, above 1 − 10%', ...spanning(0.905, 1.01, equalLevel), 2],
    ['equal: ±2.3% at 98%', 0, 0.01, 2],
    ['one boot, ±1.2%: decides nothing', 0, 0.005, 1],
  ].map(([name, mean, se, boots]) => [name as string, mean as number, se as number, boots as number]);
  const cfg = {
    key: 'A|none',
    run: { machine: 'A', placement: 'none' },
    name: 'A',
    estimates: rows.map(() => [{ y: 0, se: 0.01, df: 16, run: 'r', machine: 'A' }]),
    pooled: rows.map(([, mean, se]) => normalPooled(mean, se)),
    boot: () => 'b',
    bootsOf: rows.map(([, , , boots]) => boots),
    tau: 0.01,
    runs: 2,
    boots: 2,
    contendedBoots: 0,
  } as unknown as Config;
  const on = decideOn(cfg, alpha, 10);

  test('"faster" at α/m over what the machine can decide, not by step-down: p 1.1% of five stays open', () => {
    expect(on.map((o) => o!.verdict)).toEqual(['faster', 'undecided', 'undecided', 'undecided', 'equal', 'undecided']);
    expect(on[0]!.level).toBeCloseTo(1 - alpha / m, 12);
  });

  test('"equal" at 1 − 2α/m, within ±margin on a ratio scale (lo ≥ 1/1.1), and never from one boot', () => {
    expect(on[4]!.level).toBeCloseTo(equalLevel, 12);
    expect([on[4]!.lo, on[4]!.hi]).toEqual([Math.exp(-z(1 - alpha / m) * 0.01), Math.exp(z(1 - alpha / m) * 0.01)]);
    // An open answer's interval at 1 − α/n, holding 1; the one-boot answer's too.
    for (const i of [1, 2, 3, 5]) {
      expect(on[i]!.level).toBeCloseTo(1 - alpha / n, 12);
      expect([on[i]!.lo <= 1, on[i]!.hi >= 1]).toEqual([true, true]);
    }
  });
});

describe('a pooled figure against its formula', () => {
  test("one run at τr = 0: the pooled p is the t's own two-sided p", () => {
    const one: RunEstimate = { y: 0.1, se: 0.04, df: 10, run: 'r', machine: 'A' };
    const pooled = poolRuns([one], priorAt(0, 0, 1));
    expect(pooled.p).toBeCloseTo(2 * (1 - studentT.cdf(2.5, 10)), 9);
    expect(pooled.at(0.95, false).lo).toBeCloseTo(Math.exp(0.1 - studentT.inv(0.975, 10) * 0.04), 9);
  });

  test("a boot's runs merged: their inverse-variance mean, each run's variance its own plus τ within a boot²", () => {
    const runs: RunEstimate[] = [
      { y: 0.1, se: 0.01, df: 16, run: 'r1', machine: 'A' },
      { y: 0.2, se: 0.03, df: 16, run: 'r2', machine: 'A' },
    ];
    const [merged] = mergeBoots(runs, () => 'one boot');
    const w = runs.map((r) => 1 / (r.se ** 2 + TAU_IN_BOOT ** 2));
    expect(TAU_IN_BOOT).toBe(0.02);
    expect(merged!.se).toBeCloseTo(Math.sqrt(1 / (w[0]! + w[1]!)), 12);
    expect(merged!.y).toBeCloseTo((0.1 * w[0]! + 0.2 * w[1]!) / (w[0]! + w[1]!), 12);
  });

  test('a run on an unmeasured machine: τr² and τm²(1 + 1/M) added, on a t of at most M − 1 df', () => {
    const runs = [0.1, 0.15, 0.2, 0.25, 0.3].map((y, i) => ({ y, se: 0.01, df: 30, run: `r${i}`, machine: `M${i}` }));
    const [tr, tm] = [TAU_GRID[3]!, TAU_GRID[6]!];
    const post = posterior(runs, priorAt(tr, tm, 5));
    const [mu] = post.mu;
    const [next] = post.next();
    expect(next!.s).toBeCloseTo(Math.sqrt(mu!.s ** 2 + tr ** 2 + tm ** 2 * (1 + 1 / 5)), 12);
    expect(next!.df).toBe(Math.min(mu!.df, 4));
    // The stated prior on τm is the half-normal of 11% that docs/methodology.md states.
    expect(statedMachinePrior().machine).toEqual(halfNormalOnGrid(0.11));
  });
});
