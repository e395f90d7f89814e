// What a launch's outcome leaves in the record, through a fake launcher (no process is started): a check that fails
// ends the trial and puts the contender out, an app out is stopped at once and never started again, the windows it
// measured are kept; record() of each outcome; the ETA at the budget's edge; the handicap's calibration; the seed's
// method; the --target launcher's faults; what every app is told.
import { describe, expect, test } from 'bun:test';
import type { Load, Meeting } from '../../packages/harness/src/measure/measure';
import type { Verdict } from '../../packages/harness/src/measure/verify';
import type { Contender } from '../../packages/harness/src/model/contenders';
import { changeComparisons } from '../../packages/harness/src/model/questions';
import type {
  ContenderResult,
  PointResult,
  Results,
  RunRecord,
  Settings,
} from '../../packages/harness/src/model/results';
import { type BlockResults, measureBlock } from '../../packages/harness/src/run/block';
import { calibrateHandicap } from '../../packages/harness/src/run/calibrate';
import { forecast, TrialClock } from '../../packages/harness/src/run/eta';
import type { Launched, Measured, Out, RedisDied } from '../../packages/harness/src/run/launch';
import { FakeLauncher, HANDICAP_CHECK, measured as figures } from '../helpers/launcher';
import { STEAL_RETRIES, type Slot } from '../../packages/harness/src/run/plan';
import { record, runLine } from '../../packages/harness/src/run/record';
import { RemoteLauncher } from '../../packages/harness/src/run/remote';
import { appEnvironment } from '../../packages/harness/src/run/rig';
import { seedMethod } from '../../packages/harness/src/run/seed';
import type { RunState } from '../../packages/harness/src/run/state';
import { measureTrial, seedTrial } from '../../packages/harness/src/run/trial';
import { burnUs, loopBurnUs } from '../../packages/harness/src/answers/handicap';
import { setProgressMode } from '../../packages/harness/src/system/progress';

setProgressMode('quiet');

const point = (): PointResult => ({ connections: 50, rate: null, rate_spec: null, status: 'incomplete', runs: [] });
const result = (name: string, more: Partial<ContenderResult> = {}) =>
  ({ name, runtime: 'node', status: 'incomplete', points: [point()], runs: [], ...more }) as unknown as ContenderResult;
const slot = (name: string): Slot => {
  const r = result(name);
  return { r, point: r.points[0]! };
};

/** A window's figures, as measureRun would return them: its main thread busy half of each second. */
const measured = (rps: number, raw: string): Measured =>
  figures(rps, raw, { cpu_us_per_req: 500, main_thread_cpu_s: rps / 2000 } as Partial<Measured>);

/** Records every step, starts nothing; its checks, loads and verifications fail where it is told to. */
class Fake extends FakeLauncher {
  loads: { what: string; name: string; load: Load }[] = [];
  finding: string | undefined;
  /** The check after a window whose raw name ends so: its outcome. */
  checks = new Map<string, Out | RedisDied>();
  /** Loads that fail (raw name ends so); `redisWith`: Redis dies with them. */
  failing = new Set<string>();
  redisWith = false;
  /** rps by the raw name's end. */
  rps = new Map<string, number>();
  recoverOut = new Set<string>();
  private reads = new Map<string, number>();

