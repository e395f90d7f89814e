import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_SETTINGS } from '@bench/stream';
import { parseCli, UsageError, type Selectable } from '../../packages/harness/src/cli/args';
import { parseDuration } from '../../packages/harness/src/cli/flags';
import { privateRedisNeeded } from '../../packages/harness/src/run/options';

const contender = (
  name: string,
  suites: Selectable['suites'] = ['default', 'matrix', 'seed'],
  settings = {},
): Selectable => {
  const [runtime, framework, ...client] = name.split('-');
  return {
    name,
    runtime: runtime!,
    framework: framework!,
    client: client.join('-'),
    variant: null,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    suites,
  };
};
const names = [contender('a-raw-x'), contender('b-raw-y')];

describe('flags', () => {
  test('refused before anything starts: an empty --out, one under a file or in /proc, a window under 100 ms', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'args-out-')), 'a-file');
    writeFileSync(file, '');
    expect(() => parseCli(['--out', ''], names)).toThrow(/^--out is empty; give a folder/);
    expect(() => parseCli(['--out', join(file, 'sub')], names)).toThrow(/a-file is a file; give a folder/);
    // A folder no one can write in, though access() says yes to root: asked of the filesystem, before Redis starts.
    expect(() => parseCli(['--out', '/proc/x'], names)).toThrow(/^--out \/proc\/x: \/proc cannot be written/);
    // One that exists: the run's folder is made in it.
    expect(() => parseCli(['--out', '/proc'], names)).toThrow(/^--out \/proc: \/proc cannot be written/);
    expect(parseCli(['--out', dirname(file)], names).out).toBe(dirname(file));
    expect(() => parseCli(['--duration', '0.4ms'], names)).toThrow(/too short for a window: give 100ms or more/);
    expect(parseCli(['--duration', '100ms'], names).duration_s).toBe(0.1);
  });

  test('an empty value is refused, not read as absent: --resume "" would start a whole new run', () => {
    for (const flag of ['--resume', '--where', '--rate', '--app', '--budget'])
      for (const value of ['', ' '])
        expect(() => parseCli([flag, value], names)).toThrow(new RegExp(`^${flag} is empty; give it a value or leave`));
  });

  test('a connection count listed twice is refused: it would be measured twice, into the same raw files', () => {
    expect(() => parseCli(['--connections', '50,10,50'], names)).toThrow(/^--connections: 50 is listed twice in/);
    expect(parseCli(['--connections', '10,50'], names).connections).toEqual([10, 50]);
  });

  test('defaults: auto, ±10%, ≤ 15 rounds in 15 min, runtime blocks of 2 windows of 1 s, 1 s warmup, c50', () => {
    const o = parseCli([], names);
    expect([
      o.runs,
      o.targetCiPct,
      o.maxRuns,
      o.budgetS,
      o.layout,
      o.windows,
      o.duration_s,
      o.warmup_s,
      o.connections,
      o.workload,
      o.profile,
      o.maxStealPct,
    ]).toEqual(['auto', 10, 15, 900, 'runtime', 2, 1, 1, [50], 'xrange', 'default', 5]);
    // The walk has its own defaults: one walk of 2 s windows per round after 1 s of warmup (two walks with
    // --restart-redis).
    expect(parseCli(['--layout', 'walk'], names)).toMatchObject({
      layout: 'walk',
      windows: 1,
      duration_s: 2,
      warmup_s: 1,
    });
    expect(() => parseCli(['--layout', 'pairs'], names)).toThrow(/--layout/);
    expect(o.seed).toBeGreaterThan(0);
    // A longer budget raises the round cap with it (15 per 15 min), unless --max-runs says otherwise.
    expect(parseCli(['--budget', '45m'], names)).toMatchObject({ budgetS: 2700, maxRuns: 45 });
    expect(parseCli(['--budget', '45m', '--max-runs', '20'], names)).toMatchObject({ maxRuns: 20 });
    expect(parseCli(['--budget', '5m'], names)).toMatchObject({ maxRuns: 15 });
    // They bound --runs auto: with a fixed count they would be ignored, so they are refused.
    for (const bound of [
      ['--budget', '1m'],
      ['--max-runs', '5'],
    ])
      expect(() => parseCli(['--runs', '2', ...bound], names)).toThrow(
        / bounds --runs auto; with --runs 2 it would be/,
      );
    expect([o.withSeed, o.selfCheck, o.publish]).toEqual([false, null, false]);
    expect(parseCli(['--seed', '7', '--runs', '4', '--self-check', 'a-raw-x', '--with-seed'], names)).toMatchObject({
      seed: 7,
      runs: 4,
      selfCheck: ['a-raw-x'],
      withSeed: true,
    });
  });
  test('the seed profile: 200 requests, 3 runs, no warmup', () => {
    const o = parseCli(['--profile', 'seed'], names);
    expect([o.requests, o.duration_s, o.runs, o.warmup_s]).toEqual([200, null, 3, 0]);
  });
  test('durations, sweeps and rates', () => {
    expect(parseDuration('d', '500ms')).toBe(0.5);
    expect(parseDuration('d', '1m')).toBe(60);
    expect(parseDuration('w', '0', { allowZero: true })).toBe(0);
    // A zero duration is refused unless the flag takes one.
    for (const zero of ['0s', '0ms', '0'])
      expect(() => parseDuration('duration', zero)).toThrow(`--duration "${zero}" is not a positive duration`);
    const o = parseCli(['--connections', '1,8,64', '--rate', '50%,300', '--only', 'b-raw-y'], names);
    expect([o.connections, o.rates, o.only]).toEqual([[1, 8, 64], ['50%', '300'], ['b-raw-y']]);
  });
  test('--only takes names or patterns, --where selects on dimensions and settings; both together intersect', () => {
    const all = [contender('bun-raw-ioredis'), contender('bun-hono-node-redis'), contender('node-raw-ioredis')];
    expect(parseCli(['--only', 'bun-*'], all).only).toEqual(['bun-raw-ioredis', 'bun-hono-node-redis']);
    expect(parseCli(['--only', '*-ioredis,bun-hono-node-redis'], all).only).toEqual(all.map((c) => c.name));
    expect(parseCli(['--where', 'runtime=bun,client=ioredis'], all).only).toEqual(['bun-raw-ioredis']);
    expect(parseCli(['--where', 'framework=raw', '--only', 'node-*'], all).only).toEqual(['node-raw-ioredis']);
    expect(() => parseCli(['--only', 'deno-*'], all)).toThrow(/unknown contender deno-\*; see --list/);
    expect(() => parseCli(['--where', 'colour=red'], all)).toThrow(
      /use key=value pairs with the keys runtime, framework, client, variant, transform, decode, autopipeline, resp/,
    );
    expect(() => parseCli(['--where', 'runtime=deno'], all)).toThrow(
      /no contender matches --where runtime=deno; see --list/,
    );
  });
  test('suites: default, --matrix (45 min budget), --profile seed; exact names reach the whole matrix', () => {
    const all = [
      contender('bun-raw-ioredis', ['default', 'matrix', 'seed']),
      contender('bun-raw-ioredis-direct', ['matrix'], { transform: 'direct' }),
      contender('deno-raw-ioredis', ['default', 'matrix']),
      contender('node20-raw-ioredis', ['matrix']),
    ];
    expect(parseCli([], all)).toMatchObject({
      suite: 'default',
      only: null,
      selected: ['bun-raw-ioredis', 'deno-raw-ioredis'],
      budgetS: 900,
    });
    expect(parseCli(['--matrix'], all)).toMatchObject({
      suite: 'matrix',
      selected: all.map((c) => c.name),
      budgetS: 2700,
    });
    expect(parseCli(['--profile', 'seed'], all).selected).toEqual(['bun-raw-ioredis']);
    expect(parseCli(['--only', 'bun-*'], all).selected).toEqual(['bun-raw-ioredis']);
    expect(parseCli(['--only', 'bun-*', '--matrix'], all).selected).toEqual([
      'bun-raw-ioredis',
      'bun-raw-ioredis-direct',
    ]);
    expect(parseCli(['--only', 'bun-raw-ioredis-direct'], all).selected).toEqual(['bun-raw-ioredis-direct']);
    expect(parseCli(['--matrix', '--where', 'transform=direct'], all).selected).toEqual(['bun-raw-ioredis-direct']);
    expect(() => parseCli(['--matrix', '--profile', 'seed'], all)).toThrow(/exclude each other/);
  });

  test('ceilings: off by default, on with --ceilings or --matrix; --only may name an HTTP ceiling', () => {
    const all = [
      contender('bun-raw-ioredis', ['default', 'matrix']),
      { ...contender('bun-raw-precomputed', ['default', 'matrix']), ceiling: 'http' as const },
    ];
    expect(parseCli([], all)).toMatchObject({ ceilings: false, selected: ['bun-raw-ioredis'] });
    expect(parseCli(['--ceilings'], all)).toMatchObject({
      ceilings: true,
      selected: ['bun-raw-ioredis', 'bun-raw-precomputed'],
    });
    expect(parseCli(['--matrix'], all)).toMatchObject({
      ceilings: true,
      selected: ['bun-raw-ioredis', 'bun-raw-precomputed'],
    });
    expect(parseCli(['--only', 'bun-raw-precomputed'], all)).toMatchObject({
      ceilings: false,
      selected: ['bun-raw-precomputed'],
    });
  });
  test('--entries: distinct sizes, smallest first; it generates its own data', () => {
    expect(parseCli(['--entries', '33900,339,3390,339'], names).entries).toEqual([339, 3390, 33900]);
    expect(parseCli([], names).entries).toBeNull();
    expect(() => parseCli(['--entries', '339,x'], names)).toThrow(/--entries "x" must be a whole number/);
    expect(() => parseCli(['--entries', '339,1000001'], names)).toThrow(
      /^--entries 1000001 is more than 1,000,000; give fewer/,
    );
    expect(() => parseCli(['--entries', '339', '--rdb', 'dump.rdb'], names)).toThrow(
      '--entries generates its own streams: leave out --rdb',
    );
  });
  test('write workloads: --ceilings, --entries and --handicap refused in one line, nothing generated for them', () => {
    const all = [
      contender('bun-raw-x', ['default', 'matrix', 'upsert']),
      { ...contender('bun-raw-precomputed', ['default', 'matrix']), ceiling: 'http' as const },
    ];
    for (const w of ['upsert', 'xadd-trim']) {
      expect(() => parseCli(['--workload', w, '--ceilings'], all)).toThrow(
        new RegExp(
          `^--ceilings cannot be used with --workload ${w}: a write has no HTTP ceiling .*; leave out --ceilings$`,
        ),
      );
      expect(() => parseCli(['--workload', w, '--only', 'bun-raw-x', '--ceilings'], all)).toThrow(/^--ceilings /);
      expect(() => parseCli(['--workload', w, '--entries', '339,3390'], all)).toThrow(
        new RegExp(`^--entries cannot be used with --workload ${w}: .*; leave out --entries$`),
      );
      expect(() => parseCli(['--workload', w, '--handicap', 'bun-raw-x'], all)).toThrow(
        new RegExp(`^--handicap cannot be used with --workload ${w}: its route burns no handicap.*; leave out`),
      );
    }
    // A name not in a write workload's suite points to its own list, which --matrix is not.
    expect(() => parseCli(['--workload', 'upsert', '--only', 'zzz'], all)).toThrow(
      /^unknown contender zzz; see --list --workload upsert$/,
    );
    expect(() => parseCli(['--workload', 'xadd-trim', '--servers', 'redis,valkey'], all)).toThrow(
      /: its accounting reads one stream on one server; drop them, or measure writes on several servers with --wo/,
    );
    expect(() => parseCli(['--workload', 'xadd-trim', '--max-staleness', '20ms'], all)).toThrow(
      "--max-staleness needs --workload live: it bounds how far the live workload's reads may lag its writer",
    );
    expect(parseCli(['--handicap', 'bun-raw-x'], all).handicap).toBe('bun-raw-x');
    // Its size by default: requests take 10% longer, as the docs and the handicap setting say.
    expect(parseCli(['--handicap', 'bun-raw-x'], all).handicapPct).toBe(10);
    // The write routes ignore these settings (the workload module says so, not packages/stream, whose core every
    // contender's inputs hash): their twins are not measured under a write workload.
    const pool = contender('bun-raw-node-redis-pool', ['default', 'matrix'], { pool: 'on' });
    for (const w of ['upsert', 'xadd-trim'])
      expect(() => parseCli(['--workload', w, '--only', 'bun-raw-node-redis-pool'], [pool])).toThrow(
        new RegExp(`^bun-raw-node-redis-pool is not measured \\(its pool setting: .*\\) under --workload ${w}$`),
      );
    expect(parseCli(['--workload', 'xread', '--only', 'bun-raw-node-redis-pool'], [pool]).selected).toEqual([
      'bun-raw-node-redis-pool',
    ]);
  });
  test('xadd-trim pairs alternate: --pair duet refused in one line, --pair auto alternates', () => {
    const all = [contender('bun-raw-x', ['default', 'matrix'])];
    const pairs = ['--workload', 'xadd-trim', '--against', 'HEAD~1', '--pair'];
    expect(() => parseCli([...pairs, 'duet'], all)).toThrow(
      /^--pair duet cannot measure --workload xadd-trim: both apps would append to one stream.*; use --pair alternate/,
    );
    expect(parseCli([...pairs, 'auto'], all).pair).toBe('alternate');
    expect(parseCli([...pairs, 'alternate'], all).pair).toBe('alternate');
    // Other workloads keep auto and duet.
    expect(parseCli(['--against', 'HEAD~1', '--pair', 'auto'], all).pair).toBe('auto');
    expect(parseCli(['--workload', 'upsert', '--against', 'HEAD~1', '--pair', 'duet'], all).pair).toBe('duet');
  });
  test('bad values name what is accepted', () => {
    const bad: [string[], RegExp][] = [
      [['--only', 'a-raw-x,zzz'], /unknown contender zzz; see --list/],
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
      [['--only', 'a-raw-x', '--self-check', 'b-raw-y'], /--self-check names a contender that the run leaves out/],
      [['extra'], /accepted flags/],
      // A flag of one value given twice: the first would be dropped without a word.
      [['--only', 'a-raw-x', '--only', 'b-raw-y'], /^--only is given twice; give it once$/],
      [['--redis-port', '70000'], /^--redis-port 70000 is not a port; use 1–65535$/],
      [['--out', 'package.json'], /^--out package.json is a file; give a folder/],
    ];
    for (const [args, msg] of bad) expect(() => parseCli(args, names)).toThrow(msg);
    expect(() => parseCli(['--runs', '0'], names)).toThrow(UsageError);
  });

  test('--workload live: its own suite, a write rate or a sweep of them, and the staleness bound', () => {
    const o = parseCli(['--workload', 'live', '--write-rate', '100,10,10', '--max-staleness', '80ms'], names);
    expect([o.suite, o.own.settings, o.own.sweep?.flag, o.own.sweep?.values]).toEqual([
      'live',
      { write_rate: 10, max_staleness_ms: 80 },
      'write-rate',
      [10, 100],
    ]);
    expect(o.own.sweep?.step(100)).toEqual({
      dir: 'rate-100',
      say: '--write-rate: the run at 100 writes/s',
      settings: { write_rate: 100, max_staleness_ms: 80 },
    });
    expect(parseCli(['--workload', 'live'], names).own).toEqual({
      settings: { write_rate: 10, max_staleness_ms: 50 },
      sweep: null,
    });
    expect(() => parseCli(['--workload', 'live', '--matrix'], names)).toThrow(/measures its own suite/);
  });

  test("--workload xread: the suite's decode twins are left out and listed; named with --only, refused", () => {
    const all = [
      contender('node-raw-node-redis'),
      contender('node-raw-node-redis-bytes', undefined, { decode: 'bytes' }),
    ];
    const o = parseCli(['--workload', 'xread'], all);
    expect(o.selected).toEqual(['node-raw-node-redis']);
    expect(o.notForWorkload).toEqual([
      {
        name: 'node-raw-node-redis-bytes',
        reason: 'not under --workload xread: measured with --workload xrange or xrange-count only (its decode setting)',
      },
    ]);
    expect(parseCli(['--workload', 'xrange-count'], all).selected).toHaveLength(2);
    expect(() => parseCli(['--workload', 'xread', '--only', 'node-raw-node-redis-bytes'], all)).toThrow(
      /^node-raw-node-redis-bytes is measured with --workload xrange or xrange-count only \(its decode setting\)$/,
    );
  });

  test('a write workload: a page or a static route (GET only) is left out and listed; with --only, refused', () => {
    const all = [
      contender('node-raw-node-redis', ['default', 'matrix', 'seed', 'upsert']),
      { ...contender('node-next-route-static-ioredis', ['default', 'matrix', 'seed', 'upsert']), static: true },
    ];
    const o = parseCli(['--workload', 'upsert'], all);
    expect(o.notForWorkload).toEqual([
      {
        name: 'node-next-route-static-ioredis',
        reason: 'not under --workload upsert: a page or a static route, answering GET only: it has no write route',
      },
    ]);
    expect(() => parseCli(['--workload', 'upsert', '--only', 'node-next-route-static-ioredis'], all)).toThrow(
      /^node-next-route-static-ioredis is a page or a static route, answering GET only: it has no write route; pick/,
    );
    // Read workloads serve it.
    expect(parseCli(['--only', 'node-next-route-static-ioredis'], all).selected).toEqual([
      'node-next-route-static-ioredis',
    ]);
  });

  test('with --runs auto, one window and its warmup must fit in the budget; a fixed --runs is not bound by it', () => {
    expect(() => parseCli(['--budget', '1m', '--duration', '2m'], names)).toThrow(
      /^--duration 120 s and --warmup 1 s: one window with its warmup \(121 s\) is longer than the --budget \(60 s\)/,
    );
    expect(() => parseCli(['--budget', '1m', '--warmup', '1m'], names)).toThrow(/is longer than the --budget/);
    expect(parseCli(['--runs', '3', '--duration', '2m'], names).duration_s).toBe(120);
  });

  test('--server picks one private server, --servers several (each contender against each, paired by round)', () => {
    expect(parseCli([], names).servers).toEqual(['redis']);
    expect(parseCli(['--server', 'valkey'], names).servers).toEqual(['valkey']);
    expect(parseCli(['--servers', 'redis,valkey,redis'], names).servers).toEqual(['redis', 'valkey']);
    expect(parseCli(['--servers', 'valkey,redis'], names).servers).toEqual(['valkey', 'redis']);
    const bad: [string[], RegExp][] = [
      [['--server', 'keydb'], /^--server "keydb" is not accepted; use one of: redis, valkey$/],
      [['--servers', 'redis,dragonfly'], /^--servers "dragonfly" is not accepted; use one of: redis, valkey$/],
      [['--servers', 'valkey'], /names one server; name two or more/],
      [['--server', 'redis', '--servers', 'redis,valkey'], /exclude each other/],
      [['--servers', 'redis,valkey', '--workload', 'live'], /measure the live workload on one --server/],
      [['--topology', 'ring'], /^--topology "ring" is not accepted; use one of: single, cluster$/],
      [['--topology', 'cluster', '--server', 'valkey'], /leave out --server and --servers/],
      [['--topology', 'cluster', '--workload', 'live'], /measure the live workload on one --server/],
      [['--redis-rtt', '1'], /^--redis-rtt: bad RTT "1"/],
      [['--redis-rtt', '1ms', '--topology', 'cluster'], /redirects clients to its nodes' own ports/],
      [
        ['--redis-rtt', '0,1ms', '--entries', '339,3390'],
        /^--entries and --redis-rtt a,b are both sweeps: run one sweep at a time$/,
      ],
      [
        ['--redis-rtt', '0,1ms', '--resume', 'results/x'],
        /--redis-rtt a,b is a sweep, which --resume <its folder> continues/,
      ],
    ];
    expect(parseCli(['--redis-rtt', '5ms,0,200us'], names)).toMatchObject({ redisRttMs: 0, redisRtts: [0, 0.2, 5] });
    expect(parseCli([], names)).toMatchObject({ redisRttMs: 0, redisRtts: [0] });
    expect(parseCli(['--topology', 'cluster'], names).servers).toEqual(['redis', 'cluster', 'cluster-replicas']);
    for (const [args, msg] of bad) expect(() => parseCli(args, names)).toThrow(msg);
  });

  test('negative and malformed numbers get the flag\'s own sentence, not the parser\'s "ambiguous"', () => {
    const bad: [string[], RegExp][] = [
      [['--duration', '-1s'], /^--duration "-1s" is not a positive duration; use a number with ms, s or m, like 10s$/],
      [['--warmup', '-2s'], /^--warmup "-2s" is not a duration/],
      [['--budget', '-15m'], /^--budget "-15m" is not a positive duration/],
      [['--seed', '-5'], /^--seed "-5" must be a whole number ≥ 1$/],
      [['--seed', '1e3'], /^--seed "1e3" must be a whole number ≥ 1$/],
      [['--runs', '-3'], /^--runs "-3" must be a whole number ≥ 1$/],
      [['--max-runs', '-1'], /^--max-runs "-1" must be a whole number ≥ 1$/],
      [['--windows', '-4'], /^--windows "-4" must be a whole number ≥ 1$/],
      [['--connections', '-50'], /^--connections "-50" must be a whole number ≥ 1$/],
      [['--entries', '-339'], /^--entries "-339" must be a whole number ≥ 1$/],
      [['--target-ci', '-10'], /^--target-ci "-10" must be a number above 0$/],
      [['--rate', '-300'], /^--rate "-300" is not accepted/],
      [['--max-steal', '-.5'], /^--max-steal "-.5" must be a percentage from 0 to 100$/],
      [['--redis-port', '-6379'], /^--redis-port "-6379" must be a whole number ≥ 1$/],
    ];
    for (const [args, msg] of bad) expect(() => parseCli(args, names)).toThrow(msg);
    for (const [args] of bad) expect(() => parseCli(args, names)).toThrow(UsageError);
    // The live workload's own flags.
    expect(() => parseCli(['--write-rate', '10'], names)).toThrow(/^--write-rate needs --workload live/);
    expect(() => parseCli(['--workload', 'live', '--write-rate', '-5'], names)).toThrow(
      /^--write-rate "-5" must be XADDs per second from 0 to 10000/,
    );
    expect(() => parseCli(['--workload', 'live', '--max-staleness', '-50ms'], names)).toThrow(
      /^--max-staleness "-50ms" is not a positive duration/,
    );
    expect(() => parseCli(['--restart-redis'], names)).toThrow(/^--restart-redis needs --workload live/);
    expect(() => parseCli(['--workload', 'live', '--restart-redis', '--windows', '1'], names)).toThrow(
      /^--restart-redis needs --windows 2 or more/,
    );
    expect(() => parseCli(['--workload', 'live', '--restart-redis', '--redis-rtt', '1ms'], names)).toThrow(
      /^--restart-redis with --redis-rtt/,
    );
    expect(parseCli(['--workload', 'live', '--restart-redis'], names).own.settings).toMatchObject({
      restart_redis: true,
    });
    expect(parseCli(['--workload', 'live'], names).own.settings).not.toHaveProperty('restart_redis');
    // With REDIS_URL set, the flags that need private servers are refused before anything starts.
    expect(privateRedisNeeded({ workload: 'live', entries: false, servers: ['redis'] })).toMatch(
      /^--workload live writes to and trims the stream/,
    );
    expect(privateRedisNeeded({ workload: 'xrange', entries: true, servers: ['redis'] })).toMatch(
      /^--entries loads its own streams/,
    );
    expect(privateRedisNeeded({ workload: 'xrange', entries: false, servers: ['valkey'] })).toMatch(
      /^--server, --servers and --topology cluster start private servers/,
    );
    expect(privateRedisNeeded({ workload: 'xrange', entries: false, servers: ['redis', 'cluster'] })).toMatch(
      /^--server, --servers and --topology cluster/,
    );
    expect(privateRedisNeeded({ workload: 'xrange', entries: false, servers: ['redis'] })).toBeNull();
    // --rdb and --redis-port are the private Redis's: with REDIS_URL they would be ignored, so they are refused.
    const plain = { workload: 'xrange' as const, entries: false, servers: ['redis'] };
    expect(privateRedisNeeded({ ...plain, rdb: true })).toMatch(/^--rdb loads a private Redis/);
    expect(privateRedisNeeded({ ...plain, redisPort: true })).toMatch(/^--redis-port is the private Redis's port/);
    // The upsert workload: its key spaces, its own suite, any servers (a cluster too), its private Redis.
    expect(parseCli(['--workload', 'upsert'], names)).toMatchObject({
      suite: 'upsert',
      own: { settings: { keys: 100 }, sweep: null },
    });
    const swept = parseCli(['--workload', 'upsert', '--keys', '10000,1,100'], names).own;
    expect([swept.settings, swept.sweep?.flag, swept.sweep?.values]).toEqual([{ keys: 1 }, 'keys', [1, 100, 10000]]);
    expect(() => parseCli(['--keys', '10'], names)).toThrow(/^--keys needs --workload upsert/);
    expect(() => parseCli(['--workload', 'upsert', '--keys', '50'], names)).toThrow(
      /^--keys "50": each value must be one of 1, 10, 100, 1000, 10000/,
    );
    expect(parseCli(['--workload', 'upsert', '--topology', 'cluster'], names)).toMatchObject({
      servers: ['redis', 'cluster'],
    });
    expect(() => parseCli(['--workload', 'upsert', '--matrix'], names)).toThrow(
      /^--workload upsert measures its own suite/,
    );
    expect(() => parseCli(['--workload', 'upsert', '--keys', '1,100', '--write-rate', '10,100'], names)).toThrow(
      /--write-rate needs --workload live|both sweeps/,
    );
    // The pinned valkey-server has no TLS: refused in one line, not blamed on the RDB at its start.
    for (const valkey of [
      ['--server', 'valkey'],
      ['--servers', 'redis,valkey'],
    ])
      expect(() => parseCli(['--redis-tls', ...valkey], names)).toThrow(/^--redis-tls does not go with Valkey: /);
    expect(privateRedisNeeded({ workload: 'upsert', entries: false, servers: ['redis'] })).toMatch(
      /^--workload upsert writes keys of its own/,
    );
    // A flag after a flag that takes a value is still a flag, as parseArgs has it: the first was given no value, and
    // the error says what it takes (not the parser's "ambiguous" and every flag there is).
    expect(() => parseCli(['--only', '--list'], names)).toThrow(/^--only needs a value: /);
    expect(() => parseCli(['--against'], names)).toThrow(/^--against needs a value: a git ref \(HEAD~1/);
  });
});

describe('every command', () => {
  test('answers --help with its usage on stdout and exit 0, before it reads anything else (a broken manifest)', () => {
    const root = join(import.meta.dir, '..', '..');
    const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    // The project's own commands: each an npm script that runs a TypeScript file with bun.
    const commands = Object.entries(scripts).flatMap(([name, cmd]) => {
      const file = / bun (\S+\.ts)/.exec(cmd)?.[1];
      return file && name !== 'test' && name !== 'test:unit' ? [[name, file] as const] : [];
    });
    expect(commands.map(([n]) => n).sort()).toEqual(['bench', 'compare', 'make-rdb', 'pool', 'report', 'restore']);
    // An app folder whose bench.json is broken: the help needs no manifest.
    const apps = mkdtempSync(join(tmpdir(), 'broken-apps-'));
    mkdirSync(join(apps, 'broken'));
    writeFileSync(join(apps, 'broken', 'bench.json'), '{ "framework": ');
    const env = { ...process.env, BENCH_APPS_DIR: apps };
    for (const [name, file] of commands) {
      const r = spawnSync(process.execPath, [file, '--help'], { cwd: root, encoding: 'utf8', timeout: 60_000, env });
      expect({ name, status: r.status, first: r.stdout.split('\n')[0] }).toEqual({
        name,
        status: 0,
        first: expect.stringMatching(new RegExp(`^usage: npm run ${name} -- `)),
      });
      expect(r.stdout.split('\n').length).toBeGreaterThan(2); // what each flag does, not the usage line alone
    }
  });
});

describe('npm run report', () => {
  test('one mode and one folder at a time, --port and --dir with --serve only: one line each, exit 2', () => {
    const root = join(import.meta.dir, '..', '..');
    const cli = 'packages/harness/src/cli/report.ts';
    for (const [args, said] of [
      [['A', 'B'], 'one folder at a time (given 2: A, B)'],
      // Without --serve, a lone --port once fell through to rewriting the published run.
      [['--port', '9000'], '--port goes with --serve'],
      [['--dir', 'results'], '--dir goes with --serve'],
      [
        ['--open', 'A', '--check', 'A'],
        'one of DIR, --open, --check, --keep or --serve at a time (given --open, --check)',
      ],
    ] as const) {
      const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect({ status: r.status, err: r.stderr }).toEqual({
        status: 2,
        err: expect.stringMatching(new RegExp(`^error: ${said.replace(/[()]/g, '\\$&')}; usage: [^\\n]*\\n$`)),
      });
    }
  });
});
