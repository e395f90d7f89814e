import { resolve } from 'node:path';
import { ROOT } from '../system/paths';
import { parseArgs } from 'node:util';
import { HANDICAP_PCT } from '../model/questions';
import { PLACEMENTS } from '../system/placement';
import { targetFlags } from './target-flags';
import { appFlags } from './app-flags';
import { LAYOUTS, type CliOptions } from '../run/options';
import { MAX_ENTRIES } from '../run/entries';
import { ceilingsOn, type FlagValues, type Selectable, selection } from './select';
import { rttFlag, serversFlag, tlsFlag } from './server-flags';
import { ownFlags, SWEEP_FLAGS, workloadFlag } from './workload-flags';
import type { Workload } from '@bench/stream';
import { WORKLOAD_MODULES } from '../workloads';
import { UsageError } from './usage-error';
import {
  FLAGS,
  oneOf,
  outFolderProblem,
  parseArgsError,
  parseDuration,
  percent,
  positiveInt,
  positiveNumber,
  withDashValues,
} from './flags';

export { UsageError } from './usage-error';
export { DIMENSIONS, type Selectable } from './select';

/** --entries 339,3390,33900: distinct sizes, smallest first; it makes its own RDBs, so no --rdb or --resume. */
function entriesList(spec: string, conflicts: (string | false | undefined)[]): number[] {
  const clash = conflicts.find(Boolean);
  if (clash) throw new UsageError(`--entries generates its own streams: leave out ${clash}`);
  const sizes = spec.split(',').map((n) => positiveInt('entries', n.trim()));
  const huge = sizes.find((n) => n > MAX_ENTRIES);
  if (huge) throw new UsageError(`--entries ${huge} is more than ${MAX_ENTRIES.toLocaleString('en')}; give fewer`);
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
  const given = spec.trim();
  const m = /^(.+?)(?::(\d+(?:\.\d+)?)%?)?$/.exec(given);
  const name = m?.[1] ?? spec;
  const pct = m?.[2] !== undefined ? Number(m[2]) : HANDICAP_PCT;
  // NAME:abc: a size that is not a number, said as such (read whole, it is no contender's name).
  const colon = given.lastIndexOf(':');
  const before = given.slice(0, colon);
  if (m?.[2] === undefined && colon > 0 && selected.includes(before))
    throw new UsageError(`--handicap "${spec}": the size must be from 0.5% to 100%, like ${before}:3%`);
  if (!selected.includes(name))
    throw new UsageError(`--handicap "${name}" is not a contender of this run; name one from --list`);
  if (!(pct >= 0.5 && pct <= 100))
    throw new UsageError(`--handicap "${spec}": the size must be from 0.5% to 100%, like ${name}:3%`);
  return { name, pct };
}

/**
 * What --resume may be given with: how the run is shown and kept, Redis's port, and a run's own --app flags (its app
 * is started again from them). Every other flag would change what the run measures, which its settings fix.
 */
const WITH_RESUME = [
  'resume',
  'report',
  'quiet',
  'strict',
  'publish',
  'redis-port',
  'app',
  'app-name',
  'cwd',
  'path',
  'body',
];

function resumeAlone(v: FlagValues): void {
  if (v.resume === undefined) return;
  const other = Object.keys(v).find((k) => v[k] !== undefined && !WITH_RESUME.includes(k));
  if (other)
    throw new UsageError(
      `--resume continues the run with the settings it recorded, so --${other} would be ignored: give --resume alone ` +
        "(with --report, --quiet, --strict, --publish, --redis-port, or the run's own --app flags)",
    );
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
  ['resume', 'a resumed run pairs with the side it started with: give --resume alone'],
  [
    'publish',
    'a change measured beside its other version is never published (its page is not the suite): drop --publish',
  ],
];

/**
 * --against and --equal: refused with a flag they cannot pair; --equal needs a pair to bound. `firstApp`: with --app
 * given twice, the first one's command, the base the second is decided against as --against decides a change.
 */
