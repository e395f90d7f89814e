// npm test and npm run test:unit: the suite in two lanes, one after the other (docs/testing.md).
//   shared: tests/unit, tests/integration and tests/browser, files spread over parallel workers (bun test
//           --parallel): they check behaviour, share nothing a neighbour can break, and hold on a machine 3× slower;
//   alone:  tests/alone, one file at a time with nothing beside it: tests that measure time, CPU or load, and tests
//           that rebuild the apps' shared build outputs as a user's command does.
// Then the slowest files, and one closing line: "N passed, N failed, N skipped". Exit 0 only if both lanes pass.
// Both run in a TMPDIR of the suite's own, removed at the end (kept if a lane failed), whatever runs from it killed.
//   bun scripts/test.ts [unit] [--workers N] [--timings-out FILE] [-- bun test flags]
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { availableParallelism } from 'node:os';

const ROOT = join(import.meta.dir, '..');
const TIMINGS = 'tests/timings.json';

interface Lane {
  name: string;
  dirs: string[];
  workers: number;
}

interface FileResult {
  file: string;
  lane: string;
  seconds: number;
  tests: number;
  failed: number;
  skipped: number;
}

function usage(message: string): never {
  console.error(`test: ${message}; usage: bun scripts/test.ts [unit] [--workers N] [--timings-out FILE] [-- FLAGS]`);
  process.exit(2);
}

function parseArgs(argv: string[]) {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const passed = dash < 0 ? [] : argv.slice(dash + 1);
  let unit = false;
  // One worker per CPU. One more kept 2 CPUs 96% busy and ended the lane in 501 s against 589 s, but on a VM 3.5×
  // slower its load average of 5–8 blurred what short runs measure: five fresh-clone runs in six failed one test each
  // (docs/runs/tests.md). A test that holds on a machine 3× slower must not depend on its neighbours' load.
  let workers = Math.min(8, availableParallelism());
  let timingsOut: string | null = null;
  for (let i = 0; i < own.length; i++) {
    const a = own[i]!;
    if (a === 'unit') unit = true;
    else if (a === '--workers') {
      workers = Number(own[++i]);
      if (!Number.isInteger(workers) || workers < 1) usage(`--workers "${own[i]}" must be a whole number ≥ 1`);
    } else if (a === '--timings-out') timingsOut = own[++i] ?? usage('--timings-out needs a file');
    else usage(`"${a}" is not accepted`);
  }
  return { unit, workers, timingsOut, passed };
}

