// The plan of the rounds (run/plan.ts) as pure functions of values, and the launch and the block
// (run/launch.ts, run/trial.ts, run/block.ts) through a fake launcher: no process is started.
import { describe, expect, spyOn, test } from 'bun:test';
import type { Load, Meeting } from '../../packages/harness/src/measure/measure';
import type { Verdict } from '../../packages/harness/src/measure/verify';
import { changeComparisons } from '../../packages/harness/src/model/questions';
import type { ContenderResult, PointResult, Settings } from '../../packages/harness/src/model/results';
import { type BlockResults, CHECK_ALONE, CHECK_DUETS, measureBlock } from '../../packages/harness/src/run/block';
import { keptRuns } from '../../packages/harness/src/answers/verdicts';
import type { Launched, Measured } from '../../packages/harness/src/run/launch';
import { FakeLauncher as BaseLauncher, HANDICAP_CHECK, measured } from '../helpers/launcher';
import {
  blocksOf,
  cycles,
  dueSlots,
  firstGuessS,
  openNames,
  pairMode,
  roundOrder,
  type Slot,
  walkPairs,
} from '../../packages/harness/src/run/plan';
import { measureTrial } from '../../packages/harness/src/run/trial';
import { schedule } from '../../packages/harness/src/run/schedule';
import type { Rig, RunState } from '../../packages/harness/src/run/state';
import { TrialClock } from '../../packages/harness/src/run/eta';
import { setProgressMode } from '../../packages/harness/src/system/progress';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import type { Results } from '../../packages/harness/src/model/results';

const point = (connections = 50, rate: number | null = null): PointResult => ({
  connections,
  rate,
  rate_spec: null,
  status: 'incomplete',
  runs: [],
});
const result = (name: string, runtime = 'node', more: Partial<ContenderResult> = {}) =>
  ({ name, runtime, status: 'incomplete', points: [point()], runs: [], ...more }) as unknown as ContenderResult;
const slot = (name: string, runtime = 'node', more: Partial<ContenderResult> = {}): Slot => {
  const r = result(name, runtime, more);
  return { r, point: r.points[0]! };
};
const namesOf = (slots: Slot[]) => slots.map((x) => x.r.name);

