// Report figures at the edges their goldens do not reach: an equal bound below 1, the Changes counts and the scale
// check's thresholds, the --app table's answers and figures, a negative first-window bias, a run of requests, a
// ceiling of two runs, a failed cell of the grid, the distance table, and what the analysis hands the report.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { type Analysis, analyze, fastestOf } from '../../packages/harness/src/answers/analysis';
import type { DistanceSweep } from '../../packages/harness/src/answers/sweeps';
import { yoursOf } from '../../packages/harness/src/answers/yours';
import type { Question } from '../../packages/harness/src/model/questions';
import type { Answer, Results } from '../../packages/harness/src/model/results';
import { readResults } from '../../packages/harness/src/model/results-file';
import { changeSentence, changesSection, scaleText } from '../../packages/harness/src/report/changes';
import { ceilingsTable } from '../../packages/harness/src/report/ceilings';
import { distanceTable } from '../../packages/harness/src/report/distance';
import { gridTables } from '../../packages/harness/src/report/matrix';
import { costTable, describeRun, seedMethodTable } from '../../packages/harness/src/report/table';
import { answerText, yoursSection } from '../../packages/harness/src/report/yours';
import { ROOT } from '../../packages/harness/src/system/paths';

import { DESIGN } from '../helpers/runs';
const fixture = () => readResults(join(ROOT, 'tests/fixtures/results/results.json'));
const answer = (a: string, verdict: string, ratio: number, lo: number, hi: number, b = `${a}@base`) =>
  ({ question: `change: ${a}`, a, b, verdict, ratio, lo, hi, level: 0.95, rounds: 6 }) as Answer;

describe('the Changes section at its edges', () => {
  test('an equal pair below 1: its bound is 1/lo − 1 (0.95 is ±5.3%, not ±5.0%)', () => {
    expect(changeSentence(answer('a', 'equal', 0.99, 0.95, 1.01), 2)).toContain('**equal within ±5.3%**');
  });

  test('its counts: decided, equal and open each their own; one contender: the handicap check in it', () => {
    const check = {
      check: {
        contender: 'a',
        calibrated_on: 'a',
        compared_with: 'a@base',
        cpu_us_per_req: 700,
        pct: 3,
        us: 31.4,
        injected_ratio: 1 / 1.03,
        detected: true,
        measured: { ratio: 0.97, lo: 0.96, hi: 0.98, level: 0.95, p: 1e-5, pairs: 86, rounds: 43 },
      },
      sizing: 'cpu',
      maxBusy: 0.975,
    };
    const answers = [
      answer('a', 'faster', 0.9, 0.85, 0.95),
      answer('b', 'equal', 1, 0.99, 1.01),
      answer('c', 'equal', 1, 0.995, 1.005),
      answer('d', 'undecided', 1.01, 0.97, 1.05),
    ];
    const an = (results: object) =>
      ({
        results: {
          settings: { against: { kind: 'self', equal_pct: 2 }, handicap: 'a', handicap_pct: 3 },
          changes: { comparisons: answers.map(() => ({})), answers },
          ...results,
        },
        handicap: [check],
        changeSeen: new Map(),
        aloneScale: null,
        procedures: { 'signed-rank': { sentence: 'x' } },
      }) as unknown as Analysis;
    const text = changesSection(an({}));
    expect(text).toContain('1 decided, 2 equal within ±2%, 1 open, of 4.');
    expect(text).toContain('**Handicap check:** a burns 31.4 µs of CPU per request');
    // With "what to pick", the check's line is there, not here.
    expect(changesSection(an({ answers: [answer('x', 'faster', 1.1, 1.05, 1.15)] }))).not.toContain('Handicap check');
  });

  test('the scale check: correlation 0.4 tells nothing; a slope of 0.75 is a share, said as one', () => {
    expect(scaleText({ slope: 0.75, corr: 0.4, rounds: 10 })).toContain('the launches varied too little');
    expect(scaleText({ slope: 0.75, corr: 0.8, rounds: 10 })).toContain('a duet showed about 0.75× of a difference');
  });
});

