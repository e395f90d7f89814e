// Command-line flags → validated settings. Any bad input is a UsageError (exit 2).
import { parseArgs } from 'node:util';
import { SETTINGS, WORKLOADS, type SettingDef, type Workload } from '@bench/stream';
import { HANDICAP_PCT } from '../model/questions';
import { PLACEMENTS } from '../system/placement';
import { targetFlags } from './target-flags';
import { KEY_SPACES } from '../measure/upsert';
import { parseRtt } from '../topology/delay';
import { SINGLE_SERVERS, type ServerName } from '../model/servers';
import { workloadOf, type WorkloadFlag } from '../measure/workloads';
import { LAYOUTS, type CliOptions } from '../run/options';
import { ceilingsOn, DIMENSIONS, type FlagValues, type Selectable, selection } from './select';
import { UsageError } from './usage-error';

export { UsageError } from './usage-error';
export { DIMENSIONS, type Selectable } from './select';

export const FLAGS = {
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
    desc: 'with --runs auto: at most this many runs per contender (default 15 per 15 minutes of --budget)',
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
      '(default 2s with --layout walk, 1s with --layout runtime)',
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
    desc: 'unmeasured warmup of every fresh launch, at the measured load; 0 to skip (default 1s)',
  },
  connections: { type: 'string', desc: 'concurrent connections, or a sweep like 1,8,64,256 (default 50)' },
  rate: { type: 'string', desc: "open-loop offered load: 300 (req/s) or 50%,75% of each contender's max" },
  rdb: { type: 'string', desc: 'RDB file to load into the private Redis (default dump.rdb)' },
  entries: {
    type: 'string',
    desc:
      'scaling: run the contenders on generated streams of these ' +
      'sizes, e.g. 339,3390,33900 (one run each, then a linear fit)',
  },
  workload: {
    type: 'string',
    desc:
      `what each request does: ${WORKLOADS.join(' | ')} (default xrange; live: reads while ` +
      "a writer appends; upsert: POST /items/:id writes, the write strategies' suite)",
  },
  keys: {
    type: 'string',
    desc:
      'with --workload upsert: the key space K each window writes to, a power of ten from 1 (one hot ' +
      'key) to 10000 (almost no conflicts), or a sweep like 1,100,10000 (one run each) (default 100)',
  },
  'write-rate': {
    type: 'string',
    desc:
      'with --workload live: XADDs per second into the capped stream while the apps read it, ' +
      'or a sweep like 10,100,1000 (one run each, then req/s against write rate) (default 10)',
  },
  'restart-redis': {
    type: 'boolean',
    desc:
      'with --workload live: in round 1 each block restarts the private Redis (SHUTDOWN ' +
      'SAVE, then again from its RDB) after its first windows; every app must serve a ' +
      'fresh snapshot within 10 s, and its later windows are checked like the others',
  },
  'max-staleness': {
    type: 'string',
    desc:
      'with --workload live: a read staler than this makes an exact ' +
      'cache invalid (a TTL cache: its TTL plus this) (default 50ms)',
  },
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
  target: {
    type: 'string',
    desc:
      'measure an app started by hand at this http:// URL (three hosts, ' +
      'README); needs REDIS_URL, the Redis it reads; --runs N (auto: 3)',
  },
  'target-name': { type: 'string', desc: 'with --target: the name the app gets in results.json (default target)' },
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
      '(on with --matrix; about 2.5 min of a default run, which goes to the answers without it)',
  },
  'with-seed': {
    type: 'boolean',
    desc:
      "also measure every contender with the seed's method, in " +
      "the same invocation, for the README's side-by-side table",
  },
  handicap: {
    type: 'string',
    desc:
      'NAME or NAME:3%: burn CPU per request in this contender so its requests take that ' +
      'much longer (default 10%; calibrated on itself before round 1), under its own ' +
      'name, measured side by side with its plain twin NAME@base: a known change to find',
  },
  against: {
    type: 'string',
    desc:
      'a git ref (HEAD~1, main, a commit) or a folder of apps: every selected contender is ' +
      'measured side by side with its twin from there, named <name>@base, in one run; the ' +
      'answer per pair is head faster, slower or equal within --equal (default budget 10m)',
  },
  pair: {
    type: 'string',
    desc:
      'with --against or --handicap: how each pair is measured: auto (default: both ways in the ' +
      'first rounds, then the design with the narrower interval per minute), alternate (each ' +
      'app alone, adjacent windows) or duet (both under load at once, each with its own oha)',
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
    desc: 'publish this run to results/latest, README.md and screenshots/ even if it is not a complete default run',
  },
  quiet: {
    type: 'boolean',
    desc: 'print no progress: no live line or ETA, no line per run; errors and where the results went only',
  },
  strict: { type: 'boolean', desc: 'refuse to start when the machine is busy (load average > CPUs/2)' },
  help: { type: 'boolean', desc: 'show this help' },
} as const;

