// --app, the parts of it that need no run: its figures and words as the report renders them (an interval too short to
// have ends, a body held to nothing), the line of a failed start's output that names the error, an app that listens
// on another port than PORT, and the words of the Changes section for two --app and for what --against compares.
import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import { yoursOf } from '../../packages/harness/src/answers/yours';
import { AppError, listeningPorts, notReady, startApp } from '../../packages/harness/src/measure/apps';
import { CHECKOUT_INPUTS } from '../../packages/harness/src/model/changes';
import type { Contender } from '../../packages/harness/src/model/contenders';
import type { Results } from '../../packages/harness/src/model/results';
import { changesSection, INPUTS_WORDS, inputsLine } from '../../packages/harness/src/report/changes';
import { answerText, yoursSection } from '../../packages/harness/src/report/yours';
import { fileDiffers, tellingLine } from '../../packages/harness/src/run/own-app';
import { resumedResults } from '../../packages/harness/src/run/prepare';
import { runLine } from '../../packages/harness/src/run/record';
import { appFlagsOf, unrecordedFlags } from '../../packages/harness/src/run/state';
import { firstDifference } from '../../packages/harness/src/measure/verify';
import { ROOT } from '../../packages/harness/src/system/paths';
import { defaultRun } from '../helpers/runs';

/** One kept window of `responses` responses carrying `bytes` body bytes in all. */
const run = (responses: number, bytes: number, expected: number) => ({
  round: 1,
  ok: responses,
  responses,
  total_bytes: bytes,
  expected_bytes: expected,
  commands_by_name: { xrange: responses },
});

/** An --app run's results: the app (held to `body`) beside one contender, one window each. */
function appResults(body: 'first' | 'any'): Results {
  const contender = (name: string, runs: object[]) => ({
    name,
    status: 'ok',
    points: [{ runs, rps: { median: 1000 }, latency_ms: { p50: 5, p99: 9 }, cpu_us_per_req: 300, rss_mb: 80 }],
  });
  return {
    settings: { apps: [{ name: 'your-app', command: 'node s.mjs', path: '/', body }], target_ci_pct: 10 },
    // Two windows of bodies of changing length: 100 responses of 10,000 B and 100 of 12,000 B, the first verified
    // at 9,000 B.
    contenders: [
      contender('your-app', [run(100, 1_000_000, 9000), run(100, 1_200_000, 9000)]),
      contender('node-raw-iovalkey', [run(100, 2_000_000, 20_000)]),
    ],
  } as unknown as Results;
}