/** An --app run: the app, its twin from the other side, and a stack; `commands` per window of 100 responses. */
function appRun(): Results {
  const run = (ok: number, commands: Record<string, number>) => ({
    round: 1,
    ok,
    responses: 100,
    total_bytes: 100_000,
    expected_bytes: 900,
    commands_by_name: commands,
  });
  const contender = (name: string, runs: object[], extra: object = {}) => ({
    name,
    status: 'ok',
    ...extra,
    points: [{ runs, rps: { median: 1000 }, latency_ms: { p50: 4.2, p90: 6, p99: 9.5 }, cpu_us_per_req: 300 }],
  });
  return {
    settings: { apps: [{ name: 'your-app', command: 'node s.mjs', path: '/', body: 'any' }], target_ci_pct: 10 },
    contenders: [
      contender('your-app', [run(90, { xrange: 90, ping: 0.9, get: 0.36 })]),
      contender('your-app@base', [run(100, { xrange: 100 })], { base_of: 'your-app' }),
      contender('node-raw-x', [run(100, {})]),
    ],
  } as unknown as Results;
}

describe('--app: its figures and its answers', () => {
  test('commands per response by name, largest first, one under 0.005 left out; its twin is yours too', () => {
    const y = yoursOf(appRun())!;
    const [mine, twin, other] = y.rows;
    expect(mine).toMatchObject({ yours: true, p50: 4.2, p99: 9.5, body_bytes: 1000, body_mean: true });
    expect(mine!.commands).toEqual([
      ['xrange', 1],
      ['ping', 0.01],
    ]);
    expect(twin).toMatchObject({ yours: true, body_mean: true });
    expect(other).toMatchObject({ yours: false, body_mean: false });
    // A stack of the run that counted no call is not said to read no Redis: only an app of yours is.
    const an = { results: appRun(), answers: [], yours: y } as unknown as Analysis;
    an.yours!.rows[0]!.p50 = 10;
    const text = yoursSection(an);
    expect(text).toContain('| **`your-app`** | 1,000 | 10 ms | 9.5 ms |');
    expect(text).not.toContain('`node-raw-x` made no Redis call');
  });

  test('an answer equal within the run’s ±, open with its figures, and one 1.5× apart as factors', () => {
    const an = (a: object) => ({ results: { settings: { target_ci_pct: 10 } }, answers: [a] }) as unknown as Analysis;
    const yours = (verdict: string, ratio: number, lo: number, hi: number) => ({
      ...answer('your-app', verdict, ratio, lo, hi, 'b'),
      question: 'yours: x',
    });
    const equal = answerText(an(yours('equal', 1, 0.95, 1.04)), 'your-app');
    expect(equal).toEqual(['- equal to `b` within ±10% (-5%…4%)']);
    expect(answerText(an(yours('undecided', 1.05, 0.97, 1.15)), 'your-app')).toEqual([
      '- open against `b`: 5% (-3%…15%), not yet known',
    ]);
    expect(answerText(an(yours('faster', 0.65, 0.6, 0.7)), 'your-app')).toEqual([
      '- **slower** than `b`: 0.65× (0.60×…0.70×)',
    ]);
  });
});

describe("results.md's tables at their edges", () => {
  test('a first window slower than the rest reads negative; a run of requests says so; one round left out', () => {
    const r = fixture();
    r.settings.requests = 200;
    r.design = { ...DESIGN, first_window_bias: -0.04 } as unknown as Results['design'];
    const an = analyze(r);
    const text = describeRun(an);
    expect(text).toContain('The first window of a launch ran -4.0% against the others');
    expect(text).toContain(' of 200 requests at ');
    an.ranked[0]!.left_out = 1;
    expect(costTable(an)).toContain('| 1 round left out (CPU steal); static |');
  });

  test("the seed's table gives each interval at the level asked (99%)", () => {
    const rps = { median: 1000, min: 950, max: 1050, n: 5, ci: { lo: 950, hi: 1050, level: 0.99 } };
    const an = {
      ranked: [{ name: 'a', rps, seed_method: { headline: 1000, rps: [1000, 1000, 1000] } }],
      results: { settings: { ci_level: 0.99 } },
    } as unknown as Analysis;
    expect(seedMethodTable(an)).toContain('| a | 1000 (1000, 1000, 1000) | 1000 (950–1050, 99% CI) | +0% | yes |');
  });

  test('an HTTP ceiling of two runs gives its interval, not "one run"; a failed stack of the grid says failed', () => {
    const rps = { median: 5000, n: 2, ci: { lo: 4900, hi: 5100, level: 0.5 } };
    const ceiling = { name: 'bun-raw-http', ceiling: 'http', status: 'ok', runtime: 'bun', framework: 'raw', rps };
    const results = { settings: {}, contenders: [{ ...ceiling, cpu_us_per_req: 100 }] } as unknown as Results;
    expect(ceilingsTable({ results, redisCeilings: [] } as unknown as Analysis)).toContain(
      '| HTTP: bun raw (bun-raw-http) | 5000 | 4900–5100 (50% CI, 2 runs) | 100 | body precomputed at start |',
    );
    const stack = { runtime: 'node', framework: 'raw', variant: null, status: 'ok', rank: '1' };
    const ok = { ...stack, name: 'node-raw-ioredis', client: 'ioredis', rps: { median: 1000 } };
    const failed = { ...stack, name: 'node-raw-node-redis', client: 'node-redis', status: 'failed' };
    const grid = gridTables({ results: { contenders: [ok, failed] }, ranked: [ok] } as unknown as Analysis);
    expect(grid).toMatch(/\| raw \| (1000 \(1\) \| failed|failed \| 1000 \(1\)) \|/);
  });
});

