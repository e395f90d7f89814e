import { describe, expect, test } from 'bun:test';
import { parseCli, parseDuration, UsageError } from '../../packages/harness/src/args';

const names = ['a-raw-x', 'b-raw-y'];

describe('flags', () => {
  test('defaults: runs auto to ±5% (at most 15, 15 min budget), 5 s runs after a 3 s warmup at 50 connections', () => {
    const o = parseCli([], names);
    expect([o.runs, o.targetCiPct, o.maxRuns, o.budgetS, o.durationS, o.warmupS, o.connections, o.workload, o.profile, o.maxStealPct]).toEqual(['auto', 5, 15, 900, 5, 3, [50], 'xrange', 'default', 5]);
    expect(o.seed).toBeGreaterThan(0);
    expect([o.withSeed, o.selfCheck, o.publish]).toEqual([false, null, false]);
    expect(parseCli(['--seed', '7', '--runs', '4', '--self-check', 'a-raw-x', '--with-seed'], names)).toMatchObject({ seed: 7, runs: 4, selfCheck: ['a-raw-x'], withSeed: true });
  });
  test('the seed profile: 200 requests, 3 runs, no warmup', () => {
    const o = parseCli(['--profile', 'seed'], names);
    expect([o.requests, o.durationS, o.runs, o.warmupS]).toEqual([200, null, 3, 0]);
  });
  test('durations, sweeps and rates', () => {
    expect(parseDuration('d', '500ms')).toBe(0.5);
    expect(parseDuration('d', '1m')).toBe(60);
    expect(parseDuration('w', '0', { allowZero: true })).toBe(0);
    const o = parseCli(['--connections', '1,8,64', '--rate', '50%,300', '--only', 'b-raw-y'], names);
    expect([o.connections, o.rates, o.only]).toEqual([[1, 8, 64], ['50%', '300'], ['b-raw-y']]);
  });
  test('--only takes patterns, --where selects on dimensions, and both together intersect', () => {
    const all = ['bun-raw-ioredis', 'bun-hono-node-redis', 'node-raw-ioredis'];
    const dims = {
      'bun-raw-ioredis': { runtime: 'bun', framework: 'raw', client: 'ioredis', variant: null },
      'bun-hono-node-redis': { runtime: 'bun', framework: 'hono', client: 'node-redis', variant: null },
      'node-raw-ioredis': { runtime: 'node', framework: 'raw', client: 'ioredis', variant: null },
    };
    expect(parseCli(['--only', 'bun-*'], all, dims).only).toEqual(['bun-raw-ioredis', 'bun-hono-node-redis']);
    expect(parseCli(['--only', '*-ioredis,bun-hono-node-redis'], all, dims).only).toEqual(all);
    expect(parseCli(['--where', 'runtime=bun,client=ioredis'], all, dims).only).toEqual(['bun-raw-ioredis']);
    expect(parseCli(['--where', 'framework=raw', '--only', 'node-*'], all, dims).only).toEqual(['node-raw-ioredis']);
    expect(() => parseCli(['--only', 'deno-*'], all, dims)).toThrow(/unknown contender deno-\*; accepted: bun-raw-ioredis/);
    expect(() => parseCli(['--where', 'colour=red'], all, dims)).toThrow(/use key=value pairs with the keys runtime, framework, client, variant/);
    expect(() => parseCli(['--where', 'runtime=deno'], all, dims)).toThrow(/no contender matches --where runtime=deno; see --list/);
  });
  test('bad values name what is accepted', () => {
    const bad: [string[], RegExp][] = [
      [['--only', 'a-raw-x,zzz'], /unknown contender zzz; accepted: a-raw-x, b-raw-y/],
      [['--runs', '1.5'], /whole number/],
      [['--rate', '0'], /--rate "0"/],
      [['--rate', '250%'], /--rate "250%"/],
      [['--max-steal', '101'], /percentage/],
      [['--profile', 'fast'], /use one of: default, seed/],
      [['--profile', 'seed', '--duration', '5s'], /fixed request counts/],
      [['--profile', 'seed', '--with-seed'], /--profile seed takes a fixed --runs/],
      [['--runs', 'sometimes'], /--runs "sometimes" must be a whole number/],
      [['--target-ci', '0'], /--target-ci "0" must be a number above 0/],
      [['--budget', 'soon'], /--budget "soon" is not a positive duration/],
      [['--self-check', 'zzz'], /unknown contender zzz/],
      [['--only', 'a-raw-x', '--self-check', 'b-raw-y'], /--self-check names a contender that --only leaves out/],
      [['extra'], /accepted flags/],
    ];
    for (const [args, msg] of bad) expect(() => parseCli(args, names)).toThrow(msg);
    expect(() => parseCli(['--runs', '0'], names)).toThrow(UsageError);
  });
});
