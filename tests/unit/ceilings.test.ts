import { describe, expect, spyOn, test } from 'bun:test';
import { measureRedisCeiling, parseRedisBenchmarkCsv } from '../../packages/harness/src/measure/ceilings';
import type { ContenderResult, Results } from '../../packages/harness/src/model/results';
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import {
  breakdownSpec,
  breakdownTable,
  ceilingsTable,
  efficiencyTable,
} from '../../packages/harness/src/report/ceilings';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { breakdownOf, ceilingFor, withCeilingFigures } from '../../packages/harness/src/answers/verdicts';
import { parseCli } from '../../packages/harness/src/cli/args';
import { loadContenders } from '../../packages/harness/src/model/manifests';
import { redisCeiling } from '../../packages/harness/src/run/ceilings';
import type { RedisTarget } from '../../packages/harness/src/topology/redis';

// Recorded from redis-benchmark 7.0.15 (Debian): -c 50 -n 2000 --csv XRANGE OPTIONS:test:STREAM - +
const RECORDED =
  '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms",' +
  '"max_latency_ms"\n' +
  '"XRANGE OPTIONS:test:STREAM - +","1235.33","17.741","3.352","16.087","33.887","42.335","45.439"\n';

describe('the Redis ceiling', () => {
  test('redis-benchmark CSV: req/s and latencies of the one test', () => {
    expect(parseRedisBenchmarkCsv(RECORDED)).toEqual({
      rps: 1235.33,
      avg_latency_ms: 17.741,
      p50_latency_ms: 16.087,
      p99_latency_ms: 42.335,
    });
  });
  test('output without a result row is an error that says what was printed', () => {
    expect(() => parseRedisBenchmarkCsv('ERR unknown command\n')).toThrow(
      'redis-benchmark printed no result: ERR unknown command',
    );
    expect(() => parseRedisBenchmarkCsv(RECORDED.split('\n')[0]!)).toThrow('redis-benchmark printed no result');
  });
  test("a REDIS_URL with a user or password is not measured: redis-benchmark's password would show in ps", () => {
    for (const url of ['redis://:pw@127.0.0.1:1', 'redis://app:pw@127.0.0.1:1'])
      expect(() => measureRedisCeiling({ url, stop: async () => {} }, 'xrange', 50, 1)).toThrow(
        'REDIS_URL has a user or password, which redis-benchmark takes only on its command line (where ps shows it)',
      );
  });
  test("a cluster gets no Redis-alone ceiling: redis-benchmark reads one node; the single server's is tried", () => {
    const results = {
      settings: { workload: 'xrange', connections: [50], duration_s: 1 },
      contenders: [{ name: 'a', status: 'incomplete', static: false }],
    } as unknown as Results;
    // Each URL holds a password, which measureRedisCeiling refuses before it starts redis-benchmark: a server tried
    // says so in a line of its own, naming it.
    const target = (port: number, nodes = 0): RedisTarget => ({
      url: `redis://:pw@127.0.0.1:${port}`,
      stop: async () => {},
      ...(nodes
        ? { nodes: Array.from({ length: nodes }, (_, i) => ({ url: `redis://127.0.0.1:${port + i}`, pid: 1 })) }
        : {}),
    });
    const servers = { redis: target(1), cluster: target(10, 6), 'cluster-replicas': target(20, 6) };
    const said: string[] = [];
    let saved = 0;
    const spy = spyOn(process.stderr, 'write').mockImplementation((s) => (said.push(String(s)), true));
    try {
      redisCeiling(results, servers, () => saved++);
    } finally {
      spy.mockRestore();
    }
    expect(said.join('').trim().split('\n')).toEqual([
      expect.stringMatching(/^Redis ceiling of redis not measured: REDIS_URL has a user or password/),
    ]);
    expect([results.ceilings, saved]).toEqual([undefined, 0]);
  });
});

const contender = (name: string, over: Partial<ContenderResult>, median: number): ContenderResult => ({
  name,
  app: 'a',
  runtime: 'bun',
  framework: 'raw',
  client: 'ioredis',
  variant: null,
  static: false,
  page: false,
  path: '/',
  status: 'ok',
  runs: [],
  points: [
    {
      connections: 50,
      rate: null,
      rate_spec: null,
      status: 'ok',
      runs: [],
      rps: { median, min: median, max: median, n: 3, ci: { lo: median, hi: median, level: 0.75 } },
    },
  ],
  ...over,
});

