import { describe, expect, test } from 'bun:test';
import type { Results } from '../../packages/harness/src/model/results';
import { linearFit, scalingOf } from '../../packages/harness/src/answers/scaling';
import { scalingSpec, scalingTable } from '../../packages/harness/src/report/scaling';

describe('linear fit', () => {
  test('points on a line: its slope and intercept, R² = 1', () => {
    const fit = linearFit([
      [339, 1200 + 3 * 339],
      [3390, 1200 + 3 * 3390],
      [33900, 1200 + 3 * 33900],
    ])!;
    expect(fit.slope).toBeCloseTo(3, 9);
    expect(fit.intercept).toBeCloseTo(1200, 6);
    expect(fit.r2).toBeCloseTo(1, 12);
  });
  test('scattered points: the least-squares line and an R² below 1', () => {
    // y = 2x + 1 with residuals +1, -2, +1 at x = 0, 1, 2: the fit stays 2x + 1, R² = 1 - 6/14.
    const fit = linearFit([
      [0, 2],
      [1, 1],
      [2, 6],
    ])!;
    expect(fit.slope).toBeCloseTo(2, 9);
    expect(fit.intercept).toBeCloseTo(1, 9);
    expect(fit.r2).toBeCloseTo(1 - 6 / 14, 9);
  });
  test('fewer than two distinct sizes: no fit', () => {
    expect(linearFit([[339, 1000]])).toBeNull();
    expect(
      linearFit([
        [339, 1000],
        [339, 1100],
      ]),
    ).toBeNull();
  });
});

describe('scaling', () => {
  const run = (entries: number, rows: [string, number, number, string?][]) => ({
    entries,
    dir: `entries-${entries}`,
    results: {
      contenders: rows.map(([name, rps, cpu, status = 'ok']) => ({
        name,
        status,
        points: [{ rps: { median: rps }, cpu_us_per_req: cpu }],
      })),
    } as unknown as Results,
  });
  test('per contender: its medians on every size it passed, and the CPU fit against entries', () => {
    const s = scalingOf([
      run(100, [
        ['a', 900, 1100],
        ['b', 500, 2000],
      ]),
      run(1000, [
        ['a', 300, 2000],
        ['b', 100, 9000, 'invalid'],
      ]),
      run(10000, [
        ['a', 40, 11000],
        ['b', 20, 92000],
      ]),
    ]);
    expect(s.runs).toEqual([
      { entries: 100, dir: 'entries-100' },
      { entries: 1000, dir: 'entries-1000' },
      { entries: 10000, dir: 'entries-10000' },
    ]);
    const a = s.contenders.find((c) => c.name === 'a')!;
    expect(a.points).toEqual([
      { entries: 100, rps: 900, cpu_us_per_req: 1100 },
      { entries: 1000, rps: 300, cpu_us_per_req: 2000 },
      { entries: 10000, rps: 40, cpu_us_per_req: 11000 },
    ]);
    expect(a.cpu_fit!.slope).toBeCloseTo(1, 9);
    expect(a.cpu_fit!.r2).toBeCloseTo(1, 9);
    // An invalid run on one size leaves that point out, not the contender.
    expect(s.contenders.find((c) => c.name === 'b')!.points.map((p) => p.entries)).toEqual([100, 10000]);
    const md = scalingTable(s);
    expect(md).toContain('| a | 900, 1100 | 300, 2000 | 40, 11000 | 1.00 | 1000 | 1.000 |');
    expect(md).toContain('| b | 500, 2000 | – | 20, 92000 |');
    // The chart: each contender's CPU µs per request against entries, the points it passed.
    const chart = scalingSpec(s) as { data: { values: object[] }; encoding: { y: { field: string } } };
    expect(chart.encoding.y.field).toBe('cpu');
    expect(chart.data.values).toEqual([
      { name: 'a', entries: 100, cpu: 1100 },
      { name: 'a', entries: 1000, cpu: 2000 },
      { name: 'a', entries: 10000, cpu: 11000 },
      { name: 'b', entries: 100, cpu: 2000 },
      { name: 'b', entries: 10000, cpu: 92000 },
    ]);
  });
});
