// The run's state (run/state.ts): a contender's record before it is measured, a failure marking what was still to
// measure, a --self-check twin's manifest entry, and a window's servers: a --servers twin's own counters and proxy,
// and every node of a cluster looked at for "alive".
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import type { Contender } from '../../packages/harness/src/model/contenders';
import type { ContenderResult, Results } from '../../packages/harness/src/model/results';
import { measuredBeforeS } from '../../packages/harness/src/run/prepare';
import {
  contenderOf,
  ctxFor,
  fail,
  newContenderResult,
  serverProcessesAlive,
} from '../../packages/harness/src/run/state';

const shape = {
  ...{ name: 'bun-raw-ioredis@base', app: 'bun', runtime: 'bun', framework: 'raw', client: 'ioredis' },
  ...{ variant: null, static: false, page: false, path: '/', chartGroup: 'bun' },
} as never;

describe("a contender's record", () => {
  test("a point per connection count, its headline runs the first point's; a base names what it is the base of", () => {
    const r = newContenderResult(shape, [50, 100]);
    expect(r.points.map((p) => [p.connections, p.status])).toEqual([
      [50, 'incomplete'],
      [100, 'incomplete'],
    ]);
    expect(r.runs).toBe(r.points[0]!.runs);
    expect(r.base_of).toBe('bun-raw-ioredis');
    const twin = newContenderResult(shape, [50], 'bun-raw-ioredis@base');
    expect([twin.name, twin.self_check_of]).toEqual(['bun-raw-ioredis@base (alone)', 'bun-raw-ioredis@base']);
  });

  test('a failure marks the points still to measure, not those measured; a twin measures its original', () => {
    const r = newContenderResult(shape, [50, 100]);
    r.points[0]!.status = 'ok';
    fail(
      r,
      'invalid',
      'wrong body',
      Array.from({ length: 60 }, (_, i) => `line ${i}`),
    );
    expect([r.status, r.reason, r.points.map((p) => p.status)]).toEqual(['invalid', 'wrong body', ['ok', 'invalid']]);
    expect(r.output).toHaveLength(50);
    expect(r.output![0]).toBe('line 10');
    const original = { name: 'x' } as Contender;
    const byName = new Map([['x', original]]);
    expect(contenderOf(byName, { name: 'x (alone)', self_check_of: 'x' } as ContenderResult)).toBe(original);
  });
});

describe("a window's servers", () => {
  const gone = spawnSync('true').pid;
  const server = (pid: number) => ({ url: 'redis://127.0.0.1:1', stop: async () => {}, server: { pid, dir: '/x' } });

  test("a --servers twin reads its own server's counters through its own proxy; the others the first", () => {
    const rig = {
      ctx: { redis: server(1), runDir: '/r' },
      servers: { redis: server(1), valkey: server(2) },
      proxies: { redis: { pid: 3, url: 'u1' }, valkey: { pid: 4, url: 'u2' } },
    } as never;
    const twin = ctxFor(rig, { server: 'valkey', settings: { write: 'lua' } } as never);
    expect([twin.redis.server!.pid, twin.proxy?.pid, twin.write]).toEqual([2, 4, 'lua']);
    expect(ctxFor(rig, { settings: { write: 'watch' } } as never).redis.server!.pid).toBe(1);
  });

  test('alive while every server, cluster node and proxy runs; a node gone is a server gone', () => {
    const me = process.pid;
    const rig = (node: number, proxy: number) =>
      ({
        servers: { redis: { ...server(me), nodes: [{ pid: me }, { pid: node }] } },
        proxies: { redis: { pid: proxy, url: 'u' } },
      }) as never;
    expect(serverProcessesAlive(rig(me, me))).toBe(true);
    expect(serverProcessesAlive(rig(gone, me))).toBe(false);
    expect(serverProcessesAlive(rig(me, gone))).toBe(false);
  });
});

describe('a resumed run', () => {
  test('its budget goes on from what it measured before: to the end of its last window, discarded ones too', () => {
    const at = (s: number) => Date.parse('2026-12-07T06:00:00Z') + s * 1000;
    const run = (s: number) => ({ ended_at: at(s) });
    const results = (from: string | undefined, runs: number[], discarded: number[] = []) =>
      ({
        measured_from: from,
        contenders: [{ points: [{ runs: runs.map(run), discarded_runs: discarded.map(run) }] }],
      }) as unknown as Results;
    expect(measuredBeforeS(results('2026-12-07T06:00:00Z', [30, 90], [100]))).toBe(100);
    expect(measuredBeforeS(results('2026-12-07T06:00:00Z', [30, 90]))).toBe(90);
    // Nothing measured yet, or no start recorded: nothing to count.
    expect(measuredBeforeS(results('2026-12-07T06:00:00Z', []))).toBe(0);
    expect(measuredBeforeS(results(undefined, [30]))).toBe(0);
  });
});
