import { afterEach, describe, expect, test } from 'bun:test';
import jstat from 'jstat';
import { streamOptionsFromEnv, withHandicap, type StreamBody, type StreamSource } from '@bench/stream';
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import { ANSWERS_PROCEDURE, look, windowPairs } from '../../packages/harness/src/answers/decide';
import {
  answersTest,
  burnBound,
  burnUs,
  checkAlonePairs,
  handicapJudged,
  loopBurnUs,
  MAX_BUSY,
  type TwinCost,
  wallBurnUs,
} from '../../packages/harness/src/answers/handicap';
import { aloneAt, checkDesign, duetPairs } from '../../packages/harness/src/answers/pair-design';
import { handicapEnv } from '../../packages/harness/src/run/calibrate';
import type { ContenderResult, Results } from '../../packages/harness/src/model/results';
import type { HandicapCheck } from '../../packages/harness/src/model/changes';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import { tPower } from '../../packages/harness/src/stats/moderated';
import { handicapLine } from '../../packages/harness/src/report/answers';

const body: StreamBody = { entries: [{ id: '1-0', fields: { a: '1' } }] };

function fakeSource(): StreamSource & { calls: number } {
  const s = {
    calls: 0,
    read: async () => (s.calls++, body),
    readJson: async () => (s.calls++, '{"entries":[]}'),
    direct: true,
    close: async () => {},
  };
  return s;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

describe('withHandicap', () => {
  test('2000 µs: 20 reads spin about 40 ms on the thread (CPU, not a sleep), values passed unchanged', async () => {
    const source = fakeSource();
    const h = withHandicap(source, 2000);
    expect(h.direct).toBe(true);
    const twentyReads = async () => {
      const wall = performance.now();
      const start = process.cpuUsage();
      for (let i = 0; i < 10; i++) {
        expect(await h.read()).toBe(body);
        expect(await h.readJson()).toBe('{"entries":[]}');
      }
      return { cpu: cpuMs(start), wall: performance.now() - wall };
    };
    const { cpu, wall } = await twentyReads();
    // 20 burns of 2 ms at the rate timed when the handicap was set up: about 40 ms, more or less as the
    // machine's speed moved since (39.9 ms seen on a quiet machine). A no-op would take well under a
    // millisecond; the test asks for three quarters of it.
    expect(wall).toBeGreaterThanOrEqual(30);
    // Of CPU: when other processes take the CPU meanwhile it is less (35–39 ms seen beside a running
    // benchmark), so the test asks for a quarter of it, which a sleep (≈ 0 ms of CPU) would not give.
    expect(cpu).toBeGreaterThanOrEqual(10);
    expect(source.calls).toBe(20);
    // And not much more: twice the 40 ms in CPU time, which neighbours do not inflate, at best of three tries (a core
    // shared with a busy neighbour's thread runs the loop slower than when the rate was timed). A burn three times
    // too long (120 ms) fails all three.
    const cpus = [cpu];
    while (cpus.length < 3 && Math.min(...cpus) > 80) cpus.push((await twentyReads()).cpu);
    expect(Math.min(...cpus)).toBeLessThanOrEqual(80);
  });
});

describe('withHandicap, each read', () => {
  const threadCpuMs = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  test('2000 µs: readJson burns as read does, and 20 reads take at least 28 ms of the thread (of 40)', async () => {
    const h = withHandicap(fakeSource(), 2000);
    const cpuOf = async (read: () => Promise<unknown>) => {
      const t0 = threadCpuMs();
      for (let i = 0; i < 10; i++) await read();
      return threadCpuMs() - t0;
    };
    // Ten readJson alone: about 20 ms of the thread; without their burn well under 1 (a quarter asked).
    expect(await cpuOf(h.readJson)).toBeGreaterThanOrEqual(5);
    // The thread's own CPU, which neighbours do not add to: at best of three tries, 70% of the 40 ms (a burn of half
    // is 20).
    const tries: number[] = [];
    while (tries.length < 3 && Math.max(0, ...tries) < 28)
      tries.push((await cpuOf(h.read)) + (await cpuOf(h.readJson)));
    expect(Math.max(...tries)).toBeGreaterThanOrEqual(28);
  });
});

describe('streamOptionsFromEnv and HANDICAP', () => {
  const saved = { HANDICAP: process.env.HANDICAP, HANDICAP_US: process.env.HANDICAP_US };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  test('HANDICAP=on needs HANDICAP_US above 0', () => {
    process.env.HANDICAP = 'on';
    for (const us of [undefined, '', 'abc', '0', '-5']) {
      if (us === undefined) delete process.env.HANDICAP_US;
      else process.env.HANDICAP_US = us;
      expect(() => streamOptionsFromEnv()).toThrow('HANDICAP=on needs HANDICAP_US=<µs per request> above 0');
    }
    process.env.HANDICAP_US = '250';
    expect(streamOptionsFromEnv()).toMatchObject({ settings: { handicap: 'on' }, handicapUs: 250 });
  });

  test('off by default, and HANDICAP_US is then ignored', () => {
    delete process.env.HANDICAP;
    process.env.HANDICAP_US = 'abc';
    expect(streamOptionsFromEnv()).toMatchObject({ settings: { handicap: 'off' }, handicapUs: 0 });
  });
});

describe("burnUs: the burn that makes the twin's request 10% longer", () => {
  test('a loop busy 1,996 of 2,184 µs per request: (1.1 × 0.975 × 2,184) − 1,996 µs', () => {
    expect(burnUs({ wallUs: 2184, mainUs: 1996, cpuUs: 2300 }, 10)).toBe(346.3);
    // The model's own check: with the burn the loop is busy MAX_BUSY of a wall time 10% longer.
    expect((1996 + 346.3) / MAX_BUSY / 2184).toBeCloseTo(1.1, 3);
  });
  test('a loop reading busier than it can be: half of 10% of the wall time; one mostly idle: at most twice 10%', () => {
    expect(burnUs({ wallUs: 1400, mainUs: 1500, cpuUs: 1590 }, 10)).toBe(70);
    expect(burnUs({ wallUs: 20_000, mainUs: 400, cpuUs: 500 }, 10)).toBe(4000);
  });
  test('the bounds at their edges: a fill of 2.5 times 10% of the wall time cut to 2, one of 0.3 raised to 0.5', () => {
    // fill = 1.1 × 0.975 × 1,000 − busy = 1,072.5 − busy µs.
    const at = (mainUs: number) => ({ wallUs: 1000, mainUs, cpuUs: mainUs });
    expect(burnUs(at(822.5), 10)).toBeCloseTo(200, 9);
    expect(burnBound(at(822.5), 10)).toBe('most');
    expect(burnUs(at(1042.5), 10)).toBeCloseTo(50, 9);
    expect(burnBound(at(1042.5), 10)).toBe('least');
    // Within them: the fill itself.
    expect(burnUs(at(972.5), 10)).toBeCloseTo(100, 9);
    expect(burnBound(at(972.5), 10)).toBeNull();
  });
});

describe("loopBurnUs: --handicap NAME:pct's burn, so that NAME is pct% slower alone", () => {
  test('a loop busy 633 of 812 µs, 3%: 31.5 µs, which its model, (L / W)·b / (W + b), reads as 3 / 103', () => {
    const twin: TwinCost = { wallUs: 812, mainUs: 633, waitUs: 0, cpuUs: 700 };
    expect(loopBurnUs(twin, 3)).toBe(31.5);
    expect((633 / 812) * (31.5 / (812 + 31.5))).toBeCloseTo(3 / 103, 4);
    // pct of the wall time (the older rule) reads short: (633 / 812)·24.4 / 836.4 = 2.3%.
    expect(wallBurnUs(twin, 3)).toBe(24.4);
  });
  test('a loop taken all the time (busy, or waiting for a CPU): pct of the wall time, 1 / 1.03 if it bounds', () => {
    expect(loopBurnUs({ wallUs: 786, mainUs: 746, waitUs: 40 }, 3)).toBe(23.6);
    expect(loopBurnUs({ wallUs: 786, mainUs: 800 }, 3)).toBe(wallBurnUs({ wallUs: 786 }, 3));
  });
  test('a loop mostly idle is read as taken half the time: about twice pct, not an unbounded burn', () => {
    expect(loopBurnUs({ wallUs: 1000, mainUs: 200 }, 3)).toBe(61.9);
    expect(loopBurnUs({ wallUs: 1000, mainUs: 0 }, 3)).toBe(61.9);
  });
});

describe('burnUs on contended CPUs: time spent waiting for a CPU is not idle time to fill', () => {
  test('busy 2,635 and waiting 283 of 2,993 µs: 0.903 × (1.1 × 0.975 × 2,993 − 2,918) µs, not 575', () => {
    const twin = { wallUs: 2993, mainUs: 2635, waitUs: 283, cpuUs: 2900 };
    const share = 2635 / (2635 + 283);
    expect(burnUs(twin, 10)).toBeCloseTo(share * (1.1 * MAX_BUSY * 2993 - 2918), 0);
    expect(burnUs(twin, 10)).toBe(263.7);
    // The same launch read without the wait: the fill of the idle time it is not.
    expect(burnUs({ wallUs: 2993, mainUs: 2635, cpuUs: 2900 }, 10)).toBe(575);
    // The model's own check: runnable B + R + burn ÷ share is MAX_BUSY of a wall time 10% longer.
    expect((2635 + 283 + 263.7 / share) / MAX_BUSY / 2993).toBeCloseTo(1.1, 3);
  });

  test('no wait (a quiet machine): as before; a loop that read neither busy nor waiting gets the most, not NaN', () => {
    expect(burnUs({ wallUs: 2184, mainUs: 1996, waitUs: 0, cpuUs: 2300 }, 10)).toBe(346.3);
    expect(burnUs({ wallUs: 1000, mainUs: 0, waitUs: 0, cpuUs: 10 }, 10)).toBe(200);
  });
});

describe("the handicap check's line says which rule sized the burn", () => {
  /** The line of a check calibrated on `twin` (µs per request), burning `us`. */
  const lineOf = (twin: TwinCost, pct: number, us: number, aloneScale: number | null = null) =>
    handicapLine({
      aloneScale: aloneScale === null ? null : aloneAt(aloneScale),
      handicap: [
        {
          check: {
            contender: 'x',
            calibrated_on: 'x',
            compared_with: 'x@base',
            pct,
            cpu_us_per_req: twin.cpuUs,
            wall_us_per_req: twin.wallUs,
            main_thread_us_per_req: twin.mainUs,
            ...(twin.waitUs !== undefined ? { main_thread_wait_us_per_req: twin.waitUs } : {}),
            us,
            injected_ratio: 1 / (1 + pct / 100),
            detected: true,
            measured: { ratio: 0.9647, lo: 0.9497, hi: 0.9798, level: 0.95, p: 1e-5, pairs: 144, rounds: 72 },
          },
          sizing: burnBound(twin, pct) ?? 'busy',
          maxBusy: MAX_BUSY,
        },
      ],
    } as unknown as Analysis);
  const line = (us: number, mainUs: number) => lineOf({ wallUs: 1198, mainUs, cpuUs: 966 }, 3, us);

  test('--handicap on duets that show 0.6× of a difference alone: measured at its size alone too, off by that', () => {
    const text = lineOf({ wallUs: 1198, mainUs: 949, cpuUs: 966 }, 3, 35.9, 0.6);
    // 0.9647 ^ (1 / 0.6) = 0.9418: −6% alone, 2.9 points from the −2.9% injected.
    const alone = "alone about −6% (−8%…−3%), at the scale check's 0.60×: ";
    expect(text).toContain(`${alone}detected; off by 2.9 points alone.`);
  });
  test('a loop busy 949 of 1,198 µs: the most a burn gets, 6% of the wall time; "off by" is unsigned', () => {
    expect(burnUs({ wallUs: 1198, mainUs: 949, cpuUs: 966 }, 3)).toBe(71.9);
    expect(line(71.9, 949)).toContain("6% of x's 1198 µs of wall time per request, the most a burn gets");
    expect(line(71.9, 949)).toContain('off by 0.6 points.');
  });
  test('a loop that waited for a CPU: the wait is named, and the share of a CPU the burn is scaled by', () => {
    const twin = { wallUs: 2993, mainUs: 2635, waitUs: 283, cpuUs: 2900 };
    const text = lineOf(twin, 10, burnUs(twin, 10));
    expect(text).toContain(
      "burns 263.7 µs of CPU per request (1.1 × 0.975 × x's 2993 µs of wall time per request, less the 2635 µs " +
        'its event loop was busy and the 283 µs it waited for a CPU, times its share of a CPU while runnable (0.903))',
    );
  });

  test("--handicap's burn: its share of the wall time, and the share of the time the loop was taken", () => {
    const text = handicapLine({
      aloneScale: null,
      handicap: [
        {
          check: {
            contender: 'x',
            calibrated_on: 'x',
            compared_with: 'x@base',
            pct: 3,
            cpu_us_per_req: 700,
            wall_us_per_req: 812,
            main_thread_us_per_req: 633,
            us: 31.5,
            injected_ratio: 1 / 1.03,
            detected: true,
            measured: { ratio: 0.97, lo: 0.96, hi: 0.98, level: 0.95, p: 1e-5, pairs: 86, rounds: 43 },
          },
          sizing: 'loop',
          maxBusy: MAX_BUSY,
          loopShare: 633 / 812,
        },
      ],
    } as unknown as Analysis);
    expect(text).toContain(
      "burns 31.5 µs of CPU per request (3.9% of x's 812 µs of wall time per request, which slows by 3% a loop " +
        'taken 78% of the time (its event loop was busy 633 µs of it))',
    );
  });

  test('a loop busy 1,150 of 1,198 µs: 1.03 × 0.975 × the wall time, less the busy time', () => {
    const us = burnUs({ wallUs: 1198, mainUs: 1150, cpuUs: 1200 }, 3);
    expect(line(us, 1150)).toContain("1.03 × 0.975 × x's 1198 µs of wall time per request, less the 1150 µs");
  });
});

/**
 * The default run's check, `rounds` rounds of 2 launches: x-handicap at `ratio` of its twin x, each window alone off by
 * sd `alt` (the launch's window in its cycle, and `alone` − 1 more in check_windows), each duet window by sd `duet`
 * (and the duet's ratio times `bias`); `launches`: each round's two duets from a launch of their own.
 */
function checkRun(
  rounds: number,
  alt: number,
  duet: number,
  { ratio = 0.9, bias = 1, duets = true, launches = false, alone = 1, denied = 0 } = {},
) {
  const random = seededRandom(11);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  // `denied`: each 1 s window's event loop kept waiting for a CPU up to that share of it, its req/s down by as much.
  const window = (slow: number, index: number, launch: number) => {
    const wait = denied ? denied * random() : 0;
    const rps = 1000 * slow * Math.exp(alt * normal()) * (1 - wait);
    return { index, launch, rps, ...(denied ? { ok: rps, main_thread_wait_s: wait } : {}) };
  };
  const runs = (slow: number, duetSlow: number, partner: string) =>
    Array.from({ length: rounds }, (_, i) => ({
      round: i + 1,
      rps: 1000,
      windows: Array.from({ length: 2 }, (_, j) => window(slow, j, j)),
      ...(alone > 1
        ? { check_windows: Array.from({ length: 2 * (alone - 1) }, (_, j) => window(slow, j, j % 2)) }
        : {}),
      ...(duets
        ? {
            duet: Array.from({ length: 2 }, (_, j) => ({
              partner,
              rps: 1000 * duetSlow * Math.exp(duet * normal()),
              // CPU per request: the slower side's higher by its slowdown, give or take 1–2% by round.
              cpu_us_per_req: (1000 / slow) * (1 + 0.01 * (((i + j) % 3) - 1) * (slow < 1 ? 1 : 0)),
              ...(launches && j ? { launch: j } : {}),
            })),
          }
        : {}),
    }));
  const contender = (name: string, slow: number, duetSlow: number, partner: string) => ({
    name,
    status: 'incomplete',
    points: [{ runs: runs(slow, duetSlow, partner) }],
  });
  return {
    contenders: [contender('x-handicap', ratio, ratio * bias, 'x'), contender('x', 1, 1, 'x-handicap')],
    settings: { runs: 'auto', windows: 2, duration_s: 1 },
    family: { questions: [], comparisons: [] },
    handicap: [
      { contender: 'x-handicap', calibrated_on: 'x', compared_with: 'x', pct: 10, cpu_us_per_req: 1, us: 100 },
    ],
  } as unknown as Results;
}

describe("the default run's check: measured both ways, judged on its windows alone, its duets said beside", () => {
  test('8 rounds: judged on its windows alone as the answers are, and seen; signed-rank and its duets beside', () => {
    const r = checkRun(8, 0.12, 0.04);
    r.handicap = handicapJudged(r);
    const [h] = r.handicap!;
    expect(h!.design).toMatchObject({ asked: 'auto', chosen: 'duet', round: null });
    expect(h!.design!.why).toMatch(/^sd per round: duet \d+\.\d%, alternating \d+\.\d%$/);
    expect(h!.design!.bias!.rounds).toBe(8);
    expect(h!.measured).toMatchObject({
      rounds: 8,
      pairs: 16,
      level: 0.95,
      on: 'alternate',
      procedure: 'moderated-t',
    });
    expect(h!.measured!.ratio).toBeCloseTo(0.9, 1);
    expect(h!.measured!.diagnostics!.map((d) => d.procedure)).toEqual(['moderated-t', 'signed-rank']);
    expect(h!.measured!.diagnostics![1]).toMatchObject({ procedure: 'signed-rank', detected: true, pairs: 16 });
    expect(h!.other).toMatchObject({ rounds: 8, pairs: 16, level: 0.95, on: 'duet' });
    expect(h!.other!.ratio).toBeCloseTo(0.9, 1);
    expect(h!.detected).toBe(true);
  });

  test("its power: its test's chance at the se it measured, higher for quieter rounds; none without a size", () => {
    const chance = (noise: number) => {
      const r = checkRun(6, noise, 0.04);
      r.handicap![0]!.injected_ratio = 1 / 1.1;
      r.handicap = handicapJudged(r);
      const m = r.handicap![0]!.measured!;
      expect(m.power!.chance).toBeCloseTo(tPower(Math.log(1 / 1.1), m.se!, m.df!, 0.95), 3);
      expect(m.power!.target).toBe(0.8);
      return m.power!;
    };
    const [quiet, noisy] = [chance(0.04), chance(0.3)];
    expect(quiet.chance).toBeGreaterThan(noisy.chance);
    expect(noisy.rounds_for_target).toBeGreaterThan(6);
    expect(quiet.rounds_for_target).toBeLessThanOrEqual(6);
    const r = checkRun(6, 0.04, 0.04);
    r.handicap = handicapJudged(r);
    expect(r.handicap![0]!.measured!.power).toBeUndefined();
  });

  test("the check's procedure is the answers' own: the same test an answer of the family gets", () => {
    const r = checkRun(8, 0.12, 0.04);
    r.handicap = handicapJudged(r);
    expect(r.handicap![0]!.measured!.procedure).toBe(ANSWERS_PROCEDURE);
    const comparison = { id: 'x-handicap vs x', question: 'setting', a: 'x-handicap', b: 'x' };
    const [answer] = look(r, [comparison], 1, 0.05, 10);
    // The same windows, the same prior (the family is the check alone here), the same test: the same p.
    const check = answersTest(r, windowPairs(r.contenders[0], r.contenders[1]));
    expect(check.procedure as string).toBe(answer!.procedure!);
    expect(check.level).toBe(0.95);
    expect(check.p).toBeCloseTo(answer!.p, 12);
    expect(r.handicap![0]!.measured!.p).toBeCloseTo(answer!.p, 12);
  });

  test('windows a neighbour denied the CPU: the equal-wait figure said beside the verdict, never as it', () => {
    const r = checkRun(8, 0.02, 0.04, { denied: 0.5, alone: 3 });
    r.handicap = handicapJudged(r);
    const m = r.handicap![0]!.measured!;
    expect(m).toMatchObject({ procedure: 'moderated-t', rounds: 8, pairs: 16, level: 0.95 });
    const adjusted = m.diagnostics!.find((d) => d.procedure === 'covariate-t')!;
    expect(adjusted.ratio).toBeGreaterThan(0.88);
    expect(adjusted.ratio).toBeLessThan(0.92);
    expect(adjusted.slope).toBeGreaterThan(0.9);
    expect(adjusted.slope).toBeLessThan(1.1);
    expect(adjusted.corr).toBeGreaterThan(0.9);
    expect(r.handicap![0]!.detected).toBe(m.hi < 1);
    const check = r.handicap![0]!;
    const line = handicapLine({ handicap: [{ check, sizing: 'cpu', maxBusy: MAX_BUSY }] } as unknown as Analysis);
    expect(line).toContain('Beside it, never its verdict: as an answer, on all its 48 window pairs alone: ');
    expect(line).toContain('; signed-rank over its launches: ');
    expect(line).toMatch(/at an equal CPU wait \(covariate-t, slope \d\.\d\d, correlation 0\.\d\d; the burn moves/);
    // Windows that did not record the wait: signed-rank beside it only.
    const old = checkRun(8, 0.02, 0.04, { alone: 3 });
    old.handicap = handicapJudged(old);
    expect(old.handicap![0]!.measured!.diagnostics!.map((d) => d.procedure)).toEqual(['moderated-t', 'signed-rank']);
  });

  test("more windows alone a launch (check_windows): paired by launch with the twin's, and a narrower interval", () => {
    const one = checkRun(8, 0.15, 0.04);
    const three = checkRun(8, 0.15, 0.04, { alone: 3 });
    const d = checkAlonePairs(three.contenders[0], three.contenders[1]);
    expect(d).toMatchObject({ rounds: 8 });
    expect(d.byRound).toHaveLength(16);
    expect(d.byRound.every((u) => u.length === 3)).toBe(true);
    // Launch 1's units: its window in the cycle (index 1), then the check windows on launch 1, in order.
    const [a, b] = three.contenders as unknown as {
      points: { runs: { windows: { rps: number }[]; check_windows: { rps: number }[] }[] }[];
    }[];
    const [ra, rb] = [a!.points[0]!.runs[0]!, b!.points[0]!.runs[0]!];
    const ln = (x: { rps: number }, y: { rps: number }) => Math.log(x.rps) - Math.log(y.rps);
    expect(d.byRound[1]).toEqual([
      ln(ra.windows[1]!, rb.windows[1]!),
      ln(ra.check_windows[1]!, rb.check_windows[1]!),
      ln(ra.check_windows[3]!, rb.check_windows[3]!),
    ]);
    one.handicap = handicapJudged(one);
    three.handicap = handicapJudged(three);
    // Judged as an answer, on its windows in the cycle; all its windows alone beside it, by launch narrower with more.
    const all = (x: Results) => x.handicap![0]!.measured!.diagnostics![0]!;
    const ranks = (x: Results) => x.handicap![0]!.measured!.diagnostics![1]!;
    const width = (x: Results) => Math.log(ranks(x).hi) - Math.log(ranks(x).lo);
    expect(three.handicap![0]!.measured).toMatchObject({ pairs: 16, rounds: 8 });
    expect(all(three)).toMatchObject({ procedure: 'moderated-t', pairs: 48 });
    expect(ranks(three)).toMatchObject({ procedure: 'signed-rank', pairs: 48 });
    expect(width(three)).toBeLessThan(width(one));
    // Windows recorded without their launch (older results): each on the launch of its index where the pair was
    // launched anew each cycle (its duets name their launches), else all on the round's one launch.
    const unitsOf = (launches: boolean) => {
      const old = checkRun(4, 0.1, 0.02, { launches });
      for (const c of old.contenders)
        for (const run of c.points[0]!.runs) for (const w of run.windows!) delete w.launch;
      return checkAlonePairs(old.contenders[0], old.contenders[1]).byRound.map((u) => u.length);
    };
    expect(unitsOf(true)).toEqual(Array(8).fill(1));
    expect(unitsOf(false)).toEqual(Array(4).fill(2));
  });

  test('duets that show a third of the difference do not decide it: its windows alone see the 10%', () => {
    const r = checkRun(8, 0.03, 0.03, { bias: 0.97 / 0.9 });
    r.handicap = handicapJudged(r);
    const [h] = r.handicap!;
    expect(h!.measured!.on).toBe('alternate');
    expect(h!.measured!.ratio).toBeCloseTo(0.9, 1);
    expect(h!.detected).toBe(true);
    // And a run whose windows alone do not see it is not detected, whatever its duets say.
    const missed = checkRun(8, 0.3, 0.01);
    missed.handicap = handicapJudged(missed);
    expect(missed.handicap![0]!.other!.hi).toBeLessThan(1);
    expect(missed.handicap![0]!.detected).toBe(missed.handicap![0]!.measured!.hi < 1);
  });

  test('a check its rounds blur: no test says detected where its interval reaches 1; its se from its interval', () => {
    const r = checkRun(8, 0.3, 0.02, { ratio: 0.998 });
    r.handicap = handicapJudged(r);
    const [h] = r.handicap!;
    const m = h!.measured!;
    expect([m.lo < 1, m.hi > 1, h!.detected]).toEqual([true, true, false]);
    expect(m.diagnostics!.some((d) => d.lo < 1 && d.hi > 1)).toBe(true);
    for (const d of m.diagnostics!) expect(d.detected).toBe(d.hi < 1);
    // The moderated t's interval is ratio·e^(±q·se): se is half its width in ln over q.
    const q = jstat.studentt.inv(1 - (1 - m.level) / 2, m.df!);
    expect(m.se!).toBeCloseTo((Math.log(m.hi) - Math.log(m.lo)) / (2 * q), 9);
    // Its duets, one launch a round: rounds only, no launches; their CPU seen only where its interval is above 1.
    expect(h!.other).toMatchObject({ on: 'duet', rounds: 8 });
    expect(h!.other).not.toHaveProperty('launches');
    expect([h!.cpu!.lo < 1, h!.cpu!.hi > 1, h!.cpu!.seen]).toEqual([true, true, false]);
    // One window a launch alone: no spread within a launch to estimate (NaN), not a spread of 0.
    expect(checkAlonePairs(r.contenders[0], r.contenders[1]).within).toBeNaN();
  });

  test('duets that cannot be judged: its windows alone only, nothing beside', () => {
    const r = checkRun(5, 0.05, 0.03);
    r.handicap = handicapJudged(r);
    expect(r.handicap![0]!.measured).toMatchObject({ level: 0.95, on: 'alternate', rounds: 5 });
    expect(r.handicap![0]!.other).toBeUndefined();
    expect(r.handicap![0]!.cpu).toBeUndefined();
  });

  test('too few launches for the signed-rank test, a duet that disagrees, or one far noisier: no duet test', () => {
    expect(checkDesign(checkRun(5, 0.05, 0.03), 'x-handicap', 'x')).toMatchObject({
      chosen: 'alternate',
      why: '5 launches with duets, fewer than the 6 its test needs',
    });
    const biased = checkDesign(checkRun(8, 0.02, 0.01, { bias: 0.8 }), 'x-handicap', 'x');
    expect(biased.chosen).toBe('alternate');
    expect(biased.why).toMatch(/^the designs disagree \(duet − alternating −2\d\.\d%, /);
    const noisy = checkDesign(checkRun(8, 0.01, 0.3), 'x-handicap', 'x');
    expect(noisy).toMatchObject({ chosen: 'alternate' });
    expect(noisy.why).toMatch(/^alternating is narrower beyond chance \(sd per round: duet/);
    expect(checkDesign(checkRun(8, 0.05, 0, { duets: false }), 'x-handicap', 'x')).toMatchObject({
      chosen: 'alternate',
      why: 'no duet windows',
    });
  });

  test('a launch per cycle: each launch a unit of the duet test, so 4 rounds of 2 launches can be tested', () => {
    const r = checkRun(4, 0.1, 0.02, { launches: true });
    expect(checkDesign(r, 'x-handicap', 'x')).toMatchObject({ chosen: 'duet' });
    r.handicap = handicapJudged(r);
    const [h] = r.handicap!;
    expect(h!.other).toMatchObject({ rounds: 4, launches: 8, pairs: 8, df: 7, on: 'duet' });
    expect(h!.other!.hi).toBeLessThan(1);
    // The same windows as one unit a round: too few for the test.
    expect(checkDesign(checkRun(4, 0.1, 0.02), 'x-handicap', 'x').chosen).toBe('alternate');
    const text = handicapLine({ handicap: [{ check: h, sizing: 'cpu', maxBusy: MAX_BUSY }] } as unknown as Analysis);
    expect(text).toMatch(/; in its duets −\d+% \([^)]*, 95\.0%, 4 rounds, 8 launches, 8 window pairs\)/);
    // The same duets' CPU per request, tested the same way: +11% for a twin 10% slower that burns CPU.
    expect(h!.cpu!.ratio).toBeCloseTo(1 / 0.9, 2);
    expect(h!.cpu!.seen).toBe(true);
    expect(text).toMatch(/Its CPU per request in the same duets: \+11% \(\+1\d%…\+1\d%\): seen\.$/);
    // Missed with the rounds to see it, the burn seen in its CPU per request: said so; short of rounds, not said.
    const line = (check: HandicapCheck) =>
      handicapLine({ handicap: [{ check, sizing: 'cpu', maxBusy: MAX_BUSY }] } as unknown as Analysis);
    const power = { chance: 0.97, target: 0.8, rounds_for_target: 3 };
    const seenCheck: HandicapCheck = h!;
    const missed: HandicapCheck = {
      ...seenCheck,
      detected: false,
      measured: { ...seenCheck.measured!, rounds: 4, power },
    };
    expect(line(missed)).toEndWith(
      ': seen. Missed though the run had the rounds to see it, and its CPU per request shows the burn: the burn ' +
        'reached the app, and its req/s did not follow it on this machine.',
    );
    expect(line({ ...missed, measured: { ...missed.measured!, power: { ...power, rounds_for_target: 9 } } })).toEndWith(
      ': seen.',
    );
    expect(line({ ...missed, detected: true })).toEndWith(': seen.');
  });

  test('the line says which windows the check was judged on, its duets beside, and the bias check', () => {
    const r = checkRun(8, 0.12, 0.04);
    r.handicap = handicapJudged(r);
    const h = r.handicap![0]!;
    const text = handicapLine({ handicap: [{ check: h, sizing: 'cpu', maxBusy: MAX_BUSY }] } as unknown as Analysis);
    expect(text).toMatch(
      /measured −\d+% \([^)]*, 95\.0%, 8 rounds, 16 window pairs, its windows alone\); in its duets/,
    );
    expect(text).toContain(
      "Measured both ways; judged as an answer is, on its windows in the cycle (moderated t with the family's " +
        'prior, each round a unit), its duet ' +
        'windows, both apps under load at once, tested beside it (signed-rank, each launch a unit;',
    );
    // A check judged before (no procedure recorded) was judged as the side-by-side answers are.
    delete h.measured!.procedure;
    const older = handicapLine({ handicap: [{ check: h, sizing: 'cpu', maxBusy: MAX_BUSY }] } as unknown as Analysis);
    expect(older).toContain('judged on its windows alone, as the side-by-side answers are (moderated t), its duet');
    expect(text).toMatch(/bias check, duet − alternating: [+−]\d+\.\d%/);
  });
});

describe('handicapEnv: one calibration per handicapped contender', () => {
  const results = (twinSetting: 'on' | 'off', contender: string) =>
    ({
      contenders: [
        { name: contender, settings: { handicap: 'on' } },
        { name: `${contender}@base`, settings: { handicap: twinSetting } },
      ],
      handicap: [{ contender, us: 338.1 }],
    }) as unknown as Results;

  test("--against: the other side's twin of a contender with the setting on burns the same as this side", () => {
    const r = results('on', 'x-handicap');
    expect(handicapEnv(r, 'x-handicap')).toEqual({ HANDICAP: 'on', HANDICAP_US: '338.1' });
    expect(handicapEnv(r, 'x-handicap@base')).toEqual({ HANDICAP: 'on', HANDICAP_US: '338.1' });
  });

  test('--handicap NAME: NAME@base is the plain twin, and burns nothing', () => {
    const r = results('off', 'x');
    expect(handicapEnv(r, 'x')).toEqual({ HANDICAP: 'on', HANDICAP_US: '338.1' });
    expect(handicapEnv(r, 'x@base')).toEqual({});
  });
});

describe('a duet window names its partner', () => {
  test("a raw server meeting two frameworks in a round: each pair's duet windows are its own", () => {
    const run = (round: number, duet: { partner: string; rps: number }[]) => ({ round, rps: 1, windows: [], duet });
    const c = (name: string, runs: unknown[]) => ({ name, points: [{ runs }] }) as unknown as ContenderResult;
    const raw = c('raw', [
      run(1, [
        { partner: 'f1', rps: 1000 },
        { partner: 'f2', rps: 800 },
      ]),
    ]);
    const f1 = c('f1', [run(1, [{ partner: 'raw', rps: 900 }])]);
    const f2 = c('f2', [run(1, [{ partner: 'raw', rps: 400 }])]);
    expect(duetPairs(f1, raw)).toMatchObject({ a: [900], b: [1000], rounds: 1 });
    expect(duetPairs(f2, raw)).toMatchObject({ a: [400], b: [800], rounds: 1 });
  });
});
