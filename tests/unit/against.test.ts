// --against and --handicap NAME:PCT: the flags, the changes family, and the pair's test with its
// stopping rule on a worked example (synthetic window pairs of a known ratio).
import { afterAll, describe, expect, spyOn, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import {
  AGAINST_MAX_RUNS,
  handicapFlag,
  PAIR_WINDOWS,
  parseCli,
  UsageError,
} from '../../packages/harness/src/cli/args';
import { baseName, changeComparisons, isBase } from '../../packages/harness/src/model/questions';
import { changesProcedure, changesRoundsNeeded, finalLook, lookAt } from '../../packages/harness/src/answers/racing';
import { shortBudget } from '../../packages/harness/src/run/schedule';
import { seenHalfTheTime } from '../../packages/harness/src/answers/decide';
import {
  changeSentence,
  changesSection,
  changesSpec,
  inputsLine,
  scaleText,
} from '../../packages/harness/src/report/changes';
import { type Analysis, analyze } from '../../packages/harness/src/answers/analysis';
import { handicapJudged, loopBurnUs, wallBurnUs } from '../../packages/harness/src/answers/handicap';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import { setProgressMode } from '../../packages/harness/src/system/progress';
import {
  aloneAt,
  aloneScale,
  chooseDesign,
  designPairs,
  equalMarginPct,
} from '../../packages/harness/src/answers/pair-design';
import { pairMode } from '../../packages/harness/src/run/plan';
import { meeting } from '../../packages/harness/src/measure/measure';
import type { Answer, ContenderResult, Results, Settings } from '../../packages/harness/src/model/results';
import { changedOn, resolveAgainst, type OtherSide } from '../../packages/harness/src/run/against';
import { loadSuite } from '../../packages/harness/src/model/manifests';
import { runsFor } from '../helpers/monte-carlo';
import { appsRepo, git } from '../helpers/against';

const all = [
  {
    name: 'node-raw-node-redis',
    runtime: 'node',
    framework: 'raw',
    client: 'node-redis',
    variant: null,
    settings: {},
    suites: ['default', 'matrix'],
  },
  {
    name: 'bun-raw-ioredis',
    runtime: 'bun',
    framework: 'raw',
    client: 'ioredis',
    variant: null,
    settings: {},
    suites: ['default', 'matrix'],
  },
] as never[];

const usage = (argv: string[]) => {
  try {
    parseCli(argv, all);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('the flags', () => {
  test('--handicap NAME:3% sizes the burn; NAME alone is 10%; out of 0.5–100% or an unknown name is refused', () => {
    expect(handicapFlag('node-raw-node-redis:3%', ['node-raw-node-redis'])).toEqual({
      name: 'node-raw-node-redis',
      pct: 3,
    });
    expect(handicapFlag('node-raw-node-redis:2.5', ['node-raw-node-redis'])).toEqual({
      name: 'node-raw-node-redis',
      pct: 2.5,
    });
    expect(handicapFlag('node-raw-node-redis', ['node-raw-node-redis'])).toEqual({
      name: 'node-raw-node-redis',
      pct: 10,
    });
    expect(handicapFlag(undefined, [])).toBeNull();
    expect(() => handicapFlag('node-raw-node-redis:0.1%', ['node-raw-node-redis'])).toThrow(
      'the size must be from 0.5% to 100%, like node-raw-node-redis:3%',
    );
    expect(() => handicapFlag('nope:3%', ['node-raw-node-redis'])).toThrow(
      '--handicap "nope" is not a contender of this run',
    );
  });

  test('--against: a 10m budget (not a round cap), 2 windows a launch, each app alone, ±2% unless --equal', () => {
    const o = parseCli(['--only', 'node-raw-node-redis', '--against', 'HEAD'], all);
    expect(o).toMatchObject({
      against: 'HEAD',
      pair: 'alternate',
      equalPct: 2,
      budgetS: 600,
      windows: PAIR_WINDOWS,
      maxRuns: AGAINST_MAX_RUNS,
    });
    expect(parseCli(['--against', 'HEAD', '--equal', '1%', '--budget', '30m'], all)).toMatchObject({
      equalPct: 1,
      budgetS: 1800,
    });
    // --handicap on the one contender selected is a pair too; on the suite it keeps the suite's defaults.
    expect(parseCli(['--only', 'node-raw-node-redis', '--handicap', 'node-raw-node-redis:3%'], all)).toMatchObject({
      handicap: 'node-raw-node-redis',
      handicapPct: 3,
      budgetS: 600,
      windows: PAIR_WINDOWS,
    });
    expect(parseCli(['--handicap', 'node-raw-node-redis'], all)).toMatchObject({
      handicapPct: 10,
      budgetS: 900,
      windows: 2,
    });
  });

  test('--against with a flag it cannot pair, and --equal without a pair, get one line naming the cause', () => {
    expect(usage(['--against', 'HEAD', '--target', 'http://127.0.0.1:3000/'])).toMatch(
      /^--against cannot be combined with --target: /,
    );
    expect(usage(['--against', 'HEAD', '--profile', 'seed', '--runs', '3'])).toMatch(
      /^--against cannot be combined with --profile: /,
    );
    expect(usage(['--against', 'HEAD', '--servers', 'redis,valkey'])).toMatch(
      /^--against cannot be combined with --servers: /,
    );
    expect(usage(['--against', 'HEAD', '--resume', 'results/x'])).toMatch(
      /^--against cannot be combined with --resume: /,
    );
    expect(usage(['--against', 'HEAD', '--publish'])).toMatch(/^--against cannot be combined with --publish: /);
    // Two --app (a change of your own app) are refused as --app is, before the pair's flags are read.
    expect(usage(['--app', 'node a.js', '--app', 'node b.js', '--publish'])).toBe(
      '--app measures your own app, which is never published: drop --publish',
    );
    expect(usage(['--against', ''])).toMatch(/^--against needs a git ref or a folder of apps/);
    expect(usage(['--equal', '2'])).toBe('--equal bounds a change: use it with --against or --handicap');
    expect(usage(['--against', 'HEAD', '--equal', '-1'])).toMatch(/^--equal "-1" must be a number above 0/);
  });
});

describe('the changes family', () => {
  test('each contender with a twin from the other side, this side first, side by side; a twin alone is no pair', () => {
    expect(baseName('a')).toBe('a@base');
    expect(isBase('a@base') && !isBase('a')).toBe(true);
    expect(changeComparisons(['a', 'a@base', 'b', 'c@base'])).toEqual([
      { id: 'a vs a@base', question: 'change: a', a: 'a', b: 'a@base', side_by_side: true },
    ]);
  });
});

/** A run of each name beside its twin name@base, no rounds yet: the contenders in that order, and the results. */
function emptyRun(names: string[], maxRuns: number, against: object) {
  const contenders = names.flatMap((n) =>
    [n, `${n}@base`].map((name) => ({ name, status: 'incomplete', points: [{ runs: [] as unknown[] }] })),
  ) as unknown as ContenderResult[];
  const results = {
    contenders,
    settings: { runs: 'auto', target_ci_pct: 10, max_runs: maxRuns, against },
    family: { questions: [], comparisons: [] },
    changes: { comparisons: changeComparisons(contenders.map((c) => c.name)) },
  } as unknown as Results;
  return { contenders, results };
}

/** One round of a recorded pair: head's windows off by the ln ratios `d`, base's at 1000 req/s. */
function pushRecorded(head: ContenderResult, base: ContenderResult, round: number, d: number[]) {
  head.points[0]!.runs.push({ round, rps: 1000, windows: d.map((x) => ({ rps: 1000 * Math.exp(x) })) } as never);
  base.points[0]!.runs.push({ round, rps: 1000, windows: d.map(() => ({ rps: 1000 })) } as never);
}

/**
 * A run of one pair, head = base × `ratio`, every window off by a seeded log-normal of sd `sd`, `windows` pairs a
 * round.
 */
function pairRun(ratio: number, sd: number, seed: number, windows = 4) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const { contenders, results } = emptyRun(['a'], 60, {
    spec: 'HEAD',
    kind: 'ref',
    commit: 'f'.repeat(40),
    apps_dir: '/x',
    equal_pct: 2,
  });
  const addRound = (round: number) => {
    for (const [i, c] of contenders.entries()) {
      const scale = i === 0 ? ratio : 1;
      const ws = Array.from({ length: windows }, () => ({ rps: 1000 * scale * Math.exp(sd * normal()) }));
      c.points[0]!.runs.push({ round, rps: 1000 * scale, windows: ws } as never);
    }
  };
  return { results, addRound };
}

/** Rounds with a look after each, until the pair is no longer open or `max` rounds, then the last look. */
function race(ratio: number, sd: number, seed: number, max: number) {
  const { results, addRound } = pairRun(ratio, sd, seed);
  let round = 0;
  while (round < max) {
    addRound(++round);
    Object.assign(results, lookAt(results, round));
    if (round >= 3 && !results.open?.length) break;
  }
  Object.assign(results, finalLook(results));
  return { results, answer: results.changes!.answers![0]!, rounds: round };
}

describe('the pair test and its stopping rule (worked example)', () => {
  test('the last look says what it decided, as the interim looks do', () => {
    const said: string[] = [];
    const spy = spyOn(process.stderr, 'write').mockImplementation((s) => (said.push(String(s)), true));
    try {
      race(1, 0.02, 3, 4);
    } finally {
      spy.mockRestore();
    }
    const lines = said.join('').split('\n');
    expect(lines.filter((l) => /^look \d after round \d/.test(l)).length).toBeGreaterThan(0);
    expect(lines.filter((l) => /^final look after (round 4|the rounds): 1 change \(α /.test(l))).toHaveLength(1);
  });

  test('a look counts a pair with a side out apart, so its counts add up to the pairs', () => {
    const { results, addRound } = pairRun(1, 0.02, 3);
    for (let round = 1; round <= 3; round++) addRound(round);
    results.contenders[0]!.status = 'failed';
    const said: string[] = [];
    const spy = spyOn(process.stderr, 'write').mockImplementation((s) => (said.push(String(s)), true));
    try {
      Object.assign(results, lookAt(results, 3));
    } finally {
      spy.mockRestore();
    }
    expect(said.join('')).toContain('1 change (α 0.00');
    expect(said.join('')).toContain('): 0 decided, 0 equal within ±2%, 0 open, 1 not answered (a side out)');
  });

  test('a 3% slow-down, windows off by sd 2%: decided slower at an interim look, within a point, stops racing', () => {
    const { results, answer, rounds } = race(0.97, 0.02, 7, 60);
    expect(answer.verdict).toBe('faster');
    expect(answer.ratio).toBeGreaterThan(0.96);
    expect(answer.ratio).toBeLessThan(0.98);
    expect(answer.hi).toBeLessThan(1);
    // Decided before the cap: the last interim look left nothing open, and the last look kept it.
    expect(rounds).toBeLessThan(60);
    const interim = results.changes!.looks!.filter((l) => !l.last);
    expect(interim.at(-1)!.open).toEqual([]);
    expect(results.open).toEqual([]);
    expect(changeSentence(answer, 2)).toMatch(
      new RegExp(
        /^a: \*\*head is [23]\.\d% slower\*\* than base /.source +
          /\(−\d\.\d%…−\d\.\d%, (\d+\.\d%|1 − \d\.\de-\d+), \d+ rounds\)$/.source,
      ),
    );
  });

  test('no change, same noise: equal within ±2% before the cap; a pair still open says what it could detect', () => {
    const { answer } = race(1, 0.02, 11, 60);
    expect(answer.verdict).toBe('equal');
    expect(Math.max(answer.hi - 1, 1 / answer.lo - 1)).toBeLessThanOrEqual(0.02);
    expect(changeSentence(answer, 2)).toMatch(/^a: head and base are \*\*equal within ±\d\.\d%\*\* /);
    // Six rounds of sd 10%: far too few for ±2%; the last look leaves it open (this seed draws no false claim, as 95%
    // of them do), its interval at the level a decision needs, which holds 1. Five rounds cannot reach that level
    // (the signed-rank test's smallest p there is 1/16): said so, with no interval.
    expect(changeSentence(race(1, 0.1, 5, 5).answer, 2)).toMatch(
      new RegExp(
        /^a: open, too few rounds for an interval \(an interval at [\d.]+% needs at least \d+ rounds: /.source +
          /5 round\(s\) cannot reach it; a longer `--budget`, or more `--runs`, buys rounds\)$/.source,
      ),
    );
    // The fewest rounds a pair needs, as the run says after round 1 of a budget too short for them: a 30% change
    // with 1% noise is decided in that many rounds and is left open, with no interval, in one fewer.
    const need = changesRoundsNeeded(1);
    expect(need).toBe(6);
    expect(race(1.3, 0.01, 5, need).answer.verdict).toBe('faster');
    expect(race(1.3, 0.01, 5, need - 1).answer.hi).toBe(Infinity);
    const said = (roundS: number, budgetS: number, pairs = 1, runs: Settings['runs'] = 'auto', maxRuns = 1000) =>
      shortBudget(
        {
          settings: { runs, budget_s: budgetS, max_runs: maxRuns } as Settings,
          changes: { comparisons: Array.from({ length: pairs }) } as Results['changes'],
        },
        roundS,
        10,
      );
    expect(said(20, 60)).toBe(
      'round 1 took 20 s: the 1m00s budget holds about 2 round(s), and a change needs at least 6 to be answered; ' +
        '--budget 3m would hold them',
    );
    expect(said(20, 600)).toBeNull();
    // Six pairs and more: the moderated t, which the first three rounds serve (five fit here; one pair's six do not).
    expect(said(20, 120)).toContain('needs at least 6');
    expect(said(20, 120, 6)).toBeNull();
    // --runs 3, or a round cap of 5: said with the flag to raise.
    expect(said(20, 600, 1, 3)).toBe(
      '--runs 3 measures 3 round(s), and a change needs at least 6 to be answered; --runs 6 would',
    );
    expect(said(20, 600, 1, 6)).toBeNull();
    expect(said(20, 600, 1, 'auto', 5)).toBe(
      '--max-runs 5 stops before 6 rounds, and a change needs at least 6 to be answered',
    );
    const open = race(1, 0.1, 5, 6).answer;
    expect(open.verdict).toBe('undecided');
    expect([open.lo <= 1, open.hi >= 1]).toEqual([true, true]);
    const seen = analyze(race(1, 0.1, 5, 6).results).changeSeen.get('a')!;
    expect(seen).toBeCloseTo(seenHalfTheTime(open)!, 12);
    expect(changeSentence(open, 2, null, seen)).toMatch(
      new RegExp(
        /^a: open, [+−]\d+\.?\d*% \(.*\); a change of about ±\d+\.?\d*% would be seen about half the time, /.source +
          /and "equal" needs its interval within ±2%$/.source,
      ),
    );
  });

  test("an open pair's seen size: runs of a true change of that size are decided about half the time", () => {
    // The seen size of A/A runs at this noise and length (their median), then runs of that true change: decided in
    // about half of them (55% of these 80 seeds).
    const sizes = Array.from({ length: 40 }, (_, s) => seenHalfTheTime(race(1, 0.03, 100 + s, 8).answer)!);
    const x = sizes.sort((a, b) => a - b)[20]!;
    const decided = Array.from({ length: 80 }, (_, s) => race(1 / (1 + x), 0.03, 500 + s, 8).answer).filter(
      (a) => a.verdict === 'faster' && a.ratio < 1,
    ).length;
    expect(decided / 80).toBeGreaterThan(0.35);
    expect(decided / 80).toBeLessThan(0.7);
  });

  test('the report: a line per pair, a forest plot with the ±--equal band and decided, equal and open apart', () => {
    const { results } = race(0.97, 0.02, 7, 60);
    expect(changesSection(analyze(results))).toMatch(
      /^\*\*Changes\*\*: this checkout \(head\) against `HEAD` \(commit ffffffffffff\) \(base\)/,
    );
    const spec = changesSpec(results, {}) as unknown as { layer: { data: { values: Record<string, unknown>[] } }[] };
    expect(spec.layer[0]!.data.values).toEqual([{ a: 1 / 1.02, b: 1.02 }]);
    expect(spec.layer[2]!.data.values[0]).toMatchObject({ name: 'a', state: 'decided: head slower' });
    const out = { ...(results.changes!.answers![0] as Answer), out: 'a@base is failed' };
    expect(changeSentence(out, 2)).toBe('a: not answered (a@base is failed)');
  });

  test("a --handicap pair's burn is read back as loopBurnUs's (older results: pct of the wall time)", () => {
    const { results } = race(0.97, 0.02, 7, 60);
    const twin = { wallUs: 812, mainUs: 633, waitUs: 2, cpuUs: 700 };
    const check = (us: number) => ({
      contender: 'a',
      calibrated_on: 'a',
      compared_with: 'a@base',
      pct: 3,
      cpu_us_per_req: twin.cpuUs,
      wall_us_per_req: twin.wallUs,
      main_thread_us_per_req: twin.mainUs,
      main_thread_wait_us_per_req: twin.waitUs,
      us,
      injected_ratio: 1 / 1.03,
      measured: { ratio: 0.97, lo: 0.96, hi: 0.98, level: 0.95, p: 1e-5, pairs: 86, rounds: 43 },
    });
    results.handicap = [check(loopBurnUs(twin, 3)), check(wallBurnUs(twin, 3))];
    const [loop, wall] = analyze(results).handicap;
    expect(loop).toMatchObject({ sizing: 'loop', check: { us: 31.4 } });
    expect(loop!.loopShare).toBeCloseTo(635 / 812, 6);
    expect(wall).toMatchObject({ sizing: 'wall', check: { us: 24.4 } });
    expect(wall!.loopShare).toBeUndefined();
  });

  test('a --handicap pair is detected only where its whole interval lies below 1, not where it reaches past it', () => {
    const judged = (ratio: number, sd: number) => {
      const { results, addRound } = pairRun(ratio, sd, 5);
      for (let round = 1; round <= 6; round++) addRound(round);
      results.handicap = [{ contender: 'a', calibrated_on: 'a', compared_with: 'a@base', pct: 3, us: 30 } as never];
      return handicapJudged(results)![0]!;
    };
    const seen = judged(0.9, 0.02);
    expect(seen.measured!.hi).toBeLessThan(1);
    expect(seen.detected).toBe(true);
    const blurred = judged(0.99, 0.1);
    expect(blurred.measured!.lo).toBeLessThan(1);
    expect(blurred.measured!.hi).toBeGreaterThan(1);
    expect(blurred.detected).toBe(false);
  });
});

/**
 * Three rounds of one pair measured both ways: alternating windows off by sd `alt`, duet windows by sd `duet`, the duet
 * ratio times `bias`.
 */
function bothWays(alt: number, duet: number, bias = 1, seed = 5, { launch = 0, scale = 1, rounds = 3 } = {}) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  // A launch of `a` off by sd `launch` alone, and by `scale` of that in its duets.
  const launches = Array.from({ length: rounds }, () => (launch ? launch * normal() : 0));
  const runs = (side: number) =>
    launches.map((l, i) => ({
      round: i + 1,
      rps: 1000,
      windows: Array.from({ length: 4 }, () => ({ rps: 1000 * Math.exp((side === 0 ? l : 0) + alt * normal()) })),
      duet: Array.from({ length: 4 }, () => ({
        partner: side === 0 ? 'a@base' : 'a',
        rps: 1000 * (side === 0 ? bias * Math.exp(scale * l) : 1) * Math.exp(duet * normal()),
      })),
    }));
  const contenders = ['a', 'a@base'].map((name, side) => ({
    name,
    status: 'incomplete',
    points: [{ runs: runs(side) }],
  }));
  return {
    contenders,
    settings: { runs: 'auto', windows: 4, duration_s: 1, against: { pair: 'auto', equal_pct: 2 } },
    changes: { comparisons: changeComparisons(['a', 'a@base']) },
  } as unknown as Results;
}

describe('the pair design', () => {
  test("auto measures both ways until a design is chosen; a duet keeps each launch's first cycle both ways", () => {
    expect([1, 2, 3].map((round) => pairMode('auto', null, round, 1))).toEqual(['both', 'both', 'both']);
    expect(pairMode('auto', 'duet', 4, 0)).toBe('both');
    expect(pairMode('auto', 'duet', 4, 1)).toBe('duet');
    expect(pairMode('auto', 'alternate', 4, 0)).toBe('alone');
    expect(pairMode('alternate', null, 1, 0)).toBe('alone');
    expect(pairMode('duet', null, 1, 2)).toBe('duet');
  });

  test("a duet's sides start and end their windows together; a side that fails does not hold the other", async () => {
    const order: string[] = [];
    const side = async (meet: ReturnType<typeof meeting>, name: string, setupMs: number, fail = false) => {
      try {
        await Bun.sleep(setupMs);
        await meet.at('start');
        order.push(`${name} starts`);
        if (fail) throw new Error('oha failed');
        await Bun.sleep(setupMs);
        await meet.at('end');
        order.push(`${name} ends`);
      } finally {
        meet.leave();
      }
    };
    const meet = meeting(2);
    await Promise.all([side(meet, 'a', 1), side(meet, 'b', 30)]);
    expect(order).toEqual(['a starts', 'b starts', 'a ends', 'b ends']);
    order.length = 0;
    const failing = meeting(2);
    const outcome = await Promise.allSettled([side(failing, 'a', 1, true), side(failing, 'b', 30)]);
    expect(outcome.map((x) => x.status)).toEqual(['rejected', 'fulfilled']);
    expect(order).toEqual(['a starts', 'b starts', 'b ends']);
  });

  test('duet half as noisy per window pair at half the cost: chosen, with its figures; decided on its pairs', () => {
    const r = bothWays(0.1, 0.05);
    const d = chooseDesign(r, 3)!;
    expect(d).toMatchObject({ asked: 'auto', chosen: 'duet', round: 3 });
    expect(d.duet!.var_per_s).toBeLessThan(d.alternate!.var_per_s / 4);
    expect(d.alternate!.cost_pair_s).toBe(2.5);
    expect(d.duet!.cost_pair_s).toBe(1.25);
    expect(d.bias!.agree).toBe(true);
    expect(d.why).toMatch(/^duet narrows the interval \d+\.\d\d× faster per second/);
    r.changes!.design = d;
    expect(designPairs(r, 'a', 'a@base').a).toHaveLength(12);
  });

  test('a duet noisier per second within chance stays duet; far noisier, beyond chance, gives way', () => {
    // Three rounds give each sd per round 2 df: a variance ratio of a few is well within chance.
    const near = chooseDesign(bothWays(0.05, 0.08), 3)!;
    expect(near.duet!.var_per_s).toBeGreaterThan(near.alternate!.var_per_s);
    expect(near.chosen).toBe('duet');
    expect(near.why).toContain('within chance of no worse');
    const far = chooseDesign(bothWays(0.01, 0.3), 3)!;
    expect(far.chosen).toBe('alternate');
    expect(far.why).toMatch(/^alternate narrows the interval \d+\.\d\d× faster per second, beyond chance/);
  });

  test('a duet that reads 20% lower than alternating fails the bias check: alternating is used, and says why', () => {
    const r = bothWays(0.02, 0.01, 0.8);
    const d = chooseDesign(r, 3)!;
    expect(d.bias!.agree).toBe(false);
    expect(d.bias!.mean).toBeCloseTo(Math.log(0.8), 1);
    expect(d.chosen).toBe('alternate');
    expect(d.why).toMatch(/^the designs disagree \(duet − alternating −2\d\.\d%, /);
  });
});

describe("the scale check: how much of a launch's difference alone a duet shows", () => {
  test('a duet that shows half of each launch: slope near 0.5, and the line says the sizes read smaller', () => {
    const d = chooseDesign(bothWays(0.01, 0.01, 1, 7, { launch: 0.08, scale: 0.5, rounds: 20 }), 3)!;
    expect(d.scale!.rounds).toBe(20);
    expect(d.scale!.corr).toBeGreaterThan(0.9);
    expect(d.scale!.slope).toBeGreaterThan(0.4);
    expect(d.scale!.slope).toBeLessThan(0.6);
    expect(scaleText(d.scale)).toMatch(
      /^Scale check, over 20 rounds measured both ways: .* a duet showed about 0\.\d\d× /,
    );
  });

  test('a duet that shows each launch at its size: slope near 1; none without rounds measured both ways', () => {
    const d = chooseDesign(bothWays(0.01, 0.01, 1, 7, { launch: 0.08, rounds: 20 }), 3)!;
    expect(d.scale!.slope).toBeGreaterThan(0.9);
    expect(d.scale!.slope).toBeLessThan(1.1);
    expect(scaleText(d.scale)).toContain('a duet showed differences at about their size alone');
    expect(scaleText(undefined)).toBe('');
    expect(scaleText({ slope: -0.68, corr: -0.02, rounds: 21 })).toMatch(/varied too little .* \(slope -0\.68, /);
  });

  test("a pair's line gives its sizes alone too, when its decision rests on duets that show half a difference", () => {
    const answer = { a: 'a', verdict: 'faster', ratio: 0.97, lo: 0.96, hi: 0.98, level: 0.95, rounds: 20 } as Answer;
    expect(changeSentence(answer, 2, aloneAt(0.5))).toMatch(
      /slower\*\* than base \(.*\); alone about −5\.9% \(−7\.8%…−4\.0%\), at the scale check's 0\.50×$/,
    );
    const equal = { ...answer, verdict: 'equal', ratio: 1, lo: 0.99, hi: 1.01 } as Answer;
    expect(changeSentence(equal, 2, aloneAt(0.5))).toMatch(
      /the bound asked: ±2% alone\); alone about ±2\.0%, at the scale check's 0\.50×$/,
    );
    const design = (scale: object, more: object = {}) =>
      ({ changes: { design: { chosen: 'duet', asked: 'auto', scale, ...more } } }) as unknown as Results;
    expect(aloneScale(design({ slope: 0.5, corr: 0.9, rounds: 20 }))).toBe(0.5);
    // "Equal" then asks the duet's interval to be within the ratio that is ±2% alone: 1.02^0.5 − 1, about ±1%.
    const settings = { against: { equal_pct: 2 } };
    expect(equalMarginPct({ ...design({ slope: 0.5, corr: 0.9, rounds: 20 }), settings } as Results)).toBeCloseTo(
      0.995,
      3,
    );
    expect(equalMarginPct({ ...design({ slope: 0.5, corr: 0.3, rounds: 20 }), settings } as Results)).toBe(2);
    // A rough scale check, one near 1, or decisions on the windows alone: the line gives no sizes alone.
    expect(aloneScale(design({ slope: 0.5, corr: 0.3, rounds: 20 }))).toBeNull();
    expect(aloneScale(design({ slope: 0.95, corr: 0.9, rounds: 20 }))).toBeNull();
    expect(aloneScale(design({ slope: 0.5, corr: 0.9, rounds: 20 }, { bias: { agree: false } }))).toBeNull();
  });
});

// Rounds of recorded A/A runs of node-raw-node-redis against itself (scripts/pair-noise.ts --rounds), each a list of
// window-pair ln ratios centred on its run's mean: drawn with replacement, a round keeps its launch's own offset, and
// its sign is a coin: under the null the two sides are alike, so which is head is arbitrary. Two sets
// (docs/runs/against.md): A, B and D, 2 windows of 1 s a launch, before a launch's warmup started one request at a
// time; and YA2, Y20–Y23, each app alone in 2 windows of 2 s after that start (the default), 51 rounds in 10 minutes.
const recordedPools = [
  { file: 'aa-rounds.json', what: 'A, B, D', rounds: 40 },
  { file: 'aa-rounds-alone.json', what: 'YA2, Y20–Y23', rounds: 51 },
].map(({ file, ...x }) => {
  const { recorded } = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/pairs', file), 'utf8')) as {
    recorded: { rounds: number[][] }[];
  };
  return { ...x, pool: recorded.flatMap((r) => r.rounds) };
});

/** A recorded round drawn with replacement, its sign a coin: under the null which side is head is arbitrary. */
const drawFrom = (pool: number[][], random: () => number) => () => {
  const sign = random() < 0.5 ? -1 : 1;
  return pool[Math.floor(random() * pool.length)]!.map((x) => sign * x);
};

/** The runs that know a rate near 5% within ±1.5 points (812). */
const NULL_RUNS = runsFor(0.05, 0.015);

describe.each(recordedPools)(
  'the error rate, sequential looks included, on the rounds of $what',
  ({ what, rounds: maxRounds, pool }) => {
    const nullRuns = `under the null, ${NULL_RUNS} simulated ${maxRounds}-round runs`;
    test(`${nullRuns}, a look after each: claims ≤ 5% ± 1.5`, () => {
      const draw = drawFrom(pool, seededRandom(2026));
      const runs = NULL_RUNS;
      // Up to runs × rounds looks: their progress lines are left out.
      setProgressMode('quiet');
      let claims = 0;
      let equal = 0;
      for (let s = 0; s < runs; s++) {
        const { contenders, results } = emptyRun(['a'], maxRounds, { pair: 'alternate', equal_pct: 2 });
        for (let round = 1; round <= maxRounds; round++) {
          pushRecorded(contenders[0]!, contenders[1]!, round, draw());
          Object.assign(results, lookAt(results, round));
          if (round >= 3 && !results.open?.length) break;
        }
        Object.assign(results, finalLook(results));
        const v = results.changes!.answers![0]!.verdict;
        if (v === 'faster') claims++;
        if (v === 'equal') equal++;
      }
      setProgressMode(process.stderr.isTTY ? 'live' : 'plain');
      console.log(
        `against null simulation (${what}): ${claims} of ${runs} runs claimed a change ` +
          `(${((100 * claims) / runs).toFixed(1)}%, nominal 5%); ${equal} bounded within ±2%`,
      );
      expect(claims / runs).toBeLessThanOrEqual(0.05);
    }, 120_000);

    test('under the null, a suite of 27 pairs (the moderated t), 12 rounds: any false claim in at most 5%', () => {
      const draw = drawFrom(pool, seededRandom(27));
      const runs = 400;
      const names = Array.from({ length: 27 }, (_, i) => `c${i}`);
      setProgressMode('quiet');
      let claims = 0;
      let equal = 0;
      for (let s = 0; s < runs; s++) {
        const { contenders, results } = emptyRun(names, 12, { pair: 'alternate', equal_pct: 2 });
        for (let round = 1; round <= 12; round++) {
          for (let i = 0; i < names.length; i++)
            pushRecorded(contenders[2 * i]!, contenders[2 * i + 1]!, round, draw());
          Object.assign(results, lookAt(results, round));
        }
        Object.assign(results, finalLook(results));
        const verdicts = results.changes!.answers!.map((x) => x.verdict);
        if (verdicts.includes('faster')) claims++;
        equal += verdicts.filter((v) => v === 'equal').length;
      }
      setProgressMode(process.stderr.isTTY ? 'live' : 'plain');
      console.log(
        `against null simulation, 27 pairs (${what}): ${claims} of ${runs} runs claimed any change ` +
          `(${((100 * claims) / runs).toFixed(1)}%, nominal 5%); ${equal} of ${27 * runs} pairs bounded within ±2%`,
      );
      expect(changesProcedure(27)).toBe('moderated-t');
      expect(claims / runs).toBeLessThanOrEqual(0.05);
    }, 120_000);
  },
);

/**
 * Real A/As (docs/runs/against.md, 2026-11-28): `npm run bench -- --only node-raw-node-redis --against HEAD --budget
 * 4m` from fresh clones and from a used checkout, on a noisy machine, their rounds as measured (scripts/pair-noise.ts
 * --rounds --as-measured): neither centred nor given a random sign, so an offset between the two sides, from a path,
 * a build, an install or which side launches first, stays in them.
 */
describe('the error rate on real A/As', () => {
  const { recorded } = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/pairs/aa-real.json'), 'utf8')) as {
    recorded: { run: string; rounds: number[][] }[];
  };
  /** The verdict of one run of these rounds, a look after each. */
  const verdictOf = (rounds: number[][]) => {
    const { contenders, results } = emptyRun(['a'], rounds.length, { pair: 'alternate', equal_pct: 2 });
    for (const [i, d] of rounds.entries()) {
      pushRecorded(contenders[0]!, contenders[1]!, i + 1, d);
      Object.assign(results, lookAt(results, i + 1));
      if (i + 1 >= 3 && !results.open?.length) break;
    }
    Object.assign(results, finalLook(results));
    return results.changes!.answers![0]!.verdict;
  };

  test('each recorded A/A replayed as it was measured: at most one in twenty claims a change', () => {
    setProgressMode('quiet');
    const claims = recorded.filter((r) => verdictOf(r.rounds) === 'faster').length;
    setProgressMode(process.stderr.isTTY ? 'live' : 'plain');
    console.log(`real A/As replayed: ${claims} of ${recorded.length} claimed a change`);
    expect(recorded.length).toBeGreaterThanOrEqual(4);
    expect(claims).toBeLessThanOrEqual(Math.max(1, Math.floor(0.05 * recorded.length)));
  });

  test('4000 runs of 15 rounds drawn from every real A/A round, no sign flipped: claims not above 5%', () => {
    const pool = recorded.flatMap((r) => r.rounds);
    const random = seededRandom(20);
    // 15 distinct rounds a run (drawn without replacement: a round drawn twice would tie with itself).
    const draw = () => {
      const idx = pool.map((_, i) => i);
      for (let i = 0; i < 15; i++) {
        const j = i + Math.floor(random() * (idx.length - i));
        [idx[i], idx[j]] = [idx[j]!, idx[i]!];
      }
      return idx.slice(0, 15).map((i) => pool[i]!);
    };
    setProgressMode('quiet');
    let claims = 0;
    const runs = 4000;
    for (let s = 0; s < runs; s++) if (verdictOf(draw()) === 'faster') claims++;
    setProgressMode(process.stderr.isTTY ? 'live' : 'plain');
    // Not above 5% beyond chance: the rate's one-sided 99% lower bound (normal approximation) at most 5%.
    const rate = claims / runs;
    const lower = rate - 2.326 * Math.sqrt((rate * (1 - rate)) / runs);
    console.log(
      `real A/A rounds, no sign flip: ${claims} of ${runs} runs claimed a change ` +
        `(${(100 * rate).toFixed(1)}%, 99% lower bound ${(100 * lower).toFixed(1)}%)`,
    );
    expect(lower).toBeLessThanOrEqual(0.05);
  }, 300_000);
});

/**
 * The size a run reports for a change, read at the look that decided it: over simulated runs of a known change (every
 * recorded A/A round of the default design shifted by it, its noise as measured and doubled), its mean stays within
 * half a point of the truth. The interim looks spend a tenth of α between them and an exact rank test cannot stop on
 * few rounds, so few pairs stop early on a large estimate (docs/runs/against.md, 2026-11-28).
 */
describe('the estimate a run reports for a known change', () => {
  const { pool } = recordedPools[1]!;
  test.each([
    [0.02, 1],
    [0.03, 1],
    [0.1, 1],
    [0.02, 2],
    [0.03, 2],
    [0.1, 2],
  ])(
    '−%p injected, noise ×%p: the mean estimate over 150 runs within 0.5 point',
    (effect, scale) => {
      const random = seededRandom(59);
      const runs = 150;
      setProgressMode('quiet');
      let sum = 0;
      for (let s = 0; s < runs; s++) {
        const { contenders, results } = emptyRun(['a'], 51, { pair: 'alternate', equal_pct: 2 });
        const draw = drawFrom(pool, random);
        for (let round = 1; round <= 51; round++) {
          pushRecorded(
            contenders[0]!,
            contenders[1]!,
            round,
            draw().map((x) => scale * x + Math.log(1 - effect)),
          );
          Object.assign(results, lookAt(results, round));
          if (round >= 3 && !results.open?.length) break;
        }
        Object.assign(results, finalLook(results));
        sum += results.changes!.answers![0]!.ratio - 1;
      }
      setProgressMode(process.stderr.isTTY ? 'live' : 'plain');
      const mean = sum / runs;
      console.log(
        `a −${effect * 100}% change, noise ×${scale}: mean estimate ${(100 * mean).toFixed(2)}% over ${runs} runs`,
      );
      expect(Math.abs(mean + effect)).toBeLessThan(0.005);
    },
    300_000,
  );
});

describe('which contenders differ between the sides', () => {
  // Two git repositories of the same two test apps; the other side is changed one input at a time.
  const temps: string[] = [];
  afterAll(() => {
    for (const t of temps) rmSync(t, { recursive: true, force: true });
  });
  const side = () => {
    const root = mkdtempSync(join(tmpdir(), 'bench-inputs-'));
    temps.push(root);
    return appsRepo(root);
  };
  const head = side();
  const base = side();
  const other = { spec: 'x', kind: 'ref', commit: null, repo: base, worktree: base, appsDir: join(base, 'apps') };
  const differ = () =>
    changedOn(other as OtherSide, loadSuite(join(head, 'apps')).contenders).changed.map((c) => c.app);

  test('the same files: nothing differs; a changed source, untracked file or packages/stream: only whose it is', () => {
    expect(loadSuite(join(head, 'apps')).contenders.length).toBeGreaterThan(2);
    expect(differ()).toEqual([]);
    // A build output git ignores is not an input.
    mkdirSync(join(base, 'apps/fake/dist'));
    writeFileSync(join(base, 'apps/fake/dist/server.js'), 'built');
    expect(differ()).toEqual([]);
    // A changed source, committed or not, marks its app's contenders only.
    writeFileSync(join(base, 'apps/fake/src/server.ts'), `${readFileSync(join(head, 'apps/fake/src/server.ts'))}\n`);
    expect(new Set(differ())).toEqual(new Set(['fake']));
    git(base, 'commit', '-qam', 'two');
    expect(new Set(differ())).toEqual(new Set(['fake']));
    // An untracked file in an app folder is an input too; packages/stream is every app's.
    writeFileSync(join(base, 'apps/paced/src/extra.ts'), '');
    expect(new Set(differ())).toEqual(new Set(['fake', 'paced']));
    rmSync(join(base, 'apps/paced/src/extra.ts'));
    cpSync(join(head, 'apps/fake/src/server.ts'), join(base, 'apps/fake/src/server.ts'));
    expect(differ()).toEqual([]);
    writeFileSync(join(base, 'packages/stream/index.ts'), 'export const x = 2;\n');
    expect(new Set(differ())).toEqual(new Set(['fake', 'paced']));
    cpSync(join(head, 'packages/stream/index.ts'), join(base, 'packages/stream/index.ts'));
    // How bun installs (bunfig.toml) is every contender's input too.
    writeFileSync(join(base, 'bunfig.toml'), '[install]\nlinker = "isolated"\n');
    expect(new Set(differ())).toEqual(new Set(['fake', 'paced']));
  });

  test('a name that is both a ref and a folder without apps is the ref; a folder of apps is the folder', () => {
    git(head, 'branch', 'docs');
    mkdirSync(join(head, 'docs'));
    const cwd = process.cwd();
    process.chdir(head);
    try {
      expect(resolveAgainst('docs', join(head, 'apps'))).toMatchObject({ kind: 'ref', repo: head });
      expect(resolveAgainst(join(base, 'apps'), join(head, 'apps'))).toMatchObject({ kind: 'dir' });
      mkdirSync(join(head, 'empty'));
      expect(() => resolveAgainst('empty', join(head, 'apps'))).toThrow(
        '--against "empty": the folder holds no app (no <app>/bench.json in it or in its apps/), and no git ref has ' +
          'that name; name a folder of apps or a git ref',
      );
    } finally {
      process.chdir(cwd);
    }
  });

  test('without git on PATH, a ref is refused as such: git named, not "not in a git repository"', () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(() => resolveAgainst('HEAD~1', join(head, 'apps'))).toThrow(
        '--against "HEAD~1": no such folder, and git is not installed to find it as a ref: install git ' +
          '(apt-get install git), or name a folder of apps',
      );
    } finally {
      process.env.PATH = path;
    }
  });
});

