// The flags' boundaries and the defaults of a run of pairs (cli/args.ts): each value at the edge it is accepted or
// refused at, each default a number worked out by hand, and what --resume and --against may be given with.
import { describe, expect, test } from 'bun:test';
import { parseArgs } from 'node:util';
import { DEFAULT_SETTINGS } from '@bench/stream';
import { parseCli, type Selectable } from '../../packages/harness/src/cli/args';
import { parseArgsError } from '../../packages/harness/src/cli/flags';

const contender = (name: string): Selectable => {
  const [runtime, framework, client] = name.split('-');
  return {
    name,
    runtime: runtime!,
    framework: framework!,
    client: client!,
    variant: null,
    settings: { ...DEFAULT_SETTINGS },
    suites: ['default', 'matrix', 'seed'],
  };
};
const names = [contender('a-raw-x'), contender('b-raw-y')];
const parse = (args: string[]) => parseCli(args, names);

describe('a run of pairs only', () => {
  test('--against: 2 windows of 2 s a launch, a 10-minute budget, no round cap but 1000, alternate, ±2%', () => {
    expect(parse(['--against', 'HEAD~1'])).toMatchObject({
      windows: 2,
      duration_s: 2,
      warmup_s: 1,
      budgetS: 600,
      maxRuns: 1000,
      pair: 'alternate',
      equalPct: 2,
      pairUnchanged: false,
    });
  });

  test('--handicap on one contender is a run of pairs; beside others it is a suite run with its own defaults', () => {
    expect(parse(['--handicap', 'a-raw-x', '--only', 'a-raw-x'])).toMatchObject({
      handicap: 'a-raw-x',
      handicapPct: 10,
      windows: 2,
      duration_s: 2,
      budgetS: 600,
      maxRuns: 1000,
    });
    expect(parse(['--handicap', 'a-raw-x'])).toMatchObject({ duration_s: 1, budgetS: 900, maxRuns: 15 });
    // --equal and --pair bound and measure a handicap's pair as they do a change's.
    expect(parse(['--handicap', 'a-raw-x', '--equal', '3', '--pair', 'duet'])).toMatchObject({
      equalPct: 3,
      pair: 'duet',
    });
  });

  test('--handicap sizes from 0.5% to 100%, 10% when not given; outside that or not a number, one line', () => {
    expect(parse(['--handicap', 'a-raw-x:0.5%']).handicapPct).toBe(0.5);
    expect(parse(['--handicap', 'a-raw-x:100']).handicapPct).toBe(100);
    for (const bad of ['a-raw-x:0.4%', 'a-raw-x:0%', 'a-raw-x:100.5%', 'a-raw-x:abc', 'a-raw-x:'])
      expect(() => parse(['--handicap', bad])).toThrow(
        new RegExp(`^--handicap "${bad}": the size must be from 0.5% to 100%, like a-raw-x:3%$`),
      );
    expect(() => parse(['--handicap', 'zzz'])).toThrow(/^--handicap "zzz" is not a contender of this run/);
  });
});