/** The file results of one lane's JUnit report (bun test --reporter=junit): each test file is a top-level suite. */
export function fileResults(xml: string, lane: string): FileResult[] {
  const out: FileResult[] = [];
  for (const m of xml.matchAll(/<testsuite\s[^>]*>/g)) {
    const tag = m[0];
    const file = attrOf(tag, 'file') || attrOf(tag, 'name');
    // Nested suites (describe blocks) carry the same file: only the file's own suite, named by its path, counts.
    if (attrOf(tag, 'name') !== file) continue;
    out.push({
      file,
      lane,
      seconds: Number(attrOf(tag, 'time') || 0),
      tests: Number(attrOf(tag, 'tests') || 0),
      failed: Number(attrOf(tag, 'failures') || 0) + Number(attrOf(tag, 'errors') || 0),
      skipped: Number(attrOf(tag, 'skipped') || 0),
    });
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(Number(e[1] === 'x' ? `0${e.slice(1)}` : e.slice(1))) : (ENTITIES[e] ?? m),
  );

/** How many lines of a failure's text the closing summary prints (a CLI run's log tail included). */
const FAILURE_LINES = 40;

const attrOf = (tag: string, name: string) =>
  unescapeXml(new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(tag)?.[1] ?? '');

/**
 * The failed tests of one lane's JUnit report: file, the test's name (after its describe's), and its failure's text
 * (its message where bun wrote no text: a timeout's `<failure message="test timed out" />`).
 */
export function failedTests(xml: string): { file: string; name: string; message: string }[] {
  const out = [];
  for (const m of xml.matchAll(/<testcase\s([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const f = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(m[2] ?? '');
    if (!f) continue;
    const group = attrOf(m[1]!, 'classname');
    const text = unescapeXml(f[3] ?? '').trim() || attrOf(f[2]!, 'message');
    out.push({
      file: attrOf(m[1]!, 'file'),
      name: `${group ? `${group} > ` : ''}${attrOf(m[1]!, 'name')}`,
      message: text,
    });
  }
  return out;
}

/**
 * A failure's text as the closing list prints it: the stack's "at" lines off its end, then at most FAILURE_LINES,
 * its first lines and its last (where explained() in tests/helpers/cli.ts puts the run's log tail).
 */
export function failureLines(message: string): string[] {
  const lines = message.split('\n');
  while (lines.length && /^\s+at /.test(lines.at(-1)!)) lines.pop();
  if (lines.length <= FAILURE_LINES) return lines;
  const head = 12;
  const tail = FAILURE_LINES - head;
  return [...lines.slice(0, head), `… ${lines.length - FAILURE_LINES} lines …`, ...lines.slice(-tail)];
}

type LaneResult = Awaited<ReturnType<typeof runLane>> & { lane: Lane };

/** A lane that failed with no file saying so (a file that did not load): a failure JUnit names no test for. */
const failedUnnamed = (r: LaneResult) => r.code !== 0 && !r.files.some((f) => f.failed);

/**
 * The closing list, where a log cut to its last part still shows it: each failed test with its text, then each
 * failure no test is named for (a throw outside a test: at load, in a hook), by file, or by lane where no file said it
 * (not when the suite was stopped: its signal, not a file, ended the lane).
 */
export function closingList(results: LaneResult[], stopped = false): string[] {
  const failures = results.flatMap((r) => r.failures);
  const lines = failures.flatMap((f) => [
    `  ${f.file} > ${f.name}`,
    ...failureLines(f.message).map((l) => (l ? `    ${l}` : '')),
  ]);
  for (const f of results.flatMap((r) => r.files)) {
    const n = f.failed - failures.filter((x) => x.file === f.file).length;
    if (n > 0) lines.push(`  ${f.file}: ${n} failed outside a test (at load or in a hook): see lane ${f.lane}'s log`);
  }
  for (const r of stopped ? [] : results.filter(failedUnnamed))
    lines.push(`  lane ${r.lane.name} exited ${r.code}, no test failed (a file that did not load?): see its log`);
  return lines.length ? ['', 'failed tests:', ...lines] : [];
}

/** The lane's `bun test` while it runs, and the signal that stopped the suite: it is passed on, and no lane follows. */
let running: ChildProcess | null = null;
let interrupted: 'SIGINT' | 'SIGTERM' | null = null;

async function runLane(
  lane: Lane,
  passed: string[],
  dir: string,
  scratch: string,
): Promise<{ code: number; files: FileResult[]; failures: ReturnType<typeof failedTests>; wall: number }> {
  const xml = join(dir, `${lane.name}.xml`);
  const args = [
    'test',
    ...lane.dirs,
    '--timeout',
    '600000',
    '--dots',
    `--reporter-outfile=${xml}`,
    '--reporter=junit',
    ...(lane.workers > 1
      ? [`--parallel=${lane.workers}`, ...(existsSync(join(ROOT, TIMINGS)) ? [`--timings=${TIMINGS}`] : [])]
      : []),
    ...passed,
  ];
  console.log(`\n== lane ${lane.name}: ${lane.dirs.join(', ')} (${lane.workers} worker${lane.workers > 1 ? 's' : ''})`);
  const t0 = performance.now();
  const child = spawn('bun', args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, TMPDIR: scratch } });
  running = child;
  const code = await new Promise<number>((done) => child.on('exit', (c) => done(c ?? 1)).on('error', () => done(1)));
  running = null;
  const wall = (performance.now() - t0) / 1000;
  let files: FileResult[] = [];
  let failures: ReturnType<typeof failedTests> = [];
  try {
    const report = readFileSync(xml, 'utf8');
    files = fileResults(report, lane.name);
    failures = failedTests(report);
  } catch {}
  return { code, files, failures, wall };
}

/**
 * The processes still running from the suite's folder: its TMPDIR in their environment, or their working folder in it
 * (Redis, which writes its title over its environment, runs in its --dir). A test interrupted leaves them: they are
 * killed, and their command names returned.
 */
export function stopStrays(scratch: string): string[] {
  const mark = `TMPDIR=${scratch}\0`;
  const names: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8');
      const cwd = `${readlinkSync(`/proc/${pid}/cwd`)}/`;
      if (!env.startsWith(mark) && !env.includes(`\0${mark}`) && !cwd.startsWith(`${scratch}/`)) continue;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]!;
      process.kill(Number(pid), 'SIGKILL');
      names.push(`${basename(cmd.split(' ')[0]!)}-${pid}`);
    } catch {}
  }
  return names;
}

