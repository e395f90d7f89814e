// Where a complete run is published, by its settings: its workload's place, and for writes a place apart at a
// network distance, whose README block says what the distance is measured for (each strategy against Lua) and what
// each strategy costs per request.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { placeOf } from '../../packages/harness/src/measure/workloads';
import { readResults } from '../../packages/harness/src/model/results-file';
import { readmeSection } from '../../packages/harness/src/report/index';
import { ROOT } from '../../packages/harness/src/system/paths';

describe('placeOf: where a run of these settings is published', () => {
  test('reads at none: results/latest; writes: results/latest-upsert; live: nowhere', () => {
    expect(placeOf({ workload: 'xrange', redis_rtt_ms: 0 })?.dir).toBe('latest');
    expect(placeOf({ workload: 'upsert' })?.dir).toBe('latest-upsert');
    expect(placeOf({ workload: 'live', redis_rtt_ms: 0 })).toBeNull();
  });
  test('at a network distance: writes in a place of their own at 1 ms, reads nowhere', () => {
    const far = placeOf({ workload: 'upsert', redis_rtt_ms: 1 });
    expect(far).toMatchObject({ dir: 'latest-upsert-distance', block: 'writes-distance', rttMs: 1 });
    expect(placeOf({ workload: 'xrange', redis_rtt_ms: 1 })).toBeNull();
  });
});

describe('a write run at a network distance: its README block', () => {
  const published = readResults(join(ROOT, 'results/latest-upsert/results.json'));
  const far = { ...published, settings: { ...published.settings, redis_rtt_ms: 1 } };
  const block = readmeSection(analyze(far));
  test('the strategies against Lua, their cost per request and the accounting; not the other picks', () => {
    expect(block).toContain('**With Redis 1 ms away**');
    expect(block).toContain('**Write strategy**');
    expect(block).toMatch(/\*\*Per request\*\*.*lua 1\.00 commands and \d+ µs of app CPU/);
    expect(block).toContain('**Accounting:**');
    expect(block).toContain('results/latest-upsert-distance/results.md');
    expect(block).not.toContain('**Redis client**');
    expect(block).not.toContain('What to pick');
  });
  test("WATCH's path counts every command it sends: more than Lua's one", () => {
    const watch = /watch (\d+\.\d+)(?:–(\d+\.\d+))? commands/.exec(block);
    expect(watch).not.toBeNull();
    expect(Number(watch![1])).toBeGreaterThan(3);
  });
});
