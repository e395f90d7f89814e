import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ohaArgs, summarizeOha, type OhaJson } from '../../packages/harness/src/measure/oha';
import { PRIME_S, unmeasuredParts, unmeasuredTarget, warmupLoads } from '../../packages/harness/src/measure/measure';
import { workloadOf } from '../../packages/harness/src/workloads';

// A real oha 1.16.0 --output-format json result (284 responses in 2.34 s).
const real = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/oha-ok.json'), 'utf8')) as OhaJson;

describe('oha JSON', () => {
  test('req/s are 2xx responses over measured seconds, latencies in ms', () => {
    const run = summarizeOha(real);
    expect(run.ok).toBe(284);
    expect(run.seconds).toBeCloseTo(2.343665149, 9);
    expect(run.rps).toBeCloseTo(284 / 2.343665149, 6);
    expect(run.latency_ms.p50).toBeCloseTo(251.879062, 6);
    expect(run.latency_ms.p99_9).toBeCloseTo(2341.236022, 6);
    expect(run.errors).toEqual({ non_2xx: 0, aborted: 0, other: 0 });
  });

  test('non-2xx, deadline aborts and other errors are counted apart and not as successes', () => {
    const json: OhaJson = {
      ...real,
      summary: { ...real.summary, total: 10, requestsPerSec: 1010 / 10 },
      statusCodeDistribution: { '200': 900, '204': 50, '500': 40, '404': 2 },
      errorDistribution: { 'aborted due to deadline': 12, 'connection closed before message completed': 5, timeout: 1 },
    };
    const run = summarizeOha(json);
    expect(run.ok).toBe(950);
    expect(run.rps).toBe(95);
    expect(run.errors).toEqual({ non_2xx: 42, aborted: 12, other: 6 });
    expect(run.errorMessages.timeout).toBe(1);
    // Every answer counts toward the bytes check, non-2xx ones too; the bytes are oha's whole count.
    expect(run.responses).toBe(992);
    expect(run.total_bytes).toBe(real.summary.totalData);
    expect(real.summary.totalData).not.toBe(real.summary.sizePerRequest);
  });

  test('missing percentiles become NaN rather than zero', () => {
    const run = summarizeOha({ ...real, latencyPercentiles: {} });
    expect(Number.isNaN(run.latency_ms.p50)).toBe(true);
  });

  test('arguments: closed loop, open loop and the seed profile', () => {
    const base = { url: 'http://127.0.0.1:1/', connections: 50, outFile: '/tmp/x.json' };
    expect(ohaArgs({ ...base, duration_s: 10, requests: null })).toEqual([
      'http://127.0.0.1:1/',
      '-z',
      '10000ms',
      '-c',
      '50',
      '--disable-compression',
      '-w',
      '-t',
      '20s',
      '--no-tui',
      '--output-format',
      'json',
      '-o',
      '/tmp/x.json',
    ]);
    expect(ohaArgs({ ...base, duration_s: 10, requests: null, rate: 300 })).toContain('--latency-correction');
    expect(ohaArgs({ ...base, duration_s: null, requests: 200, seedDefaults: true })).toEqual([
      'http://127.0.0.1:1/',
      '-n',
      '200',
      '-c',
      '50',
      '--no-tui',
      '--output-format',
      'json',
      '-o',
      '/tmp/x.json',
    ]);
  });
});

describe('a load that is not measured (warmup, touch)', () => {
  const ctx = {
    workload: workloadOf('xrange'),
    placement: { name: 'none', app: null, redis: null, loadgen: null },
    redis: { url: 'redis://127.0.0.1:1' },
    runDir: '/tmp',
  } as never;
  test('a read workload warms up on the route itself', () => {
    expect(unmeasuredTarget(ctx, 'http://127.0.0.1:3000/')).toEqual({ url: 'http://127.0.0.1:3000/' });
  });
  test('--workload upsert warms up with its POSTs into a key space of their own, not GET /', () => {
    const t = unmeasuredTarget(
      { ...(ctx as object), workload: workloadOf('upsert'), own: { keys: 100 } } as never,
      'http://127.0.0.1:3000/',
    );
    expect(t.request).toMatchObject({ method: 'POST', randRegex: true });
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/items\/\w+k\[0-9\]\{2\}$/);
    expect(
      ohaArgs({
        connections: 50,
        rate: null,
        duration_s: 1,
        requests: null,
        seedDefaults: false,
        url: t.url,
        request: t.request,
        outFile: '/tmp/x.json',
      }),
    ).toContain('POST');
  });
  test('a warmup starts one request at a time, then runs at the measured load; the seed and --warmup 0 do not', () => {
    const load = { connections: 50, rate: 400, duration_s: 1, requests: null, seedDefaults: false };
    expect(warmupLoads(load)).toEqual([{ ...load, connections: 1, rate: null, duration_s: PRIME_S }, load]);
    expect(warmupLoads({ ...load, duration_s: 0.2 })[0]!.duration_s).toBe(0.2);
    expect(warmupLoads({ ...load, duration_s: 0 })).toEqual([{ ...load, duration_s: 0 }]);
    const seed = { ...load, duration_s: null, requests: 200, seedDefaults: true };
    expect(warmupLoads(seed)).toEqual([seed]);
    expect(unmeasuredParts(load, 'a/c50-run1-warmup.json', 'warmup')).toEqual([
      { load: warmupLoads(load)[0]!, rawName: 'a/c50-run1-warmup-prime.json' },
      { load, rawName: 'a/c50-run1-warmup.json' },
    ]);
    expect(unmeasuredParts(load, 'a/touch.json', 'touch')).toEqual([{ load, rawName: 'a/touch.json' }]);
  });
});