function againstFlags(
  v: FlagValues,
  firstApp: string | null,
): {
  against: string | null;
  equalPct: number;
  pair: 'auto' | 'alternate' | 'duet';
  pairUnchanged: boolean;
} {
  const against = (v.against as string | undefined) ?? firstApp ?? undefined;
  const flag = v.against !== undefined ? '--against' : '--app twice';
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
    if (clash) throw new UsageError(`${flag} cannot be combined with --${clash[0]}: ${clash[1]}`);
  }
  return {
    against: against ?? null,
    equalPct: v.equal !== undefined ? positiveNumber('equal', v.equal as string) : 2,
    pair: oneOf('pair', (v.pair as string | undefined) ?? 'alternate', ['auto', 'alternate', 'duet'] as const),
    pairUnchanged: !!v['pair-unchanged'],
  };
}

/**
 * Flags the workload cannot be measured with (its module says why; --handicap: the workloads whose routes burn it),
 * and --pair duet for a workload measured alternating only. An unknown --workload is refused later.
 */
function notWithWorkload(v: FlagValues): void {
  const name = (v.workload as string | undefined) ?? 'xrange';
  if (!Object.hasOwn(WORKLOAD_MODULES, name)) return;
  const w = WORKLOAD_MODULES[name as Workload];
  const flag = Object.keys(w.refuses ?? {}).find((f) => v[f] !== undefined && v[f] !== false);
  if (flag)
    throw new UsageError(`--${flag} cannot be used with --workload ${name}: ${w.refuses![flag]}; leave out --${flag}`);
  if (v.pair === 'duet' && w.alternateOnly)
    throw new UsageError(
      `--pair duet cannot measure --workload ${name}: ${w.alternateOnly}; use --pair alternate (or auto, ` +
        'which alternates for it)',
    );
}

/** --pair auto for a workload measured alternating only: alternating. */
const pairFor = (workload: Workload, pair: 'auto' | 'alternate' | 'duet') =>
  pair === 'auto' && WORKLOAD_MODULES[workload].alternateOnly ? 'alternate' : pair;

/** A setting value its definition keeps to other workloads (a cache: live only). */
/**
 * The flags as given; an unknown flag or a missing value is a UsageError naming the accepted ones, and so is a flag
 * given twice that takes one value (the first would be dropped without a word).
 */
