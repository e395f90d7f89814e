// The one-read-per-response gate: two-sided on a fixed stream; under --workload live one-sided
// (every response, the prober's included, reached Redis), since an idle neighbour's reads add to
// Redis's per-command count and cannot be told from the measured app's. And the measured record: answers/ computes
// from it and returns values; run/ stores them.
import { describe, expect, test } from 'bun:test';
import type { Workload } from '@bench/stream';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { handicapJudged } from '../../packages/harness/src/answers/handicap';
import { FIRST_ROUNDS, lookAt } from '../../packages/harness/src/answers/racing';
import { pointVerdict, runVerdicts, withCeilingFigures } from '../../packages/harness/src/answers/verdicts';
import { workloadOf, workloadOfRun } from '../../packages/harness/src/workloads';
import type { PointResult, Results, RunRecord, Settings } from '../../packages/harness/src/model/results';
import { readResults } from '../../packages/harness/src/model/results-file';
import { ROOT } from '../../packages/harness/src/system/paths';

const run = (ok: number, calls: number, probes?: number) =>
  ({
    round: 1,
    rps: ok,
    ok,
    responses: ok,
    redis_calls: calls,
    redis_calls_per_req: calls / ok,
    redis_us_per_call: 10,
    cpu_us_per_req: 100,
    rss_mb: 50,
    loadgen_saturated: false,
    latency_ms: { p50: 1 },
    error_messages: {},
    errors: { non_2xx: 0, aborted: 0, other: 0 },
    ...(probes === undefined ? {} : { workload: { kind: 'live', data: { count: probes } } }),
  }) as unknown as RunRecord;

function verdict(workload: string, runs: RunRecord[]) {
  const point = { runs, connections: 50 } as unknown as PointResult;
  const settings = { workload, ci_level: 0.95, headline: 'median' } as unknown as Settings;
  const judged = pointVerdict(point, settings, false, workloadOf(workload as Workload).rules);
  return [judged.status, judged.reason ?? ''];
}

describe('one Redis read per response', () => {
  test('a fixed stream: 1.00 ± 0.02, on both sides', () => {
    expect(verdict('xrange', [run(1000, 1000), run(1000, 1010)])[0]).toBe('ok');
    // Too many is named as such (two reads per request, or another client), too few as a cache or a skipped read.
    expect(verdict('xrange', [run(1000, 1050)])).toEqual([
      'invalid',
      expect.stringMatching(
        /^more Redis calls than responses \(a read repeated, .*\): 1\.050 XRANGE calls per response/,
      ),
    ]);
    expect(verdict('xrange', [run(1000, 900)])).toEqual([
      'invalid',
      expect.stringMatching(/^cached or skipped Redis: 0\.900 XRANGE calls per response/),
    ]);
    // At its edges: within 0.02 is one read per response (0.02 itself too), a thousandth past it is not, either way.
    for (const calls of [1019, 981, 980]) expect(verdict('xrange', [run(1000, calls)])[0]).toBe('ok');
    for (const calls of [1021, 979, 1030, 970])
      expect(verdict('xrange', [run(1000, calls)])).toEqual(['invalid', expect.stringMatching(/want 1\.00 ± 0\.02$/)]);
  });

  test('the gate reads every kept window together, and the point reports the median window', () => {
    // A third of the windows served from a cache: 0.833 over them all, though the median window reads 1.00.
    expect(verdict('xrange', [run(1000, 1000), run(1000, 1000), run(1000, 500)])).toEqual([
      'invalid',
      expect.stringMatching(/^cached or skipped Redis: 0\.833 XRANGE calls per response/),
    ]);
    const point = { runs: [run(1000, 1015), run(1000, 1012), run(1000, 1018)], connections: 50 } as PointResult;
    const settings = { workload: 'xrange', ci_level: 0.95, headline: 'median' } as unknown as Settings;
    expect(pointVerdict(point, settings, false, workloadOf('xrange').rules).redis_calls_per_req).toBeCloseTo(1.015, 12);
  });

  test("a duet-only round's Redis calls are not counted: its windows' counters see both apps at once", () => {
    const duet = { ...run(1000, 2000), duet_only: true } as RunRecord;
    expect(verdict('xrange', [run(1000, 1000), duet])[0]).toBe('ok');
  });

  test("a live stream: the prober's reads are responses; too few is invalid, too many reported", () => {
    // 1000 load responses and 20 probes, each one XRANGE: exactly one per response.
    expect(verdict('live', [run(1000, 1020, 20)])[0]).toBe('ok');
    // Probes not counted as responses would make it 1.02+: they are, so a 40-probe run is fine too.
    expect(verdict('live', [run(1000, 1040, 40)])[0]).toBe('ok');
    expect(verdict('live', [run(1000, 1100, 20)])[0]).toBe('ok');
    expect(verdict('live', [run(1000, 900, 20)])).toEqual([
      'invalid',
      expect.stringMatching(/^cached or skipped Redis: 0\.882 XRANGE calls per response/),
    ]);
  });
});