describe('--app in the report', () => {
  test('an answer whose interval has no ends (one round: Infinity, null read back) is open, too few rounds', () => {
    const answer = { question: 'yours: x', a: 'your-app', b: 'node-raw-iovalkey', verdict: 'undecided', ratio: 1.2 };
    for (const [lo, hi] of [
      [0, Number.POSITIVE_INFINITY],
      [null, null],
    ]) {
      const an = {
        results: { settings: { target_ci_pct: 10 } },
        answers: [{ ...answer, lo, hi, short: 'need 3 rounds' }],
      } as unknown as Analysis;
      expect(answerText(an, 'your-app')).toEqual([
        '- open against `node-raw-iovalkey`: too few rounds for an interval ' +
          '(need 3 rounds; a longer `--budget`, or more `--runs`, buys rounds)',
      ]);
    }
  });

  test('--body any: the status only, and the body column the mean served size, said to be a mean', () => {
    const an = { results: appResults('any'), answers: [] } as unknown as Analysis;
    const y = yoursOf(an.results)!;
    an.yours = y;
    expect(y.rows.map((r) => [r.name, r.body_bytes, r.body_mean])).toEqual([
      ['your-app', 11_000, true],
      ['node-raw-iovalkey', 20_000, false],
    ]);
    const text = yoursSection(an);
    expect(text).toContain('any non-empty body (`--body any`: the status checked, not the length or the bytes)');
    expect(text).toContain('| mean 11,000 B |');
    expect(text).toContain('| 20,000 B |');
    expect(text).not.toMatch(/length checked/);
    // Held to its first response, the app's body is the one verified.
    const first = yoursOf(appResults('first'))!;
    expect(first.rows[0]).toMatchObject({ body_bytes: 9000, body_mean: false });
  });

  test('an app out of the run says why under its table; one that reads no Redis is said to, beside its answers', () => {
    const out = appResults('first');
    Object.assign(out.contenders[0]!, { status: 'invalid', reason: 'run 1: the body changed under load', points: [] });
    const an = { results: out, answers: [] } as unknown as Analysis;
    an.yours = yoursOf(out)!;
    const text = yoursSection(an);
    expect(text).toContain('- `your-app` is invalid: run 1: the body changed under load; nothing of it is counted');
    // Its size is unknown, not a second size: one body measured, so none differs.
    expect(text).not.toContain('The bodies differ in size');
    const none = appResults('first');
    for (const r of none.contenders[0]!.points[0]!.runs) r.commands_by_name = {};
    const quiet = { results: none, answers: [] } as unknown as Analysis;
    quiet.yours = yoursOf(none)!;
    expect(yoursSection(quiet)).toContain(
      '`your-app` made no Redis call per response (a cache or a static route?): its answers compare it with stacks',
    );
    expect(text).not.toContain('made no Redis call');
  });

  test("the table's row: req/s, p50 and p99 (one decimal under 10 ms), CPU µs, memory; two sizes differ", () => {
    const an = { results: appResults('first'), answers: [] } as unknown as Analysis;
    an.yours = yoursOf(an.results)!;
    const [mine, other] = an.yours.rows;
    Object.assign(mine!, { rps: 12_345.6, p50: 4.26, p99: 23.7, cpu_us: 301.4, rss_mb: 80.4 });
    Object.assign(other!, { rps: 9_000, p50: 12.4, p99: 9.96, cpu_us: 1_234.5, rss_mb: 61 });
    const text = yoursSection(an);
    expect(text).toContain(
      '| **`your-app`** | 12,346 | 4.3 ms | 24 ms | 301 µs | 80 MB | XRANGE 1.00 | 9,000 B |\n' +
        '| `node-raw-iovalkey` | 9,000 | 12 ms | 10.0 ms | 1,235 µs | 61 MB | XRANGE 1.00 | 20,000 B |',
    );
    // Two sizes, 9,000 B and 20,000 B: the bodies differ.
    expect(text).toContain('The bodies differ in size, so the work per response differs');
    expect(text).toContain('measured in the same rounds as the stacks beside it.');
    // Two versions of the app and no stack: measured beside each other, the first as the second's twin, named.
    an.yours.rows = an.yours.rows.map((r, i) => ({ ...r, yours: true, name: i ? 'v2@base' : 'v2' }));
    an.yours.apps = [an.yours.apps[0]!, { ...an.yours.apps[0]!, name: 'v2' }];
    expect(yoursSection(an)).toContain('measured in the same rounds as each other.');
    expect(yoursSection(an)).toContain('| **`v2@base`** (`your-app`) | 9,000 |');
  });

  test("a decided answer: faster or slower, its ratio and its interval low end first, as the head's own figure", () => {
    const answer = { question: 'yours: x', a: 'your-app', b: 'b', verdict: 'faster', ratio: 1.2, lo: 1.1, hi: 1.3 };
    const an = (a: object) => ({ results: { settings: { target_ci_pct: 10 } }, answers: [a] }) as unknown as Analysis;
    expect(answerText(an(answer), 'your-app')).toEqual(['- **faster** than `b`: 20% (10%…30%)']);
    const slower = { ...answer, ratio: 0.8, lo: 0.75, hi: 0.9 };
    expect(answerText(an(slower), 'your-app')).toEqual(['- **slower** than `b`: -20% (-25%…-10%)']);
  });

  test('two --app: head is your second version by its command; --app with --against, the folder as it is', () => {
    const r = (kind: string) =>
      ({
        settings: {
          apps: [
            { name: 'your-app', command: 'node v1.mjs' },
            { name: 'your-app-2', command: 'node v2.mjs' },
          ].slice(0, kind === 'app' ? 2 : 1),
          against: { kind, spec: kind === 'app' ? 'node v1.mjs' : 'HEAD~1', commit: 'f'.repeat(40), equal_pct: 2 },
        },
        changes: { comparisons: [{}], answers: [{ a: 'your-app-2', out: 'x' }] },
      }) as unknown as Results;
    const section = (x: Results) =>
      changesSection({
        results: x,
        handicap: [],
        changeSeen: new Map(),
        procedures: { 'signed-rank': { sentence: '' } },
      } as unknown as Analysis);
    expect(section(r('app'))).toStartWith(
      '**Changes**: your second version (`--app "node v2.mjs"`) (head) against your first version ' +
        '(`--app "node v1.mjs"`) (base)',
    );
    expect(section(r('ref'))).toStartWith("**Changes**: your app's folder as it is (head) against `HEAD~1`");
  });

  test('the inputs --against compares are listed from where run/inputs.ts reads them: raw-reader, bunfig', () => {
    const r = {
      changes: { comparisons: [{}], inputs: { unchanged: ['a', 'b'], measured_unchanged: false } },
    } as unknown as Results;
    expect(INPUTS_WORDS).toBe(
      'app folder, packages/stream, packages/raw-reader, root package.json, root bun.lock, root bunfig.toml, ' +
        'build script',
    );
    expect(inputsLine(r)).toContain(`(${INPUTS_WORDS})`);
    // run/inputs.ts takes its paths from the same list: none of them named there by hand.
    const source = readFileSync(join(ROOT, 'packages/harness/src/run/inputs.ts'), 'utf8');
    expect(source).toContain('CHECKOUT_INPUTS.hashed.map(');
    expect(source).toContain('CHECKOUT_INPUTS.install');
    expect([...CHECKOUT_INPUTS.hashed, CHECKOUT_INPUTS.install]).toContain('packages/raw-reader');
  });
});