describe('what a pair may be given with', () => {
  test('--equal, --pair and --pair-unchanged without a pair are refused, each in one line', () => {
    expect(() => parse(['--equal', '3'])).toThrow(/^--equal bounds a change: use it with --against or --handicap$/);
    expect(() => parse(['--pair', 'duet'])).toThrow(/^--pair is how a change's pair is measured/);
    expect(() => parse(['--pair-unchanged'])).toThrow(/^--pair-unchanged pairs contenders the same on both sides/);
    expect(() => parse(['--handicap', 'a-raw-x', '--pair-unchanged'])).toThrow(/^--pair-unchanged /);
  });

  test('--against refuses each flag it cannot pair, naming why', () => {
    const refused: [string[], string][] = [
      [['--profile', 'seed', '--runs', '3'], 'profile'],
      [['--entries', '339'], 'entries'],
      [['--servers', 'redis,valkey'], 'servers'],
      [['--topology', 'cluster'], 'topology'],
      [['--self-check', 'a-raw-x'], 'self-check'],
      [['--with-seed'], 'with-seed'],
      [['--resume', 'results/x'], 'resume'],
    ];
    for (const [args, flag] of refused)
      expect(() => parse(['--against', 'HEAD~1', ...args])).toThrow(
        new RegExp(`^--against cannot be combined with --${flag}: `),
      );
    expect(parse(['--against', 'HEAD~1', '--profile', 'default']).against).toBe('HEAD~1');
    // --app twice is decided as --against decides, and refuses the same flags.
    expect(() => parse(['--app', 'node v1.js', '--app', 'node v2.js', '--servers', 'redis,valkey'])).toThrow(
      /^--app twice cannot be combined with --servers: each pair reads one server$/,
    );
  });
});

describe('--resume', () => {
  test('is given alone, or with how the run is shown and kept, its Redis port and its own --app flags', () => {
    const allowed = [
      ['--report', 'text'],
      ['--quiet'],
      ['--strict'],
      ['--publish'],
      ['--redis-port', '6390'],
      ['--app', 'node s.js', '--app-name', 'mine', '--path', '/x', '--body', 'any', '--cwd', '.'],
    ];
    for (const more of allowed) expect(parse(['--resume', 'results/x', ...more]).resume).toBe('results/x');
  });

  test('any flag that would change what the run measures is refused, naming it', () => {
    for (const more of [
      ['--budget', '5m'],
      ['--runs', '3'],
      ['--connections', '8'],
      ['--only', 'a-raw-x'],
      ['--max-steal', '20'],
    ])
      expect(() => parse(['--resume', 'results/x', ...more])).toThrow(
        new RegExp(`^--resume continues the run with the settings it recorded, so ${more[0]} would be ignored`),
      );
  });
});

describe('edges and defaults', () => {
  test('the round cap is 15 per 15 minutes of budget, rounded up', () => {
    // 15 × 990 / 900 = 16.5 → 17; 15 × 1800 / 900 = 30.
    expect(parse(['--budget', '990s']).maxRuns).toBe(17);
    expect(parse(['--budget', '30m']).maxRuns).toBe(30);
  });

  test('a window and its warmup exactly the budget fit; --redis-port 65535 is a port, 65536 is not', () => {
    expect(parse(['--budget', '1m', '--duration', '59s']).duration_s).toBe(59);
    expect(parse(['--redis-port', '65535']).redisPort).toBe(65535);
    expect(() => parse(['--redis-port', '65536'])).toThrow(/^--redis-port 65536 is not a port; use 1–65535$/);
    expect(parse(['--rate', '200%,0.5']).rates).toEqual(['200%', '0.5']);
    expect(() => parse(['--rate', '200.5%'])).toThrow(/^--rate "200.5%" is not accepted/);
  });

  test('where the results go and how the machine runs: each default', () => {
    expect(parse([])).toMatchObject({
      startTimeoutS: 30,
      report: 'full',
      out: 'results',
      placement: 'auto',
      redisPort: null,
      resume: null,
      strict: false,
      quiet: false,
      rdb: null,
      against: null,
      handicap: null,
    });
  });

  test('--restart-redis in a walk: two walks a round; --entries and --profile seed refused together', () => {
    expect(parse(['--workload', 'live', '--layout', 'walk']).windows).toBe(1);
    expect(parse(['--workload', 'live', '--layout', 'walk', '--restart-redis']).windows).toBe(2);
    expect(() => parse(['--entries', '339', '--profile', 'seed'])).toThrow(
      /^--entries generates its own streams: leave out --profile seed$/,
    );
    expect(() => parse(['--profile', 'seed', '--self-check', 'a-raw-x'])).toThrow(
      /^--profile seed takes a fixed --runs and no --with-seed or --self-check$/,
    );
  });
});

describe("parseArgs's refusals, in the commands' words", () => {
  test('a misspelt flag is unknown, not a path to pass after --, one dash said; a flag with no value needs one', () => {
    const refusal = (args: string[]) => {
      try {
        parseArgs({ args, options: { out: { type: 'string' }, kept: { type: 'boolean' } }, strict: true });
        return null;
      } catch (e) {
        return parseArgsError(e as Error);
      }
    };
    expect([refusal(['--kpet']), refusal(['--out', '--kept']), refusal(['--out']), refusal(['-kept'])]).toEqual([
      'unknown flag --kpet',
      '--out needs a value',
      '--out needs a value',
      'unknown flag -k (every flag here starts with two dashes)',
    ]);
  });
});