export function usage(): string {
  const lines = Object.entries(FLAGS).map(
    ([name, f]) => `  --${name}${f.type === 'string' ? ' <value>' : ''}`.padEnd(28) + f.desc,
  );
  return ['usage: npm run bench -- [flags]', '', ...lines].join('\n');
}

/** "10s", "500ms", "1m", "2.5s" → seconds. */
export function parseDuration(flag: string, value: string, { allowZero = false } = {}): number {
  const m =
    /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value.trim()) ?? (allowZero && value.trim() === '0' ? ['0', '0', 's'] : null);
  const seconds = m ? Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2] as 'ms' | 's' | 'm'] : NaN;
  if (!m || !(seconds > 0 || (allowZero && seconds === 0))) {
    throw new UsageError(
      `--${flag} "${value}" is not a ${allowZero ? '' : 'positive '}duration; use a number with ms, s or m, like 10s`,
    );
  }
  return seconds;
}

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${flag} "${value}" must be a whole number ≥ 1`);
  return n;
}

function positiveNumber(flag: string, value: string): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(value.trim()) || !(n > 0))
    throw new UsageError(`--${flag} "${value}" must be a number above 0`);
  return n;
}

function percent(flag: string, value: string): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(value.trim()) || n > 100)
    throw new UsageError(`--${flag} "${value}" must be a percentage from 0 to 100`);
  return n;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${flag} "${value}" is not accepted; use one of: ${allowed.join(', ')}`);
  return value as T;
}