/** Node 24's stderr when its port is taken (the port and the line numbers of node:net as they were). */
const EADDRINUSE = `node:events:505
    throw er; // Unhandled 'error' event
    ^

Error: listen EADDRINUSE: address already in use 127.0.0.1:44091
    at Server.setupListenHandle [as _listen2] (node:net:2328:16)
    at listenInCluster (node:net:2437:12)
    at node:net:2666:7
    at process.processTicksAndRejections (node:internal/process/task_queues:90:21)
Emitted 'error' event on Server instance at:
    at emitErrorNT (node:net:2416:8)
    at process.processTicksAndRejections (node:internal/process/task_queues:90:21) {
  code: 'EADDRINUSE',
  errno: -98,
  syscall: 'listen',
  address: '127.0.0.1',
  port: 44091
}

Node.js v24.21.0`;

describe('--app that cannot be measured', () => {
  test("a failed start's last output: the error's own line, not a stack frame nor Node's version", () => {
    expect(tellingLine(EADDRINUSE.split('\n'))).toBe(
      'Error: listen EADDRINUSE: address already in use 127.0.0.1:44091',
    );
    expect(tellingLine(['boom: no config file'])).toBe('boom: no config file');
    expect(tellingLine(['x', 'TypeError: a is not a function', '    at f (/app/s.mjs:1:1)', 'y'])).toBe(
      'TypeError: a is not a function',
    );
    expect(tellingLine([])).toBeUndefined();
    // Deno colours its error line even into a pipe, and prints the throwing source line under it.
    const deno = [
      '\x1b[0m\x1b[1m\x1b[31merror\x1b[0m: Uncaught (in promise) Error: REDIS_TIMEOUT="bogus" is not valid',
      '      throw new Error(message);',
      '\x1b[0m\x1b[36m    at\x1b[0m settingsFromEnv (file:///app/settings.ts:174:13)',
    ];
    expect(tellingLine(deno)).toBe('error: Uncaught (in promise) Error: REDIS_TIMEOUT="bogus" is not valid');
  });

  test('--body FILE the app does not serve: where, a short excerpt of each, and the fixes', () => {
    const diff = firstDifference('{"colors":["red"]}', '{"colors":["blue"]}')!;
    expect(fileDiffers('/colors', '/tmp/want.json', diff)).toBe(
      "--app: GET /colors's body differs from --body /tmp/want.json at byte 12 (got 18 chars, want 19): " +
        'got "{\\"colors\\":[\\"red\\"]}", want "{\\"colors\\":[\\"blue\\"]}"; correct the file, or use --body first ' +
        'to hold the app to its first response',
    );
  });

  test('an app that ignores PORT and listens elsewhere: says where it listens and to read PORT', async () => {
    // The port it took, found from its process's own sockets.
    const listen = "require('http').createServer((q, s) => s.end('x')).listen(0, '127.0.0.1', () => console.log('up'))";
    const child = spawn('node', ['-e', listen], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise((resolve) => child.stdout!.once('data', resolve));
      expect(listeningPorts([child.pid!]).length).toBe(1);
    } finally {
      child.kill('SIGKILL');
    }
    expect(notReady(2000, 3001, [3000])).toBe(
      'not ready within 2s: it listens on :3000, not PORT=3001; read PORT from the environment',
    );
    expect(notReady(2000, 3001, [])).toBe('not ready within 2s (raise --start-timeout if it is just slow)');
    // Started as a contender is, with PORT in its environment, it is told so.
    const c = { name: 'deaf', start: ['node', '-e', listen], appDir: ROOT, path: '/' } as unknown as Contender;
    const started = startApp(c, { env: {}, timeoutMs: 1500 });
    await expect(started).rejects.toThrow(AppError);
    await expect(started).rejects.toThrow(/^not ready within 1\.5s: it listens on :\d+, not PORT=\d+; read PORT from/);
  });
});