describe('efficiency', () => {
  const results = (redis: number[], http: number) =>
    ({
      ceilings: { redis: redis.map((rps) => ({ rps })) },
      contenders: [
        contender('bun-raw-ioredis', {}, 600),
        contender('bun-hono-ioredis', { framework: 'hono' }, 500),
        contender('bun-raw-precomputed', { ceiling: 'http' }, http),
        contender('bun-next-route-static-ioredis', { static: true }, 2000),
      ],
    }) as unknown as Results;

  test('the lowest ceiling that applies: the median of the Redis ones, or the HTTP ceiling of its stack', () => {
    const r = results([3000, 3400], 2500);
    // Redis alone is given beside the lowest, for each contender's share of it.
    const redis = { redis_rps: 3200 };
    expect(ceilingFor(r, r.contenders[0]!)).toEqual({ ceiling: 'bun-raw-precomputed', ceiling_rps: 2500, ...redis });
    expect(ceilingFor(results([3000, 3400], 9000), r.contenders[0]!)).toEqual({
      ceiling: 'redis',
      ceiling_rps: 3200,
      ...redis,
    });
    // No HTTP ceiling measured for Hono: Redis alone applies.
    expect(ceilingFor(r, r.contenders[1]!)).toEqual({ ceiling: 'redis', ceiling_rps: 3200, ...redis });
  });

  test('set on dynamic contenders only: not on static ones or on the ceilings themselves', () => {
    const r = results([3000, 3400], 2500);
    r.contenders = withCeilingFigures(r);
    expect(r.contenders[0]!.points[0]!.efficiency).toEqual({
      value: 600 / 2500,
      ceiling: 'bun-raw-precomputed',
      ceiling_rps: 2500,
      redis_share: 600 / 3200,
    });
    expect(r.contenders[1]!.points[0]!.efficiency!.value).toBeCloseTo(500 / 3200, 9);
    expect(r.contenders[2]!.points[0]!.efficiency).toBeUndefined();
    expect(r.contenders[3]!.points[0]!.efficiency).toBeUndefined();
  });
});

describe('the cost breakdown', () => {
  const r = {
    ceilings: {
      redis: [{ rps: 4000 }],
      client: [
        {
          runtime: 'bun',
          client: 'ioredis',
          rps: 900,
          cpu_us_per_read: 1000,
          transform_us: { plain: 400, direct: 300 },
        },
      ],
    },
    contenders: [
      contender(
        'bun-raw-precomputed',
        {
          ceiling: 'http',
          points: [
            {
              connections: 50,
              rate: null,
              rate_spec: null,
              status: 'ok',
              runs: [],
              cpu_us_per_req: 150,
              rps: { median: 6000, min: 0, max: 0, n: 3, ci: { lo: 0, hi: 0, level: 0.75 } },
            },
          ],
        },
        6000,
      ),
    ],
  } as unknown as Results;
  const measured = (settings: object, cpu: number, rps: number) =>
    contender(
      'bun-raw-ioredis',
      {
        settings: settings as never,
        points: [
          {
            connections: 50,
            rate: null,
            rate_spec: null,
            status: 'ok',
            runs: [],
            cpu_us_per_req: cpu,
            redis_us_per_call: 240,
            rps: { median: rps, min: rps, max: rps, n: 3, ci: { lo: rps, hi: rps, level: 0.75 } },
          },
        ],
      },
      rps,
    );

  test('the parts and the leftover sum to the measured CPU per request; the model predicts from the parts', () => {
    const b = breakdownOf(r, measured({ transform: 'plain' }, 1400, 640))!;
    expect(b).toMatchObject({
      redis_us: 240,
      client_us: 600,
      transform_us: 400,
      http_us: 150,
      measured_us: 1400,
      measured_rps: 640,
    });
    expect(b.client_us + b.transform_us + b.http_us + b.leftover_us).toBeCloseTo(b.measured_us, 9);
    expect(b.leftover_us).toBeCloseTo(250, 9);
    expect(b.predicted_rps).toBeCloseTo(1e6 / 1150, 6); // the app's core binds before Redis (1e6 / 240)
    // Two workers, or a cluster's twin: the one-process model applies to neither, so no breakdown.
    expect(breakdownOf(r, measured({ transform: 'plain', workers: '2' } as never, 1400, 900))).toBeNull();
  });
  test("the chart's bars are the parts at or above zero; a negative leftover is a note, not a bar", () => {
    const over = breakdownOf(r, measured({ transform: 'plain' }, 1000, 700))!;
    expect(over.leftover_us).toBeLessThan(0);
    const an = {
      ranked: [{ name: 'a', breakdown: over }],
      results: { settings: {}, started_at: '2026-01-01' },
    } as unknown as Analysis;
    type Layer = { data: { values: { name: string; us: number; part: string; text: string }[] } };
    const spec = breakdownSpec(an) as { layer: Layer[] };
    const bars = spec.layer[0]!.data.values;
    expect(bars.map((v) => v.part)).toEqual(['client', 'transform', 'http']);
    expect(bars.every((v) => v.us >= 0)).toBe(true);
    expect(bars.reduce((t, v) => t + v.us, 0)).toBeCloseTo(over.measured_us - over.leftover_us, 9);
    expect(spec.layer[1]!.data.values as unknown[]).toEqual([{ name: 'a', us: 1000 }]);
    expect(spec.layer[2]!.data.values.map((v) => v.text)).toEqual([
      `leftover not measured: the parts ${(-over.leftover_us).toFixed(0)} µs past the total`,
    ]);
    // The note starts where the parts end: client + transform + HTTP, past the tick.
    const end = (spec.layer[2]!.data.values[0] as unknown as { end: number }).end;
    expect(end).toBeCloseTo(over.client_us + over.transform_us + over.http_us, 9);
    expect(end).toBeCloseTo(over.measured_us - over.leftover_us, 9);
  });
  test('a decode twin is matched with its own client ceiling: raw has its transform in the client share', () => {
    const withDecode = {
      ...r,
      ceilings: {
        ...r.ceilings,
        client: [
          ...r.ceilings!.client!,
          {
            runtime: 'bun',
            client: 'ioredis',
            decode: 'raw',
            rps: 3000,
            cpu_us_per_read: 200,
            transform_us: r.ceilings!.client![0]!.transform_us,
          },
          {
            runtime: 'bun',
            client: 'ioredis',
            decode: 'bytes',
            rps: 950,
            cpu_us_per_read: 1100,
            transform_us: { plain: 500, direct: 90 },
          },
        ],
      },
    } as Results;
    expect(breakdownOf(withDecode, measured({ decode: 'raw' }, 500, 2000))).toMatchObject({
      client_us: 200,
      transform_us: 0,
      http_us: 150,
    });
    // bytes: the probe and the contender both write the body from the Buffers (the direct transform).
    expect(breakdownOf(withDecode, measured({ decode: 'bytes' }, 1400, 700))).toMatchObject({
      client_us: 1010,
      transform_us: 90,
    });
    // The default contender still gets the default ceiling.
    expect(breakdownOf(withDecode, measured({ transform: 'plain' }, 1400, 640))!.client_us).toBe(600);
  });
  test('the direct transform is charged its own cost; without a client or HTTP ceiling there is no breakdown', () => {
    expect(breakdownOf(r, measured({ transform: 'direct' }, 1400, 640))!.transform_us).toBe(300);
    const other = { ...measured({}, 1400, 640), client: 'node-redis' };
    expect(breakdownOf(r, other)).toBeNull();
  });
  test('where the model misses by more than 15%, the table names the gap from the leftover', () => {
    const row = (cpu: number, rps: number) => {
      const c = measured({ transform: 'plain' }, cpu, rps);
      Object.assign(c, { rps: c.points[0]!.rps, breakdown: breakdownOf(r, c) });
      return breakdownTable(analyze({ ...r, contenders: [c], settings: { ci_level: 0.95 } } as unknown as Results))
        .split('\n')
        .at(-1)!;
    };
    expect(row(1150, 870)).toEndWith('| within 15% |'); // predicted 1e6 / 1150 = 870
    expect(row(1400, 640)).toContain('leftover +250 µs: the app spends more per request than its parts did alone');
    expect(row(900, 1100)).toContain('leftover -250 µs: the parts alone cost more than the whole');
  });
});

