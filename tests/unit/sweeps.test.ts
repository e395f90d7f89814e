// The distance sweep's rank changes (answers/sweeps.ts): a contender changes rank only where its rank intervals at two
// distances do not overlap, and only between runs that ranked the same contenders.
import { describe, expect, test } from 'bun:test';
import { type DistancePoint, rankChanges, rankedApart } from '../../packages/harness/src/answers/sweeps';
import { distanceTable } from '../../packages/harness/src/report/distance';

const at = (rtt: number, name: string, rank: number | null): DistancePoint => ({
  rtt_ms: rtt,
  measured_rtt_ms: rtt,
  name,
  status: rank === null ? 'invalid' : 'ok',
  rps: rank === null ? null : 1000 - rank,
  rank_lo: rank,
  rank_hi: rank,
  proxy_cpu_pct: null,
});

describe('rank changes across distances', () => {
  test('the same contenders ranked at both: a rank that moves with no overlap is a change', () => {
    const points = [at(0, 'a', 1), at(0, 'b', 2), at(1, 'a', 2), at(1, 'b', 1)];
    expect(rankChanges(points).map((c) => c.name)).toEqual(['a', 'b']);
  });
  test('one contender not valid at a distance: the others moving up a rank is not a change', () => {
    const points = [at(0, 'a', 1), at(0, 'b', 2), at(0, 'c', 3), at(1, 'a', null), at(1, 'b', 1), at(1, 'c', 2)];
    expect(rankChanges(points)).toEqual([]);
    expect(rankedApart(points)).toEqual([1]);
    const md = distanceTable({ points, changes: rankChanges(points), apart: rankedApart(points) });
    expect(md).toContain('not compared at RTT 1');
  });
  test('a distance the calibration did not reach is said, with the one measured', () => {
    const points = [
      at(0, 'a', 1),
      { ...at(1, 'a', 1), measured_rtt_ms: 0.755 },
      { ...at(5, 'a', 1), measured_rtt_ms: 5.2 },
    ];
    const md = distanceTable({ points, changes: [], apart: [] });
    expect(md).toContain('RTT 1ms: 0.76 ms measured through the proxy (redis-cli --latency), **not the 1ms asked');
    expect(md).not.toContain('not the 5ms asked'); // within 10%
  });
});
