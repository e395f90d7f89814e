// Command-line flags (flags.ts) → validated settings. Any bad input is a UsageError (exit 2).
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
import { ceilingsOn, type FlagValues, type Selectable, selection } from './select';
import { UsageError } from './usage-error';
import { FLAGS, oneOf, parseDuration, percent, positiveInt, positiveNumber, withDashValues } from './flags';

export { UsageError } from './usage-error';
export { DIMENSIONS, type Selectable } from './select';

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
  pairUnchanged: boolean;
} {
  const against = v.against as string | undefined;
  const paired = against !== undefined || v.handicap !== undefined;
  if (v.equal !== undefined && !paired)
    throw new UsageError('--equal bounds a change: use it with --against or --handicap');
  if (v.pair !== undefined && !paired)
    throw new UsageError("--pair is how a change's pair is measured: use it with --against or --handicap");
  if (v['pair-unchanged'] && against === undefined)
    throw new UsageError('--pair-unchanged pairs contenders the same on both sides: use it with --against');
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
    pairUnchanged: !!v['pair-unchanged'],
  };
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

/** The setting of this contender that is measured under other workloads only (a cache: live), if any. */
function otherWorkloadSetting(workload: Workload, c: { settings: Record<string, string> }): string | undefined {
  return Object.entries(c.settings).find(([k, val]) => notIn(SETTINGS[k as keyof typeof SETTINGS], val, workload))?.[0];
}

/**
 * Contenders a workload cannot measure: named with --only or --where, refused; taken from a suite, left out and
 * listed (`--workload xread` leaves out the default suite's decode twins: they read XRANGE's reply only).
 */
function checkSettingsFor(
  workload: Workload,
  picked: { only: string[] | null; measured: { name: string; settings: Record<string, string> }[] },
): { name: string; reason: string }[] {
  const left: { name: string; reason: string }[] = [];
  for (const c of picked.measured) {
    const k = otherWorkloadSetting(workload, c);
    if (!k) continue;
    const ws = (SETTINGS[k as keyof typeof SETTINGS] as SettingDef).workloads!;
    const why = `measured with --workload ${ws.join(' or ')} only (its ${k} setting)`;
    if (picked.only) throw new UsageError(`${c.name} is ${why}`);
    left.push({ name: c.name, reason: `not under --workload ${workload}: ${why}` });
  }
  return left;
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

/** --workload, and the selected contenders it can measure. */
function workloadFlag(w: string | undefined, picked: ReturnType<typeof selection>) {
  const workload = oneOf('workload', w ?? 'xrange', WORKLOADS);
  const notForWorkload = checkSettingsFor(workload, picked);
  const selected = picked.selected.filter((n) => !notForWorkload.some((u) => u.name === n));
  return { workload, notForWorkload, selected };
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
  const { workload, notForWorkload, selected } = workloadFlag(str('workload'), picked);
  const servers = serversFlag(str('server'), str('servers'), str('topology'), workload);
  checkSweeps(str);
  const { against, equalPct, pair, pairUnchanged } = againstFlags(v);
  const handicap = handicapFlag(str('handicap'), selected);
  // A run of pairs only: --against, or --handicap on the one contender selected. A round of one pair takes
  // seconds: the budget, not a round cap, ends it.
  const pairOnly = against !== null || (!!handicap && selected.length === 1);
  return {
    list: v.list === true,
    help: v.help === true,
    suite: picked.suiteName,
    only: picked.only,
    selected,
    notForWorkload,
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
    pairUnchanged,
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