  async verify(app: Launched): Promise<Verdict> {
    this.events.push(`verified ${app.r.name}`);
    if (this.invalid.has(app.r.name)) return { ok: false, reason: 'wrong body' };
    return { ok: true, bytes: 10, ...(this.finding ? { finding: this.finding } : {}) };
  }
  async load(app: Launched, load: Load, rawName: string, what: 'warmup' | 'touch'): Promise<void> {
    this.events.push(`${what} ${app.r.name} ${rawName}`);
    this.loads.push({ what, name: app.r.name, load });
  }
  async measure(app: Launched, load: Load, rawName: string, duet?: Meeting): Promise<Measured> {
    this.events.push(`${duet ? 'duet' : 'window'} ${app.r.name} ${rawName}`);
    this.loads.push({ what: 'window', name: app.r.name, load });
    if (duet) await duet.at('start');
    if ([...this.failing].some((f) => rawName.endsWith(f))) {
      if (this.redisWith) this.alive = false;
      throw new Error('oha: connection reset');
    }
    if (duet) await duet.at('end');
    const rps = [...this.rps].find(([k]) => rawName.endsWith(k))?.[1] ?? 1000;
    return measured(rps, rawName);
  }
  async check(app: Launched, run: RunRecord): Promise<Out | RedisDied | null> {
    this.events.push(`check ${app.r.name}`);
    return [...this.checks].find(([k]) => run.raw.endsWith(k))?.[1] ?? null;
  }
  /** Each app has used 5 s of CPU by its start, and 0.01 s more at each reading. */
  cpuSeconds(app: Launched): number {
    const n = (this.reads.get(app.key) ?? 0) + 1;
    this.reads.set(app.key, n);
    return 5 + 0.01 * n;
  }
  async restartRedis() {
    this.events.push('restart redis');
    return { downMs: 5, restartedAt: 0 };
  }
  async recover(app: Launched) {
    return {
      ms: 1,
      out: this.recoverOut.has(app.r.name) ? ({ kind: 'out', status: 'failed', reason: 'gone' } as Out) : null,
    };
  }
}

const SETTINGS = { seed: 42, windows: 2, duration_s: 1, requests: null, warmup_s: 1, layout: 'runtime' } as const;
const blockResults = (settings: Partial<Settings> = {}, more: Partial<BlockResults> = {}): BlockResults => ({
  settings: { ...SETTINGS, ...settings } as unknown as Settings,
  data: {} as BlockResults['data'],
  ...more,
});
const invalid = (reason: string): Out => ({ kind: 'out', status: 'invalid', reason });
/** The index of the first event that starts so, at or after `from`. */
const at = (events: string[], prefix: string, from = 0) =>
  events.findIndex((e, i) => i >= from && e.startsWith(prefix));

describe('a single trial (trial.ts, launch.ts)', () => {
  test('a check that fails after a window ends the trial: invalid, its windows kept, stopped', async () => {
    const fake = new Fake();
    fake.checks.set('a/c50-run1-w2.json', invalid('the body changed after run 1'));
    const s = slot('a');
    const outcome = await measureTrial(fake, { ...SETTINGS, windows: 3 }, s.r, s.point, 1, 0);
    expect(outcome).toMatchObject({ kind: 'out', status: 'invalid', reason: 'the body changed after run 1' });
    expect(outcome.runs).toHaveLength(1);
    expect(outcome.runs[0]!.windows).toHaveLength(2);
    expect(fake.events.filter((e) => e.startsWith('window'))).toHaveLength(2);
    expect(fake.events.at(-1)).toBe('stop a#a/c50-run1.json');
    // Recorded: the contender invalid, the windows it served kept beside the reason.
    const results = { settings: { max_steal_pct: 5 } } as Results;
    expect(record(results, s.r, s.point, outcome, 'a c50 run 1/2', 0)).toBe(true);
    expect(s.r).toMatchObject({ status: 'invalid', reason: 'the body changed after run 1' });
    expect(s.point.runs).toHaveLength(1);
  });

  test("a load that fails: the contender failed, the round named, the app's last lines kept", async () => {
    const fake = new Fake();
    fake.failing.add('-w2.json');
    const s = slot('a');
    const outcome = await measureTrial(fake, SETTINGS, s.r, s.point, 2, 0);
    expect(outcome).toMatchObject({ kind: 'out', status: 'failed', reason: 'run 2: oha: connection reset' });
    expect(outcome.kind === 'out' && outcome.output).toEqual(['last line']);
    expect(outcome.runs[0]!.windows).toHaveLength(1);
  });

  test('the warmup: none at 0 s; for --warmup seconds even when the windows count requests', async () => {
    const none = new Fake();
    const s = slot('a');
    await measureTrial(none, { ...SETTINGS, warmup_s: 0 }, s.r, s.point, 1, 0);
    expect(none.events.filter((e) => e.startsWith('warmup'))).toEqual([]);
    const fake = new Fake();
    await measureTrial(fake, { ...SETTINGS, duration_s: null, requests: 5000, warmup_s: 3 }, s.r, s.point, 1, 0);
    const [warm, ...windows] = fake.loads;
    expect(warm).toMatchObject({ what: 'warmup', load: { duration_s: 3, requests: null } });
    expect(windows.map((w) => w.load.requests)).toEqual([5000, 5000]);
  });

  test('a body that differs by named causes only is recorded as a finding on its contender', async () => {
    const fake = new Fake();
    fake.finding = 'key order';
    const s = slot('a');
    const outcome = await measureTrial(fake, SETTINGS, s.r, s.point, 1, 0);
    expect(outcome.kind).toBe('runs');
    expect(s.r.contract).toBe('key order');
  });
});

