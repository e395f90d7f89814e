import { describe, expect, test } from 'bun:test';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { keptOf } from '../../packages/harness/src/answers/held';
import { poolAnswers } from '../../packages/harness/src/answers/pool';
import type { Results } from '../../packages/harness/src/model/results';
import { answersSection } from '../../packages/harness/src/report/answers';
import { checkText, poolLine, poolSection } from '../../packages/harness/src/report/pool';
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import { pooledView } from '../../packages/harness/src/run/pooled';
import { lacks, machineDifference, type KeptAnswers } from '../../packages/harness/src/model/kept';
import type { Comparison } from '../../packages/harness/src/model/questions';
import { fitAt, poolPrior, poolRuns, type RunEstimate, TAU_GRID } from '../../packages/harness/src/stats/pool';
import { seededRandom } from '../../packages/harness/src/stats/stats';

const est = (y: number, se: number, machine = 'm1', df = 16): RunEstimate => ({ y, se, df, run: `${y}`, machine });
/** A prior with all its weight at τr = tr (and τm = tm). */
const at = (tr: number, tm = 0, machines = 2) => ({
  run: TAU_GRID.map((t) => (t === tr ? 1 : 0)),
  machine: TAU_GRID.map((t) => (t === tm ? 1 : 0)),
  n: 0,
  nMachine: 0,
  machines,
});

describe('pooling one comparison over runs and machines', () => {
  test('a worked example by hand: three runs on one machine, at τr = 0', () => {
    // w = 400, 400, 100; μ = 135/900 = 0.15; var = 1/900. Satterthwaite: shares (w·se/900)² = 4.938e-4, 4.938e-4,
    // 1.235e-4; df = (1/900)² / Σ share²/16 = 1.2346e-6 / 3.1436e-8 = 39.27.
    // Restricted log likelihood: −½ (Σ ln se² + ln 900 + Σ w (y − μ)²)
    //   = −½ (2 ln 0.0025 + ln 0.01 + ln 900 + 2).
    const runs = [est(0.1, 0.05), est(0.2, 0.05), est(0.15, 0.1)];
    const f = fitAt([runs], 0);
    expect(f.mu).toBeCloseTo(0.15, 12);
    expect(f.v).toBeCloseTo(1 / 900, 12);
    expect(f.df).toBeCloseTo(39.27, 1);
    expect(f.logL).toBeCloseTo(-0.5 * (2 * Math.log(0.0025) + Math.log(0.01) + Math.log(900) + 2), 10);
    // With the prior at τr = 0 the posterior is that one t: 0.15 ± t(39.27, 0.975) · 1/30 = 0.15 ± 0.067406.
    const r = poolRuns(runs, at(0, 0, 1)).at(0.95);
    expect(Math.log(r.ratio)).toBeCloseTo(0.15, 8);
    expect(Math.log(r.lo)).toBeCloseTo(0.15 - 0.067406, 4);
    expect(Math.log(r.hi)).toBeCloseTo(0.15 + 0.067406, 4);
    expect(r.tau).toBe(0);
    // A new run at τ = 0: the same interval (nothing between runs).
    expect(Math.log(r.prediction!.hi)).toBeCloseTo(0.15 + 0.067406, 3);
  });

  test('machines count once each, however many runs they have: the mean of their means', () => {
    // Machine 1: three runs at 0.1; machine 2: one at 0.3. μ = (0.1 + 0.3) / 2, var = (0.05²/3 + 0.05²) / 4.
    const runs = [est(0.1, 0.05, 'm1'), est(0.1, 0.05, 'm1'), est(0.1, 0.05, 'm1'), est(0.3, 0.05, 'm2')];
    const f = fitAt([runs.slice(0, 3), runs.slice(3)], 0);
    expect(f.mu).toBeCloseTo(0.2, 12);
    expect(f.v).toBeCloseTo((0.0025 / 3 + 0.0025) / 4, 12);
    // A new run on a new machine, with τm = 0.1: wider than the interval of the machines measured.
    const r = poolRuns(runs, at(0, 0.1)).at(0.95);
    expect(r.machines).toBe(2);
    expect(Math.log(r.prediction!.hi) - Math.log(r.prediction!.lo)).toBeGreaterThan(Math.log(r.hi) - Math.log(r.lo));
  });

  test("runs that disagree: the family's τr keeps the interval wide, where τr = 0 would decide", () => {
    const runs = [est(0, 0.03), est(0.3, 0.03)];
    expect(poolRuns(runs, at(0)).at(0.95).lo).toBeGreaterThan(1);
    // A family whose runs disagree by as much: its prior puts τr near 0.15.
    const prior = poolPrior(
      Array.from({ length: 20 }, (_, i) => [est(0.3 * (i % 2), 0.03), est(0.3 * ((i + 1) % 2), 0.03)]),
    );
    expect(prior.n).toBe(20);
    const r = poolRuns(runs, prior).at(0.95);
    expect(r.tau).toBeGreaterThan(0.1);
    expect(r.lo).toBeLessThan(1);
  });

  test('one run: its own estimate, widened by the τr the family lends it', () => {
    const r = poolRuns([est(0.2, 0.05, 'm1', 14)], at(0.03)).at(0.95);
    expect(r.se).toBeCloseTo(Math.sqrt(0.05 ** 2 + 0.03 ** 2), 10);
    expect(r.n).toBe(1);
  });

  test('one machine in the whole family: τm is 0, and a new run is one on that machine', () => {
    const prior = poolPrior([
      [est(0.1, 0.05), est(0.12, 0.05)],
      [est(0, 0.05), est(0.01, 0.05)],
    ]);
    expect(prior.machines).toBe(1);
    expect(prior.nMachine).toBe(0);
    expect(poolRuns([est(0.1, 0.05), est(0.12, 0.05)], prior).at(0.95).tau_machine).toBe(0);
  });
});

