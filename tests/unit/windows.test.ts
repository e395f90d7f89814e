// The windows of one launch pooled into the one run the statistics see (run/windows.ts pooled): counts summed, rates
// over the summed time or the responses served, latencies the median window's, peaks the largest; each figure checked
// against a hand computation on three windows that differ in every field.
import { describe, expect, test } from 'bun:test';
import type { RunRecord } from '../../packages/harness/src/model/results';
import { pooled } from '../../packages/harness/src/run/windows';

const latency = (ms: number) => ({ p10: ms, p25: ms, p50: ms, p75: ms, p90: ms, p95: ms, p99: ms, p99_9: ms });

/** A window: `ok` 2xx responses over `seconds`, the rest given. */
const window = (ok: number, seconds: number, over: Partial<RunRecord>): RunRecord =>
  ({
    round: 1,
    pid: 1,
    launch_s: 0.2,
    expected_bytes: 100,
    after_check: 'ok',
    rps: ok / seconds,
    ok,
    seconds,
    errors: { non_2xx: 0, aborted: 0, other: 0 },
    error_messages: {},
    latency_ms: latency(1),
    total_bytes: ok * 100,
    responses: ok,
    cpu_us_per_req: 0,
    redis_calls_per_req: 0,
    load_average_1m: 0.5,
    raw: 'a.json',
    ...over,
  }) as RunRecord;

const runs = [
  window(1000, 1, {
    ...{ launch: 1, errors: { non_2xx: 10, aborted: 1, other: 2 }, responses: 1010, app_cpu_s: 0.5 },
    ...{ redis_calls: 1000, redis_us_per_call: 2, redis_cpu_s: 0.1, rss_mb: 50, latency_ms: latency(1) },
    ...{ cpu_steal_pct: 0, loadgen_saturated: false, harness_cpu_pct: 3, loadgen_cpu_s: 0.1 },
    ...{ started_at: 10, ended_at: 11, error_messages: { timeout: 2 }, commands_by_name: { xrange: 1000 } },
  }),
  window(3000, 2, {
    ...{ launch: 1, errors: { non_2xx: 0, aborted: 3, other: 0 }, responses: 3000, app_cpu_s: 2 },
    ...{ redis_calls: 3000, redis_us_per_call: 4, redis_cpu_s: null, rss_mb: 80, latency_ms: latency(9) },
    ...{ cpu_steal_pct: 6, loadgen_saturated: true, harness_cpu_pct: 1, loadgen_cpu_s: 0.2 },
    ...{ started_at: 12, ended_at: 14, error_messages: { timeout: 1 }, fault: 'the second window' },
  }),
  window(4000, 1, {
    ...{ launch: 1, errors: { non_2xx: 5, aborted: 0, other: 1 }, responses: 4005, app_cpu_s: 1.5 },
    ...{ redis_calls: 4030, redis_us_per_call: 1, redis_cpu_s: 0.2, rss_mb: 60, latency_ms: latency(2) },
    ...{ cpu_steal_pct: 2, loadgen_saturated: false, harness_cpu_pct: 2, loadgen_cpu_s: 0.3 },
    ...{ started_at: 15, ended_at: 16, after_check: 'status 500, want 200', commands_by_name: { xrange: 4030 } },
  }),
];

/** A workload whose windows served 10 responses beside oha's 2xx ones each (a prober's). */
const workload = { pool: () => undefined, rules: { served: (r: RunRecord) => r.ok + 10 } } as never;

describe('the windows of one launch pooled', () => {
  const p = pooled(runs, workload);

  test('req/s are the 2xx responses over the summed seconds, not a mean of the windows', () => {
    expect([p.ok, p.seconds]).toEqual([8000, 4]);
    expect(p.rps).toBe(2000);
    expect(p.responses).toBe(8015);
    expect(p.total_bytes).toBe(800_000);
    expect(p.errors).toEqual({ non_2xx: 15, aborted: 4, other: 3 });
    expect(p.error_messages).toEqual({ timeout: 3 });
    expect(p.loadgen_cpu_s).toBeCloseTo(0.6, 12);
  });

  test("CPU and Redis calls per response are over the responses served (a prober's too)", () => {
    // 4 s of app CPU over 8,030 responses served; 8,030 calls over them.
    expect(p.cpu_us_per_req).toBeCloseTo(4e6 / 8030, 9);
    expect(p.redis_calls).toBe(8030);
    expect(p.redis_calls_per_req).toBe(1);
    // Redis's time per call weighted by each window's calls: (2·1000 + 4·3000 + 1·4030) / 8030.
    expect(p.redis_us_per_call).toBeCloseTo(18_030 / 8030, 12);
    expect(p.commands_by_name).toEqual({ xrange: 5030 });
  });

  test("the median window's latencies, the largest memory and harness CPU, steal weighted by time", () => {
    expect(p.latency_ms).toEqual(latency(2));
    expect(p.rss_mb).toBe(80);
    expect(p.harness_cpu_pct).toBe(3);
    // Steal 0%, 6% and 2% over 1 s, 2 s and 1 s.
    expect(p.cpu_steal_pct).toBeCloseTo(14 / 4, 12);
    // One window without Redis's CPU: none for the run; one saturated window: the run is.
    expect(p.redis_cpu_s).toBeNull();
    expect(p.loadgen_saturated).toBe(true);
  });

  test("its start the first window's, its end, after-check the last's, a fault any window's; windows kept", () => {
    expect([p.started_at, p.ended_at]).toEqual([10, 16]);
    expect(p.after_check).toBe('status 500, want 200');
    expect(p.fault).toBe('the second window');
    expect(p.launch).toBeUndefined();
    expect(p.windows!.map((w) => [w.index, w.launch, w.ok, w.rps])).toEqual([
      [0, 1, 1000, 1000],
      [1, 1, 3000, 1500],
      [2, 1, 4000, 4000],
    ]);
  });
});