describe("the seed's method (trial.ts, seed.ts)", () => {
  test("the seed's method: 3 runs of 200 requests at 50 connections, no warmup; the third the headline", async () => {
    const fake = new Fake();
    const s = slot('a');
    await seedTrial(fake, s.r);
    expect(fake.loads.map((l) => l.what)).toEqual(['window', 'window', 'window']);
    for (const { load } of fake.loads)
      expect(load).toMatchObject({ connections: 50, requests: 200, duration_s: null, seedDefaults: true });
    const seeded = new Fake();
    for (const [i, rps] of [300, 200, 100].entries()) seeded.rps.set(`seed-method-run${i + 1}.json`, rps);
    const results = {
      contenders: [
        result('a'),
        result('a-self-check', { self_check_of: 'a' }),
        result('c', { ceiling: 'http' } as never),
      ],
    } as unknown as Results;
    await seedMethod(seeded, results, () => {});
    expect(results.contenders.map((c) => c.seed_method?.headline ?? null)).toEqual([100, null, null]);
    expect(seeded.events.filter((e) => e.startsWith('start'))).toEqual(['start a']);
  });
});

describe('a block (block.ts)', () => {
  test('a member whose check fails is out and stopped before the next window, its window kept', async () => {
    const fake = new Fake();
    fake.checks.set('a/c50-run1.json', invalid('the body changed after run 1'));
    const outcomes = await measureBlock(fake, blockResults(), [slot('a'), slot('b')], 1, 0);
    const ev = fake.events;
    const out = at(ev, 'check a');
    expect(at(ev, 'stop a#', out)).toBeLessThan(at(ev, 'window', out));
    expect(ev.filter((e) => e.startsWith('window a'))).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ kind: 'out', status: 'invalid', reason: 'the body changed after run 1' });
    expect(outcomes[0]!.runs[0]!.windows).toHaveLength(1);
    expect(outcomes[1]).toMatchObject({ kind: 'runs' });
    expect(outcomes[1]!.runs[0]!.windows).toHaveLength(2);
  });

  test('each window records the CPU the idle members used during it, not what they used before', async () => {
    const outcomes = await measureBlock(new Fake(), blockResults({ windows: 1 }), [slot('a'), slot('b')], 1, 0);
    for (const o of outcomes) expect(o.runs[0]!.idle_cpu_s).toBeCloseTo(0.01, 9);
  });

  test('--layout walk: the touch before a window is at most 0.5 s and never longer than the window', async () => {
    for (const [duration_s, touch] of [
      [0.2, 0.2],
      [3, 0.5],
    ]) {
      const fake = new Fake();
      const results = blockResults({ layout: 'walk', duration_s } as never);
      await measureBlock(fake, results, [slot('a'), slot('b')], 1, 0, [[0, 1]]);
      const touches = fake.loads.filter((l) => l.what === 'touch');
      expect(touches.length).toBeGreaterThan(0);
      for (const t of touches) expect(t.load).toMatchObject({ duration_s: touch, requests: null });
    }
  });

  test('--restart-redis: after the first cycle; an app that does not serve again is stopped at once', async () => {
    const fake = new Fake();
    fake.recoverOut.add('a');
    const results = blockResults({ workload: 'live', live: { restart_redis: true } } as never);
    await measureBlock(fake, results, [slot('a'), slot('b')], 1, 0).catch(() => {});
    const ev = fake.events;
    const restart = ev.indexOf('restart redis');
    expect(ev.slice(0, restart).filter((e) => e.startsWith('window'))).toHaveLength(2);
    expect(at(ev, 'stop a#', restart)).toBeLessThan(at(ev, 'window', restart));
    expect(ev.slice(restart).filter((e) => e.startsWith('window a'))).toEqual([]);
  });
});