/** Entries grouped by their name without mkdtemp's suffix (or a pid): "bench-test ×71, manifest ×9". */
export function leftovers(names: string[]): string {
  const count = new Map<string, number>();
  for (const n of names) {
    const prefix = n.replace(/-([A-Za-z0-9]{6}|\d+)$/, '');
    count.set(prefix, (count.get(prefix) ?? 0) + 1);
  }
  return [...count]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([p, n]) => (n > 1 ? `${p} ×${n}` : p))
    .join(', ');
}

async function main(): Promise<number> {
  const { unit, workers, timingsOut, passed } = parseArgs(process.argv.slice(2));
  const lanes: Lane[] = unit
    ? [{ name: 'unit', dirs: ['tests/unit'], workers }]
    : [
        { name: 'shared', dirs: ['tests/unit', 'tests/integration', 'tests/browser'], workers },
        { name: 'alone', dirs: ['tests/alone'], workers: 1 },
      ];
  // The tests, the runs they start and the apps get a temporary folder of the suite's own (TMPDIR), removed at the end:
  // what a test killed on purpose (a harness, a Redis) leaves there goes with it. What was left is named.
  const dir = mkdtempSync(join(tmpdir(), 'bench-tests-'));
  const scratch = join(dir, 'tmp');
  mkdirSync(scratch);
  // Ctrl-C reaches the lane's bun test too; either way this process outlives it, to remove the folder and report.
  for (const s of ['SIGINT', 'SIGTERM'] as const)
    process.on(s, () => {
      interrupted = s;
      running?.kill(s);
    });
  const results = [];
  for (const l of lanes) if (!interrupted) results.push({ lane: l, ...(await runLane(l, passed, dir, scratch)) });
  const strays = stopStrays(scratch);
  const left = readdirSync(scratch);
  // A failed lane's runs (results.json, the apps' output) stay for reading; a passing suite keeps nothing.
  const keep = results.some((r) => r.code !== 0) && !interrupted;
  if (keep) console.log(`\na lane failed: its runs stay in ${scratch}`);
  else rmSync(dir, { recursive: true, force: true });
  if (strays.length)
    console.log(`\nstill running under the suite's temporary folder, now killed: ${leftovers(strays)}`);
  if (left.length && !keep) console.log(`\nthe suite's temporary folder held, and no longer holds: ${leftovers(left)}`);
  const files = results.flatMap((r) => r.files);
  const sum = (k: 'tests' | 'failed' | 'skipped') => files.reduce((s, f) => s + f[k], 0);
  for (const line of closingList(results, interrupted !== null)) console.log(line);
  console.log('\nslowest files (seconds, lane):');
  for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 10))
    console.log(`  ${f.seconds.toFixed(1).padStart(7)}  ${f.lane.padEnd(6)} ${f.file}`);
  for (const r of results) console.log(`lane ${r.lane.name}: ${r.wall.toFixed(0)} s, exit ${r.code}`);
  // bun test's own format (--timings): the shared lane reads tests/timings.json to start its slowest files first.
  if (timingsOut) {
    const ms = Object.fromEntries(files.map((f) => [f.file, Math.round(f.seconds * 1000)]));
    writeFileSync(timingsOut, `${JSON.stringify({ version: 1, files: ms }, null, 2)}\n`);
  }
  // A lane that failed before reporting (a file that did not load) counts as a failure even with no failed test.
  const failed = sum('failed') + results.filter(failedUnnamed).length;
  console.log(`${sum('tests') - sum('failed') - sum('skipped')} passed, ${failed} failed, ${sum('skipped')} skipped`);
  if (interrupted) {
    console.log(`stopped by ${interrupted}${results.length < lanes.length ? ': not every lane ran' : ''}`);
    return interrupted === 'SIGINT' ? 130 : 143;
  }
  return results.every((r) => r.code === 0) ? 0 : 1;
}

if (import.meta.main) process.exit(await main());