const comparison = (a: string, b: string): Comparison => ({ id: `${a} vs ${b}`, question: 'q', a, b });
const record = (
  started_at: string,
  answers: [string, string, number, number][],
  inputs: Record<string, string> | undefined,
  machine = 'AMD EPYC',
): KeptAnswers => ({
  schema: 2,
  started_at,
  workload: 'xrange',
  commit: 'c0ffee0',
  machine: `${machine}, 2 logical CPUs, Linux`,
  sd_windows: 0.15,
  host: { cpu_model: machine, logical_cpus: 2, kernel: 'Linux', placement: 'none', shared_cpus: true },
  ...(inputs ? { inputs } : {}),
  answers: answers.map(([a, b, ln, se]) => ({
    a,
    b,
    ratio: Math.exp(ln),
    lo: Math.exp(ln - 3 * se),
    hi: Math.exp(ln + 3 * se),
    verdict: 'undecided' as const,
    estimate: { ln, se, df: 16, procedure: 'moderated-t', rounds: [ln] },
  })),
});

describe('the pooled family', () => {
  const today = { x: 'h1', y: 'h2', z: 'h3' };
  const comparisons = [comparison('x', 'y'), comparison('x', 'z')];

  test('a run with a changed contender counts only for the comparisons without it', () => {
    const runs = [
      record(
        '2026-11-26T01:00:00Z',
        [
          ['x', 'y', 0.3, 0.05],
          ['x', 'z', 0.0, 0.05],
        ],
        today,
      ),
      record(
        '2026-11-26T02:00:00Z',
        [
          ['x', 'y', 0.3, 0.05],
          ['z', 'x', 0.0, 0.05],
        ],
        { ...today, z: 'other' },
      ),
      record(
        '2026-11-26T03:00:00Z',
        [
          ['y', 'x', -0.3, 0.05],
          ['x', 'z', 0.0, 0.05],
        ],
        today,
        'Intel Xeon',
      ),
    ];
    const pool = poolAnswers(runs, comparisons, today, 'xrange', 10);
    const [xy, xz] = pool.answers;
    expect(xy!.pool.runs).toBe(3);
    expect(xy!.pool.machines).toBe(2);
    // The third run put y first: its estimate turned to x ÷ y.
    expect(xy!.ratio).toBeCloseTo(Math.exp(0.3), 6);
    expect(xy!.verdict).toBe('faster');
    expect(xz!.pool.runs).toBe(2);
    expect(pool.runs[1]!.changed).toEqual(['z']);
    expect(pool.runs[1]!.pooled).toBe(1);
    expect(pool.machines).toBe(2);
  });

  test('an old record without estimates or inputs is read as far as it goes and says what it lacks', () => {
    const old: KeptAnswers = {
      started_at: '2026-11-25T00:00:00Z',
      workload: 'xrange',
      commit: 'bf31392',
      machine: 'AMD EPYC, 2 logical CPUs, Linux',
      sd_windows: 0.1,
      answers: [{ a: 'x', b: 'y', ratio: 1.3, lo: 1.1, hi: 1.5, verdict: 'faster' }],
    };
    expect(lacks(old)).toEqual(["the estimates' standard errors", "the contenders' input hashes", 'the CPU placement']);
    const pool = poolAnswers(
      [old, record('2026-11-26T01:00:00Z', [['x', 'y', 0.3, 0.05]], today)],
      comparisons,
      today,
      'xrange',
      10,
    );
    expect(pool.runs[0]!.pooled).toBe(0);
    expect(pool.runs[0]!.left_out).toContain("lacks the estimates' standard errors and the contenders' input hashes");
    expect(pool.answers[0]!.pool.runs).toBe(1);
  });

  test('another workload is not pooled', () => {
    const other = { ...record('2026-11-26T01:00:00Z', [['x', 'y', 0.3, 0.05]], today), workload: 'upsert' };
    expect(poolAnswers([other], comparisons, today, 'xrange', 10).runs[0]!.left_out).toBe('another workload (upsert)');
  });

  test('runs that agree within ±margin are "equal" where the pool says so, and hold where a new run is inside', () => {
    const runs = [1, 2, 3, 4].map((h) =>
      record(
        `2026-11-26T0${h}:00:00Z`,
        [
          ['x', 'y', 0.002 * (h - 2.5), 0.01],
          ['x', 'z', 0.3, 0.02],
        ],
        today,
      ),
    );
    const [xy, xz] = poolAnswers(runs, comparisons, today, 'xrange', 10).answers;
    expect(xy!.verdict).toBe('equal');
    expect(xy!.pool.holds).toBe('holds');
    expect(xz!.verdict).toBe('faster');
    expect(xz!.pool.holds).toBe('holds');
  });
});

