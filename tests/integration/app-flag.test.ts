// --app, as docs/your-app.md's first section runs it: the user's own Express route (its own body, XRANGE with COUNT
// and a GET per request) started by the harness beside real contenders, with its CPU per request, memory and Redis
// commands by name measured, and answers against each; then each bad input refused in one line with nothing left
// running. The docs' command is run as written, with fewer rounds.
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { changesRoundsNeeded } from '../../packages/harness/src/answers/racing';
import { explained, resultsIn, runCli, settle } from '../helpers/cli';

const guide = readFileSync(join(ROOT, 'docs/your-app.md'), 'utf8');
const section = guide.split('## Your app beside the best stacks: `--app`\n')[1]!.split(/\n## /)[0]!;
/** The docs' command, its words as the shell would give them to npm run bench. */
const command = /```sh\nnpm run bench -- (.*)\n```/.exec(section)![1]!;
const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
// Half-second windows, as the resumed run below measures: the CPU per request shows a 400 µs burn's direction there.
const FEWER = ['--runs', '3', '--windows', '1', '--duration', '500ms'];

const dir = mkdtempSync(join(tmpdir(), 'rsb-app-flag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--app: your app beside the best stacks', () => {
  test("the docs' example: CPU, memory, Redis commands by name, answers against each; not published", async () => {
    expect(words.slice(0, 2)).toEqual(['--app', 'node server.mjs']);
    const run = await runCli([...words, ...FEWER], { env: { BENCH_APPS_DIR: '' } });
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      const mine = json.contenders.find((c: { name: string }) => c.name === 'your-app');
      expect(mine.status).toBe('ok');
      expect(mine.app).toBe('yours');
      expect(mine.cpu_us_per_req).toBeGreaterThan(0);
      expect(mine.rss_mb).toBeGreaterThan(0);
      // Two calls per response, each counted by name, not refused.
      const runs = mine.points[0].runs;
      const ok = runs.reduce((n: number, r: { ok: number }) => n + r.ok, 0);
      const count = (name: string) =>
        runs.reduce((n: number, r: { commands_by_name: Record<string, number> }) => n + r.commands_by_name[name]!, 0);
      expect(count('xrange') / ok).toBeCloseTo(1, 1);
      expect(count('get') / ok).toBeCloseTo(1, 1);
      // Its Redis calls are every command it sent (its read is its own), not the suite's XRANGE alone.
      expect(mine.redis_calls_per_req).toBeCloseTo(2, 1);
      expect(json.settings.apps).toEqual([
        {
          name: 'your-app',
          command: 'node server.mjs',
          path: '/colors',
          body: 'first',
          // Its folder, resolved, its files and its body hashed, so that a resume is held to them.
          cwd: join(ROOT, words[words.indexOf('--cwd') + 1]!),
          source_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          source_files: expect.objectContaining({ 'server.mjs': expect.stringMatching(/^[0-9a-f]{16}$/) }),
          body_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ]);
      const yours = json.family.questions.filter((q: { kind: string }) => q.kind === 'yours');
      expect(yours.map((q: { members: string[] }) => q.members[1]).sort()).toEqual([
        'bun-raw-bun-redis',
        'node-raw-iovalkey',
      ]);
      expect(json.answers.filter((a: { question: string }) => a.question.startsWith('yours: ')).length).toBe(2);
      expect(run.stdout).toContain('**Your app** (`your-app`: `node server.mjs`, GET /colors');
      expect(run.stdout).toMatch(/GET 1\.00, XRANGE 1\.00|XRANGE 1\.00, GET 1\.00/);
      expect(run.stderr).toContain('not published: --app measures your own app');
    });
    expect(await settle(run.seen)).toEqual([]);
  });

  test('your two versions: the second decided against the first as --against decides a change', async () => {
    const fixture = join(ROOT, 'tests/fixtures/your-app');
    // The second version burns 2 ms of CPU per request more (the fixture's BURN_US): a change a run must see, beside
    // the shared lane's neighbours too (at 400 µs, 3 of 8 rounds read it faster under a load average of 3.4).
    const versions = ['--app', 'node server.mjs', '--app', 'env BURN_US=2000 node server.mjs', '--app-name', 'v1,v2'];
    // Two rounds more than the fewest in which a pair can be decided (2/2^6 < 5%: changesRoundsNeeded): at the fewest,
    // one round that a loaded machine turns round leaves it open (a fresh clone: v1 739 against v2 830 req/s in its
    // sixth round, the five before it 1.7–2.9× apart); at eight, the signed-rank test decides with one such round.
    const rounds = ['--runs', String(changesRoundsNeeded(1) + 2), ...FEWER.slice(2), '--warmup', '250ms'];
    const run = await runCli([...versions, '--cwd', fixture, '--path', '/colors', ...rounds]);
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      expect(json.settings.against).toMatchObject({ kind: 'app', spec: 'node server.mjs' });
      // Only the pair: v2 as the head, v1 as its base (v2@base), each started by its own command.
      expect(json.contenders.map((c: { name: string }) => c.name).sort()).toEqual(['v2', 'v2@base']);
      const cpu = (n: string) => json.contenders.find((c: { name: string }) => c.name === n).cpu_us_per_req;
      expect(cpu('v2')).toBeGreaterThan(cpu('v2@base'));
      const [change] = json.changes.answers;
      expect([change.a, change.b]).toEqual(['v2', 'v2@base']);
      expect(change.rounds).toBeGreaterThanOrEqual(changesRoundsNeeded(1));
      // Each version's body is recorded (v1's from its twin, v2@base), so that a resume is held to both.
      const sha = expect.stringMatching(/^[0-9a-f]{64}$/);
      expect(json.settings.apps.map((a: { body_sha256: string }) => a.body_sha256)).toEqual([sha, sha]);
      // Decided, the right way: v2 burns more per request, so its whole interval lies below 1.
      expect([change.verdict, change.hi < 1]).toEqual(['faster', true]);
      expect(run.stdout).toContain('**Against your first version (`--app "node server.mjs"`)**');
    });
    expect(await settle(run.seen)).toEqual([]);
  });

  test('a change against its previous commit, as the docs run it: interrupted, resumed, the change seen', async () => {
    // The docs' second command, in a git repository of the app made as the docs make it: a commit, then the change.
    const later = /```sh\n[^`]*?(--app [^\n]*--against HEAD~1[^\n]*)\n/.exec(section)![1]!;
    const flags = [...later.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    const repo = join(dir, 'my-app');
    cpSync(join(ROOT, 'tests/fixtures/your-app'), repo, { recursive: true });
    const git = (...args: string[]) =>
      expect(spawnSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@x', ...args], { cwd: repo }).status).toBe(0);
    // The docs install with npm; bun installs the same lockfile from its cache, with no network.
    expect(spawnSync('bun', ['install', '--frozen-lockfile'], { cwd: repo }).status).toBe(0);
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'v1');
    const source = readFileSync(join(repo, 'server.mjs'), 'utf8');
    writeFileSync(join(repo, 'server.mjs'), source.replace('BURN_US ?? 0', 'BURN_US ?? 400'));
    git('commit', '-qam', 'the change');
    flags[flags.indexOf('--cwd') + 1] = repo;
    // Interrupted after its first window, then resumed as it says: against the commit in the app's repository.
    const first = await runCli([...flags, '--runs', '3', '--windows', '1', '--duration', '500ms'], {
      onLine: (line, ctl) => /your-app(@base)? c\d+ run 1\/3/.test(line) && ctl.kill('SIGINT'),
    });
    expect(first.code).toBe(130);
    const said = /\(resume with (--resume [^\n]*)\)$/m.exec(first.stderr)?.[1] ?? '';
    const again = [...said.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    expect(again).toEqual(['--resume', resultsIn(first.outDir).dir, ...flags.filter((f) => !/against|HEAD/.test(f))]);
    // Without its --app flags, or with another route (another app's run): refused, naming the flags it ran with.
    const bare = await runCli(again.slice(0, 2));
    expect([bare.code, bare.stderr]).toEqual([1, expect.stringContaining(`: resume it with ${said}`)]);
    const other = await runCli([...again.slice(0, 2), '--app', 'node server.mjs', '--cwd', repo, '--path', '/x']);
    expect([other.code, other.stderr]).toEqual([1, expect.stringContaining(`, not --app "node server.mjs" --cwd`)]);
    // The app's files changed since (a line added): refused, or two versions of the app would share its rounds.
    const changed = readFileSync(join(repo, 'server.mjs'), 'utf8');
    writeFileSync(join(repo, 'server.mjs'), `${changed}// an edit\n`);
    const edited = await runCli(again);
    expect([edited.code, edited.stderr]).toEqual([
      1,
      expect.stringContaining('changed since the run started (as git lists them: server.mjs (changed))'),
    ]);
    writeFileSync(join(repo, 'server.mjs'), changed);
    const run = await runCli(again);
    run.outDir = first.outDir;
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      expect(json.settings.against.kind).toBe('ref');
      expect(json.contenders.map((c: { name: string }) => c.name).sort()).toEqual(['your-app', 'your-app@base']);
      // The change is seen where load does not blur it: the CPU each request costs. Its req/s over three half-second
      // rounds is not: in the shared lane one run read head 1.12× base's req/s with the burn in place.
      const cpu = (n: string) => json.contenders.find((c: { name: string }) => c.name === n).cpu_us_per_req;
      // Its direction only: one loaded run measured the 400 µs burn as 60 µs more per request (medians of 3 windows).
      expect(cpu('your-app')).toBeGreaterThan(cpu('your-app@base'));
      const [change] = json.changes.answers;
      expect([change.a, change.b]).toEqual(['your-app', 'your-app@base']);
      expect(change.rounds).toBeGreaterThanOrEqual(3);
      // Its estimate is there; an interval over three rounds may be unbounded (Infinity, null in results.json).
      expect(Number.isFinite(change.ratio)).toBe(true);
      expect(run.stdout).toContain('**Against `HEAD~1`');
    });
    expect(await settle(run.seen)).toEqual([]);
  });

  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  const server = (body: string, status = 200) =>
    `import { createServer } from 'node:http';\ncreateServer((q, s) => { s.writeHead(${status}); s.end(${body}); })` +
    '.listen(Number(process.env.PORT), process.env.HOST);\n';
  write('exits.mjs', "console.error('boom: no config file'); process.exit(3);\n");
  write('idle.mjs', 'setInterval(() => {}, 1000);\n');
  write('missing.mjs', server("'not here'", 404));
  write('changing.mjs', server('JSON.stringify({ at: process.hrtime.bigint().toString() })'));
  write('hello.mjs', server("'hello, world'"));
  write('wanted.txt', 'hello, there');
  write('empty.mjs', server("''"));
  write('endless.mjs', server("'{'").replace('s.end(', 's.write('));
  // An app that puts itself in the background (as a daemon mode does): setsid takes it out of the harness's tree.
  write('daemon.mjs', server("'hello, world'"));
  write('daemon.sh', 'setsid node "$PWD/daemon.mjs" >/dev/null 2>&1 &\nexit 0\n');
  write('background.sh', 'node "$PWD/daemon.mjs" >/dev/null 2>&1 &\nexit 0\n');
  /** Processes whose command line names this folder's daemon.mjs. */
  const daemons = () =>
    readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(join(dir, 'daemon.mjs'));
        } catch {
          return false;
        }
      });

  const cases: [string, string[], RegExp][] = [
    [
      'a command that exits at start',
      ['node exits.mjs'],
      /did not start: .*exited.*\(last output: boom: no config file\)/,
    ],
    ['a command that never listens', ['node idle.mjs', '--start-timeout', '2s'], /did not start: .*2 ?s/],
    [
      'a command that puts the app in the background',
      ['sh daemon.sh'],
      /exited \(code 0\) .*leaving process \d+ in the background \(stopped now\): run the app in the foreground/,
    ],
    [
      'a command that starts the app with & and exits',
      ['sh background.sh'],
      /exited \(code 0\) .*leaving process \d+ in the background \(stopped now\): run the app in the foreground/,
    ],
    [
      'a body that never ends',
      ['node endless.mjs', '--start-timeout', '2s'],
      /GET \/ did not finish its response within 2 s .*raise --start-timeout if it is just slow/,
    ],
    ['a route that answers an empty body', ['node empty.mjs'], /\/ answered 200 with an empty body; give the route/],
    [
      'a route that answers 404',
      ['node missing.mjs'],
      /\/ answered 404, not 200; give the route it serves with --path/,
    ],
    ['a body that changes', ['node changing.mjs'], /changed between two requests at byte \d+; use --body any/],
    [
      'a --body FILE the app does not serve',
      ['node hello.mjs', '--body', join(dir, 'wanted.txt')],
      new RegExp(
        /GET \/'s body differs from --body \S+wanted\.txt at byte 7 .*: got "hello, world", want "hello, there"; /
          .source + /correct the file, or use --body first/.source,
      ),
    ],
  ];
  for (const [what, [app, ...more], said] of cases)
    test(`${what}: one line naming the cause and the fix, non-zero, nothing left running`, async () => {
      const run = await runCli(['--app', app!, '--cwd', dir, '--only', 'bun-fake-good-node-redis', ...FEWER, ...more]);
      await explained(run, async () => {
        expect(run.code).not.toBe(0);
        const line = run.stderr.trim().split('\n').at(-1)!;
        expect(line).toStartWith('error: --app');
        expect(line).toMatch(said);
        expect(await settle(run.seen)).toEqual([]);
        expect(daemons()).toEqual([]);
      });
    });

  test('a resumed app that answers another body is refused, its rounds kept apart', async () => {
    // A folder outside git (no files to compare): the body the run started with is what the resume is held to.
    write('versioned.mjs', server("'version one'"));
    const flags = ['--app', 'node versioned.mjs', '--cwd', dir, '--only', 'bun-fake-good-node-redis'];
    const first = await runCli([...flags, '--runs', '3', '--windows', '1', '--duration', '300ms'], {
      onLine: (line, ctl) => /your-app c\d+ run 1\/3/.test(line) && ctl.kill('SIGINT'),
    });
    expect(first.code).toBe(130);
    write('versioned.mjs', server("'version two, longer'"));
    const run = await runCli(['--resume', resultsIn(first.outDir).dir, ...flags.slice(0, 4)]);
    await explained(run, async () => {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /\nerror: --resume: your-app answers \/ with another body than when the run started \(19 bytes now\)/,
      );
      expect(resultsIn(first.outDir).json.complete).toBe(false);
      expect(await settle(run.seen)).toEqual([]);
    });
  });

  test('--app with --target: refused before anything starts', async () => {
    const run = await runCli(['--app', 'node x.mjs', '--target', 'http://127.0.0.1:9/']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'error: --app does not go with --target: --app starts your app here, --target measures one running elsewhere',
    );
    expect(run.seen).toEqual([]);
  });
});
