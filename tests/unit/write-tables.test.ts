// The write workloads' tables on hand-made runs, every figure computed by hand: upsert's per-request costs, retries,
// Redis CPU, branches and latency columns, its per-minute table, its cost and accounting lines; xadd-trim's XADD per
// request, its probes found and the requests not acknowledged.
import { describe, expect, test } from 'bun:test';
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import type { Results, RunRecord } from '../../packages/harness/src/model/results';
import { upsertFigures } from '../../packages/harness/src/workloads/upsert/figures';
import type { UpsertRecord } from '../../packages/harness/src/workloads/upsert/record';
import { accountingLine, costLine, upsertTable } from '../../packages/harness/src/workloads/upsert/report';
import type { TrimRecord } from '../../packages/harness/src/workloads/xadd-trim/record';
import { trimTable } from '../../packages/harness/src/workloads/xadd-trim/report';

const T0 = Date.parse('2024-01-01T00:00:00Z');
const NONE = { created: 0, updated: 0, ignored: 0, conflict: 0, pong: 0, error: 0 };
const rec = (o: Partial<UpsertRecord>): UpsertRecord => ({
  keys: 100,
  prefix: 'p',
  branches: NONE,
  acked_applied: 0,
  applied: 0,
  keys_written: 0,
  unanswered: 0,
  lost: 0,
  invented: 0,
  stale: 0,
  problem: null,
  ...o,
});
/** A kept run of one record, its windows started `at` seconds into the run at `rps` each. */
const run = (data: UpsertRecord, at: [number, number][]) =>
  ({
    redis_cpu_s: 0.5,
    workload: { kind: 'upsert', data },
    windows: at.map(([s, rps]) => ({ started_at: T0 + s * 1000, rps, workload: { kind: 'upsert', data } })),
  }) as unknown as RunRecord;
const contender = (name: string, write: string, rps: number, cpu: number) => ({
  name,
  status: 'ok',
  settings: { write },
  rps: { median: rps },
  latency_ms: { p50: 1, p90: 2, p99: 3, p99_9: 4 },
  cpu_us_per_req: cpu,
});

// Two lua stacks (1.0 and 1.2 EVALSHA per answered request) and a WATCH one (1,500 WATCHes for 1,000 answered).
const lua = rec({
  branches: { ...NONE, created: 100, updated: 800, ignored: 100 },
  applied: 900,
  redis_commands: { evalsha: 1000 },
});
const luaMore = rec({ ...lua, redis_commands: { evalsha: 1200 } });
const watch = rec({
  branches: { ...NONE, created: 100, updated: 700, ignored: 100, conflict: 100 },
  applied: 799,
  lost: 1,
  stale: 1,
  redis_commands: { watch: 1500, hget: 1500, multi: 1200, hset: 1200, hincrby: 1200, exec: 1200, unwatch: 100 },
});
const results = {
  started_at: new Date(T0).toISOString(),
  settings: { upsert: { keys: 100 }, duration_s: 10, workload: 'upsert' },
  contenders: [
    contender('bun-raw-ioredis', 'lua', 5000, 100),
    contender('node-raw-node-redis-watch', 'watch', 4000, 200),
    contender('node-raw-node-redis', 'lua', 4500, 300),
  ],
} as unknown as Results;
const kept = new Map([
  [
    'bun-raw-ioredis',
    [
      run(lua, [
        [5, 5000],
        [65, 5200],
      ]),
    ],
  ],
  [
    'node-raw-node-redis-watch',
    [
      run(watch, [
        [125, 4000],
        [605, 3800],
      ]),
    ],
  ],
  [
    'node-raw-node-redis',
    [
      run(luaMore, [
        [5, 4500],
        [65, 4700],
      ]),
    ],
  ],
]);
const an = { results, kept } as unknown as Analysis;