/** A standard normal draw (Box–Muller). */
const normal = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
/** χ²(df) / df, as a sum of squared normals. */
const chi2Over = (random: () => number, df: number) => {
  let s = 0;
  for (let i = 0; i < df; i++) s += normal(random) ** 2;
  return s / df;
};

/**
 * A family of 47 comparisons over 2–6 runs on up to three machines, each run's estimate = μ + machine effect + run
 * effect + its own error, its standard error estimated on 16 df (as a run's moderated t gives it). Comparisons differ
 * in how much machines and runs move them: most not at all, some by 3%, a few by 8% (heterogeneous machines).
 */
function family(random: () => number, mu: (i: number) => number) {
  const m = 47;
  const k = 2 + Math.floor(random() * 5);
  const machineOf = Array.from({ length: k }, (_, j) => `m${j % 3}`);
  const today: Record<string, string> = {};
  const comparisons = Array.from({ length: m }, (_, i) => comparison(`a${i}`, `b${i}`));
  for (const c of comparisons) [today[c.a], today[c.b]] = ['1', '1'];
  const spread = comparisons.map((_, i) => (i % 6 === 0 ? 0.08 : i % 3 === 0 ? 0.03 : 0));
  // The answer is of the machines measured: their effects, drawn per comparison, are centred on them under the null.
  const measured = Math.min(k, 3);
  const machineEffect = comparisons.map((_, i) => {
    const u = [0, 1, 2].map(() => spread[i]! * normal(random));
    const centre = u.slice(0, measured).reduce((s, x) => s + x, 0) / measured;
    return u.map((x) => x - centre);
  });
  const records = Array.from({ length: k }, (_, j) => {
    const rows = comparisons.map((c, i): [string, string, number, number] => {
      const se = 0.03 + 0.05 * random();
      const y = mu(i) + machineEffect[i]![j % 3]! + (spread[i]! / 2) * normal(random) + se * normal(random);
      return [c.a, c.b, y, se * Math.sqrt(chi2Over(random, 16))];
    });
    return record(`2026-11-2${j}T00:00:00Z`, rows, today, machineOf[j]!);
  });
  return poolAnswers(records, comparisons, today, 'xrange', 10);
}

