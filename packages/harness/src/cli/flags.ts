// The flags of `npm run bench`, each with its help line, and the checks of one flag's value: any bad value is a
// UsageError naming the flag and what it accepts (args.ts turns the flags into settings).
import { accessSync, closeSync, constants, existsSync, openSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WORKLOADS } from '@bench/stream';
import { parseDuration } from '../system/flag-values';
import { WORKLOAD_MODULES } from '../workloads';
import { LAYOUTS } from '../run/options';
import { PLACEMENTS } from '../system/placement';
import { DIMENSIONS } from './select';
import { UsageError } from './usage-error';

export { parseDuration };

/** The workloads that measure a suite of their own (bench.json's suites, under the workload's name). */
const OWN_SUITES = Object.values(WORKLOAD_MODULES).filter((w) => w.suite);

const BEFORE = {
  list: { type: 'boolean', desc: 'print the contender names, one per line, and exit' },
  matrix: {
    type: 'boolean',
    desc: 'every supported runtime × framework × client × setting, not the default suite (budget 45m)',
  },
  only: {
    type: 'string',
    desc: "comma-separated names (any contender) or patterns within the suite, e.g. 'bun-*' (see --list)",
  },
  where: {
    type: 'string',
    desc:
      'only contenders with these dimensions, e.g. ' +
      `runtime=bun,client=ioredis,transform=direct (keys: ${DIMENSIONS.join(', ')})`,
  },
  runs: {
    type: 'string',
    desc:
      'auto (default): 3 rounds for every contender, then rounds only for contenders ' +
      'of "what to pick" comparisons still open; or a fixed count (seed profile 3)',
  },
  'target-ci': {
    type: 'string',
    desc:
      'an answer "equal" needs its whole ratio interval within ± this, in %; with ' +
      '--runs auto, comparisons race until decided or within it (default 10)',
  },
  'max-runs': {
    type: 'string',
    desc:
      'with --runs auto: at most this many runs per contender (default 15 per 15 minutes of --budget, at least 15; ' +
      'a run of pairs only, --against or --handicap alone: no cap but the budget)',
  },
  budget: {
    type: 'string',
    desc:
      'with --runs auto: start no round that would end the suite ' +
      'later than this, e.g. 15m (default 15m; 45m with --matrix)',
  },
  seed: {
    type: 'string',
    desc: 'seed of the shuffled order of every round (default: random, recorded in results.json)',
  },
  duration: {
    type: 'string',
    desc:
      'length of each measured window, e.g. 5s, 500ms, 1m ' +
      '(default 2s with --layout walk or in a run of pairs only, 1s with --layout runtime)',
  },
  windows: {
    type: 'string',
    desc:
      'with --layout walk: walks per round, each measuring every compared pair in adjacent windows ' +
      '(default 1; 2 with --restart-redis); with --layout runtime: measured windows per launch (default 2)',
  },
  layout: {
    type: 'string',
    desc:
      `how a round's windows are laid out in time: ${LAYOUTS.join(' | ')} (default runtime: one block ` +
      "per runtime, windows shuffled per cycle, each twin question's members side by side; walk: " +
      'every contender alive together, a walk measuring each compared pair in adjacent windows)',
  },
  warmup: {
    type: 'string',
    desc:
      'unmeasured warmup of every fresh launch: 0.5 s (or this, if shorter) at one connection, then this long at ' +
      'the measured load; ' +
      '0 to skip both (default 1s)',
  },
  connections: { type: 'string', desc: 'concurrent connections, or a sweep like 1,8,64,256 (default 50)' },
  rate: { type: 'string', desc: "open-loop offered load: 300 (req/s) or 50%,75% of each contender's max" },
  rdb: { type: 'string', desc: 'RDB file to load into the private Redis (default dump.rdb)' },
  entries: {
    type: 'string',
    desc:
      'scaling: run the contenders on generated streams of these ' +
      'sizes, e.g. 339,3390,33900 (one run each, then a linear fit; a read workload only)',
  },
  workload: {
    type: 'string',
    desc:
      `what each request does: ${WORKLOADS.join(' | ')} (default xrange; each of these measures a suite of its ` +
      `own: ${OWN_SUITES.map((w) => `${w.name} (${w.suite!.holds})`).join(', ')}; see docs/usage.md)`,
  },
} as const;

/** The flags a workload owns, each taken only with its workload (workloads/: its module declares and parses them). */
const OWNED = Object.fromEntries(
  Object.values(WORKLOAD_MODULES).flatMap((w) =>
    Object.entries(w.flags).map(([name, f]) => [name, { type: f.type, desc: `with --workload ${w.name}: ${f.desc}` }]),
  ),
) as Record<string, { type: 'string' | 'boolean'; desc: string }>;