describe('what a round measures (plan.ts)', () => {
  const slots = [slot('a'), slot('b'), slot('c'), slot('ceil', 'node', { ceiling: 'http' })];

  test('a fixed run count: every slot in each of its rounds, the HTTP ceilings in round 1 only', () => {
    const s = { runs: 2, max_runs: 50 } as const;
    expect(namesOf(dueSlots(slots, 1, s, null))).toEqual(['a', 'b', 'c', 'ceil']);
    expect(namesOf(dueSlots(slots, 2, s, ['a']))).toEqual(['a', 'b', 'c']);
    expect(dueSlots(slots, 3, s, null)).toEqual([]);
  });

  test('--runs auto: everything in the first rounds, then only the open comparisons, up to max_runs', () => {
    const s = { runs: 'auto', max_runs: 6 } as const;
    expect(namesOf(dueSlots(slots, 3, s, ['a']))).toEqual(['a', 'b', 'c']);
    expect(namesOf(dueSlots(slots, 4, s, ['a']))).toEqual(['a']);
    expect(namesOf(dueSlots(slots, 4, s, null))).toEqual(['a', 'b', 'c']);
    expect(dueSlots(slots, 4, s, [])).toEqual([]);
    // max_runs is the last round there is: it is still measured, the one after it not.
    expect(namesOf(dueSlots(slots, 6, s, ['a']))).toEqual(['a']);
    expect(dueSlots(slots, 7, s, ['a'])).toEqual([]);
  });

  test('a --self-check twin stays due with its original', () => {
    const twin = slot('b (alone)', 'node', { self_check_of: 'b' });
    expect(namesOf(dueSlots([...slots, twin], 4, { runs: 'auto', max_runs: 9 }, ['b']))).toEqual(['b', 'b (alone)']);
  });

  test('the open contenders: none before the first look; the handicap checks race while any comparison is open', () => {
    const handicap = [{ contender: 'h', compared_with: 'h@base' }] as BlockResults['handicap'];
    expect(openNames({})).toBeNull();
    expect(openNames({ open: [], handicap })).toEqual([]);
    expect(openNames({ open: ['a'], handicap })).toEqual(['a', 'h', 'h@base']);
  });

  test("a round's order: the same for the same seed, one runtime's slots together, a twin after its original", () => {
    const todo = [
      slot('n1'),
      slot('b1', 'bun'),
      slot('n2'),
      slot('b2', 'bun'),
      slot('n3'),
      slot('n2 (alone)', 'node', { self_check_of: 'n2' }),
    ];
    const order = roundOrder(todo, 7, 1, 4);
    expect(namesOf(order)).toEqual(namesOf(roundOrder(todo, 7, 1, 4)));
    expect(new Set(namesOf(order))).toEqual(new Set(namesOf(todo)));
    const runtimes = order.filter((x) => !x.r.self_check_of).map((x) => x.r.runtime);
    expect(runtimes.filter((r, i) => r !== runtimes[i - 1]).length).toBe(2);
    expect(namesOf(order)[namesOf(order).indexOf('n2') + 1]).toBe('n2 (alone)');
    const blocks = blocksOf(order, 'runtime');
    expect(blocks.map((b) => b.length).sort()).toEqual([2, 3]);
    expect(blocksOf(order, 'walk').map((b) => b.length)).toEqual([5]);
  });

  test("each round shuffles anew from the seed: rounds 1 to 4 of one seed's run are not all in one order", () => {
    const todo = ['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => slot(n)).concat([slot('b1', 'bun'), slot('b2', 'bun')]);
    const orders = [1, 2, 3, 4].map((round) => namesOf(roundOrder(todo, 7, 1, round)).join(','));
    expect(new Set(orders).size).toBeGreaterThan(1);
  });

  test("the walk's pairs: the open comparisons' and the handicap checks', at the same load point", () => {
    const block = [slot('a'), slot('b'), slot('c'), { ...slot('a'), point: point(10) }];
    const q = {
      family: { questions: [], comparisons: [{ id: 'ab', question: 'q', a: 'a', b: 'b' }] },
      handicap: [{ contender: 'c', compared_with: 'b' }] as BlockResults['handicap'],
      answers: [{ id: 'ab', verdict: 'decided' }] as never,
    };
    expect(walkPairs(block, 4, 'runtime', q)).toBeNull();
    expect(walkPairs(block, 3, 'walk', q)).toEqual([
      [0, 1],
      [2, 1],
    ]);
    // After the first rounds, a decided comparison is walked no more.
    expect(walkPairs(block, 4, 'walk', q)).toEqual([[2, 1]]);
  });

  test('the pair design by cycle: both ways until chosen; a duet keeps alone windows in cycle 0', () => {
    expect([0, 1].map((j) => pairMode('auto', 'duet', 3, j))).toEqual(['both', 'both']);
    expect([0, 1].map((j) => pairMode('auto', 'duet', 4, j))).toEqual(['both', 'duet']);
    // Once duet is chosen, a round measures each app alone only every ALONE_EVERY-th round.
    expect([5, 6, 7, 8, 9].map((round) => pairMode('auto', 'duet', round, 0))).toEqual([
      'duet',
      'duet',
      'duet',
      'both',
      'duet',
    ]);
    expect([1, 4, 5].map((round) => pairMode('duet', null, round, 0))).toEqual(['both', 'both', 'duet']);
    expect([0, 1].map((j) => pairMode('auto', 'alternate', 4, j))).toEqual(['alone', 'alone']);
    expect([0, 1].map((j) => pairMode('alternate', null, 1, j))).toEqual(['alone', 'alone']);
  });

  test("a block's cycles: each member once, the handicap pair adjacent, the walk reversed in turn", () => {
    const members = ['a', 'b', 'c', 'd', 'e'];
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const order of cycles(members, null, random, 4, 1, [], [['b', 'd']])) {
      expect([...order].sort()).toEqual(members);
      expect(Math.abs(order.indexOf('b') - order.indexOf('d'))).toBe(1);
    }
    const walk = cycles(members, [[0, 1]], random, 2, 1, [], []);
    expect(walk[0]).toEqual([...walk[1]!].reverse());
  });

  test("a round's first cycle goes the other way from the round before's: the walk and the handicap pair", () => {
    const members = ['a', 'b', 'c', 'd', 'e'];
    // The same random draws in rounds 1 and 2, so only the round tells their first cycles apart.
    const first = (round: number, pairs: [number, number][] | null) =>
      cycles(members, pairs, seededRandom(3), 1, round, [], [['b', 'd']])[0]!;
    expect(first(2, [[0, 1]])).toEqual([...first(1, [[0, 1]])].reverse());
    const [one, two] = [first(1, null), first(2, null)];
    expect(one.indexOf('d') - one.indexOf('b')).toBe(-(two.indexOf('d') - two.indexOf('b')));
  });

  test("a trial's first guess: its warmup, each window with its check, and a second to start and stop", () => {
    expect(firstGuessS({ warmup_s: 2, windows: 3, duration_s: 4 })).toBeCloseTo(2 + 3 * (4 + 0.3) + 1, 9);
    expect(firstGuessS({ warmup_s: 0, windows: 1, duration_s: 4 })).toBeCloseTo(4 + 0.3 + 1, 9);
  });
});