/** `x` and everything it holds frozen: any write into it throws (the test files and the harness are strict). */
function deepFreeze<T>(x: T): T {
  if (x && typeof x === 'object' && !Object.isFrozen(x)) {
    Object.freeze(x);
    for (const v of Object.values(x)) deepFreeze(v);
  }
  return x;
}

describe('the measured record', () => {
  test('answers/ writes nothing into it: frozen, it is judged, looked at and analysed, each returning values', () => {
    const published = readResults(join(ROOT, 'results/latest/results.json'));
    // The run as it was measured: every contender still to be judged, no look taken yet.
    const measured = structuredClone(published) as Results;
    for (const c of measured.contenders)
      if (c.status === 'ok')
        [c.status, c.points] = ['incomplete', c.points.map((p) => ({ ...p, status: 'incomplete' }))];
    Object.assign(measured, { answers: undefined, looks: [], open: undefined, reference: undefined });
    const frozen = deepFreeze(measured);
    const rules = workloadOfRun(frozen.settings).rules;
    const look = lookAt(frozen, FIRST_ROUNDS);
    expect(look?.answers?.length).toBe(published.family!.comparisons.length);
    const verdicts = runVerdicts(frozen, true, rules);
    expect(handicapJudged(frozen)?.length).toBe(published.handicap?.length);
    expect(withCeilingFigures(frozen).length).toBe(frozen.contenders.length);
    expect(analyze(frozen).answers.length).toBeGreaterThan(0);
    // Stored, the verdicts are the published run's: the same contenders ok, the same answers decided, but for those
    // its Holm step-down decided past α/m (the run predates "faster" at α/m; at one α, α/m decides a subset).
    const judged = { ...structuredClone(measured), ...verdicts } as Results;
    const ok = (r: Results) => r.contenders.filter((c) => c.status === 'ok').map((c) => c.name);
    expect(ok(judged)).toEqual(ok(published));
    const decided = (r: Results) => r.answers!.filter((a) => a.verdict === 'faster').map((a) => a.id);
    expect(decided(judged).length).toBeGreaterThan(0);
    expect(decided(published)).toEqual(expect.arrayContaining(decided(judged)));
    const past = decided(published).filter((id) => !decided(judged).includes(id));
    // Each of those was past α/m of the look that decided it: Holm's later steps, not a change in what α/m decides.
    const m = published.family!.comparisons.length;
    for (const id of past) {
      const a = published.answers!.find((x) => x.id === id)!;
      expect(a.p!).toBeGreaterThanOrEqual(published.looks![a.look - 1]!.alpha / m);
    }
    expect(judged.reference?.value).toBeCloseTo(published.reference!.value, 6);
  });
});

describe('the error gate: more than 0.1% of requests failed is invalid', () => {
  const failing = (ok: number, errors: Partial<RunRecord['errors']>) =>
    ({ ...run(ok, ok), errors: { non_2xx: 0, aborted: 0, other: 0, ...errors } }) as RunRecord;
  test('at its edge, for non-2xx, aborted and other errors alike; a duet-only round counts', () => {
    for (const kind of ['non_2xx', 'aborted', 'other'] as const) {
      expect(verdict('xrange', [failing(999, { [kind]: 1 })])[0]).toBe('ok');
      expect(verdict('xrange', [failing(998, { [kind]: 2 })])).toEqual([
        'invalid',
        expect.stringMatching(/^2 of 1000 requests failed \(0\.20% > 0\.1%\)/),
      ]);
    }
    // Errors count over every window measured, a duet-only round's too.
    const duet = { ...failing(997, { other: 3 }), duet_only: true } as RunRecord;
    expect(verdict('xrange', [run(1000, 1000), duet])[0]).toBe('invalid');
  });
});