describe('what the pooled machines share', () => {
  test('the CPU model and count they share, and which parts of the key differ', () => {
    const keys = [
      'AMD EPYC, 2 logical CPUs, Linux 6.18.44-fc-v669, placement none',
      'AMD EPYC, 2 logical CPUs, Linux 6.18.44-fc-v782, placement none',
      'AMD EPYC, 2 logical CPUs, Linux 6.18.44-fc-v782, placement split',
    ];
    expect(machineDifference(keys)).toEqual({
      shared: ['AMD EPYC', '2 logical CPUs'],
      differ: ['kernels', 'CPU placements (the app sharing its CPUs with Redis and oha or not)'],
    });
    expect(machineDifference([keys[0]!, 'Apple M9, 64 logical CPUs, Darwin 30, placement none'])).toEqual({
      shared: [],
      differ: ['CPU models', 'CPU counts', 'kernels'],
    });
  });
});

describe('the pooled family holds its error rate', () => {
  test('null simulation with heterogeneous machines: false "faster" claims in at most 5% of families', () => {
    const random = seededRandom(58);
    const n = 200;
    let false_ = 0;
    for (let s = 0; s < n; s++) if (family(random, () => 0).answers.some((a) => a.verdict === 'faster')) false_++;
    const rate = false_ / n;
    console.log(`pooled family, null: any false "faster" in ${(rate * 100).toFixed(1)}% of ${n} (nominal 5%)`);
    expect(rate).toBeLessThanOrEqual(0.05);
  });

  test('power: a 15% difference on quiet comparisons is decided in most families', () => {
    const random = seededRandom(59);
    const n = 100;
    let seen = 0;
    let tries = 0;
    for (let s = 0; s < n; s++) {
      const pool = family(random, (i) => (i % 3 === 1 ? Math.log(1.15) : 0));
      for (const [i, a] of pool.answers.entries()) {
        if (i % 3 !== 1 || a.pool.runs < 3 || i % 6 === 0) continue;
        tries++;
        if (a.verdict === 'faster' && a.ratio > 1) seen++;
      }
    }
    console.log(`pooled family, 15% on 3+ runs: decided ${((100 * seen) / tries).toFixed(1)}% of ${tries}`);
    expect(seen / tries).toBeGreaterThan(0.5);
  });
});

/** A run of three contenders, x ÷ y = 1.3 and y ÷ z = 1.0, 6 rounds of 2 window pairs each (seeded noise of 5%). */
function syntheticRun(started_at: string, seed: number, inputs: Record<string, string>): Results {
  const random = seededRandom(seed);
  const speed: Record<string, number> = { x: 1300, y: 1000, z: 1000 };
  const contender = (name: string) => ({
    name,
    status: 'ok',
    runtime: 'node',
    client: name,
    framework: 'raw',
    points: [
      {
        runs: Array.from({ length: 6 }, (_, r) => ({
          round: r + 1,
          rps: speed[name]!,
          windows: [0, 1].map((index) => ({ index, rps: speed[name]! * Math.exp(0.05 * normal(random)) })),
        })),
      },
    ],
  });
  const comparisons = [comparison('x', 'y'), comparison('y', 'z')];
  return {
    started_at,
    settings: { workload: 'xrange', target_ci_pct: 10, connections: [50], placement: { name: 'none', app: null } },
    environment: { cpu_model: 'AMD EPYC', logical_cpus: 2, kernel: 'Linux 6.18', git_commit: 'abc1234', inputs },
    contenders: ['x', 'y', 'z'].map(contender),
    family: { questions: [{ id: 'q', kind: 'client', about: 'node', members: ['x', 'y', 'z'] }], comparisons },
    answers: comparisons.map((c) => ({ ...c, verdict: 'undecided', ratio: 1, lo: 0.5, hi: 2, level: 0.95, p: 1 })),
  } as unknown as Results;
}