/** Records every step it is asked for, in order; starts nothing. */
class FakeLauncher extends BaseLauncher {
  /** Contenders whose verification takes a while. */
  slow = new Set<string>();
  /** The raw names of windows the hypervisor steals 80% of the CPU from. */
  stolen = new Set<string>();
  /** Redis dies during the nth measured window (counted from 1). */
  redisDiesAt = 0;
  private windows = 0;

  async verify(app: Launched): Promise<Verdict> {
    if (this.slow.has(app.r.name)) await Bun.sleep(20);
    this.events.push(`verified ${app.r.name}`);
    return this.invalid.has(app.r.name) ? { ok: false, reason: 'wrong body' } : { ok: true, bytes: 10 };
  }
  async measure(app: Launched, _load: Load, rawName: string, duet?: Meeting): Promise<Measured> {
    this.events.push(`${duet ? 'duet' : 'window'} ${app.r.name} ${rawName}`);
    if (duet) await duet.at('start');
    if (++this.windows === this.redisDiesAt) {
      this.alive = false;
      throw new Error('connection refused');
    }
    if (duet) await duet.at('end');
    return { ...measured(1000, rawName), cpu_steal_pct: this.stolen.has(rawName) ? 80 : 0 };
  }
}

const SETTINGS = {
  seed: 42,
  windows: 2,
  duration_s: 1,
  requests: null,
  warmup_s: 1,
  layout: 'runtime',
} as unknown as Settings;

const blockResults = (settings: Partial<Settings> = {}, more: Partial<BlockResults> = {}): BlockResults => ({
  settings: { ...SETTINGS, ...settings },
  data: {} as BlockResults['data'],
  ...more,
});