describe('--app flags said again for a resume', () => {
  const app = { name: 'your-app', command: 'node s.mjs', path: '/', body: 'first' as const, cwd: '/srv/my app' };
  test('each --app, then the flags they share, defaults left out; what an older record lacks is named', () => {
    expect(appFlagsOf([app])).toBe('--app "node s.mjs" --cwd "/srv/my app"');
    const two = [
      { ...app, name: 'v1', path: '/colors', body: 'file' as const, body_file: '/srv/want.json' },
      { ...app, name: 'v2', command: 'env X=1 node s.mjs' },
    ];
    expect(appFlagsOf(two)).toBe(
      '--app "node s.mjs" --app "env X=1 node s.mjs" --app-name v1,v2 --cwd "/srv/my app" --path /colors ' +
        '--body "/srv/want.json"',
    );
    expect(appFlagsOf([{ ...app, body: 'any' }])).toEndWith(' --body any');
    // Two apps at their default names: no --app-name.
    expect(appFlagsOf([app, { ...app, name: 'your-app-2', command: 'node t.mjs' }])).toBe(
      '--app "node s.mjs" --app "node t.mjs" --cwd "/srv/my app"',
    );
    expect(unrecordedFlags([app])).toBe('');
    const { cwd: _, ...older } = app;
    expect(unrecordedFlags([{ ...older, body: 'file' }])).toBe(' and the --cwd and --body it ran with');
  });

  test('a resume whose folder git listed at the start and cannot list now is refused, not run unchecked', () => {
    // The run's folder: an interrupted run of one app, its folder's files hashed at the start (git listed them).
    const run = mkdtempSync(join(tmpdir(), 'resume-'));
    const folder = mkdtempSync(join(tmpdir(), 'not-in-git-'));
    const recorded = { ...app, cwd: folder, source_sha256: 'a'.repeat(64) };
    const r = defaultRun();
    writeFileSync(
      join(run, 'results.json'),
      JSON.stringify({ ...r, complete: false, settings: { ...r.settings, apps: [recorded] } }),
    );
    const spec = { name: app.name, command: app.command, argv: ['node', 's.mjs'], cwd: folder, path: '/' };
    // Outside any repository now (moved out of its own): git lists nothing, so no change could be seen.
    expect(() => resumedResults(run, [{ ...spec, body: { from: 'first' } }])).toThrow(
      `${run}: your-app's folder ${folder} cannot be listed by git now, as it was when the run started`,
    );
    rmSync(run, { recursive: true });
    rmSync(folder, { recursive: true });
  });
});

describe("an --app's line in the run log", () => {
  test('its Redis commands per response by name; one under 0.005 per response is left out, none said as none', () => {
    const run = (commands_by_name: Record<string, number>) =>
      ({
        rps: 812.4,
        latency_ms: { p50: 4.26 },
        cpu_us_per_req: 950.2,
        redis_calls_per_req: 1,
        ok: 1000,
        commands_by_name,
      }) as any;
    expect(runLine(run({ xrange: 1000, ping: 4 }), true)).toBe(
      '812 req/s, p50 4.3 ms, 950 µs CPU/req, XRANGE 1.00 per req',
    );
    expect(runLine(run({ get: 2000, ping: 6 }), true)).toBe(
      '812 req/s, p50 4.3 ms, 950 µs CPU/req, GET 2.00, PING 0.01 per req',
    );
    expect(runLine(run({ ping: 3 }), true)).toEndWith(', no Redis call');
    // A contender's line: the workload's command counted, not by name.
    expect(runLine(run({ xrange: 1000 }))).toEndWith(', 1.00 calls/req');
  });
});