describe('the ceilings and efficiency tables', () => {
  test('an HTTP ceiling measured 3 times: its median and its interval with its level; one run says so', () => {
    const rps = (median: number, n: number) => ({
      median,
      min: 800,
      max: 1300,
      n,
      ci: { lo: 950, hi: 1150, level: 0.75 },
    });
    const http = (name: string, median: number, n: number) =>
      contender(name, { ceiling: 'http', rps: rps(median, n), cpu_us_per_req: 123.4 }, median);
    const an = {
      redisCeilings: [],
      results: { settings: {}, contenders: [http('bun-raw-precomputed', 1000, 3), http('x-precomputed', 900, 1)] },
    } as unknown as Analysis;
    const md = ceilingsTable(an);
    expect(md).toContain('| HTTP: bun raw (bun-raw-precomputed) | 1000 | 950–1150 (75% CI, 3 runs) | 123 |');
    expect(md).toContain('| HTTP: bun raw (x-precomputed) | 900 | one run | 123 |');
  });

  test("efficiency: the lowest ceiling's share, and the share of Redis alone from its own figure", () => {
    const c = (name: string, efficiency: object) => ({ name, rps: { median: 600 }, efficiency });
    const an = {
      ranked: [
        c('a', { ceiling: 'bun-raw-precomputed', ceiling_rps: 2500, value: 0.24, redis_share: 0.1875 }),
        c('b', { ceiling: 'redis', ceiling_rps: 3200, value: 0.1875 }),
      ],
      results: { settings: {} },
    } as unknown as Analysis;
    const rows = efficiencyTable(an).split('\n');
    expect(rows).toContain('| a | 600 | bun-raw-precomputed | 2500 | 24.0% | 18.8% |');
    expect(rows).toContain('| b | 600 | Redis alone | 3200 | 18.8% | – |');
  });
});

describe('--ceilings with --only', () => {
  test("adds each picked stack's HTTP ceiling, which its breakdown needs; without --ceilings, none", () => {
    const all = loadContenders();
    const picked = (argv: string[]) => parseCli(argv, all).selected;
    expect(picked(['--only', 'node-raw-node-redis,bun-raw-bun-redis', '--ceilings', '--runs', '1'])).toEqual([
      'bun-raw-bun-redis',
      'node-raw-node-redis',
      'bun-raw-precomputed',
      'node-raw-precomputed',
    ]);
    expect(picked(['--only', 'node-raw-node-redis'])).toEqual(['node-raw-node-redis']);
    expect(picked(['--where', 'framework=hono,client=node-redis', '--ceilings'])).toContain('deno-hono-precomputed');
  });
});