describe('one launch, the same for every layout (launch.ts, through a fake launcher)', () => {
  test('a single trial: start, verify, warm up, windows each checked, stop; the windows pooled', async () => {
    const fake = new FakeLauncher();
    const s = slot('a');
    const outcome = await measureTrial(fake, { ...SETTINGS, windows: 3 }, s.r, s.point, 2, 1);
    expect(fake.events).toEqual([
      'start a',
      'verified a',
      'warmup a a/c50-run2-retry1-warmup.json',
      'window a a/c50-run2-retry1.json',
      'check a',
      'window a a/c50-run2-retry1-w2.json',
      'check a',
      'window a a/c50-run2-retry1-w3.json',
      'check a',
      'stop a#a/c50-run2-retry1.json',
    ]);
    expect(outcome.kind).toBe('runs');
    expect(outcome.runs).toHaveLength(1);
    expect(outcome.runs[0]!.windows).toHaveLength(3);
    expect(outcome.runs[0]).toMatchObject({ round: 2, ok: 3000, seconds: 3, expected_bytes: 10, launch_s: 0.2 });
  });

  test('a trial whose verification fails is invalid, measures nothing, and is stopped', async () => {
    const fake = new FakeLauncher();
    fake.invalid.add('a');
    const s = slot('a');
    const outcome = await measureTrial(fake, SETTINGS, s.r, s.point, 1, 0);
    expect(outcome).toMatchObject({ kind: 'out', status: 'invalid', reason: 'wrong body', runs: [] });
    expect(fake.events).toEqual(['start a', 'verified a', 'stop a#a/c50-run1.json']);
  });

  test('a block: every member launched, then cycles of windows, each after a pause; then all stopped', async () => {
    const fake = new FakeLauncher();
    const slots = [slot('a'), slot('b'), slot('c')];
    const outcomes = await measureBlock(fake, blockResults(), slots, 1, 0);
    const kinds = fake.events.map((e) => e.split(' ')[0]);
    expect(kinds.slice(0, 9)).toEqual([1, 2, 3].flatMap(() => ['start', 'verified', 'warmup']));
    expect(kinds.filter((k) => k === 'window')).toHaveLength(6);
    // Every window follows a settle (at most SETTLE_MS) and is checked.
    const around = fake.events.flatMap((e, i) =>
      e.startsWith('window') ? [`${fake.events[i - 1]}|${kinds[i + 1]}`] : [],
    );
    expect(new Set(around)).toEqual(new Set(['settle 250|check']));
    expect(kinds.slice(-3)).toEqual(['stop', 'stop', 'stop']);
    expect(outcomes.map((o) => [o.kind, o.runs[0]!.windows!.length])).toEqual([
      ['runs', 2],
      ['runs', 2],
      ['runs', 2],
    ]);
    expect(outcomes[0]!.runs[0]!.idle_cpu_s).toBe(0);
  });

  test('a block member that fails verification is out and stopped at once; the others are measured', async () => {
    const fake = new FakeLauncher();
    fake.invalid.add('b');
    const outcomes = await measureBlock(fake, blockResults(), [slot('a'), slot('b')], 1, 0);
    expect(fake.events.indexOf('stop b#c50-block-1')).toBeLessThan(
      fake.events.findIndex((e) => e.startsWith('window')),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(['runs', 'out']);
    expect(fake.events.filter((e) => e.startsWith('window b'))).toEqual([]);
  });

  test('Redis dies in a block: the measured members lose their run, the one it died under is marked', async () => {
    const fake = new FakeLauncher();
    fake.redisDiesAt = 2;
    const outcomes = await measureBlock(fake, blockResults(), [slot('a'), slot('b'), slot('c')], 1, 0);
    const kinds = outcomes.map((o) => `${o.kind} ${o.runs.length}`);
    // The second window's app: its window failed with Redis and left no run; the third was never measured.
    expect(kinds.sort()).toEqual(['redis-died 0', 'redis-died 1', 'runs 0']);
    expect(fake.events.filter((e) => e.startsWith('window'))).toHaveLength(2);
    expect(fake.events.filter((e) => e.startsWith('stop'))).toHaveLength(3);
  });
});

describe("a change's pair in a block: the duet (block.ts, through a fake launcher)", () => {
  const pairSlots = () => [slot('x'), slot('x@base'), slot('y')];
  const changes = (chosen: 'duet' | 'alternate' | null) => ({
    comparisons: changeComparisons(['x', 'x@base', 'y']),
    ...(chosen ? { design: { chosen } as never } : {}),
  });
  const run = async (round: number, chosen: 'duet' | 'alternate' | null, windows = 3) => {
    const fake = new FakeLauncher();
    const results = blockResults({ windows, against: { pair: 'auto' } as never }, { changes: changes(chosen) });
    const outcomes = await measureBlock(fake, results, pairSlots(), round, 0);
    return { fake, outcomes };
  };

  test("with duets both sides start together, their warmups meet: none before the other's verification", async () => {
    const fake = new FakeLauncher();
    fake.slow.add('x');
    const results = blockResults({ against: { pair: 'auto' } as never }, { changes: changes(null) });
    await measureBlock(fake, results, pairSlots(), 1, 0);
    const at = (e: string) => fake.events.findIndex((x) => x.startsWith(e));
    expect(at('start x@base')).toBeLessThan(at('verified x@base'));
    expect(at('start x ')).toBeLessThan(at('verified x@base'));
    expect(at('verified x ')).toBeLessThan(at('warmup x@base'));
    expect(at('warmup y')).toBeGreaterThan(at('warmup x@base'));
  });

  test('measured alone (the default), a side starts once the other has warmed up; which first, by round', async () => {
    const order = async (round: number) => {
      const fake = new FakeLauncher();
      fake.slow.add('x');
      await measureBlock(fake, blockResults({}, { changes: changes(null) }), pairSlots(), round, 0);
      return fake.events
        .filter((e) => /^(start|verified|warmup) x/.test(e))
        .map((e) => e.split(' ').slice(0, 2).join(' '));
    };
    const sides = (first: string, second: string) =>
      [first, second].flatMap((x) => ['start', 'verified', 'warmup'].map((k) => `${k} ${x}`));
    expect(await order(1)).toEqual(sides('x', 'x@base'));
    expect(await order(2)).toEqual(sides('x@base', 'x'));
  });

  test('once duet is chosen: cycle 0 measures each alone and then a duet, the later cycles duets only', async () => {
    const { fake, outcomes } = await run(4, 'duet');
    const windows = fake.events
      .filter((e) => /^(window|duet) x/.test(e))
      .map((e) => e.split(' ').slice(0, 2).join(' '));
    expect(windows.filter((e) => e.startsWith('window')).sort()).toEqual(['window x', 'window x@base']);
    expect(windows.filter((e) => e.startsWith('duet'))).toHaveLength(6);
    // The alone windows come first (cycle 0), then the duets.
    expect(windows.slice(0, 2).every((e) => e.startsWith('window'))).toBe(true);
    const x = outcomes[0]!.runs[0]!;
    expect(x.windows).toHaveLength(1);
    expect(x.duet!.map((d) => d.partner)).toEqual(['x@base', 'x@base', 'x@base']);
    expect(outcomes[2]!.runs[0]!.windows).toHaveLength(3);
  });

  test('a round of duet windows only: recorded from them, marked duet_only, with no window alone', async () => {
    const { fake, outcomes } = await run(5, 'duet');
    expect(fake.events.filter((e) => e.startsWith('window x'))).toEqual([]);
    const x = outcomes[0]!.runs[0]!;
    expect(x.duet_only).toBe(true);
    expect(x.windows).toEqual([]);
    expect(x.duet).toHaveLength(3);
    expect(outcomes[1]!.runs[0]!.duet_only).toBe(true);
    // The other member of the block is measured alone as in any round.
    expect(outcomes[2]!.runs[0]!.duet_only).toBeUndefined();
    expect(outcomes[2]!.runs[0]!.windows).toHaveLength(3);
    // Its figures count for the pair, never for the contender's own: keptRuns leaves it out.
    const point = { runs: [x, { ...x, duet_only: undefined, round: 4 }] } as never;
    expect(keptRuns(point).map((r) => r.round)).toEqual([4]);
  });

  test('which side leads a duet window alternates by window and by round', async () => {
    const leaders = async (round: number) => {
      const { fake } = await run(round, 'duet');
      const duets = fake.events.filter((e) => e.startsWith('duet '));
      return duets.filter((_, i) => i % 2 === 0).map((e) => e.split(' ')[1]);
    };
    expect(await leaders(4)).toEqual(['x@base', 'x', 'x@base']);
    expect(await leaders(5)).toEqual(['x', 'x@base', 'x']);
  });

  test('before a design is chosen every cycle measures both ways; alternate measures alone only', async () => {
    const both = await run(2, null, 2);
    expect(both.fake.events.filter((e) => e.startsWith('duet x ')).length).toBe(2);
    expect(both.fake.events.filter((e) => e.startsWith('window x ')).length).toBe(2);
    const alone = await run(4, 'alternate', 2);
    expect(alone.fake.events.filter((e) => e.startsWith('duet'))).toEqual([]);
    // Alternating, the pair's windows are adjacent in every cycle.
    const order = alone.fake.events.filter((e) => e.startsWith('window')).map((e) => e.split(' ')[1]);
    for (const c of [order.slice(0, 3), order.slice(3)]) expect(Math.abs(c.indexOf('x') - c.indexOf('x@base'))).toBe(1);
  });
});

describe('the rounds (schedule.ts, through a fake launcher)', () => {
  setProgressMode('quiet');
  const stateOf = (fake: FakeLauncher, settings: Partial<Settings>): RunState => {
    const contenders = [result('a'), result('b'), result('c', 'bun')];
    const s = { ...SETTINGS, runs: 2, max_runs: 2, ceilings: false, rates: [], max_steal_pct: 50, ...settings };
    const results = { settings: s, contenders, data: {} } as unknown as Results;
    const rig = { byName: new Map() } as unknown as Rig;
    return { results, startedAt: Date.now(), save: () => {}, rig, launcher: fake, clock: new TrialClock(1) };
  };
  const rounds = (r: ContenderResult) => r.points[0]!.runs.map((x) => x.round);

  test('a fixed run count: every contender once a round, in one block per runtime, then the rounds stop', async () => {
    const fake = new FakeLauncher();
    const state = stateOf(fake, { windows: 1 });
    expect(await schedule(state)).toBe(true);
    expect(state.results.contenders.map(rounds)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(state.results.schedule).toMatchObject({ rounds: 2, stop_reason: '2 rounds done' });
    // Round 1: the node block's two apps are both launched before either is measured.
    const first = fake.events.slice(0, 12).map((e) => e.split(' ')[0]);
    const node = fake.events.indexOf('start a') < fake.events.indexOf('start c') ? first : first.slice(6);
    expect(node.slice(0, 6)).toEqual(['start', 'verified', 'warmup', 'start', 'verified', 'warmup']);
    expect(state.results.contenders[0]!.points[0]!.runs[0]!.trial_s).toBeNumber();
  });

  test('a run CPU steal spoilt is set aside and measured again later in its round, as a single trial', async () => {
    const fake = new FakeLauncher();
    fake.stolen.add('b/c50-run1.json');
    const state = stateOf(fake, { windows: 1 });
    expect(await schedule(state)).toBe(true);
    const b = state.results.contenders[1]!;
    expect(rounds(b)).toEqual([1, 2]);
    expect(b.points[0]!.discarded_runs!.map((d) => [d.round, d.fault])).toEqual([[1, 'CPU steal 80.0% > 50%']]);
    const retry = fake.events.indexOf('window b b/c50-run1-retry1.json');
    const lastRound1 = Math.max(...fake.events.flatMap((e, i) => (/-run1(-w\d+)?\.json$/.test(e) ? [i] : [])));
    expect(retry).toBeGreaterThan(lastRound1);
    expect(retry).toBeLessThan(fake.events.findIndex((e) => e.includes('-run2.json')));
  });

  test('a round stolen at every attempt: three attempts (the run, two retries), then left out, counted', async () => {
    const fake = new FakeLauncher();
    for (const f of ['b/c50-run1.json', 'b/c50-run1-retry1.json', 'b/c50-run1-retry2.json']) fake.stolen.add(f);
    const state = stateOf(fake, { windows: 1 });
    await schedule(state);
    const b = state.results.contenders[1]!;
    expect(b.points[0]!.discarded_runs!.filter((d) => d.round === 1)).toHaveLength(3);
    expect(fake.events.filter((e) => e.startsWith('window b b/c50-run1'))).toHaveLength(3);
    expect(rounds(b)).toEqual([2]);
    expect(b.points[0]!.left_out).toBe(1);
  });

  test('--runs auto: round 1 runs whatever its estimate; a later one must fit the budget and reserve', async () => {
    // Round 1 guessed at 3 × 10 s against a 5 s budget: measured all the same. Round 2's trials take milliseconds, but
    // the 10 s kept for the report leave no room for them.
    const fake = new FakeLauncher();
    const state = {
      ...stateOf(fake, { windows: 1, runs: 'auto', max_runs: 10, budget_s: 5 }),
      clock: new TrialClock(10),
    };
    expect(await schedule(state)).toBe(true);
    expect(state.results.contenders.map(rounds)).toEqual([[1], [1], [1]]);
    expect(state.results.schedule!.rounds).toBe(1);
    expect(state.results.schedule!.stop_reason).toMatch(/^budget: round 2 would end after 5 s \(10 s of it kept /);
  });

  test("--runs auto: a round whose trials' estimate would overrun the budget is not started", async () => {
    // Each contender's trials took 40 s before (the fake's take milliseconds): round 2 is estimated at about 60 s,
    // past a 30 s budget, though the 10 s reserve alone fits.
    const fake = new FakeLauncher();
    const state = stateOf(fake, { windows: 1, runs: 'auto', max_runs: 10, budget_s: 30 });
    for (const n of ['a', 'b', 'c']) state.clock.add(n, 40);
    expect(await schedule(state)).toBe(true);
    expect(state.results.contenders.map(rounds)).toEqual([[1], [1], [1]]);
    expect(state.results.schedule!.stop_reason).toMatch(/^budget: round 2 /);
  });

  test('--runs auto stopped by max_runs before any look decided: "N rounds done"', async () => {
    const fake = new FakeLauncher();
    const state = stateOf(fake, { windows: 1, runs: 'auto', max_runs: 2, budget_s: 1000 });
    expect(await schedule(state)).toBe(true);
    expect(state.results.contenders.map(rounds)).toEqual([
      [1, 2],
      [1, 2],
      [1, 2],
    ]);
    expect(state.results.schedule).toMatchObject({ rounds: 2, stop_reason: '2 rounds done' });
  });

  test('--runs auto: a run stolen in round 2 is not retried past the budget; its round is left out', async () => {
    // The stolen window's trial is clocked at 300 s more: b's trials now average over 100 s, and a retry of one
    // would end after the 60 s budget.
    class SlowSteal extends FakeLauncher {
      clock: TrialClock | null = null;
      override async measure(app: Launched, load: Load, rawName: string, duet?: Meeting): Promise<Measured> {
        if (rawName === 'b/c50-run2.json') this.clock!.add('b', 300);
        return super.measure(app, load, rawName, duet);
      }
    }
    const fake = new SlowSteal();
    fake.stolen.add('b/c50-run2.json');
    const state = stateOf(fake, { windows: 1, runs: 'auto', max_runs: 2, budget_s: 60 });
    fake.clock = state.clock;
    const said: string[] = [];
    const spy = spyOn(process.stderr, 'write').mockImplementation((s) => (said.push(String(s)), true));
    try {
      expect(await schedule(state)).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(said.join('')).toContain('b c50 run 2/2: not measured again, that would end after the 60 s budget');
    const b = state.results.contenders[1]!;
    expect(rounds(b)).toEqual([1]);
    expect(b.points[0]!.discarded_runs!.map((d) => d.round)).toEqual([2]);
    expect(fake.events.filter((e) => e.startsWith('window b b/c50-run2'))).toEqual(['window b b/c50-run2.json']);
    expect(b.points[0]!.left_out).toBe(1);
    expect(state.results.contenders.filter((c) => c !== b).map(rounds)).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });

  test('Redis dying in a block stops the rounds and says why', async () => {
    const fake = new FakeLauncher();
    fake.redisDiesAt = 2;
    const state = stateOf(fake, { windows: 1 });
    expect(await schedule(state)).toBe(false);
    expect(state.results.exit_reason).toMatch(/^Redis stopped answering during /);
    expect(fake.events.filter((e) => e.includes('-run2'))).toEqual([]);
  });
});

describe("the default run's handicap check in a block: both ways in every cycle", () => {
  const check = HANDICAP_CHECK;
  const measures = (fake: FakeLauncher) =>
    fake.events.filter((e) => /^(window|duet) /.test(e)).map((e) => e.split(' ').slice(0, 2).join(' '));

  test("each app alone, then the pair's windows alone and duets at each cycle's end; twins adjacent", async () => {
    const fake = new FakeLauncher();
    const slots = ['a', 'x', 'fw', 'h'].map((n) => slot(n));
    const outcomes = await measureBlock(fake, blockResults({}, check), slots, 1, 0);
    const m = measures(fake);
    const extra = 2 * (CHECK_ALONE - 1);
    const perCycle = 4 + extra + 2 * CHECK_DUETS;
    expect(m).toHaveLength(2 * perCycle);
    for (const cycle of [m.slice(0, perCycle), m.slice(perCycle)]) {
      expect(cycle.slice(0, 4 + extra).every((e) => e.startsWith('window'))).toBe(true);
      // The pair's windows alone after the cycle's: h and x in turn, which first alternating.
      const after = cycle.slice(4, 4 + extra);
      for (let i = 0; i < extra; i += 2) expect([after[i], after[i + 1]].sort()).toEqual(['window h', 'window x']);
      expect(after[0]).not.toBe(after[2]);
      expect(cycle.slice(4 + extra).sort()).toEqual([
        ...Array(CHECK_DUETS).fill('duet h'),
        ...Array(CHECK_DUETS).fill('duet x'),
      ]);
      const alone = cycle.slice(0, 4).map((e) => e.split(' ')[1]);
      expect(Math.abs(alone.indexOf('fw') - alone.indexOf('x'))).toBe(1);
      expect(Math.abs(alone.indexOf('h') - alone.indexOf('x'))).toBe(1);
    }
    const byName = new Map(slots.map((s, i) => [s.r.name, outcomes[i]!]));
    for (const n of ['x', 'h']) {
      const run = byName.get(n)!.runs[0]!;
      expect(run.duet).toHaveLength(2 * CHECK_DUETS);
      // Its windows in the cycles stay the run's (x's pair with fw as every contender's); the others are kept apart.
      // Each pair alone on a launch of its own: the cycle's, then one launch for each after it.
      expect(run.windows!.map((w) => w.launch)).toEqual([0, CHECK_ALONE]);
      const later = (k: number) => Array.from({ length: CHECK_ALONE - 1 }, (_, i) => k + i + 1);
      expect(run.check_windows!.map((w) => w.launch)).toEqual([...later(0), ...later(CHECK_ALONE)]);
      expect(run.launch).toBeUndefined();
    }
    expect(byName.get('a')!.runs[0]!.duet).toBeUndefined();
    expect(byName.get('fw')!.runs[0]!.check_windows).toBeUndefined();
    expect(byName.get('fw')!.runs[0]!.windows!.every((w) => w.launch === undefined)).toBe(true);
  });

  test("the check's pair is launched anew, together, before each pair alone but the first; duets name it", async () => {
    const fake = new FakeLauncher();
    const slots = ['a', 'x', 'fw', 'h'].map((n) => slot(n));
    const outcomes = await measureBlock(fake, blockResults({}, check), slots, 1, 0);
    // Each member starts once for the block; the pair once more before each of its pairs alone after the first.
    const starts = fake.events.filter((e) => e.startsWith('start')).map((e) => e.split(' ')[1]);
    const again = 2 * CHECK_ALONE - 1;
    expect(starts.sort()).toEqual(['a', 'fw', ...Array(again + 1).fill('h'), ...Array(again + 1).fill('x')]);
    // Each of h's windows alone after its first is the first window after a start of h (on its new launch's warmup).
    const ev = fake.events;
    const hMeasured = ev.flatMap((e, i) => (/^(window|duet) h/.test(e) ? [i] : []));
    for (const [k, at] of hMeasured.entries()) {
      if (k === 0 || !ev[at]!.startsWith('window')) continue;
      expect(ev.slice(hMeasured[k - 1]! + 1, at).some((e) => e.startsWith('start h'))).toBe(true);
    }
    // Stopped before each start (never two of one app alive), and the duets come after the cycle's last launch.
    expect(ev.filter((e) => e.startsWith('stop x#c50-block-1')).length).toBeGreaterThanOrEqual(again);
    expect(fake.events.filter((e) => /^warmup [hx] .*-l2-warmup\.json$/.test(e))).toHaveLength(2);
    const byName = new Map(slots.map((s, i) => [s.r.name, outcomes[i]!]));
    for (const n of ['x', 'h'])
      expect(byName.get(n)!.runs[0]!.duet!.map((d) => d.launch ?? 0)).toEqual([
        ...Array(CHECK_DUETS).fill(CHECK_ALONE - 1),
        ...Array(CHECK_DUETS).fill(2 * CHECK_ALONE - 1),
      ]);
    // The others stay on their one launch.
    expect(byName.get('fw')!.runs[0]!.windows!.map((w) => w.rps)).toHaveLength(2);
  });

  test('under --layout walk, a hub visited more than once: still CHECK_DUETS duets of the pair per cycle', async () => {
    const fake = new FakeLauncher();
    const slots = ['a', 'x', 'fw', 'h'].map((n) => slot(n));
    const pairs: [number, number][] = [
      [0, 1],
      [1, 2],
      [1, 3],
    ];
    await measureBlock(fake, blockResults({ layout: 'walk' }, check), slots, 1, 0, pairs);
    const m = measures(fake);
    expect(m.filter((e) => e === 'duet h')).toHaveLength(2 * CHECK_DUETS);
    expect(m.filter((e) => e === 'duet x')).toHaveLength(2 * CHECK_DUETS);
    expect(m.filter((e) => e === 'window x').length).toBeGreaterThan(2); // the hub, more than once a cycle
  });
});

describe('a run stopped part way', () => {
  test('its partial results say how to resume; a sweep point its sweep; a live run how to report it', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { savePartial } = await import('../../packages/harness/src/run/state');
    const runDir = mkdtempSync(join(tmpdir(), 'partial-'));
    const said: string[] = [];
    const spy = spyOn(process.stderr, 'write').mockImplementation((s) => (said.push(String(s)), true));
    try {
      const results = { settings: {}, contenders: [], complete: false } as unknown as Results;
      const session = { results, runDir, redis: null, apps: new Map() };
      savePartial(session, 'interrupted by SIGINT');
      savePartial({ ...session, results: { ...results }, sweep: '/tmp/sweep' }, 'interrupted by SIGINT');
      // A second signal keeps the first reason; a run of --app gives its flags again (one recorded before its folder
      // was: says so); a complete run is left alone.
      savePartial(session, 'interrupted by SIGTERM');
      expect(results.exit_reason).toBe('interrupted by SIGINT');
      const own = { name: 'your-app', command: 'node s.mjs', path: '/', body: 'first' };
      savePartial({ ...session, results: { ...results, settings: { apps: [own] } } as never }, 'interrupted');
      savePartial({ ...session, results: { ...results, complete: true } }, 'interrupted');
      // A live run cannot be resumed (its stream changed since): reported as it is.
      savePartial({ ...session, results: { ...results, settings: { workload: 'live' } } as never }, 'interrupted');
      // A point of a live sweep neither: its sweep would resume it.
      const live = { ...results, settings: { workload: 'live' } } as never;
      savePartial({ ...session, results: live, sweep: '/tmp/sweep' }, 'interrupted');
    } finally {
      spy.mockRestore();
      rmSync(runDir, { recursive: true, force: true });
    }
    const lines = said.join('').trim().split('\n');
    expect(lines[0]).toEndWith(`(resume with --resume ${runDir})`);
    expect(lines[1]).toEndWith('(one point of the sweep in /tmp/sweep: resume the sweep with --resume /tmp/sweep)');
    expect(lines[3]).toEndWith(`(resume with --resume ${runDir} --app "node s.mjs" and the --cwd it ran with)`);
    expect(lines[4]).toEndWith(
      `(a --workload live run: its stream changed since, so it cannot be resumed; npm run report -- ${runDir} ` +
        'reports what it measured)',
    );
    expect(lines[5]).toEqual(lines[4]);
    expect(lines).toHaveLength(6);
  });
});