describe('the upsert table, by hand', () => {
  test('per request: Redis CPU, calls, WATCH retries (WATCHes per request − 1)', () => {
    const f = upsertFigures(results, kept);
    expect(f.rows.get('bun-raw-ioredis')).toMatchObject({ answered: 1000, redisCpuUs: 500, retries: null });
    expect(f.rows.get('bun-raw-ioredis')!.calls).toEqual([['evalsha', 1]]);
    expect(f.rows.get('node-raw-node-redis-watch')).toMatchObject({ answered: 1000, retries: 0.5 });
    // Each strategy over its stacks: the least and most commands, the median app CPU.
    expect(f.costs).toEqual([
      { write: 'lua', commands: [1, 1.2], cpuUs: 200 },
      { write: 'watch', commands: [7.9, 7.9], cpuUs: 200 },
    ]);
    expect(costLine(an)).toBe(
      "**Per request**, over the stacks (Redis commands; the app's CPU, median): " +
        'lua 1.00–1.20 commands and 200 µs of app CPU; watch 7.90 commands and 200 µs of app CPU.',
    );
  });

  test("the windows on the run's time axis: minutes in order, each strategy's median req/s", () => {
    const f = upsertFigures(results, kept);
    expect(f.points.map((p) => p.t)).toEqual([5, 65, 125, 605, 5, 65]);
    expect(f.perMinute).toEqual({
      writes: ['lua', 'watch'],
      minutes: [0, 1, 2, 10],
      median: [
        [4750, null],
        [4950, null],
        [null, 4000],
        [null, 3800],
      ],
      // Each strategy's medians are over the stacks that run it: said beside each column.
      stacks: [2, 1],
    });
  });

  test("a row's columns and the accounting line: every window counted, the stale key said", () => {
    const table = upsertTable(an);
    expect(table).toContain(
      '| bun-raw-ioredis | lua | 5000 | 1.0 / 2.0 / 3.0 / 4.0 | 100 | 500 | evalsha 1.00 | – | 0 | ' +
        '100 / 800 / 100 | 0 lost, 0 invented, 0 stale (900 applied) | |',
    );
    expect(table).toContain('| node-raw-node-redis-watch | watch | 4000 |');
    expect(table).toContain('| 0.500 | 100 | 100 / 700 / 100 | 1 lost, 0 invented, 1 stale (799 applied) | |');
    expect(accountingLine(an)).toBe(
      '**Accounting:** 2,599 acknowledged writes applied in 6 windows of 100 keys each; **1 lost**, 0 invented, ' +
        '1 stale (every key read back after each window: [how](docs/writes.md#writes-the-upsert-workload)).',
    );
  });
});

const trim = (o: Partial<TrimRecord>): TrimRecord => ({
  acked: 900,
  errors: 50,
  unanswered: 10,
  added: 905,
  lost: 0,
  invented: 0,
  probes: 20,
  probes_missing: 0,
  probes_trimmed: 2,
  length: 1050,
  cap: 1100,
  problem: null,
  redis_commands: { xadd: 950 },
  ...o,
});
const trimResults = (workload: string) =>
  ({
    settings: { workload },
    contenders: [
      {
        ...contender('bun-raw-ioredis', 'lua', 5000, 100),
        points: [{ runs: [{ workload: { kind: 'xadd-trim', data: trim({}) } }] }],
      },
    ],
  }) as unknown as Results;

describe('the xadd-trim table, by hand', () => {
  test('XADD per request answered (errors too), probes found apart from trimmed, all not acknowledged', () => {
    const table = trimTable({ results: trimResults('xadd-trim') } as unknown as Analysis);
    expect(table).toContain(
      '| bun-raw-ioredis | 5000 | 1.0 / 3.0 | 100 | 1.00 | 0 lost, 0 invented (905 added, 900 acknowledged); ' +
        '18 of 20 probes found (2 trimmed by the cap before read back); length ≤ 1050; ' +
        '60 answered with an error or not at all (not acknowledged; each may have written) | |',
    );
  });

  test('a run of another workload has no xadd-trim table', () => {
    expect(trimTable({ results: trimResults('xrange') } as unknown as Analysis)).toBe('');
  });
});
