import { describe, expect, test } from 'bun:test';
import { parseCli, parseDuration, UsageError } from '../../packages/harness/src/args';

const names = ['a-raw-x', 'b-raw-y'];

describe('flags', () => {
  test('defaults: 5 runs of 10 s after a 5 s warmup at 50 connections', () => {
    const o = parseCli([], names);
    expect([o.runs, o.durationS, o.warmupS, o.connections, o.workload, o.profile, o.maxStealPct]).toEqual([5, 10, 5, [50], 'xrange', 'default', 5]);
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
  test('bad values name what is accepted', () => {
    const bad: [string[], RegExp][] = [
      [['--only', 'a-raw-x,zzz'], /unknown contender zzz; accepted: a-raw-x, b-raw-y/],
      [['--runs', '1.5'], /whole number/],
      [['--rate', '0'], /--rate "0"/],
      [['--rate', '250%'], /--rate "250%"/],
      [['--max-steal', '101'], /percentage/],
      [['--profile', 'fast'], /use one of: default, seed/],
      [['--profile', 'seed', '--duration', '5s'], /fixed request counts/],
      [['extra'], /accepted flags/],
    ];
    for (const [args, msg] of bad) expect(() => parseCli(args, names)).toThrow(msg);
    expect(() => parseCli(['--runs', '0'], names)).toThrow(UsageError);
  });
});