describe('the published view: a run pooled with the kept runs of the same code', () => {
  const inputs = { x: 'h1', y: 'h2', z: 'h3' };
  const runA = syntheticRun('2026-11-27T01:00:00Z', 1, inputs);
  const runB = syntheticRun('2026-11-28T01:00:00Z', 2, inputs);
  const recordA = keptOf(runA, runA.answers!, 0.07);
  const recordB = keptOf(runB, runB.answers!, 0.07);

  test("a kept record holds each comparison's estimate over all its rounds, its inputs and its machine", () => {
    expect(recordA.schema).toBe(2);
    expect(recordA.inputs).toEqual(inputs);
    expect(recordA.inputs_from).toBe('run');
    expect(recordA.host).toMatchObject({ cpu_model: 'AMD EPYC', placement: 'none', shared_cpus: true });
    const e = recordA.answers[0]!.estimate!;
    expect(e.rounds).toHaveLength(6);
    expect(e.ln).toBeCloseTo(e.rounds.reduce((s, x) => s + x, 0) / 6, 5);
    expect(e.ln).toBeCloseTo(Math.log(1.3), 1);
    expect(e.se).toBeGreaterThan(0);
    expect(lacks(recordA)).toEqual([]);
  });

  test('its answers, picks and report come from the pool; with no other run of the same code, its own', () => {
    const an = analyze(runB);
    const { analysis, pool } = pooledView(an, [recordA], recordB);
    expect(pool!.runs.map((r) => r.pooled)).toEqual([2, 2]);
    const xy = analysis.answers.find((a) => a.a === 'x')!;
    expect(xy.verdict).toBe('faster');
    expect(xy.pool).toMatchObject({ runs: 2, machines: 1 });
    expect(answersSection(analysis)).toMatch(/\[2 runs on 1 machine, τ [\d.]+% between runs; a new run: /);
    expect(poolSection(analysis)).toContain('**Where the answers hold** (pooled over 2 runs on 1 machine)');
    expect(poolLine(analysis)).toMatch(/^\*\*These answers pool 2 runs on 1 machine:\*\* \d of 2 comparisons answered/);
    // One machine: whether the answers hold on another is said to be unknown, not "0 depend on the machine".
    expect(poolLine(analysis)).toMatch(
      /\d depend on the run, and whether they hold on another machine is not measured/,
    );
    expect(poolLine(analysis)).not.toContain('depend on the machine');
    // The other run's x changed: only y ÷ z pools it; with nothing pooled from another run, the run's own view.
    const changed = { ...recordA, inputs: { ...inputs, x: 'other' } };
    expect(pooledView(an, [changed], recordB).pool!.runs[0]).toMatchObject({ pooled: 1, changed: ['x'] });
    const alone = pooledView(an, [{ ...recordA, workload: 'upsert' }], recordB);
    expect(alone.pool).toBeNull();
    expect(alone.analysis).toBe(an);
  });
});

describe("the first screen's check: pooled, and the latest run alone with the chance it had", () => {
  const pooled = { pct: 10, ratio: 0.92, lo: 0.89, hi: 0.96, detected: true };
  const own = (detected: boolean, chance?: number) =>
    ({
      pool: { check: pooled },
      handicap: [
        {
          check: {
            contender: 'x-handicap',
            compared_with: 'x',
            detected,
            measured: chance === undefined ? {} : { power: { chance, target: 0.8, rounds_for_target: 14 } },
          },
        },
      ],
    }) as unknown as Analysis;

  test('missed where a run at its noise sees it 44% of the time: said, so the miss reads as the noise', () => {
    expect(checkText(own(false, 0.44))).toContain(
      'the latest run alone: not detected (at its noise a run sees it about 44% of the time).',
    );
  });

  test('detected, or a record from before the power was kept: the verdict alone', () => {
    expect(checkText(own(true, 0.9))).toContain('the latest run alone: detected.');
    expect(checkText(own(false))).toContain('the latest run alone: not detected.');
  });
});