const AFTER = {
  profile: { type: 'string', desc: 'default | seed (the original method: 200 requests, 3 runs, third taken)' },
  placement: { type: 'string', desc: `CPU pinning: ${PLACEMENTS.join(' | ')} (default auto)` },
  'start-timeout': { type: 'string', desc: 'how long an app may take to answer after start (default 30s)' },
  server: { type: 'string', desc: 'the private server the apps read: redis | valkey (default redis)' },
  servers: {
    type: 'string',
    desc:
      'measure every contender that reads per request against each of these servers ' +
      'in one run, paired by round, e.g. redis,valkey (twins named -on-<server>)',
  },
  topology: {
    type: 'string',
    desc:
      'single (default) | cluster: also a local Redis Cluster (3 primaries + 3 ' +
      'replicas), each contender against it read from primaries (-on-cluster) and ' +
      'from replicas (-on-cluster-replicas), paired with its single-node self',
  },
  'redis-rtt': {
    type: 'string',
    desc:
      'a delay proxy between every app and Redis with this round-trip time, e.g. 200us or 1ms; a list ' +
      'like 0,1ms,5ms runs once per RTT, then reports req/s and rank at each (default 0: no proxy)',
  },
  'redis-port': { type: 'string', desc: 'port for the private Redis (default: a free one)' },
  'redis-tls': {
    type: 'boolean',
    desc:
      'every app reads the private Redis over TLS (rediss://, a CA and certificate made for the run with openssl, ' +
      'each runtime told to trust it); answers over TLS: never kept beside the plain ones, ' +
      'published only with --publish',
  },
  target: {
    type: 'string',
    desc:
      'measure an app started by hand at this http:// URL (docs/usage.md, Three hosts); ' +
      'needs REDIS_URL, the Redis it reads; --runs N (auto: 3)',
  },
  'target-name': { type: 'string', desc: 'with --target: the name the app gets in results.json (default target)' },
  app: {
    type: 'string',
    multiple: true,
    desc:
      'start your own app with this command (PORT, HOST and REDIS_URL in its environment) and measure it beside ' +
      'the contenders --only names, e.g. --app "node server.js"; twice: your two versions, the second decided ' +
      'against the first as --against decides a change (docs/your-app.md)',
  },
  'app-name': {
    type: 'string',
    desc: 'with --app: its name in the results (default your-app; two apps: a,b, default your-app,your-app-2)',
  },
  cwd: { type: 'string', desc: 'with --app: the folder the command runs in (default: this one)' },
  path: { type: 'string', desc: 'with --app: the route measured, e.g. /colors (default /)' },
  body: {
    type: 'string',
    desc:
      "with --target or --app: the app's own body, from a FILE, or 'first' (its first response), checked byte for " +
      "byte before and after each window; with --app, 'any': the status only, any non-empty body (default: " +
      '--target the contract, --app first)',
  },
  out: { type: 'string', desc: 'directory that receives <timestamp>/ and latest/ (default results)' },
  resume: { type: 'string', desc: 'continue the interrupted run in this results directory' },
  'max-steal': {
    type: 'string',
    desc: 'measure a run again when the hypervisor stole more CPU than this, in % (default 5; 100 = never)',
  },
  ceilings: {
    type: 'boolean',
    desc:
      'also measure the ceilings: each stack serving a precomputed body (HTTP), Redis alone (redis-benchmark) ' +
      'and each runtime + client with no HTTP; with them the report shows efficiency and where the CPU goes ' +
      '(on with --matrix; about 2.5 min of a default run, which goes to the answers without it; a read workload only)',
  },
  'with-seed': {
    type: 'boolean',
    desc:
      "also measure every contender with the seed's method (--profile seed: the third of 3 runs of 200 requests), " +
      "in the same invocation, for the side-by-side table of the run's results.md",
  },
  handicap: {
    type: 'string',
    desc:
      'NAME or NAME:3%: burn CPU per request in this contender so its requests take that ' +
      'much longer (default 10%; calibrated on itself before round 1), under its own ' +
      'name, measured side by side with its plain twin NAME@base: a known change to find (a read workload only)',
  },
  against: {
    type: 'string',
    desc:
      'a git ref (HEAD~1, main, a commit) or a folder of apps: every selected contender whose ' +
      'inputs differ there is measured side by side with its twin from there, named <name>@base, in one run; the ' +
      'answer per pair is head faster, slower or equal within --equal (default budget 10m)',
  },
  pair: {
    type: 'string',
    desc:
      'with --against or --handicap: how each pair is measured: alternate (default: each app alone, adjacent ' +
      'windows), duet (both under load at once, each with its own oha: a difference shows at a share of its ' +
      'size alone) or auto (both ways in the first rounds, then the duet unless the two disagree or its variance ' +
      "per second of measuring is higher than alternating's beyond chance, a one-sided F test at 5%)",
  },
  'pair-unchanged': {
    type: 'boolean',
    desc:
      'with --against: also pair the contenders whose inputs (app folder, packages/stream, lockfile, build ' +
      'script) are the same on both sides; by default only the changed ones are (all of them when none changed)',
  },
  equal: {
    type: 'string',
    desc:
      'with --against or --handicap: a change is "equal" when ' +
      'its whole interval lies within ± this, in % (default 2)',
  },
  'self-check': {
    type: 'string',
    desc: 'bias check: measure these contenders alone too, interleaved with the suite, and print both medians',
  },
  publish: {
    type: 'boolean',
    desc:
      "publish a complete run of other settings to its workload's place (results/latest for reads), README.md and " +
      'screenshots/; never a run of --app, --against or --target, nor of a workload or distance the README has no ' +
      'place for',
  },
  report: {
    type: 'string',
    desc:
      'full (default): results.json, results.md, report.html, the PNG charts and report.png (a headless Chromium); ' +
      'text: results.json, results.md and report.html only, no charts drawn and no browser started ' +
      "(npm run report draws them later, a sweep's own chart included); a run published to README.md is always full",
  },
  quiet: {
    type: 'boolean',
    desc: 'print no progress: no live line or ETA, no line per run; errors and where the results went only',
  },
  strict: { type: 'boolean', desc: 'refuse to start when the machine is busy (load average > CPUs/2)' },
  help: { type: 'boolean', desc: 'show this help' },
} as const;

