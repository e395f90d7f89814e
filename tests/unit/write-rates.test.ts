// --workload live --write-rate 10,100: the summary beside the runs (workloads/live/sweep.ts): each contender's req/s
// at each rate and each cache's gain over its uncached twin of the same stack, worked out by hand.
import { describe, expect, test } from 'bun:test';
import type { Results } from '../../packages/harness/src/model/results';
import { sweepSummaryFiles } from '../../packages/harness/src/report/index';
import { WRITE_RATES } from '../../packages/harness/src/workloads/live/sweep';

const contender = (name: string, cache: string | null, rps: number, status = 'ok', o: object = {}) => ({
  name,
  runtime: 'bun',
  framework: 'raw',
  client: 'node-redis',
  ...(cache ? { settings: { cache } } : {}),
  status,
  rps: { median: rps },
  ...o,
});
const run = (value: number, ...contenders: object[]) => ({ value, results: { contenders } as unknown as Results });

describe('req/s against write rate', () => {
  const runs = [
    run(
      10,
      contender('tail', 'tail-body', 9000),
      // The twin is the uncached contender of the same stack, not another cache, not a self-check, not another client.
      contender('ttl', 'ttl', 6000),
      contender('ioredis', null, 1000, 'ok', { client: 'ioredis' }),
      contender('plain-check', null, 500, 'ok', { self_check_of: 'plain' }),
      contender('plain', null, 3000),
    ),
    run(
      1000,
      contender('tail', 'tail-body', 4000, 'invalid'),
      contender('ttl', 'ttl', 5000),
      contender('plain', null, 2000, 'invalid'),
    ),
  ];

  test("a cache's gain is its req/s over its uncached twin's; none for an invalid run or an invalid twin", () => {
    expect(WRITE_RATES.points(runs)).toEqual([
      { rate: 10, name: 'tail', cache: 'tail-body', status: 'ok', rps: 9000, gain: 3 },
      { rate: 10, name: 'ttl', cache: 'ttl', status: 'ok', rps: 6000, gain: 2 },
      { rate: 10, name: 'ioredis', cache: 'none', status: 'ok', rps: 1000, gain: null },
      { rate: 10, name: 'plain', cache: 'none', status: 'ok', rps: 3000, gain: null },
      { rate: 1000, name: 'tail', cache: 'tail-body', status: 'invalid', rps: null, gain: null },
      { rate: 1000, name: 'ttl', cache: 'ttl', status: 'ok', rps: 5000, gain: null },
      { rate: 1000, name: 'plain', cache: 'none', status: 'invalid', rps: null, gain: null },
    ]);
  });

  test('the table: a column per rate, the gain in brackets, an invalid run by its status, a missing one a dash', () => {
    const table = WRITE_RATES.table(WRITE_RATES.points(runs));
    expect(table.split('\n').slice(2)).toEqual([
      '| contender | 10 writes/s | 1000 writes/s |',
      '|---|---:|---:|',
      '| tail | 9000 (3.0×) | invalid |',
      '| ttl | 6000 (2.0×) | 5000 |',
      '| ioredis | 1000 | – |',
      '| plain | 3000 | invalid |',
    ]);
    // The chart draws only the runs that served: an invalid one is a gap in its line.
    expect(WRITE_RATES.chart(WRITE_RATES.points(runs)).values).toHaveLength(5);
  });

  test('the summary: write-rates.json and .md, and write-rates.png drawn unless --report text', async () => {
    const points = WRITE_RATES.points(runs);
    const full = await sweepSummaryFiles({ of: WRITE_RATES, points }, 'full');
    expect(Object.keys(full)).toEqual(['write-rates.json', 'write-rates.md', 'write-rates.png']);
    expect(JSON.parse(String(full['write-rates.json']))).toEqual(WRITE_RATES.points(runs));
    expect(String(full['write-rates.md'])).toEndWith('![write-rates.png](./write-rates.png)\n');
    expect(Buffer.from(full['write-rates.png']!).subarray(1, 4).toString()).toBe('PNG');
    const text = await sweepSummaryFiles({ of: WRITE_RATES, points }, 'text');
    expect(Object.keys(text)).toEqual(['write-rates.json', 'write-rates.md']);
    expect(String(text['write-rates.md'])).not.toContain('.png');
  });
});