describe("a change's duet in a block (block.ts)", () => {
  const pairResults = (windows = 2) =>
    blockResults(
      { windows, against: { pair: 'duet' } as never },
      { changes: { comparisons: changeComparisons(['x', 'x@base']) } as never },
    );
  const slots = () => [slot('x'), slot('x@base'), slot('y')];

  test("a side whose duet load fails is failed and stopped at once; its partner's windows go on", async () => {
    const fake = new Fake();
    fake.failing.add('x/c50-run1-duet1.json');
    const outcomes = await measureBlock(fake, pairResults(), slots(), 1, 0);
    expect(outcomes[0]).toMatchObject({ kind: 'out', status: 'failed', reason: 'run 1 (duet): oha: connection reset' });
    const duet = at(fake.events, 'duet x ');
    expect(at(fake.events, 'stop x#', duet)).toBeLessThan(at(fake.events, 'window', duet));
    expect(outcomes[1]!.kind).toBe('runs');
  });

  test('a side whose check after a duet fails is out and stopped at once', async () => {
    const fake = new Fake();
    fake.checks.set('x/c50-run1-duet1.json', invalid('the body changed after its duet'));
    const outcomes = await measureBlock(fake, pairResults(), slots(), 1, 0);
    expect(outcomes[0]).toMatchObject({ kind: 'out', status: 'invalid', reason: 'the body changed after its duet' });
    const duet = at(fake.events, 'duet x ');
    expect(at(fake.events, 'stop x#', duet)).toBeLessThan(at(fake.events, 'window', duet));
    expect(fake.events.filter((e) => e.startsWith('duet x '))).toHaveLength(1);
  });

  test('Redis dies under a duet: both sides set aside as Redis died, neither failed', async () => {
    const fake = new Fake();
    fake.failing.add('-duet1.json');
    fake.redisWith = true;
    const outcomes = await measureBlock(fake, pairResults(), slots(), 1, 0);
    expect(outcomes.slice(0, 2).map((o) => o.kind)).toEqual(['redis-died', 'redis-died']);
  });

  test('Redis dies after a side failed its check: that side is still stopped', async () => {
    const fake = new Fake();
    // The pair's base side is checked first.
    fake.checks.set('x_base/c50-run1-duet1.json', invalid('the body changed'));
    fake.checks.set('x/c50-run1-duet1.json', { kind: 'redis-died' });
    const outcomes = await measureBlock(fake, pairResults(), slots(), 1, 0);
    expect(outcomes.slice(0, 2).map((o) => o.kind)).toEqual(['redis-died', 'out']);
    expect(at(fake.events, 'stop x@base#', at(fake.events, 'duet x@base '))).toBeGreaterThan(0);
  });
});

describe("the default run's handicap check in a block (block.ts)", () => {
  const check = HANDICAP_CHECK;
  const slots = () => ['a', 'x', 'fw', 'h'].map(slot);

  test('a side out in its first window is never launched again, nor measured', async () => {
    const fake = new Fake();
    fake.checks.set('h/c50-run1.json', invalid('the body changed'));
    const outcomes = await measureBlock(fake, blockResults({}, check), slots(), 1, 0);
    expect(fake.events.filter((e) => e === 'start h')).toHaveLength(1);
    expect(fake.events.filter((e) => /^(window|duet) h /.test(e))).toEqual(['window h h/c50-run1.json']);
    expect(outcomes[3]!.kind).toBe('out');
  });

  test("which side is measured first in the pairs alone after the cycle's alternates by round too", async () => {
    const firstAlone = async (round: number) => {
      const fake = new Fake();
      await measureBlock(fake, blockResults({}, check), slots(), round, 0);
      return fake.events.find((e) => /^window .*-alone1\.json$/.test(e))!.split(' ')[1];
    };
    expect(await firstAlone(1)).not.toBe(await firstAlone(2));
  });
});