function readFlags(argv: string[]): FlagValues {
  let parsed;
  try {
    parsed = parseArgs({
      args: withDashValues(argv, FLAGS),
      options: Object.fromEntries(
        Object.entries(FLAGS).map(([k, f]) => [k, { type: f.type, ...('multiple' in f ? { multiple: true } : {}) }]),
      ),
      strict: true,
      allowPositionals: false,
      tokens: true,
    });
  } catch (e) {
    // A flag given no value (last on the line, or followed by another flag): what it takes, not the whole list.
    const missing = /^Option '--([\w-]+)[^']*' argument (missing|is ambiguous)/.exec((e as Error).message)?.[1];
    if (missing && Object.hasOwn(FLAGS, missing))
      throw new UsageError(`--${missing} needs a value: ${FLAGS[missing as keyof typeof FLAGS].desc}`);
    throw new UsageError(
      `${parseArgsError(e as Error)}; accepted flags: ${Object.keys(FLAGS)
        .map((f) => `--${f}`)
        .join(' ')}`,
    );
  }
  const seen = new Set<string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option') continue;
    // An empty value (`--resume "$RUN"` with RUN unset) is never a choice: read as absent, --resume '' would start a
    // whole new run. --out and --against say what they take in their own words.
    if (typeof t.value === 'string' && !t.value.trim() && !['out', 'against'].includes(t.name))
      throw new UsageError(
        `--${t.name} is empty; give it a value or leave it out: ${FLAGS[t.name as keyof typeof FLAGS].desc}`,
      );
    if ('multiple' in (FLAGS[t.name as keyof typeof FLAGS] ?? {})) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} is given twice; give it once`);
    seen.add(t.name);
  }
  return parsed.values as FlagValues;
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
    // A run of pairs only: 2 s windows. Measured on one contender's A/A, 10 minutes each (docs/runs/against.md):
    // 2 windows of 1 s a launch gave an sd per round of 8.4–10.2% over 102–111 rounds, 6 of 1 s 6.7% over 49,
    // and 2 of 2 s 6.5% over 72: the least variance per second of the three (a 1 s duet window varies 11–15%,
    // a 2 s one 7%).
    duration_s: seedProfile ? null : windowFlag(str('duration') ?? (layout === 'walk' || pair ? '2s' : '1s')),
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
    warmup_s:
      str('warmup') !== undefined ? parseDuration('warmup', str('warmup')!, { allowZero: true }) : seedProfile ? 0 : 1,
  };
}

/**
 * With --runs auto, a launch's warmup and one window must fit in the budget: else the first round alone would run
 * past it (a --duration of hours under a 1-minute budget was accepted and ran on).
 */
function windowFits(runs: number | 'auto', budgetS: number, t: { duration_s: number | null; warmup_s: number }): void {
  const one = t.warmup_s + (t.duration_s ?? 0);
  if (runs === 'auto' && one > budgetS)
    throw new UsageError(
      `--duration ${t.duration_s} s and --warmup ${t.warmup_s} s: one window with its warmup (${one} s) is longer ` +
        `than the --budget (${budgetS} s); shorten them, or raise --budget`,
    );
}

/** One sweep at a time (--entries, a workload's --flag a,b, --redis-rtt a,b); a sweep resumes from its folder alone. */
function checkSweeps(str: (k: string) => string | undefined): void {
  const sweeps = [
    str('entries') !== undefined && '--entries',
    ...SWEEP_FLAGS.map((f) => (str(f) ?? '').includes(',') && `--${f} a,b`),
    (str('redis-rtt') ?? '').includes(',') && '--redis-rtt a,b',
  ].filter(Boolean);
  if (sweeps.length > 1) throw new UsageError(`${sweeps.join(' and ')} are both sweeps: run one sweep at a time`);
  if (sweeps.length && str('resume') !== undefined)
    throw new UsageError(
      `${sweeps[0]} is a sweep, which --resume <its folder> continues with the flags it started with: ` +
        'give --resume alone',
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

/**
 * When racing stops: --target-ci, --max-runs, --budget (a run of pairs only: its budget, not a round cap). Both bound
 * --runs auto: with a fixed --runs N they would be ignored, so they are refused.
 */
function racingFlags(v: FlagValues, pairOnly: boolean, runs: number | 'auto') {
  const str = (k: string) => v[k] as string | undefined;
  const bound = ['budget', 'max-runs'].find((k) => str(k) !== undefined);
  if (runs !== 'auto' && bound)
    throw new UsageError(`--${bound} bounds --runs auto; with --runs ${runs} it would be ignored: leave it out`);
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
  return optionsFrom(readFlags(argv), all);
}

/**
 * The options of a command given no flag but --workload and --redis-rtt: every other option at its own default (the
 * publishing policy compares a run's settings with these).
 */
export const defaultOptions = (workload: string, rttMs: number): CliOptions =>
  optionsFrom(
    { ...(workload === 'xrange' ? {} : { workload }), ...(rttMs > 0 ? { 'redis-rtt': `${rttMs}ms` } : {}) },
    [],
  );

/** --target (an app started by hand elsewhere) and --app (an app of the user's started here), checked. */
function ownAppFlags(v: FlagValues) {
  const app = appFlags(v);
  if (typeof app === 'string') throw new UsageError(app);
  const target = targetFlags(v);
  if (typeof target === 'string') throw new UsageError(target);
  return { target, app };
}

/** --connections 10,50: each count once (a count given twice would be measured twice, into the same raw files). */
function connectionsFlag(value: string): number[] {
  const counts = value.split(',').map((c) => positiveInt('connections', c));
  const twice = counts.find((c, i) => counts.indexOf(c) !== i);
  if (twice !== undefined) throw new UsageError(`--connections: ${twice} is listed twice in "${value}"; give it once`);
  return counts;
}

/** The flags' values → the options: each flag's check, and each default where a flag is not given. */
function optionsFrom(v: FlagValues, all: Selectable[]): CliOptions {
  const { target, app } = ownAppFlags(v);
  const str = (k: string) => v[k] as string | undefined;
  const profile = oneOf('profile', str('profile') ?? 'default', ['default', 'seed'] as const);
  const seedProfile = profile === 'seed';
  notWithWorkload(v);
  const picked = selection(v, all, seedProfile);
  const { runs, rates } = profileFlags(v, seedProfile, picked.selfCheck);
  const { workload, notForWorkload, selected } = workloadFlag(str('workload'), picked);
  const servers = serversFlag(str('server'), str('servers'), str('topology'), workload);
  checkSweeps(str);
  const { against, equalPct, pair, pairUnchanged } = againstFlags(v, app.ownApps[1] ? app.ownApps[0]!.command : null);
  resumeAlone(v);
  const handicap = handicapFlag(str('handicap'), selected);
  // A run of pairs only (--against, --app twice, --handicap on one contender): its budget, not a round cap, ends it.
  const pairOnly = against !== null || (!!handicap && selected.length === 1);
  const [racing, timing] = [racingFlags(v, pairOnly, runs), timingFlags(v, seedProfile, pairOnly)];
  windowFits(runs, racing.budgetS, timing);
  return {
    list: v.list === true,
    help: v.help === true,
    suite: picked.suiteName,
    only: picked.only,
    selected,
    notForWorkload,
    runs,
    ...racing,
    seed: str('seed') !== undefined ? positiveInt('seed', str('seed')!) : 1 + Math.floor(Math.random() * 2 ** 31),
    withSeed: v['with-seed'] === true,
    ceilings: ceilingsOn(v),
    selfCheck: picked.selfCheck,
    handicap: handicap?.name ?? null,
    handicapPct: handicap?.pct ?? HANDICAP_PCT,
    against,
    equalPct,
    pair: pairFor(workload, pair),
    pairUnchanged,
    publish: v.publish === true,
    ...timing,
    connections: connectionsFlag(str('connections') ?? '50'),
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
    own: ownFlags(workload, v),
    profile,
    ...target,
    ...app,
    servers,
    ...rttFlag(str('redis-rtt'), servers),
    ...machineFlags(v),
  };
}

/** --redis-port: a TCP port. */
function portFlag(value: string): number {
  const port = positiveInt('redis-port', value);
  if (port > 65535) throw new UsageError(`--redis-port ${value} is not a port; use 1–65535`);
  return port;
}

/** A window's length: oha's -z counts whole milliseconds, and a window shorter than 100 ms measures its ramp only. */
function windowFlag(value: string): number {
  const seconds = parseDuration('duration', value);
  if (seconds < 0.1) throw new UsageError(`--duration ${value} is too short for a window: give 100ms or more`);
  return seconds;
}

/** --out: a folder, made if missing, under a folder that can be written (found before anything starts). */
function outFlag(value: string): string {
  const why = outFolderProblem(value, resolve(ROOT, value));
  if (why) throw new UsageError(why);
  return value;
}

/** Where and how the processes run, and where the results go. */
function machineFlags(v: FlagValues) {
  const str = (k: string) => v[k] as string | undefined;
  return {
    placement: oneOf('placement', str('placement') ?? 'auto', PLACEMENTS),
    startTimeoutS: parseDuration('start-timeout', str('start-timeout') ?? '30s'),
    redisPort: str('redis-port') !== undefined ? portFlag(str('redis-port')!) : null,
    redisTls: tlsFlag(v),
    out: outFlag(str('out') ?? 'results'),
    resume: str('resume') ?? null,
    strict: v.strict === true,
    quiet: v.quiet === true,
    report: oneOf('report', str('report') ?? 'full', ['full', 'text'] as const),
    maxStealPct: str('max-steal') !== undefined ? percent('max-steal', str('max-steal')!) : 5,
  };
}
