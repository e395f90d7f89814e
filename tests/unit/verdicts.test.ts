// The one-read-per-response gate: two-sided on a fixed stream; under --workload live one-sided
// (every response, the prober's included, reached Redis), since an idle neighbour's reads add to
// Redis's per-command count and cannot be told from the measured app's.
import { describe, expect, test } from 'bun:test';
import type { Workload } from '@bench/stream';
import { finalizePoint } from '../../packages/harness/src/answers/verdicts';
import { workloadOf } from '../../packages/harness/src/workloads';
import type { PointResult, RunRecord, Settings } from '../../packages/harness/src/model/results';

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
  finalizePoint(point, settings, false, workloadOf(workload as Workload).rules);
  return [point.status, point.reason ?? ''];
}

describe('one Redis read per response', () => {
  test('a fixed stream: 1.00 ± 0.02, on both sides', () => {
    expect(verdict('xrange', [run(1000, 1000), run(1000, 1010)])[0]).toBe('ok');
    expect(verdict('xrange', [run(1000, 1050)])).toEqual([
      'invalid',
      expect.stringMatching(/^cached or skipped Redis: 1\.050 XRANGE calls per response/),
    ]);
    expect(verdict('xrange', [run(1000, 900)])[0]).toBe('invalid');
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