/** --entries 339,3390,33900: distinct sizes, smallest first; it makes its own RDBs, so no --rdb or --resume. */
function entriesList(spec: string, conflicts: (string | false | undefined)[]): number[] {
  const clash = conflicts.find(Boolean);
  if (clash) throw new UsageError(`--entries generates its own streams: leave out ${clash}`);
  const sizes = spec.split(',').map((n) => positiveInt('entries', n.trim()));
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/**
 * Racing's round cap when --max-runs is not given: 15 per 15 minutes of budget, so that the budget,
 * not the cap, ends a longer run. Measured: a fixed cap of 15 ended a 45-minute run after 22 min with
 * 15 of 45 comparisons still open (docs/runs/answers-by-design.md).
 */
export const defaultMaxRuns = (budgetS: number) => Math.max(15, Math.ceil((15 * budgetS) / 900));

/** Windows per launch in a run of pairs only (--against, or --handicap on one contender). */
export const PAIR_WINDOWS = 2;

/** The round cap of a run of pairs only: a pair's round takes seconds, so the budget decides. */
export const AGAINST_MAX_RUNS = 1000;

/**
 * --handicap NAME or NAME:3%: one contender the run measures, and how much longer its requests should take
 * (0.5–100%).
 */
export function handicapFlag(spec: string | undefined, selected: string[]): { name: string; pct: number } | null {
  if (spec === undefined) return null;
  const m = /^(.+?)(?::(\d+(?:\.\d+)?)%?)?$/.exec(spec.trim());
  const name = m?.[1] ?? spec;
  const pct = m?.[2] !== undefined ? Number(m[2]) : HANDICAP_PCT;
  if (!selected.includes(name))
    throw new UsageError(`--handicap "${name}" is not a contender of this run; name one from --list`);
  if (!(pct >= 0.5 && pct <= 100))
    throw new UsageError(`--handicap "${spec}": the size must be from 0.5% to 100%, like ${name}:3%`);
  return { name, pct };
}

/** Flags a side-by-side pair cannot be measured with, and why. */
const NOT_WITH_AGAINST: [string, string][] = [
  ['target', 'an app started by hand has no other side to build'],
  ['profile', 'the seed profile measures one process per contender, not pairs'],
  ['entries', 'a scaling sweep runs once per stream size'],
  ['servers', 'each pair reads one server'],
  ['topology', 'each pair reads one server'],
  ['self-check', 'the pair is the check'],
  ['with-seed', 'the seed method measures one process per contender'],
  ['resume', 'the other side is resolved afresh; start a new run'],
];

/** --against and --equal: refused with a flag they cannot pair; --equal needs a pair to bound. */
function againstFlags(v: FlagValues): {
  against: string | null;
  equalPct: number;
  pair: 'auto' | 'alternate' | 'duet';
} {
  const against = v.against as string | undefined;
  const paired = against !== undefined || v.handicap !== undefined;
  if (v.equal !== undefined && !paired)
    throw new UsageError('--equal bounds a change: use it with --against or --handicap');
  if (v.pair !== undefined && !paired)
    throw new UsageError("--pair is how a change's pair is measured: use it with --against or --handicap");
  if (against !== undefined) {
    if (!against.trim()) throw new UsageError('--against needs a git ref or a folder of apps, like --against HEAD~1');
    const clash = NOT_WITH_AGAINST.find(
      ([k]) => v[k] !== undefined && v[k] !== false && !(k === 'profile' && v[k] === 'default'),
    );
    if (clash) throw new UsageError(`--against cannot be combined with --${clash[0]}: ${clash[1]}`);
  }
  return {
    against: against ?? null,
    equalPct: v.equal !== undefined ? positiveNumber('equal', v.equal as string) : 2,
    pair: oneOf('pair', (v.pair as string | undefined) ?? 'auto', ['auto', 'alternate', 'duet'] as const),
  };
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

/** A setting value its definition keeps to other workloads (a cache: live only). */
const notIn = (def: SettingDef, value: string, workload: string) =>
  value !== def.default && !!def.workloads && !def.workloads.includes(workload);

/**
 * --server valkey: one server; --servers redis,valkey: each contender against each, paired by round; --topology
 * cluster: the cluster twins too.
 */
function serversFlag(
  one: string | undefined,
  many: string | undefined,
  topology: string | undefined,
  workload: Workload,
): ServerName[] {
  const w = workloadOf(workload);
  if (one !== undefined && many !== undefined)
    throw new UsageError(
      '--server and --servers exclude each other: --server picks one, --servers measures against several',
    );
  const list =
    many === undefined
      ? [oneOf('server', one ?? 'redis', SINGLE_SERVERS)]
      : [...new Set(many.split(',').map((s) => oneOf('servers', s.trim(), SINGLE_SERVERS)))];
  if (many !== undefined && list.length < 2)
    throw new UsageError(`--servers "${many}" names one server; name two or more, like redis,valkey (or use --server)`);
  const cluster = oneOf('topology', topology ?? 'single', ['single', 'cluster'] as const) === 'cluster';
  if (cluster && (list.length > 1 || list[0] !== 'redis'))
    throw new UsageError(
      '--topology cluster pairs each contender on a single Redis with ' +
        'itself on a Redis cluster: leave out --server and --servers',
    );
  if (w.oneServer && (list.length > 1 || cluster)) throw new UsageError(w.oneServer);
  return cluster ? [...list, ...w.clusterServers] : list;
}

/**
 * --redis-rtt 1ms, or a sweep 0,1ms,5ms (ascending): a cluster's redirects name its nodes' own ports, which a proxy
 * cannot stand in for.
 */
function rttFlag(value: string | undefined, servers: ServerName[]): { redisRttMs: number; redisRtts: number[] } {
  let rtts: number[];
  try {
    rtts = parseRtt(value ?? '0').sort((a, b) => a - b);
  } catch (e) {
    throw new UsageError(`--redis-rtt: ${(e as Error).message}`);
  }
  if (rtts.some((x) => x > 0) && servers.includes('cluster'))
    throw new UsageError(
      '--redis-rtt with --topology cluster: the cluster redirects clients to its ' +
        "nodes' own ports, past the proxy; measure distance on a single server",
    );
  return { redisRttMs: rtts[0]!, redisRtts: rtts };
}

/** --write-rate and --max-staleness: only with --workload live, where a writer changes the stream. */
function liveFlags(
  workload: Workload,
  rate: string | undefined,
  staleness: string | undefined,
): { writeRate: number; writeRates: number[]; maxStalenessMs: number } {
  const given = rate !== undefined ? '--write-rate' : staleness !== undefined ? '--max-staleness' : null;
  if (given && !workloadOf(workload).flags.includes(given.slice(2) as WorkloadFlag))
    throw new UsageError(`${given} needs --workload live: only the live workload writes to the stream`);
  const one = (r: string) => {
    const n = Number(r.trim());
    if (!/^\d+(\.\d+)?$/.test(r.trim()) || n > 10_000)
      throw new UsageError(`--write-rate "${r}" must be XADDs per second from 0 to 10000, or a list like 10,100,1000`);
    return n;
  };
  const writeRates = [...new Set((rate ?? '10').split(',').map(one))].sort((a, b) => a - b);
  return {
    writeRate: writeRates[0]!,
    writeRates,
    maxStalenessMs: parseDuration('max-staleness', staleness ?? '50ms') * 1000,
  };
}

/** --keys: only with --workload upsert; powers of ten, so that oha's URL regex of digits draws the keys uniformly. */
function keysFlag(
  workload: Workload,
  value: string | undefined,
): { upsertKeys: number | null; upsertKeysList: number[] } {
  const takes = workloadOf(workload).flags.includes('keys');
  if (value !== undefined && !takes)
    throw new UsageError('--keys needs --workload upsert: only the upsert workload writes keys');
  if (!takes) return { upsertKeys: null, upsertKeysList: [] };
  const list = [...new Set((value ?? '100').split(',').map((k) => Number(k.trim())))].sort((a, b) => a - b);
  const bad = list.find((k) => !(KEY_SPACES as readonly number[]).includes(k));
  if (bad !== undefined)
    throw new UsageError(
      `--keys "${value}": each value must be one of ${KEY_SPACES.join(', ')} ` +
        '(a power of ten, so the URL regex draws keys uniformly)',
    );
  return { upsertKeys: list[0]!, upsertKeysList: list };
}

/** --restart-redis: a live run's fault drill, between two windows of one launch, on a Redis the harness owns. */
function restartFlag(on: boolean, workload: Workload, windows: string | undefined, rtt: string | undefined): boolean {
  if (!on) return false;
  if (!workloadOf(workload).flags.includes('restart-redis'))
    throw new UsageError(
      '--restart-redis needs --workload live: it checks that caches come back exact after Redis restarts',
    );
  if (windows !== undefined && Number(windows) < 2)
    throw new UsageError(
      "--restart-redis needs --windows 2 or more: Redis restarts between a launch's first window and its second",
    );
  if (rtt !== undefined)
    throw new UsageError('--restart-redis with --redis-rtt: restart the server without a delay proxy in front of it');
  return true;
}

/** The flags as given; an unknown flag or a missing value is a UsageError naming the accepted ones. */
function readFlags(argv: string[]): FlagValues {
  try {
    return parseArgs({
      args: withDashValues(argv, FLAGS),
      options: Object.fromEntries(Object.entries(FLAGS).map(([k, f]) => [k, { type: f.type }])),
      strict: true,
      allowPositionals: false,
    }).values as FlagValues;
  } catch (e) {
    throw new UsageError(
      `${(e as Error).message.split('\n')[0]}; accepted flags: ${Object.keys(FLAGS)
        .map((f) => `--${f}`)
        .join(' ')}`,
    );
  }
}

/** --rate 300,50%: req/s, or a share of each contender's max. */
function ratesFlag(value: string | undefined): string[] {
  const rates = value ? value.split(',').map((r) => r.trim()) : [];
  for (const r of rates) {
    const pct = /^(\d+(?:\.\d+)?)%$/.exec(r);
    const ok = pct ? Number(pct[1]) > 0 && Number(pct[1]) <= 200 : /^\d+(\.\d+)?$/.test(r) && Number(r) > 0;
    if (!ok)
      throw new UsageError(
        `--rate "${r}" is not accepted; use req/s like 300, or a share of each contender's max like 50%`,
      );
  }
  return rates;
}

/** A launch's time: its windows, how long each is, and the warmup before them, by layout. */
function timingFlags(v: FlagValues, seedProfile: boolean, pair: boolean) {
  const str = (k: string) => v[k] as string | undefined;
  // Measured both ways on the default suite (docs/runs/answers-by-design.md): runtime blocks gave the narrower
  // intervals per minute.
  const layout = oneOf('layout', str('layout') ?? 'runtime', LAYOUTS);
  return {
    layout,
    durationS: seedProfile ? null : parseDuration('duration', str('duration') ?? (layout === 'walk' ? '2s' : '1s')),
    // A walk: one walk of 2 s windows per round; measured: that fitted 3 rounds in the budget where two walks of
    // 1 s fitted 2 (docs/runs/answers-by-design.md). --restart-redis restarts Redis between a block's two walks.
    // Runtime blocks: 2 windows per launch after a 1 s warmup; measured: twice the launches of 4 windows after 2 s
    // gave 9 rounds where those gave 4, so each comparison's variance had 8 df, not 3 (docs/runs/answers-by-design.md).
    // A run of pairs only: a launch (1.9 s, and 2.7 s more in a round that measures each app alone) costs
    // more than a duet window (1.4 s), and varies as a whole more than its windows do (sd 8.1–8.7% against
    // 5.1–6.0%); Kalibera & Jones's optimum for these costs and variances is 1–2 windows a launch
    // (docs/runs/against.md).
    windows:
      str('windows') !== undefined
        ? positiveInt('windows', str('windows')!)
        : seedProfile
          ? 1
          : layout === 'runtime'
            ? pair
              ? PAIR_WINDOWS
              : 2
            : v['restart-redis'] === true
              ? 2
              : 1,
    requests: seedProfile ? 200 : null,
    warmupS:
      str('warmup') !== undefined ? parseDuration('warmup', str('warmup')!, { allowZero: true }) : seedProfile ? 0 : 1,
  };
}

/** One sweep at a time (--entries, --write-rate a,b, --redis-rtt a,b), and a sweep resumes one value at a time. */
function checkSweeps(str: (k: string) => string | undefined): void {
  const sweeps = [
    str('entries') !== undefined && '--entries',
    (str('keys') ?? '').includes(',') && '--keys a,b',
    (str('write-rate') ?? '').includes(',') && '--write-rate a,b',
    (str('redis-rtt') ?? '').includes(',') && '--redis-rtt a,b',
  ].filter(Boolean);
  if (sweeps.length > 1) throw new UsageError(`${sweeps.join(' and ')} are both sweeps: run one sweep at a time`);
  if (sweeps.length && str('resume') !== undefined)
    throw new UsageError(
      `${sweeps[0]} runs one complete run per value: resume one of them with --resume <run>/<value>`,
    );
}

/** --runs and --rate, which the seed's profile fixes. */
function profileFlags(v: FlagValues, seedProfile: boolean, selfCheck: string[] | null) {
  const str = (k: string) => v[k] as string | undefined;
  const runsFlag = str('runs') ?? (seedProfile ? '3' : 'auto');
  const runs: number | 'auto' = runsFlag === 'auto' ? 'auto' : positiveInt('runs', runsFlag);
  if (seedProfile && (runs === 'auto' || v['with-seed'] || selfCheck))
    throw new UsageError('--profile seed takes a fixed --runs and no --with-seed or --self-check');
  const rates = ratesFlag(str('rate'));
  if (seedProfile && (rates.length || str('duration')))
    throw new UsageError('--profile seed uses fixed request counts: leave out --duration and --rate');
  return { runs, rates };
}

/** A contender whose setting applies to other workloads only cannot be measured under this one. */
function checkSettingsFor(workload: Workload, measured: { name: string; settings: Record<string, string> }[]): void {
  for (const c of measured) {
    const [k] =
      Object.entries(c.settings).find(([k, val]) => notIn(SETTINGS[k as keyof typeof SETTINGS], val, workload)) ?? [];
    if (k)
      throw new UsageError(
        `${c.name} is measured with --workload ` +
          `${(SETTINGS[k as keyof typeof SETTINGS] as SettingDef).workloads!.join(' or ')} only (its ${k} setting)`,
      );
  }
}

/** When racing stops: --target-ci, --max-runs, --budget (a run of pairs only: its budget, not a round cap). */
function racingFlags(v: FlagValues, pairOnly: boolean) {
  const str = (k: string) => v[k] as string | undefined;
  const budgetS = parseDuration('budget', str('budget') ?? (v.matrix ? '45m' : pairOnly ? '10m' : '15m'));
  return {
    targetCiPct: str('target-ci') !== undefined ? positiveNumber('target-ci', str('target-ci')!) : 10,
    maxRuns:
      str('max-runs') !== undefined
        ? positiveInt('max-runs', str('max-runs')!)
        : pairOnly
          ? AGAINST_MAX_RUNS
          : defaultMaxRuns(budgetS),
    budgetS,
  };
}

export function parseCli(argv: string[], all: Selectable[] = []): CliOptions {
  const v = readFlags(argv);
  const target = targetFlags(v);
  if (typeof target === 'string') throw new UsageError(target);
  const str = (k: string) => v[k] as string | undefined;
  const profile = oneOf('profile', str('profile') ?? 'default', ['default', 'seed'] as const);
  const seedProfile = profile === 'seed';
  const picked = selection(v, all, seedProfile);
  const { runs, rates } = profileFlags(v, seedProfile, picked.selfCheck);
  const workload = oneOf('workload', str('workload') ?? 'xrange', WORKLOADS);
  checkSettingsFor(workload, picked.measured);
  const servers = serversFlag(str('server'), str('servers'), str('topology'), workload);
  checkSweeps(str);
  const { against, equalPct, pair } = againstFlags(v);
  const handicap = handicapFlag(str('handicap'), picked.selected);
  // A run of pairs only: --against, or --handicap on the one contender selected. A round of one pair takes
  // seconds: the budget, not a round cap, ends it.
  const pairOnly = against !== null || (!!handicap && picked.selected.length === 1);
  return {
    list: v.list === true,
    help: v.help === true,
    suite: picked.suiteName,
    only: picked.only,
    selected: picked.selected,
    runs,
    ...racingFlags(v, pairOnly),
    seed: str('seed') !== undefined ? positiveInt('seed', str('seed')!) : 1 + Math.floor(Math.random() * 2 ** 31),
    withSeed: v['with-seed'] === true,
    ceilings: ceilingsOn(v),
    selfCheck: picked.selfCheck,
    handicap: handicap?.name ?? null,
    handicapPct: handicap?.pct ?? HANDICAP_PCT,
    against,
    equalPct,
    pair,
    publish: v.publish === true,
    ...timingFlags(v, seedProfile, pairOnly),
    connections: (str('connections') ?? '50').split(',').map((c) => positiveInt('connections', c)),
    rates,
    rdb: str('rdb') ?? null,
    entries:
      str('entries') !== undefined
        ? entriesList(str('entries')!, [
            str('rdb') && '--rdb',
            str('resume') && '--resume',
            seedProfile && '--profile seed',
          ])
        : null,
    workload,
    ...liveFlags(workload, str('write-rate'), str('max-staleness')),
    ...keysFlag(workload, str('keys')),
    restartRedis: restartFlag(v['restart-redis'] === true, workload, str('windows'), str('redis-rtt')),
    profile,
    ...target,
    servers,
    ...rttFlag(str('redis-rtt'), servers),
    ...machineFlags(v),
  };
}

/** Where and how the processes run, and where the results go. */
function machineFlags(v: FlagValues) {
  const str = (k: string) => v[k] as string | undefined;
  return {
    placement: oneOf('placement', str('placement') ?? 'auto', PLACEMENTS),
    startTimeoutS: parseDuration('start-timeout', str('start-timeout') ?? '30s'),
    redisPort: str('redis-port') !== undefined ? positiveInt('redis-port', str('redis-port')!) : null,
    out: str('out') ?? 'results',
    resume: str('resume') ?? null,
    strict: v.strict === true,
    quiet: v.quiet === true,
    maxStealPct: str('max-steal') !== undefined ? percent('max-steal', str('max-steal')!) : 5,
  };
}