describe('record (record.ts)', () => {
  const results = () => ({ settings: { max_steal_pct: 5 } }) as Results;
  const run = (steal: number, round = 1) =>
    ({ ...measured(1000, `a/c50-run${round}.json`), round, cpu_steal_pct: steal }) as unknown as RunRecord;

  test('steal at --max-steal is kept; over it, a round stolen at every attempt is left out, each round counted', () => {
    const r = result('a');
    const p = r.points[0]!;
    expect(record(results(), r, p, { kind: 'runs', runs: [run(5)] }, 'a', 0)).toBe(true);
    expect(p.runs).toHaveLength(1);
    for (const round of [2, 3]) record(results(), r, p, { kind: 'runs', runs: [run(6, round)] }, 'a', STEAL_RETRIES);
    expect(p.left_out).toBe(2);
    expect(p.discarded_runs!.map((d) => d.fault)).toEqual(['CPU steal 6.0% > 5%', 'CPU steal 6.0% > 5%']);
  });

  test("Redis died: measuring stops, the run set aside as not the contender's fault, the contender still in", () => {
    const r = result('a');
    const res = results();
    expect(record(res, r, r.points[0]!, { kind: 'redis-died', runs: [run(0)] }, 'a c50 run 1/2', 0)).toBe(false);
    expect(r.points[0]!.runs).toEqual([]);
    expect(r.points[0]!.discarded_runs!.map((d) => d.fault)).toEqual(['Redis died during this run']);
    expect(r.status).toBe('incomplete');
    expect(res.exit_reason).toBe('Redis stopped answering during a; measuring stopped');
  });

  test('by name, a command at 0.005 per response is said', () => {
    const line = runLine({ ...run(0), ok: 1000, commands_by_name: { xrange: 1000, ping: 5 } } as RunRecord, true);
    expect(line).toEndWith('XRANGE 1.00, PING 0.01 per req');
  });
});

test('the ETA: a later round that ends with the reserve exactly at the budget is counted', () => {
  const c = new TrialClock(10);
  const o = {
    elapsedS: 100,
    reserveS: 30,
    leftInRound: ['a', 'b'],
    laterRounds: [
      ['a', 'b'],
      ['a', 'b'],
    ],
  };
  // This round ends at 120 s, the next at 140 s: 170 s with the reserve, the budget.
  expect(forecast(c, { ...o, budgetS: 170 })).toEqual({ etaS: 40 + 30, runsLeft: 4 });
});

const manifest = (name: string, more: Partial<Contender> = {}) =>
  ({
    name,
    tuned: [],
    ceiling: false,
    runtime: 'node',
    framework: 'raw',
    variant: null,
    client: 'c',
    ...more,
  }) as unknown as Contender;
/** x and its twin with the handicap on, and a ceiling of the same runtime, framework and client listed first. */
const stateOf = (fake: Fake, settings: Partial<Settings> = {}, names = ['x', 'x-handicap']): RunState => {
  const s = { ...SETTINGS, windows: 1, warmup_s: 0, connections: [50], ...settings };
  const kind = { framework: 'raw', variant: null, client: 'c' } as Partial<ContenderResult>;
  const on = { settings: { handicap: 'on' } } as Partial<ContenderResult>;
  const contenders = names.map((n) => result(n, { ...kind, ...(n === 'x-handicap' ? on : {}) }));
  const byName = new Map(
    [manifest('x-ceiling', { ceiling: true } as never), manifest('x'), manifest('x-handicap', { tuned: ['h'] })].map(
      (c) => [c.name, c],
    ),
  );
  const results = { settings: s, contenders, data: {} } as unknown as Results;
  return { results, rig: { byName }, launcher: fake, save: () => {} } as unknown as RunState;
};
// Its window: 1,000 requests in 1 s, the event loop busy 0.5 s of it, 500 µs of CPU per request.
const twin = { wallUs: 1000, mainUs: 500, cpuUs: 500 };

