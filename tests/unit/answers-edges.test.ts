// What the answers say of themselves, by hand at their edges: across machines, the ranking's family, a distance's
// rank change, where answers held, two runs' agreement, and the noise line's rounds to close.
import { describe, expect, test } from 'bun:test';
import { answersAgreement } from '../../packages/harness/src/answers/agreement';
import { heldUp } from '../../packages/harness/src/answers/held';
import { answeredWithin, noiseOf, roundsToClose } from '../../packages/harness/src/answers/noise';
import { ranked } from '../../packages/harness/src/answers/ranking';
import { type DistancePoint, rankChanges } from '../../packages/harness/src/answers/sweeps';
import { across } from '../../packages/harness/src/answers/where';
import type { OnMachine } from '../../packages/harness/src/model/across-runs';
import type { KeptAnswers } from '../../packages/harness/src/model/kept';
import type { Answer, Results } from '../../packages/harness/src/model/results';

const machine = (name: string, ratio: number, lo: number, hi: number): OnMachine => ({
  machine: name,
  placement: 'none',
  name,
  runs: 3,
  boots: 3,
  verdict: 'faster',
  tau: 0.01,
  ratio,
  lo,
  hi,
  level: 0.99,
  p: 0.001,
});

describe('across machines', () => {
  test('slower on every machine holds on every machine; its envelope reaches from the least low end', () => {
    const a = across([machine('AMD EPYC', 0.8, 0.75, 0.85), machine('Intel Xeon', 0.9, 0.85, 0.95)]);
    expect(a.verdict).toBe('faster');
    expect(a.holds).toBe('holds on every machine measured');
    expect(a.lo).toBe(0.75);
    expect(a.hi).toBe(0.95);
  });
});

describe('the ranking', () => {
  test("a pair at p ≈ 0.3 is not decided at the family's 5%: both rank 1–2", () => {
    // Rounds of ln ratio 0.05, −0.02, 0.08 (3 rounds, 2 df, a family of one): t ≈ 1.3.
    const runs = (d: number[]) => d.map((x, i) => ({ round: i + 1, rps: 1, windows: [{ rps: 1000 * Math.exp(x) }] }));
    const c = (name: string, d: number[], median: number) => ({
      name,
      status: 'ok',
      rps: { median },
      points: [{ runs: runs(d) }],
    });
    const r = { contenders: [c('a', [0.05, -0.02, 0.08], 1040), c('b', [0, 0, 0], 1000)] } as unknown as Results;
    expect(ranked(r).map((x) => x.rank)).toEqual(['1–2', '1–2']);
  });
});

describe('a distance sweep', () => {
  test('rank intervals that share a rank (1–2 near, 2–3 far) are no change', () => {
    const at = (rtt: number, name: string, lo: number, hi: number): DistancePoint => ({
      rtt_ms: rtt,
      measured_rtt_ms: rtt,
      name,
      status: 'ok',
      rps: 1000,
      rank_lo: lo,
      rank_hi: hi,
      proxy_cpu_pct: null,
    });
    const points = [at(0, 'a', 1, 2), at(0, 'b', 1, 2), at(5, 'a', 2, 3), at(5, 'b', 1, 1)];
    expect(rankChanges(points)).toEqual([]);
  });
});

describe('where answers held, and two runs agreeing', () => {
  const answer = (verdict: string, ratio: number) =>
    ({ id: 'a vs b', a: 'a', b: 'b', verdict, ratio, lo: ratio - 0.01, hi: ratio + 0.01 }) as Answer;

  test('only the answers decided faster are followed into other runs, not the equal ones', () => {
    const kept = (started_at: string, answers: Answer[]) =>
      ({ started_at, workload: 'w', answers }) as unknown as KeptAnswers;
    const here = kept('1', [answer('equal', 1)]);
    expect(heldUp(here, [here, kept('2', [answer('faster', 1.2)])])).toBeNull();
  });

  test('an equal answer against a faster one differs; it is not a flip', () => {
    const run = (x: Answer) => ({ answers: [x] }) as Results;
    const agree = answersAgreement(run(answer('equal', 0.99)), run(answer('faster', 1.2)));
    expect(agree).toEqual({ both: 1, same: 0, differ: ['a vs b (equal → faster)'], flipped: [] });
  });
});

describe('the noise line', () => {
  test('rounds to close: 6 rounds, ln ratio 0.05, half-width 0.1 at 95%: "equal" within ±10% nearer, 15 more', () => {
    // Deciding needs 6·(0.1/0.05)² = 24; equal, 6·(0.1·1.6449/1.96 ÷ (ln 1.1 − 0.05))² = 20.58, so 15 more.
    const a = { ratio: Math.exp(0.05), lo: Math.exp(-0.05), hi: Math.exp(0.15), level: 0.95, rounds: 6 } as Answer;
    expect(roundsToClose(a, 10)).toBe(15);
  });

  test('well above the quietest kept run is over 1.25 times its sd: 12% against 10% is not', () => {
    const r = { design: { t2_window: 0.0144 }, settings: { budget_s: 900, runs: 10 } } as unknown as Results;
    const ref = { sdWindows: 0.1, startedAt: '', commit: '', machine: '', sameKind: true };
    const n = noiseOf(r, [{ ...({ verdict: 'faster' } as Answer), roundsToClose: null }], ref)!;
    expect(n.sdWindows).toBeCloseTo(0.12, 12);
    expect(n.aboveReference).toBe(false);
  });

  test('a longer budget closes an open comparison in the round that reaches the round cap, not after it', () => {
    // 15 rounds of a cap of 16 (not the default's 15): one more round, at 2 contenders × 2 s, closes the one open.
    const r = {
      design: { cost_window_s: 1, cost_launch_s: 1 },
      settings: { budget_s: 900, max_runs: 16, windows: 1 },
      schedule: { rounds: 15 },
    } as unknown as Results;
    const open = { ...({ a: 'a', b: 'b', verdict: 'undecided' } as Answer), roundsToClose: 1 };
    expect(answeredWithin(r, [open], 2700)).toBe(1);
  });
});