describe('the distance table', () => {
  test('distances in order, ranks as intervals, the proxy CPU lowest to highest, a change near then far', () => {
    const point = (name: string, rtt: number, rps: number | null, lo: number | null, hi: number | null) => ({
      name,
      rtt_ms: rtt,
      measured_rtt_ms: rtt ? rtt : null,
      status: rps === null ? 'invalid' : 'ok',
      rps,
      rank_lo: lo,
      rank_hi: hi,
      proxy_cpu_pct: rtt ? (name === 'a' ? 3 : 5) : null,
    });
    const sweep = {
      points: [
        point('a', 1, 900, 1, 2),
        point('b', 1, null, null, null),
        point('a', 0, 1000, 1, 1),
        point('b', 0, 800, 2, 2),
      ],
      changes: [{ name: 'b', rtt_ms: 1, near: [2, 2], far: [3, 4] }],
    } as unknown as DistanceSweep;
    const text = distanceTable(sweep);
    expect(text).toContain(
      '- RTT 1ms: 1.00 ms measured through the proxy (redis-cli --latency), proxy CPU 3.0–5.0% of a',
    );
    expect(text).toContain('| contender | RTT 0 | RTT 1ms |');
    expect(text).toContain('| a | 1000 (rank 1) | 900 (rank 1–2) |');
    expect(text).toContain('| b | 800 (rank 2) | invalid |');
    expect(text).toContain('- b: rank 2 at RTT 0, 3–4 at 1ms');
  });
});

describe('what the analysis hands the report', () => {
  test("the proxy's CPU in % of a core; launches counted by process; only CPU steal's re-measures counted", () => {
    const r = fixture();
    r.data.redis_rtt = {
      asked_ms: 1,
      proxy_delay_ms: 0.45,
      measured: { avg_ms: 1, typical_ms: 1, samples: 9 },
    } as never;
    for (const c of r.contenders) for (const x of c.runs) x.proxy_cpu_s = 0.25 * x.seconds;
    const before = analyze(fixture()).conditions!.redone;
    const c = r.contenders.find((x) => x.status === 'ok')!;
    const runs = c.points[0]!.runs;
    runs[1]!.pid = runs[0]!.pid;
    for (const x of runs) Object.assign(x, { idle_cpu_s: 0.01 * x.seconds });
    runs.push({ ...runs[0]!, seconds: 0, idle_cpu_s: 1, fault: 'the body changed' });
    (c.points[0]!.discarded_runs ??= []).push({ ...runs[0]!, fault: 'the body changed under load' });
    const an = analyze(r);
    expect(an.proxyCpuPct).toBeCloseTo(25, 9);
    expect(an.spreads.get(c.name)!.launches).toBe(new Set(runs.map((x) => x.pid)).size);
    expect(an.spreads.get(c.name)!.launches).toBeLessThan(runs.length - 1);
    expect(an.conditions!.redone).toBe(before);
    expect(Number.isFinite(an.conditions!.idle!.max)).toBe(true);
  });

  test('a question with a side out names no fastest; an interval with no ends is no width', () => {
    const q = { id: 'q', members: ['a', 'b', 'c'] } as unknown as Question;
    const won = (b: string, out?: string) => ({ question: 'q', a: 'a', b, verdict: 'faster', ratio: 1.2, out });
    const both = [won('b'), won('c')] as unknown as Answer[];
    expect(fastestOf([q], both)).toMatchObject([{ best: ['a'], direct: true }]);
    expect(fastestOf([q], [won('b'), won('c', 'c is failed')] as unknown as Answer[])).toEqual([]);
    const r = fixture();
    const an = analyze(r);
    r.family = { questions: an.questions, comparisons: [] } as never;
    r.answers = an.answers.map((a, i) => (i ? a : { ...a, lo: 0, hi: Number.POSITIVE_INFINITY }));
    expect(analyze(r).precision!.widths.n).toBe(an.answers.length - 1);
  });
});
