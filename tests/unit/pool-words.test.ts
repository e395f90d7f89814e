// pool.md (npm run pool on kept records alone): what each machine said of an answer, in the answer's own order.
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import { describe, expect, test } from 'bun:test';
import { across } from '../../packages/harness/src/answers/where';
import { type OnMachine, saidOn } from '../../packages/harness/src/model/across-runs';
import { poolAnswerLines, poolProcedureText } from '../../packages/harness/src/report/across-runs';
import { onSomeMachines } from '../../packages/harness/src/report/words';

const on = (name: string, verdict: OnMachine['verdict'], ratio: number, boots = 2): OnMachine => ({
  machine: `${name}, 2 logical CPUs`,
  placement: 'none',
  name,
  runs: 2,
  boots,
  verdict,
  ratio,
  lo: ratio * 0.9,
  hi: ratio * 1.1,
  level: 0.99,
  p: 0.001,
  tau: 0.05,
});

/** An answer x ÷ y pooled over `ms`, with its words across them as the pool gives them (answers/where.ts). */
const answer = (ms: OnMachine[]) => {
  const where = across(ms);
  return { a: 'x', b: 'y', pool: { where: where.words, holds: where.holds, on_machines: ms } };
};

describe("pool.md's words", () => {
  test('on each machine, a decided answer is faster or slower by its side of 1; one boot, its ratio so far', () => {
    const slower = answer([on('A', 'faster', 0.5), on('B', 'undecided', 0.6, 1)]);
    const faster = answer([on('A', 'faster', 2), on('B', 'equal', 1.01)]);
    const lines = poolAnswerLines({ answers: [slower, faster] } as unknown as Parameters<typeof poolAnswerLines>[0]);
    expect(lines).toEqual([
      '- x ÷ y: slower on A, open on B; A: slower, 0.500 (0.450–0.550), 2 runs on 2 boots, τ 5.0%; ' +
        'B: open, 0.600 so far, 2 runs on 1 boot (decides nothing), τ 5.0%',
      '- x ÷ y: faster on A, equal on B; A: faster, 2.000 (1.800–2.200), 2 runs on 2 boots, τ 5.0%; ' +
        'B: equal, 1.010 (0.909–1.111), 2 runs on 2 boots, τ 5.0%',
    ]);
    // The machine's word is the one the answer's words give it (report/words.ts onSomeMachines), both ways round.
    for (const a of [slower, faster])
      for (const m of a.pool.on_machines) {
        expect(onSomeMachines(a)).toContain(`${saidOn(m)} on ${m.name}`);
        const back = { faster: 'slower', slower: 'faster' }[saidOn(m) as string] ?? saidOn(m);
        expect(onSomeMachines(a, 'y')).toContain(`${back} on ${m.name}`);
      }
  });
});

describe("the pooled method's line", () => {
  test("α's split: over the configurations that can decide, or none yet, said as such", () => {
    const p = { keeps: 1, spent: 0.025, alpha: 0.05, per_machine: 0.025, machines: 2, configurations: 2 };
    const text = (deciding: number) =>
      poolProcedureText({ pool: { ...p, deciding, run_prior: { scale: 0.06, min_boots: 2 } } } as unknown as Analysis);
    expect(text(2)).toContain('split over 2 machines (2.5% each), α/m for each comparison inside each.');
    expect(text(1)).toContain('split over the 1 of 2 machines measured on enough boots to decide (2.5% each)');
    expect(text(0)).toContain(
      'to be split over those measured on enough boots to decide, α/m for each comparison inside each: none of the ' +
        '2 machines yet, so nothing is decided.',
    );
  });
});