describe("the Changes section's figures", () => {
  const answer = (a: string, verdict: string, ratio: number, lo: number, hi: number, out?: string) =>
    ({ question: `change: ${a}`, a, b: `${a}@base`, verdict, ratio, lo, hi, level: 0.95, rounds: 6, out }) as Answer;
  const results = (answers: Answer[]) =>
    ({
      settings: { against: { kind: 'ref', spec: 'HEAD', commit: 'f'.repeat(40), equal_pct: 2 } },
      changes: { comparisons: answers.map(() => ({})), answers },
    }) as unknown as Results;

  test('equal: its bound is the farther of its ends from 1, either side (0.985–1.005 is ±1.5%)', () => {
    expect(changeSentence(answer('a', 'equal', 0.995, 0.985, 1.005), 2)).toContain(
      'a: head and base are **equal within ±1.5%** (−0.5%; ',
    );
    expect(changeSentence(answer('a', 'equal', 1.005, 0.995, 1.015), 2)).toContain('**equal within ±1.5%**');
  });

  test('the lines: slower and faster first, then equal, then open, then those not answered', () => {
    const an = {
      results: results([
        answer('a', 'undecided', 1.01, 0.97, 1.05),
        answer('b', 'equal', 1, 0.99, 1.01),
        answer('c', 'faster', 0.9, 0.85, 0.95),
        answer('d', 'faster', 1.1, 1.05, 1.15, 'd@base is failed'),
        answer('e', 'faster', 1.1, 1.05, 1.15),
      ]),
      handicap: [],
      changeSeen: new Map(),
      aloneScale: null,
      procedures: { 'signed-rank': { sentence: 'x' } },
    } as unknown as Analysis;
    const lines = changesSection(an)
      .split('\n')
      .filter((l) => l.startsWith('- '))
      .map((l) => l.slice(2, 3));
    expect(lines).toEqual(['c', 'e', 'b', 'a', 'd']);
  });

  test("the forest plot: its axis reaches the lowest and highest ends; each label is the pair's signed ratio", () => {
    const r = results([answer('a', 'faster', 0.85, 0.8, 0.9), answer('b', 'undecided', 1.05, 0.99, 1.3)]);
    type Spec = { layer: { data: { values: { text: string }[] }; encoding: { x: { scale: { domain: number[] } } } }[] };
    const spec = changesSpec(r, {}) as unknown as Spec;
    const [lo, hi] = spec.layer[0]!.encoding.x.scale.domain;
    expect(lo).toBeCloseTo(0.8 / 1.01, 9);
    expect(hi).toBeCloseTo(1.3 * 1.01, 9);
    expect(spec.layer[2]!.data.values.map((v) => v.text)).toEqual(['−15%', '+5.0%']);
  });
});

describe('the inputs line', () => {
  const r = (unchanged: string[], measured: boolean, pairs: number) =>
    ({
      changes: {
        comparisons: Array.from({ length: pairs }, () => ({})),
        inputs: { unchanged, measured_unchanged: measured },
      },
    }) as unknown as Results;
  test('names who was left out, says an A/A is one, and that unchanged pairs measured anyway are A/As', () => {
    expect(inputsLine(r(['a', 'b'], false, 1))).toMatch(
      /^Only the contenders whose inputs .* 2 are the same .*: a, b\.$/,
    );
    expect(inputsLine(r(['a', 'b'], true, 2))).toContain('**this run is an A/A**');
    expect(inputsLine(r(['b'], true, 2))).toMatch(
      /^1 of the pairs have the same inputs .*: for them the run is an A\/A/,
    );
    expect(inputsLine(r([], false, 2))).toBe('');
  });
});