export const FLAGS = { ...BEFORE, ...OWNED, ...AFTER };

export function usage(): string {
  const lines = Object.entries(FLAGS).map(
    ([name, f]) => `  --${name}${f.type === 'string' ? ' <value>' : ''}`.padEnd(28) + f.desc,
  );
  return ['usage: npm run bench -- [flags]', '', ...lines].join('\n');
}

export function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${flag} "${value}" must be a whole number ≥ 1`);
  return n;
}

export function positiveNumber(flag: string, value: string): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(value.trim()) || !(n > 0))
    throw new UsageError(`--${flag} "${value}" must be a number above 0`);
  return n;
}

export function percent(flag: string, value: string): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(value.trim()) || n > 100)
    throw new UsageError(`--${flag} "${value}" must be a percentage from 0 to 100`);
  return n;
}

export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${flag} "${value}" is not accepted; use one of: ${allowed.join(', ')}`);
  return value as T;
}

/**
 * parseArgs's refusal in the words of these commands: "unknown flag --kpet", "--out needs a value" (its own advice, to
 * pass the flag as a positional after `--`, would send a misspelt flag on as a path).
 */
export function parseArgsError(e: Error): string {
  const m = e.message;
  const unknown = /^Unknown option '(-[^']+)'/.exec(m)?.[1];
  if (unknown) return `unknown flag ${unknown}`;
  // A single dash (-kept) is read as short flags, and the first letter named alone: every flag here takes two.
  const letter = /^Unknown option '([^-'])'/.exec(m)?.[1];
  if (letter) return `unknown flag -${letter} (every flag here starts with two dashes)`;
  const missing = /^Option '(--[\w-]+)[^']*' argument (missing|is ambiguous)/.exec(m)?.[1];
  if (missing) return `${missing} needs a value`;
  return m.split('\n')[0]!;
}

/**
 * `--flag -5` → `--flag=-5` for a flag that takes a value, when the value looks like a number:
 * parseArgs would call it "ambiguous"; joined, it reaches the flag's own check, which names
 * what the flag accepts.
 */
export function withDashValues(argv: string[], options: Record<string, { type: string }>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = /^--([^=]+)$/.exec(argv[i]!)?.[1];
    const next = argv[i + 1];
    if (flag && options[flag]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next))
      out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}

/**
 * Why --out `value` (resolved to `at`) cannot take a run's or a pool's files, or null: empty, a file, under a file, or
 * under a folder that cannot be written (a missing folder is made).
 */
export function outFolderProblem(value: string, at: string): string | null {
  const made = ' (made if missing)';
  if (!value.trim()) return `--out is empty; give a folder${made}`;
  if (existsSync(at) && !statSync(at).isDirectory()) return `--out ${value} is a file; give a folder${made}`;
  let up = at;
  while (!existsSync(up)) up = dirname(up);
  if (!statSync(up).isDirectory()) return `--out ${value}: ${up} is a file; give a folder${made}`;
  const refused = `--out ${value}: ${up} cannot be written; give a folder you can write`;
  try {
    accessSync(up, constants.W_OK);
  } catch {
    return refused;
  }
  // As root, access() says yes to everything. A file made and removed in the folder the run writes in (or the one it
  // is made in) asks the filesystem itself (/proc, /sys, an existing /proc/1/fd); a file, as a folder made in some
  // (cgroup) is no file.
  const probe = join(up, `.out-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch {
    return refused;
  }
  rmSync(probe, { force: true });
  return null;
}
