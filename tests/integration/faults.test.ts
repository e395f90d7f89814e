// Planted faults: the run carries on, says why, cleans up every process and keeps its results.
import { describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../../packages/harness/src/system/net';
import { cli, startPrivateRedis, useExistingRedis } from '../../packages/harness/src/topology/redis';
import { ROOT } from '../../packages/harness/src/system/paths';
import { explained, redisKiller, resultsIn, runCli, settle, started, type CliRun } from '../helpers/cli';

const fake = (v: string) => `bun-fake-${v}-${v === 'other' ? 'ioredis' : 'node-redis'}`;
const byName = (json: any) => Object.fromEntries(json.contenders.map((c: any) => [c.name, c]));

async function expectClean(run: CliRun) {
  // Only loopback listeners, ever; nothing the run started is still alive afterwards.
  expect(run.listening.length).toBeGreaterThan(0);
  for (const addr of run.listening) expect(addr).toStartWith('127.0.0.1:');
  expect(await settle(run.seen)).toEqual([]);
}

describe('a failing contender never stops the run', () => {
  test('crash, never ready, wrong body, cache, two reads, 500s, exit and hang mid-run, a body changing', async () => {
    const names = [
      'good',
      'crash',
      'never-ready',
      'wrong-body',
      'cache',
      'double-read',
      'status-500',
      'exit-mid-run',
      'hang-mid-run',
      'switch-same-size',
      'switch-size',
    ].map(fake);
    const run = await runCli([
      '--only',
      names.join(','),
      '--runs',
      '2',
      // One 1 s window a launch: the switching fakes turn after 100 requests, at 600–900 req/s here and a third of
      // that on a machine 3× slower still well inside their first window.
      '--windows',
      '1',
      '--duration',
      '1s',
      '--warmup',
      '0s',
      '--start-timeout',
      '3s',
      '--rate',
      '50%',
    ]);
    await explained(run, () => checkFaults(run));
  });
});

/** What every planted fault must look like in results.json and in the process table. */
async function checkFaults(run: CliRun) {
  expect(run.code).toBe(1); // finished, but not every contender is ok
  const { json } = resultsIn(run.outDir);
  expect(json.complete).toBe(true);
  const c = byName(json);
  expect(c[fake('good')].status).toBe('ok');
  expect(c[fake('good')].runs).toHaveLength(2);
  expect(c[fake('good')].redis_calls_per_req).toBeCloseTo(1, 2);

  expect(c[fake('crash')].status).toBe('failed');
  expect(c[fake('crash')].reason).toContain('exited (code 3) before answering');
  expect(c[fake('crash')].output.join('\n')).toContain('cannot open the frobnicator');

  expect(c[fake('never-ready')].status).toBe('failed');
  expect(c[fake('never-ready')].reason).toContain('not ready within 3s');

  expect(c[fake('wrong-body')].status).toBe('invalid');
  expect(c[fake('wrong-body')].reason).toMatch(/body differs from the golden body at byte \d+/);
  expect(c[fake('wrong-body')].reason).toContain('colour');

  expect(c[fake('cache')].status).toBe('invalid');
  expect(c[fake('cache')].reason).toContain('cached or skipped Redis');

  expect(c[fake('double-read')].status).toBe('invalid');
  expect(c[fake('double-read')].reason).toMatch(
    /: more Redis calls than responses .*: 2\.0\d\d XRANGE calls per response/,
  );

  expect(c[fake('status-500')].status).toBe('invalid');
  expect(c[fake('status-500')].reason).toMatch(/requests failed .*non-2xx/);
  // The good one gets its open-loop point; a contender disqualified at the closed-loop point does not.
  expect(c[fake('good')].points.map((p: any) => p.rate_spec)).toEqual([null, '50%']);
  expect(c[fake('good')].points[1].runs).toHaveLength(2);
  for (const v of ['cache', 'status-500']) expect(c[fake(v)].points).toHaveLength(1);

  expect(c[fake('exit-mid-run')].status).toBe('failed');
  // How it ended and its telling line, in the reason the terminal and results.md show.
  expect(c[fake('exit-mid-run')].reason).toContain(
    'app exited during run 1 (exit code 1; last output: Error: pool exhausted after 50 requests)',
  );
  expect(c[fake('exit-mid-run')].runs[0].fault).toContain('exited');

  expect(c[fake('hang-mid-run')].status).toBe('failed');
  expect(c[fake('hang-mid-run')].reason).toContain('stopped answering');

  // Right for the first 100 requests, then another body with the same status 200.
  const sameSize = c[fake('switch-same-size')];
  expect(sameSize.status).toBe('invalid'); // same length: oha's byte count cannot see it, the check after the run does
  expect(sameSize.reason).toMatch(
    /^run 1: the body changed under load; after the run, body differs from the golden body at byte \d+/,
  );
  expect(sameSize.reason).toContain('KARLA');
  expect(sameSize.runs[0].after_check).toContain('body differs');
  const longer = c[fake('switch-size')];
  expect(longer.status).toBe('invalid'); // one byte longer: caught from oha's byte count over every response
  expect(longer.reason).toMatch(
    new RegExp(
      /^run 1: responses under load were not the verified body: \d+ /.source +
        /bytes over \d+ responses \([\d.]+ each\), want 46028 each$/.source,
    ),
  );
  for (const v of ['switch-same-size', 'switch-size']) expect(c[fake(v)].points).toHaveLength(1); // measured no further
  // The process watch sees what a run starts (so "nothing started" elsewhere means something).
  const kinds = started(run.seen).map((p) => p.cmd.split(' ')[0]);
  for (const kind of ['redis-server', 'bun', 'oha']) expect(kinds).toContain(kind);
  await expectClean(run);
}

describe('Redis dies mid-run', () => {
  test('measuring stops at once, the contender is marked, partial results are saved, exit non-zero', async () => {
    // Well inside round 2's first 2 s window (its oha writes a -run2 file), not in the launches
    // before it (a verification failing there is not a window's).
    const killer = redisKiller((line) => line.includes('run 1/3'), '-run2');
    const run = await runCli(
      ['--only', [fake('good'), fake('other')].join(','), '--runs', '3', '--duration', '2s', '--warmup', '0s'],
      { onLine: killer.onLine },
    );
    expect(killer.killed()).toBe(true);
    // The window in flight stops once Redis's process has gone, not after oha's 20 s wait for each request in it.
    expect(killer.sinceKill()).toBeLessThan(15_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Redis stopped answering');
    const { json } = resultsIn(run.outDir);
    expect(json.complete).toBe(false);
    expect(json.exit_reason).toContain('Redis stopped answering');
    // The contender Redis died under is marked, and left incomplete so --resume can measure it again.
    const hit = json.contenders.find((c: any) => c.reason?.includes('Redis died'));
    expect(hit.status).toBe('incomplete');
    // Its window was stopped with Redis: no run of that round is kept.
    expect(hit.points[0].runs.every((r: any) => r.round === 1)).toBe(true);
    expect(json.contenders.every((c: any) => c.status === 'incomplete')).toBe(true);
    await expectClean(run);
  });
});

describe('bad input', () => {
  const rdbDir = mkdtempSync(join(tmpdir(), 'bad-rdb-'));
  const good = readFileSync(join(ROOT, 'dump.rdb'));
  // A key of Redis module type 7 (MODULE_2) whose module id names ReJSON-RL, before the EOF opcode.
  const CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let id = 0n;
  for (const ch of 'ReJSON-RL') id = (id << 6n) | BigInt(CHARSET.indexOf(ch));
  id = (id << 10n) | 3n;
  const moduleId = Buffer.alloc(8);
  moduleId.writeBigUInt64BE(id);
  const moduleKey = Buffer.concat([Buffer.from([7, 1]), Buffer.from('k'), Buffer.from([0x81]), moduleId]);
  const files = {
    'not-an-rdb': Buffer.from('this is not an RDB file\n'),
    truncated: good.subarray(0, Math.floor(good.length / 2)),
    'newer-version': Buffer.concat([Buffer.from('REDIS0099'), good.subarray(9)]),
    'needs-module': Buffer.concat([good.subarray(0, good.length - 9), moduleKey, good.subarray(good.length - 9)]),
  };
  const expected: Record<string, RegExp> = {
    'not-an-rdb': /Wrong signature/i,
    truncated: /Short read|Unexpected EOF|loading/i,
    'newer-version': /Can't handle RDB format version 99/,
    'needs-module': /ReJSON-RL/,
  };
  for (const [name, bytes] of Object.entries(files)) {
    test(`RDB ${name}: Redis's reason quoted, nothing started, nothing left`, async () => {
      const file = join(rdbDir, `${name}.rdb`);
      writeFileSync(file, bytes);
      const run = await runCli(['--only', fake('good'), '--rdb', file, '--runs', '1', '--duration', '1s']);
      expect(run.code).toBe(1);
      const error = run.stderr.split('\n').find((l) => l.startsWith('error:'))!;
      expect(error).toContain(`redis-server could not start from ${file}`);
      expect(error).toMatch(expected[name]!);
      expect(error).toContain('regenerate');
      expect(started(run.seen).filter((p) => !p.cmd.startsWith('redis-server'))).toEqual([]); // no app, no oha
      expect(readdirSync(run.outDir)).toEqual([]); // nothing measured, so no results directory
      expect(await settle(run.seen)).toEqual([]);
    });
  }
  test('an RDB without the stream: the file named, with the fix, nothing left', async () => {
    // A Redis with another key only, saved: a valid RDB that holds no stream.
    const redis = await startPrivateRedis(null);
    const file = join(rdbDir, 'no-stream.rdb');
    try {
      cli(redis, ['SET', 'other', '1']);
      cli(redis, ['SAVE']);
      copyFileSync(join(redis.server!.dir, 'dump.rdb'), file);
    } finally {
      await redis.stop();
    }
    const run = await runCli(['--only', fake('good'), '--rdb', file, '--runs', '1', '--duration', '1s']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n').find((l) => l.startsWith('error:'))).toBe(
      `error: ${file} has no stream OPTIONS:test:STREAM; pass dump.rdb or an RDB made by npm run make-rdb`,
    );
    expect(await settle(run.seen)).toEqual([]);
  });

  test('missing RDB file, or a folder given for one', async () => {
    const run = await runCli(['--rdb', '/nonexistent/dump.rdb']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('RDB file not found: /nonexistent/dump.rdb');
    expect(started(run.seen)).toEqual([]);
    const folder = await runCli(['--rdb', tmpdir()]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain(`--rdb ${tmpdir()} is a folder, not a file: give the .rdb file in it`);
    expect(started(folder.seen)).toEqual([]);
  });

  test('a taken port is a clear error', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    const port = (holder.address() as { port: number }).port;
    try {
      const run = await runCli(['--only', fake('good'), '--redis-port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(await settle(run.seen)).toEqual([]);
    } finally {
      holder.close();
    }
  });

  const badFlags: [string[], RegExp][] = [
    [
      ['--only', 'no-such-contender'],
      /unknown contender no-such-contender; see --list \(--list --matrix for every name\)/,
    ],
    [
      ['--where', 'runtime=bun,turbo=on'],
      /use key=value pairs with the keys runtime, framework, client, variant, transform/,
    ],
    [['--runs', '0'], /--runs "0" must be a whole number/],
    [['--duration=-1s'], /--duration "-1s" is not a positive duration/],
    [
      ['--duration', '-1s'],
      /^error: --duration "-1s" is not a positive duration; use a number with ms, s or m, like 10s$/m,
    ],
    [['--seed', '-5'], /^error: --seed "-5" must be a whole number ≥ 1$/m],
    [['--duration', 'soon'], /--duration "soon" is not a positive duration/],
    [['--connections', '0'], /--connections "0" must be a whole number/],
    [['--workload', 'xscan'], /use one of: xrange, xread/],
    [['--bogus'], /unknown flag --bogus; accepted flags: --list/],
  ];
  for (const [args, message] of badFlags) {
    test(`${args.join(' ')} → exit 2 with what is accepted, nothing started`, async () => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(started(run.seen)).toEqual([]);
    });
  }

  test('make-rdb and restore: a bad --out, too many entries, port 6379 taken: a line each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rdb-out-'));
    const script = (name: string, args: string[]) =>
      Bun.spawnSync(['bun', join(ROOT, 'scripts', name), ...args], { cwd: ROOT, timeout: 30_000 });
    const folder = script('make-rdb.ts', ['--out', dir]);
    expect([folder.exitCode, folder.stderr.toString()]).toEqual([
      2,
      expect.stringMatching(/^error: --out .* is a folder; give a file/),
    ]);
    const missing = script('make-rdb.ts', ['--out', join(dir, 'nope', 'x.rdb')]);
    expect(missing.stderr.toString()).toMatch(
      /^error: --out .*x\.rdb: its folder .*nope does not exist; make it first\n$/,
    );
    // More entries than a stream may have: refused before anything starts (99999999999999999999 ran on for minutes).
    const huge = script('make-rdb.ts', ['--entries', '99999999999999999999', '--out', join(dir, 'x.rdb')]);
    expect([huge.exitCode, huge.stderr.toString()]).toEqual([
      2,
      expect.stringMatching(/^error: --entries "99999999999999999999" must be a whole number from 1 to 1000000\n$/),
    ]);
    // A folder that takes no file (here /proc): named by --out, in one line, not a stack naming a scratch file.
    const unwritable = script('make-rdb.ts', ['--out', '/proc/x.rdb']);
    expect([unwritable.exitCode, unwritable.stderr.toString()]).toEqual([
      1,
      expect.stringMatching(/^error: --out \/proc\/x\.rdb cannot be written \(\w+\): give a writable file\n$/),
    ]);
    // Port 6379 held here (or by a Redis already running): restore names --port.
    const holder = createServer()
      .on('error', () => {})
      .listen(6379, '127.0.0.1');
    await new Promise((r) => setTimeout(r, 200));
    try {
      const taken = script('restore-redis.ts', []);
      expect(taken.exitCode).toBe(2);
      expect(taken.stderr.toString()).toMatch(
        /^error: port 6379 on 127\.0\.0\.1 is already in use .*; pass another --port N\n$/,
      );
      // Asked for by --port, the same line: not "leave it out to get a free one", which restore never does.
      const asked = script('restore-redis.ts', ['--port', '6379']);
      expect([asked.exitCode, asked.stderr.toString()]).toEqual([2, taken.stderr.toString()]);
    } finally {
      holder.close();
    }
  }, 60_000);

  // What the environment gives, refused in one line before anything starts: a REDIS_URL that is no Redis URL or that
  // the flags would ignore, a tool missing from PATH (here: the bench run by hand, outside npm run bench), and more
  // connections than the machine lets oha and an app hold open.
  const onlyBun = dirname(Bun.which('bun')!);
  const withoutDeno = process.env
    .PATH!.split(':')
    .filter((dir) => !existsSync(join(dir, 'deno')))
    .join(':');
  const badEnv: [string, string[], Record<string, string>, RegExp][] = [
    [
      'REDIS_URL without redis://',
      [],
      { REDIS_URL: '127.0.0.1:6379' },
      /^error: REDIS_URL=127\.0\.0\.1:6379 is not a Redis URL: write it as redis:\/\/host:port/m,
    ],
    [
      'REDIS_URL naming a database that is no number',
      [],
      { REDIS_URL: 'redis://127.0.0.1:6379/abc' },
      /^error: REDIS_URL=redis:\/\/127\.0\.0\.1:6379\/abc names database "abc": a database is a number/m,
    ],
    [
      'REDIS_URL with --rdb',
      ['--rdb', 'dump.rdb'],
      { REDIS_URL: 'redis://127.0.0.1:1' },
      /^error: --rdb loads a private Redis/m,
    ],
    [
      'no oha on PATH',
      ['--only', fake('good')],
      { PATH: `${onlyBun}:/usr/bin:/bin` },
      /^error: oha( and redis-cli)? not found on PATH: run npm run bench/m,
    ],
    [
      "no deno on PATH, a Deno contender selected (its runtime, not only the run's tools)",
      ['--only', 'deno-raw-node-redis'],
      { PATH: withoutDeno, BENCH_APPS_DIR: join(ROOT, 'apps') },
      /^error: deno not found on PATH: run npm run bench, which installs it/m,
    ],
    [
      'more connections than open files',
      ['--only', fake('good'), '--connections', '50,1000000'],
      {},
      /^error: --connections 1000000 is more than this machine holds open, \d+ (open files|ephemeral).*: ask for \d+/m,
    ],
  ];
  test('REDIS_URL with a user and password is read; a wrong or missing password → exit 1 naming it', async () => {
    const redis = await startPrivateRedis(join(ROOT, 'dump.rdb'));
    try {
      const at = `127.0.0.1:${new URL(redis.url).port}`;
      cli(redis, ['ACL', 'SETUSER', 'app', 'on', '>s3cret', '~*', '+@all']);
      cli(redis, ['ACL', 'SETUSER', 'default', 'resetpass', '>admin']);
      // redis-cli reads a URL's user with no password as the password: the harness's checks must not.
      expect(cli(useExistingRedis(`redis://app:s3cret@${at}`), ['XLEN', 'OPTIONS:test:STREAM']).trim()).toBe('339');
      const refused = async (url: string, message: RegExp) => {
        const run = await runCli(['--only', fake('good')], { env: { REDIS_URL: url } });
        expect([run.code, started(run.seen)]).toEqual([1, []]);
        expect(run.stderr).toMatch(message);
      };
      await refused(
        `redis://app:nope@${at}`,
        /^error: REDIS_URL=redis:\/\/app:\*\*\*@[\d.:]+ refused its user or password \(redis PING: AUTH failed: WRONG/m,
      );
      await refused(
        `redis://${at}`,
        /^error: REDIS_URL=redis:\/\/[\d.:]+ needs a password \(.*NOAUTH.*\): give it as/m,
      );
    } finally {
      await redis.stop();
    }
  }, 60_000);

  test('--target launches no app: a runtime missing from PATH is not asked for', async () => {
    const env = { PATH: withoutDeno, BENCH_APPS_DIR: join(ROOT, 'apps') };
    const run = await runCli(['--target', 'http://127.0.0.1:9/', '--runs', '1'], { env });
    expect(run.code).not.toBe(0);
    expect(run.stderr).not.toContain('deno not found');
    expect(started(run.seen)).toEqual([]);
  });

  for (const [what, args, env, message] of badEnv) {
    test(`${what} → exit 2 naming the fix, nothing started`, async () => {
      const run = await runCli(args, { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(started(run.seen)).toEqual([]);
    });
  }
});

describe('signals and kill -9', () => {
  // SIGINT, with the same checks, is tests/integration/against-cli.test.ts's interrupted run (then resumed).
  test('SIGTERM mid-run: children gone within 5 s, partial results marked incomplete, non-zero exit', async () => {
    // Signalled when round 1's first run is recorded: Redis, both apps and the rounds after it still to stop.
    const run = await runCli(
      ['--only', [fake('good'), fake('other')].join(','), '--runs', '3', '--duration', '1s', '--warmup', '0s'],
      {
        onLine: (line, ctl) => line.includes('run 1/3') && ctl.kill('SIGTERM'),
      },
    );
    expect(run.code).toBe(143);
    expect(run.exitAfterSignalMs!).toBeLessThan(5000);
    expect(await settle(run.seen, 5000)).toEqual([]);
    const { json } = resultsIn(run.outDir);
    expect(json.complete).toBe(false);
    expect(json.exit_reason).toBe('interrupted by SIGTERM');
  });

  test('SIGTERM to npm run …: the script itself gets it (npm scripts exec), so its Redis stops', async () => {
    // npm signals its child only: a shell between npm and bun would die and leave bun, and all it started, running.
    // Restore's --server valkey: the pinned valkey-server from the RDB, stopped the same way.
    const port = String(await freePort());
    const npm = Bun.spawn(['npm', 'run', '-s', 'restore', '--', '--port', port, '--server', 'valkey'], {
      cwd: ROOT,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const reader = npm.stdout.getReader();
    let out = '';
    const deadline = Date.now() + 60_000;
    while (!out.includes('inspect:') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    expect(out).toContain(`Valkey is up on redis://127.0.0.1:${port}`);
    expect(out).toContain(`redis-cli -p ${port}`);
    expect(Bun.spawnSync(['pgrep', '-f', `valkey-server.*${port}`]).exitCode).toBe(0);
    npm.kill('SIGTERM');
    await npm.exited;
    // Stopped on purpose: not said as the server failing.
    expect(await new Response(npm.stderr).text()).not.toContain('exited');
    const alive = () => Bun.spawnSync(['pgrep', '-f', `(restore-redis|valkey-server).*${port}`]).exitCode === 0;
    for (let i = 0; i < 50 && alive(); i++) await Bun.sleep(100);
    expect(alive()).toBe(false);
  }, 90_000);

  test('kill -9 leaves a readable results.json, no survivors, and --resume finishes the run', async () => {
    const names = [fake('good'), fake('other')];
    const first = await runCli(['--only', names.join(','), '--runs', '2', '--duration', '1s', '--warmup', '0s'], {
      onLine: (line, ctl) => line.includes(`${names[1]} c50 run 1/2`) && ctl.kill('SIGKILL'),
    });
    expect(first.signal).toBe('SIGKILL');
    expect(await settle(first.seen, 15_000)).toEqual([]); // the orphan guard's scan of /proc, on a loaded machine
    // The watcher also removes the scratch files (Redis's copy of the RDB and its log): the run's own folder, named on
    // its processes' command lines (the watcher's), not any other run's that a test beside this one has open.
    const own = [...new Set(first.seen.flatMap((p) => p.cmd.match(/stream-bench-[A-Za-z0-9]+/g) ?? []))];
    expect(own.length).toBeGreaterThan(0);
    let left: string[] = [];
    for (let i = 0; i < 20; i++) {
      left = own.filter((n) => existsSync(join(tmpdir(), n)));
      if (!left.length) break;
      await Bun.sleep(100);
    }
    expect(left).toEqual([]);
    const { dir, json } = resultsIn(first.outDir);
    expect(json.complete).toBe(false);
    expect(json.contenders.every((c: any) => c.status === 'incomplete')).toBe(true);

    // A flag that would change what the run measures is refused, not ignored; a run of the user's own app is resumed
    // with its --app flags (here: a copy of the run that recorded one).
    const budget = await runCli(['--resume', dir, '--budget', '5m']);
    expect([budget.code, budget.stderr]).toEqual([
      2,
      expect.stringMatching(/--budget would be ignored: give --resume/),
    ]);
    const ownRun = mkdtempSync(join(tmpdir(), 'own-resume-'));
    // Recorded before a run recorded its app's folder: the flags it can say, and the one it cannot.
    const app = { name: 'your-app', command: 'node a.mjs', path: '/', body: 'first' };
    const withApp = { ...json, settings: { ...json.settings, apps: [app] } };
    writeFileSync(join(ownRun, 'results.json'), JSON.stringify(withApp));
    const noApp = await runCli(['--resume', ownRun]);
    expect([noApp.code, noApp.stderr]).toEqual([
      1,
      expect.stringMatching(
        /measured --app "node a\.mjs": resume it with --resume \S+ --app "node a\.mjs" and the --cwd/,
      ),
    ]);
    expect(started(noApp.seen)).toEqual([]);
    // Its results.json names the run as well as its folder.
    const resumed = await runCli(['--resume', join(dir, 'results.json')]);
    expect(resumed.code).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(after.complete).toBe(true);
    for (const c of after.contenders) {
      expect(c.status).toBe('ok');
      expect(c.runs.map((r: any) => r.round)).toEqual([1, 2]);
    }
    await expectClean(resumed);
  });
});
