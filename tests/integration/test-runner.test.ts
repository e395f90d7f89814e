// npm test's runner (scripts/test.ts) cleans up after the suite: what still runs from the suite's temporary folder is
// killed and named, what the folder held is named by kind.
import { expect, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { closingList, failedTests, failureLines, fileResults, leftovers, stopStrays } from '../../scripts/test';
import { isAlive } from '../../packages/harness/src/system/proc';
import { ROOT } from '../../packages/harness/src/system/paths';

test("the suite's runner kills what runs from its folder (by TMPDIR or working folder), nothing else", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-'));
  mkdirSync(join(dir, 'redis'));
  const sleep = (opts: { env?: NodeJS.ProcessEnv; cwd?: string }): ChildProcess =>
    spawn('sleep', ['30'], { stdio: 'ignore', ...opts });
  const byEnv = sleep({ env: { ...process.env, TMPDIR: dir } });
  const byCwd = sleep({ cwd: join(dir, 'redis'), env: { PATH: process.env.PATH } });
  const other = sleep({ env: { ...process.env, TMPDIR: `${dir}-other` } });
  try {
    // Until each has exec'd sleep (before, a child has this process's environment and folder), at most 5 s.
    const execd = (p: ChildProcess) => readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').startsWith('sleep');
    for (let i = 0; i < 250 && ![byEnv, byCwd, other].every(execd); i++) await Bun.sleep(20);
    const names = stopStrays(dir);
    expect(names.sort()).toEqual([`sleep-${byEnv.pid}`, `sleep-${byCwd.pid}`].sort());
    expect(leftovers(names)).toBe('sleep ×2');
    for (let i = 0; i < 50 && (isAlive(byEnv.pid!) || isAlive(byCwd.pid!)); i++) await Bun.sleep(20);
    expect([isAlive(byEnv.pid!), isAlive(byCwd.pid!), isAlive(other.pid!)]).toEqual([false, false, true]);
    expect(leftovers(['bench-test-Ab3dE9', 'bench-test-xY12zq', 'rdb-QQQQQQ', 'node-compile-cache'])).toBe(
      'bench-test ×2, node-compile-cache, rdb',
    );
  } finally {
    other.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stray whose environment starts with its TMPDIR is killed; one working in a sibling folder is not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-'));
  mkdirSync(`${dir}-sibling`);
  const first = spawn('sleep', ['30'], { stdio: 'ignore', env: { TMPDIR: dir, PATH: process.env.PATH } });
  const sibling = spawn('sleep', ['30'], { stdio: 'ignore', cwd: `${dir}-sibling`, env: { PATH: process.env.PATH } });
  try {
    const execd = (p: ChildProcess) => readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').startsWith('sleep');
    for (let i = 0; i < 250 && ![first, sibling].every(execd); i++) await Bun.sleep(20);
    expect(stopStrays(dir)).toEqual([`sleep-${first.pid}`]);
    for (let i = 0; i < 50 && isAlive(first.pid!); i++) await Bun.sleep(20);
    expect([isAlive(first.pid!), isAlive(sibling.pid!)]).toEqual([false, true]);
  } finally {
    for (const p of [first, sibling]) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}-sibling`, { recursive: true, force: true });
  }
});

/** A root of its own holding scripts/test.ts as it is now and these test files; the runner's TMPDIR is `tmp` in it. */
function fakeRoot(files: Record<string, string>): { root: string; tmp: string } {
  const root = mkdtempSync(join(tmpdir(), 'runner-root-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(ROOT, 'scripts/test.ts'), join(root, 'scripts/test.ts'));
  for (const d of ['tests/unit', 'tests/alone', 'tmp']) mkdirSync(join(root, d), { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(root, f), text);
  return { root, tmp: join(root, 'tmp') };
}

/** Runs the fake root's runner to its end (at most 90 s; `during` sees it running): its exit code and stdout. */
async function runner(root: string, args: string[], during?: (p: ChildProcess) => Promise<void>) {
  const env = { ...process.env, TMPDIR: join(root, 'tmp'), PATH: `${dirname(process.execPath)}:${process.env.PATH}` };
  const p = spawn(process.execPath, ['scripts/test.ts', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  p.stdout!.on('data', (b) => (out += b));
  p.stderr!.on('data', () => {});
  const exited = new Promise<number | null>((r) => p.on('exit', (c) => r(c)));
  const timer = setTimeout(() => p.kill('SIGKILL'), 90_000);
  await during?.(p);
  const code = await exited;
  clearTimeout(timer);
  return { code, out };
}

const PASS = "import { test } from 'bun:test';\ntest('passes', () => {});\n";
/** A file whose first test leaves a file in TMPDIR and a process running (its pid written to STRAY) and passes. */
const LEAVES = `import { expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
test('leaves', async () => {
  writeFileSync(\`\${tmpdir()}/left-Ab3dE9\`, '');
  const s = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  s.unref();
  if (process.env.STRAY) writeFileSync(process.env.STRAY, String(s.pid));
  // Until it has exec'd sleep (before, it is a copy of this process), at most 5 s.
  const cmd = () => readFileSync(\`/proc/\${s.pid}/cmdline\`, 'utf8');
  for (let i = 0; i < 250 && !cmd().startsWith('sleep'); i++) await Bun.sleep(20);
});
`;

test('the runner exits 1 when a test fails, keeps and names its folder, kills strays, writes timings', async () => {
  const failing = `${LEAVES}test('fails', () => expect(1).toBe(2));\n`;
  const { root, tmp } = fakeRoot({ 'tests/unit/a.test.ts': failing, 'tests/alone/b.test.ts': PASS });
  const stray = join(root, 'stray.pid');
  process.env.STRAY = stray;
  try {
    const { code, out } = await runner(root, ['--workers', '2', '--timings-out', join(root, 't.json')]);
    expect(code).toBe(1);
    expect(out).toContain('== lane shared: tests/unit, tests/integration, tests/browser (2 workers)');
    expect(out).toContain('== lane alone: tests/alone (1 worker)');
    expect(out).toContain("still running under the suite's temporary folder, now killed: sleep\n");
    expect(isAlive(Number(readFileSync(stray, 'utf8')))).toBe(false);
    const kept = /a lane failed: its runs stay in (\S+)\n/.exec(out)?.[1];
    expect(kept?.startsWith(`${tmp}/bench-tests-`)).toBe(true);
    expect(readdirSync(kept!)).toEqual(['left-Ab3dE9']);
    expect(out).toMatch(/\nlane shared: \d+ s, exit 1\nlane alone: \d+ s, exit 0\n2 passed, 1 failed, 0 skipped\n/);
    // Named again at the end, with its failure's text, where a log cut to its last part still shows it.
    expect(out).toMatch(
      /\nfailed tests:\n {2}tests\/unit\/a\.test\.ts > fails\n {4}AssertionError: .*\n\n {4}Expected: 2\n/,
    );
    // A failed test is said once: not again as a failure outside a test, nor its lane as one no file explained.
    expect(out).not.toContain('outside a test');
    expect(out).not.toContain('no test failed');
    const timings = JSON.parse(readFileSync(join(root, 't.json'), 'utf8'));
    expect(Object.keys(timings.files).sort()).toEqual(['tests/alone/b.test.ts', 'tests/unit/a.test.ts']);
    for (const ms of Object.values(timings.files)) expect(Number.isInteger(ms)).toBe(true);
  } finally {
    delete process.env.STRAY;
    try {
      process.kill(Number(readFileSync(stray, 'utf8')), 'SIGKILL');
    } catch {}
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);

test('the runner exits 0 when both lanes pass, its folder removed and what it held named', async () => {
  const { root, tmp } = fakeRoot({ 'tests/unit/a.test.ts': LEAVES, 'tests/alone/b.test.ts': PASS });
  try {
    const { code, out } = await runner(root, ['--workers', '1']);
    expect(out).toContain("the suite's temporary folder held, and no longer holds: left\n");
    expect(out).toContain('2 passed, 0 failed, 0 skipped\n');
    expect(code).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);

test("a file's junit suite: its failures and errors (a throw outside a test) both count; its describes once", () => {
  const xml = `<testsuites>
  <testsuite name="a.test.ts" file="a.test.ts" tests="4" failures="1" errors="2" skipped="1" time="1.5">
    <testsuite name="a describe" file="a.test.ts" tests="4" failures="1" errors="2" skipped="1" time="1.5">
    </testsuite>
  </testsuite>
</testsuites>`;
  expect(fileResults(xml, 'unit')).toEqual([
    { file: 'a.test.ts', lane: 'unit', seconds: 1.5, tests: 4, failed: 3, skipped: 1 },
  ]);
});

test("a failed test's file, name and text, read from its junit entry (escapes undone, a timeout's message)", () => {
  const xml = `<testsuite name="a.test.ts" file="a.test.ts" tests="2" failures="1">
    <testcase name="passes" classname="" time="0.1" file="a.test.ts" line="3" assertions="1" />
    <testcase name="a &quot;b&quot; &amp; c" classname="" time="0.2" file="a.test.ts" line="5" assertions="1">
      <failure type="AssertionError" message="m">Error: x &lt; 1&#10;log: it&apos;s lost&#10;</failure>
    </testcase>
    <testcase name="times out" classname="group" time="5" file="a.test.ts" line="9" assertions="0">
      <failure type="TimeoutError" message="test timed out" />
    </testcase>
  </testsuite>`;
  expect(failedTests(xml)).toEqual([
    { file: 'a.test.ts', name: 'a "b" & c', message: "Error: x < 1\nlog: it's lost" },
    { file: 'a.test.ts', name: 'group > times out', message: 'test timed out' },
  ]);
  // Long: its first lines and its last (a run's log tail), the stack's lines off its end.
  const long = [...Array.from({ length: 60 }, (_, i) => `line ${i}`), '      at x (a.ts:1:1)'].join('\n');
  const shown = failureLines(long);
  expect(shown).toHaveLength(41);
  expect(shown.slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, i) => `line ${i}`));
  expect(shown[12]).toBe('… 20 lines …');
  expect(shown.at(-1)).toBe('line 59');
  // At the end: each failed test, then failures no test is named for, by file (a hook's) or by lane (a load's).
  const lane = (name: string) => ({ name, dirs: [], workers: 1 });
  const file = { file: 'a.test.ts', lane: 'unit', seconds: 1, tests: 2, failed: 3, skipped: 0 };
  const closing = closingList([
    { lane: lane('unit'), code: 1, wall: 1, files: [file], failures: failedTests(xml) },
    { lane: lane('alone'), code: 1, wall: 1, files: [], failures: [] },
    { lane: lane('other'), code: 0, wall: 1, files: [], failures: [] },
  ]);
  expect(closing.slice(0, 3)).toEqual(['', 'failed tests:', '  a.test.ts > a "b" & c']);
  expect(closing.slice(-2)).toEqual([
    "  a.test.ts: 1 failed outside a test (at load or in a hook): see lane unit's log",
    '  lane alone exited 1, no test failed (a file that did not load?): see its log',
  ]);
  expect(closingList([{ lane: lane('unit'), code: 0, wall: 1, files: [], failures: [] }])).toEqual([]);
  // Stopped by a signal: the lane's exit is the signal's, not a file's.
  expect(closingList([{ lane: lane('unit'), code: 143, wall: 1, files: [], failures: [] }], true)).toEqual([]);
});

test('a test file that does not load fails the runner, counted as one failure', async () => {
  const { root } = fakeRoot({ 'tests/unit/a.test.ts': "throw new Error('does not load');\n" });
  try {
    const { code, out } = await runner(root, ['unit', '--workers', '1']);
    expect(out).toContain('0 passed, 1 failed, 0 skipped\n');
    // Named at the end too, though no test failed: by its file, or by its lane where JUnit names no file.
    expect(out).toMatch(
      /\nfailed tests:\n {2}(tests\/unit\/a\.test\.ts: 1 failed outside a test|lane unit exited 1, no test)/,
    );
    expect(code).toBe(1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);

test('SIGTERM stops the lane running, starts no other, and the runner exits 143', async () => {
  const slow = `import { test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
test('slow', async () => {
  writeFileSync(\`\${tmpdir()}/started\`, '');
  await Bun.sleep(60_000);
});
`;
  const { root, tmp } = fakeRoot({ 'tests/unit/a.test.ts': slow, 'tests/alone/b.test.ts': PASS });
  try {
    const started = () => readdirSync(tmp).some((d) => existsSync(join(tmp, d, 'tmp', 'started')));
    let termAt = 0;
    const { code, out } = await runner(root, ['--workers', '1'], async (p) => {
      for (let i = 0; i < 500 && !started(); i++) await Bun.sleep(20);
      p.kill('SIGTERM');
      termAt = performance.now();
    });
    // The lane's test sleeps 60 s: stopped by the signal passed on, not at its end.
    expect(performance.now() - termAt).toBeLessThan(20_000);
    expect(out).not.toContain('== lane alone');
    expect(out).toContain('stopped by SIGTERM: not every lane ran');
    expect(code).toBe(143);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);
