import { describe, expect, test } from 'bun:test';
import { parseCli, UsageError } from '../../packages/harness/src/cli/args';

const usage = (argv: string[]) => {
  try {
    parseCli(argv, []);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('--target', () => {
  test('an http URL, normalised, with its name (default target); no --target: the suite', () => {
    expect(parseCli(['--target', 'http://10.0.0.2:3000'], [])).toMatchObject({
      target: 'http://10.0.0.2:3000/',
      targetName: 'target',
    });
    expect(
      parseCli(
        [
          '--target',
          'http://app:3000/route/dynamic/ioredis',
          '--target-name',
          'next-by-hand',
          '--runs',
          '2',
          '--connections',
          '8,64',
        ],
        [],
      ),
    ).toMatchObject({
      target: 'http://app:3000/route/dynamic/ioredis',
      targetName: 'next-by-hand',
      runs: 2,
      connections: [8, 64],
    });
    expect(parseCli([], [])).toMatchObject({ target: null, targetName: null });
  });

  test('bad input is one line naming the cause and the fix', () => {
    expect(usage(['--target', 'https://app:3000/'])).toBe(
      '--target "https://app:3000/" is https; only http:// is measured ' +
        '(the apps serve plain HTTP), e.g. http://10.0.0.2:3000/',
    );
    expect(usage(['--target', 'app:3000'])).toContain('only http://');
    expect(usage(['--target', '10.0.0.2:3000'])).toContain('is not a URL; use http://host:port/path');
    expect(usage(['--target', 'http://u:p@app/'])).toContain('carries credentials');
    expect(usage(['--target-name', 'x'])).toContain('add --target');
    // No stack to measure a ceiling of, and redis-benchmark would load the user's Redis.
    expect(usage(['--target', 'http://app/', '--ceilings'])).toMatch(/--ceilings.*no stack here to measure a ceiling/);
    expect(usage(['--target', 'http://app/', '--target-name', 'a b'])).toContain('--target-name "a b" must be');
    // --body: the app's own body, with --target or --app, from a file that exists or its first response.
    expect(usage(['--body', 'first'])).toBe(
      '--body goes with --target or --app: add --target http://host:port/path or --app "COMMAND"',
    );
    expect(usage(['--target', 'http://app/', '--body', 'any'])).toBe(
      '--body any goes with --app only (a --target is held to one body): use --body first or FILE',
    );
    expect(usage(['--target', 'http://app/', '--body', '/no/such.json'])).toBe(
      "--body /no/such.json: no such file; give the file that holds the app's exact body, or --body first",
    );
    expect(parseCli(['--target', 'http://app/', '--body', 'first'], [])).toMatchObject({ body: { from: 'first' } });
    expect(parseCli(['--target', 'http://app/', '--body', 'package.json'], [])).toMatchObject({
      body: { from: 'file' },
    });
    expect(parseCli([], [])).toMatchObject({ body: null });
    for (const m of [
      usage(['--target', 'http://app/', '--rate', '300']),
      usage(['--target', 'http://app/', '--workload', 'live']),
    ])
      expect(m.split('\n')).toHaveLength(1);
  });

  test('flags a --target run would ignore are refused, each with why', () => {
    expect(usage(['--target', 'http://app/', '--only', 'x'])).toBe(
      '--only does not go with --target (there is no suite to pick from): leave it out',
    );
    expect(usage(['--target', 'http://app/', '--placement', 'split'])).toContain('oha gets the whole machine');
    expect(usage(['--target', 'http://app/', '--publish'])).toContain('never published');
    expect(usage(['--target', 'http://app/', '--workload', 'live'])).toContain('private Redis only');
  });
});
