// Redis's call counters as a run records them: a cluster's INFO commandstats summed over its nodes (rejected calls
// too), and a window's Redis calls counting the calls Redis refused (a MOVED) as calls. A fake redis-cli, no Redis.
import { afterAll, beforeEach, describe, expect, mock, test } from 'bun:test';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oha from '../../packages/harness/src/measure/oha';
import { measureRun, type Load, type RunContext } from '../../packages/harness/src/measure/measure';
import { commandStats } from '../../packages/harness/src/topology/redis';

// A redis-cli first on PATH: INFO commandstats of a node by its port; the port 7003's counters grow by call (the
// first call gives the window's start, each later one its end).
const dir = mkdtempSync(join(tmpdir(), 'counters-'));
const fakeCli = `#!/bin/sh
stat() { printf 'cmdstat_%s:calls=%s,usec=%s,usec_per_call=1.00,rejected_calls=%s,failed_calls=0\\r\\n' "$@"; }
case "$2" in
  *:7001*) stat xrange 10 100 2; stat info 1 5 0 ;;
  *:7002*) stat xrange 5 50 3 ;;
  *:7003*)
    if [ -e "${dir}/started" ]; then stat xrange 110 1100 2; stat info 3 30 0
    else : >"${dir}/started"; stat xrange 100 1000 1; stat info 1 10 0; fi ;;
  *) echo "Could not connect to $2" >&2; exit 1 ;;
esac
`;
writeFileSync(join(dir, 'redis-cli'), fakeCli);
chmodSync(join(dir, 'redis-cli'), 0o755);
const savedPath = process.env.PATH;
process.env.PATH = `${dir}:${savedPath}`;

// oha is faked only while this file runs: a window of 10 requests, all answered 200, taking `ohaCpu` s of CPU.
let faking = true;
let ohaCpu = 0.01;
const realRunOha = oha.runOha;
mock.module('../../packages/harness/src/measure/oha', () => ({
  ...oha,
  runOha: async (...args: Parameters<typeof oha.runOha>) => {
    if (!faking) return realRunOha(...args);
    const run = {
      rps: 10,
      ok: 10,
      seconds: 1,
      errors: { non_2xx: 0, aborted: 0, other: 0 },
      errorMessages: {},
      latency_ms: {},
      total_bytes: 0,
      responses: 10,
    };
    return { raw: { statusCodeDistribution: { '200': 10 } }, run, cpuSeconds: ohaCpu } as any;
  },
}));

afterAll(() => {
  faking = false;
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => rmSync(join(dir, 'started'), { force: true }));

const node = (port: number) => ({ url: `redis://127.0.0.1:${port}` });

describe('commandStats', () => {
  test('of one server: its counters, rejected calls included', () => {
    expect(commandStats({ ...node(7002), stop: async () => {} })).toEqual({
      xrange: { calls: 5, usec: 50, usecPerCall: 1, rejected: 3 },
    });
  });

  test("of a cluster: each command's calls, time and rejected calls summed over its nodes", () => {
    const cluster = { ...node(7001), stop: async () => {}, nodes: [node(7001), node(7002)] } as any;
    expect(commandStats(cluster)).toEqual({
      xrange: { calls: 15, usec: 150, usecPerCall: 10, rejected: 5 },
      info: { calls: 1, usec: 5, usecPerCall: 5, rejected: 0 },
    });
  });
});

describe("measureRun: a window's Redis calls", () => {
  test('a call Redis rejected counts as a call; the time per call is over the calls it ran', async () => {
    const ctx = {
      workload: { rules: { command: () => 'xrange' }, around: () => null },
      placement: { loadgen: null },
      redis: { ...node(7003), stop: async () => {} },
      runDir: dir,
    } as unknown as RunContext;
    const load = { connections: 1, rate: null, duration_s: 1, requests: null, seedDefaults: false } as unknown as Load;
    const r = await measureRun(ctx, process.pid, 'http://127.0.0.1:1/', load, 'window.json');
    // Before: 100 calls, 1 rejected; after: 110 calls, 2 rejected: 10 ran and 1 more was refused.
    expect(r.redis_calls).toBe(11);
    expect(r.redis_calls_per_req).toBe(1.1);
    expect(r.redis_us_per_call).toBe(10);
    // The harness's own INFO calls are not the app's.
    expect(r.commands_by_name).toEqual({ xrange: 11 });
  });

  test("a prober's responses beside oha's count as served; oha using every CPU is saturated", async () => {
    let beside = false;
    const around = {
      target: null,
      abort: async () => {},
      // The prober served 5 responses; the app (this process) burns some CPU in the window.
      stop: async () => {
        const until = performance.now() + 40;
        while (performance.now() < until) beside = !beside;
        return 5;
      },
      record: async () => ({}),
    };
    const ctx = {
      workload: { rules: { command: () => 'xrange' }, around: () => around },
      placement: { loadgen: null },
      redis: { ...node(7003), stop: async () => {} },
      runDir: dir,
    } as unknown as RunContext;
    const load = { connections: 1, rate: null, duration_s: 1, requests: null, seedDefaults: false } as unknown as Load;
    ohaCpu = 1e6;
    try {
      const r = await measureRun(ctx, process.pid, 'http://127.0.0.1:1/', load, 'window.json');
      // 11 calls over 10 of oha's responses and 5 of the prober's.
      expect(r.redis_calls_per_req).toBeCloseTo(11 / 15, 12);
      expect(r.app_cpu_s).toBeGreaterThan(0);
      expect(r.cpu_us_per_req).toBeCloseTo((r.app_cpu_s * 1e6) / 15, 6);
      expect(r.loadgen_saturated).toBe(true);
    } finally {
      ohaCpu = 0.01;
    }
  });
});