describe('the handicap calibrated (calibrate.ts), through a fake launcher', () => {
  test('a twin with the setting on: calibrated on its plain twin (no ceiling), by 10%, its ratio 1 / 1.1', async () => {
    const fake = new Fake();
    const state = stateOf(fake);
    await calibrateHandicap(state);
    expect(fake.events.filter((e) => e.startsWith('start'))).toEqual(['start x']);
    expect(state.results.handicap).toEqual([
      {
        contender: 'x-handicap',
        calibrated_on: 'x',
        compared_with: 'x',
        pct: 10,
        cpu_us_per_req: 500,
        wall_us_per_req: 1000,
        main_thread_us_per_req: 500,
        us: burnUs(twin, 10),
        injected_ratio: 1 / 1.1,
      },
    ]);
    // Resumed, a calibrated handicap is kept, not measured again.
    const again = new Fake();
    await calibrateHandicap({ ...state, launcher: again });
    expect(again.events).toEqual([]);
    expect(state.results.handicap).toHaveLength(1);
  });

  test('--against: the calibration is compared with nothing; --handicap NAME: its loop burn, at its size', async () => {
    const against = stateOf(new Fake(), { against: { kind: 'ref' } as never });
    await calibrateHandicap(against);
    expect(against.results.handicap![0]!.compared_with).toBeNull();
    const named = stateOf(new Fake(), { handicap: 'x', handicap_pct: 20 } as never, ['x', 'x@base']);
    await calibrateHandicap(named);
    expect(loopBurnUs(twin, 20)).not.toBe(burnUs(twin, 20));
    expect(named.results.handicap![0]).toMatchObject({
      contender: 'x',
      compared_with: 'x@base',
      us: loopBurnUs(twin, 20),
    });
  });

  test('a calibration launch that turns invalid after its window fails the contender it calibrates', async () => {
    const fake = new Fake();
    fake.checks.set('x/c50-run0.json', invalid('the body changed'));
    const state = stateOf(fake);
    await calibrateHandicap(state);
    expect(state.results.handicap).toBeUndefined();
    expect(state.results.contenders[1]).toMatchObject({
      status: 'failed',
      reason: 'handicap calibration on x failed',
    });
  });
});

describe('the --target launcher (remote.ts) and what every app is told (rig.ts)', () => {
  const gone = { url: 'redis://127.0.0.1:1', server: { pid: 2 ** 22 + 1 } };
  const remote = () =>
    new RemoteLauncher({ redis: gone, runDir: '/nonexistent' } as never, 'http://127.0.0.1:1/', '[]');

  test('an app that does not answer fails before a run; a check once Redis is gone says Redis died', async () => {
    const started = await remote().start(result('t', { page: false } as never), 'k');
    expect(started).toMatchObject({ kind: 'out', status: 'failed' });
    expect((started as Out).reason).toStartWith('before a run: request failed');
    const app = { key: 'k', r: result('t'), pid: -1, url: 'http://127.0.0.1:1/', launchS: NaN, bytes: NaN };
    expect(await remote().check({ ...app, tail: () => [] }, measured(1, 'w') as RunRecord)).toEqual({
      kind: 'redis-died',
    });
  });

  test("REDIS_CLUSTER is 0 unless a cluster twin's own env says 1, whatever the caller's shell holds", () => {
    const c = { client: 'ioredis', settings: {} } as unknown as Contender;
    expect(appEnvironment(c, 'redis://r', 'xrange')).toMatchObject({
      REDIS_URL: 'redis://r',
      REDIS_CLIENT: 'ioredis',
      WORKLOAD: 'xrange',
      REDIS_CLUSTER: '0',
    });
  });
});

test('the exit code: 0 when every contender is ok, 1 when one failed', async () => {
  const { join } = await import('node:path');
  const { readResults } = await import('../../packages/harness/src/model/results-file');
  const { ROOT } = await import('../../packages/harness/src/system/paths');
  const { finish } = await import('../../packages/harness/src/run/finish');
  const published = () => readResults(join(ROOT, 'results/latest/results.json'));
  const all = published();
  expect(all.contenders.every((c) => c.status === 'ok')).toBe(true);
  expect(finish(all, () => {}, true)).toBe(0);
  const one = published();
  const failed = one.contenders[0]!;
  [failed.status, failed.reason] = ['failed', 'exited (code 1) before answering'];
  expect(finish(one, () => {}, true)).toBe(1);
});
