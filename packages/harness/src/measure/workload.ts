// What measuring asks of a workload: what it verifies before measuring and checks after each window, what oha
// sends, what runs around a window and what that adds to the run's record, the gate rules, whether Redis's ceiling
// applies, and the flags it owns and the settings they make. The workload modules (workloads/) answer it, and more:
// how their records pool, their figures and their report (workloads/types.ts).
import type { Carrier } from './verify';
import type { Workload as WorkloadName } from '@bench/stream';
import type { OwnSettings, Results, RunRecord, Settings, WorkloadRecord } from '../model/results';
import type { ServerName } from '../model/servers';
import type { RedisTarget } from '../topology/redis';
import type { Placement } from '../system/placement';
import type { Verdict } from './verify';
import type { Probe } from './probe';
import type { Selectable } from '../model/contenders';

/** What every window of a run is measured with: the workload, the servers, the placement and where the raw files go. */
export interface RunContext {
  /** The workload measured (workloads/): what oha sends and what runs around a window. */
  workload: MeasuredWorkload;
  /** A write workload's: the contender's write strategy (WRITE). */
  write?: string;
  /** The workload's own settings (results.json's settings[<workload>]), read by its module only. */
  own?: OwnSettings;
  /** What the workload runs beside the apps for the whole run (the live writer), made by its module's start. */
  background?: Background;
  placement: Placement;
  redis: RedisTarget;
  /** --redis-rtt: the delay proxy between the apps and Redis, whose CPU each run records. */
  proxy?: { pid: number };
  runDir: string;
  /** Whether the servers' processes the harness started still run: a window stops as soon as one has gone. */
  alive?: () => boolean;
  /**
   * --app: the user's app reads what it likes (XREVRANGE, GET, a pipeline), so its Redis calls are every command Redis
   * counted over the window (INFO, the harness's own, aside), not the workload's one command.
   */
  everyCommand?: boolean;
}

/** What oha sends: GET url, or a request of the workload's own (method, body, a URL regex). */
export interface Target {
  url: string;
  request?: { method: string; body: string; randRegex: boolean };
}

/** What the checks before and after a window need of a launched contender. */
export interface CheckContext {
  url: string;
  /** The Redis the contender reads and writes. */
  redis: RedisTarget;
  /** The contender's write strategy (WRITE). */
  write: string;
  /** The golden body, and whether the contender serves it paged. */
  golden: string;
  page: Carrier;
  /** The stream's every pair in stream order, where the golden body is the stream's (not an own app's). */
  pairs?: string;
  /** What the workload runs for the whole run (the live writer, whose checker judges the reads), if anything. */
  background: Background | null;
  /** --workload live: the staleness the contender may show. */
  boundMs: () => number;
}

/**
 * What a workload runs beside the apps for the whole run, from before the first launch to the end (the live writer):
 * made by its module (MeasuredWorkload.start) and read by its module only; the run stops it with Redis, and pauses it
 * around a Redis restart.
 */
export interface Background {
  /** What it is, in the run's log. */
  readonly describe: string;
  /** Stops it, runs `during` (a Redis restart), starts it again. */
  pause<T>(during: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** Why a contender is out: failed (it stopped answering) or invalid (it answered wrong). */
export interface Fault {
  status: 'failed' | 'invalid';
  reason: string;
}

/** What runs beside oha in a window (a prober, a write workload's accounting). */
export interface Around {
  /** What oha sends instead of GET url, if anything. */
  target: Target | null;
  /** oha failed: stop what runs beside it. */
  abort(): Promise<void>;
  /** Right as oha ends, before the counters are read: stop; the responses served beside oha. */
  stop(): Promise<number>;
  /** After the counters were read: the window's record of its workload. */
  record(window: {
    statuses: Record<string, number>;
    unanswered: number;
    commands: Record<string, number>;
    fromMs: number;
    endedAtMs: number;
  }): Promise<WorkloadRecord>;
}

/** How the verdicts gate a point's Redis calls per response. */
export interface GateRules {
  /** The command INFO commandstats counts once per response (lower case), for a write strategy. */
  command(write: string): string;
  /** The command as the gate's message names it. */
  label: string;
  /** Whether more than one call per response is gated (otherwise it is reported only). */
  gateTooMany: boolean;
  /** A window's responses that reached Redis, whose calls the gate counts (the prober's too, beside oha's). */
  served(run: RunRecord): number;
  /** A window's non-2xx responses that are answers, not failures (a write's 409), which the error gate leaves out. */
  exempt(run: RunRecord): number;
}

/** A flag a workload owns: `npm run bench -- --help` lists it, and a run of another workload refuses it. */
export interface OwnFlag {
  type: 'string' | 'boolean';
  /** Its help line, after "with --workload <name>: ". */
  desc: string;
  /** Why another workload refuses it, after "--<flag> needs --workload <name>: ". */
  why: string;
  /** A comma list of values sweeps: one complete run per value (one sweep at a time). */
  sweeps?: true;
}

export type { OwnSettings };

/** One complete run per value of a workload's own flag, ascending. */
export interface OwnSweep {
  flag: string;
  values: number[];
  /** The value's run: its folder under the sweep's, its line in the log, and its settings. */
  step(value: number): { dir: string; say: string; settings: OwnSettings };
  /** What the runs say together, written beside them (null: each run's own report only). */
  summary: SweepSummary | null;
}

/** A chart's axis: a field of the points, its title, a log scale. */
export type ChartAxis = { field: string; title: string; log?: boolean; sort?: { field: string } };

/** One line per contender (the points' `name`) of a figure against the swept value; report/lines.ts draws it. */
export interface LinesChart {
  title: string;
  values: object[];
  x: ChartAxis;
  y: ChartAxis;
  /** Where the contenders' names go: the right (the default) or below the chart, in two columns. */
  legend?: 'right' | 'bottom';
}

/** A sweep's summary: `<file>.json` (its points), `<file>.md` (a table) and `<file>.png` (a chart) beside its runs. */
export interface SweepSummary {
  file: string;
  points(runs: { value: number; results: Results }[]): object[];
  table(points: object[]): string;
  chart(points: object[]): LinesChart;
}

/** A workload's flags' values made into its settings (null: none), and a sweep of one of them (null: one run). */
export interface OwnOptions {
  settings: OwnSettings | null;
  sweep: OwnSweep | null;
}

/** Every flag's value as given on the command line (absent: not given). */
export type GivenFlags = Readonly<Record<string, string | boolean | string[] | undefined>>;

export interface MeasuredWorkload {
  readonly name: WorkloadName;
  readonly rules: GateRules;
  /**
   * The ceilings measured for it: Redis's own (redis-benchmark on its command), and each runtime × client alone (their
   * probes check each body against the golden one, which only a fixed stream keeps).
   */
  readonly ceilings: { redis: boolean; clients: boolean };
  /** The flags it owns, by name without the dashes. */
  readonly flags: Readonly<Record<string, OwnFlag>>;
  /**
   * The suite of its own it measures instead of the default one, and what that holds: bench.json's suites under its
   * name, or the contenders its rule `pick` takes (so that no manifest need list them); null: the default suite.
   */
  readonly suite: { holds: string; pick?(c: Selectable): boolean } | null;
  /** Where a complete run of its default method is published, or null: it is not. */
  readonly published: Publication | null;
  /** Why --target cannot measure it, or null. */
  readonly noTarget: string | null;
  /** Why --app (a user's GET route, held to one body) cannot run beside it, or null. */
  readonly noApp: string | null;
  /** Why it cannot run on the Redis REDIS_URL names, or null. */
  readonly privateRedis: string | null;
  /** The staleness a read may show beyond its cache's own bound, in ms, from its settings (a changing stream's). */
  slackMs(own: OwnSettings | undefined): number;
  /** Whether its settings ask each block to restart Redis after its first windows (a fault drill). */
  restartsRedis(own: OwnSettings | undefined): boolean;
  /** An app's first 200 after a Redis restart, judged (the fault drill's; absent: it runs none). */
  judgeRecovered?(ctx: CheckContext, probe: Probe): Promise<Verdict>;
  /** Why a run of it cannot be resumed, or null. */
  readonly noResume: string | null;
  /** Why it runs on one server only, or null. */
  readonly oneServer: string | null;
  /** The servers --topology cluster adds for it. */
  readonly clusterServers: readonly ServerName[];
  /** What it runs beside the apps all run long (the live writer), started before the first launch (absent: none). */
  start?(o: { redis: RedisTarget; entries: number; settings: Settings; runDir: string }): Promise<Background>;
  /**
   * Its flags' values checked (a bad one: a UsageError naming it) and made into its settings and sweep; `given` holds
   * every flag of the command, so that a check can read the common ones.
   */
  options(given: GivenFlags): OwnOptions;
  /** The gate before measuring. */
  verify(ctx: CheckContext): Promise<Verdict>;
  /** The check after a window (Redis and the app alive are checked before it). */
  checkAfter(ctx: CheckContext, run: RunRecord): Promise<Fault | null>;
  /** What oha sends in a load no window accounts (a launch's warmup, --layout walk's touch). */
  request(ctx: RunContext, url: string): Target;
  /** What runs beside oha in a measured window, or null. */
  around(ctx: RunContext, url: string, boundMs: number): Around | null;
}

/**
 * A published run's places: results/<dir>, the README block between `<!-- <block>:start … -->` and `<!-- <block>:end
 * -->`, and its charts in screenshots/<shots> (the project's own results folder only).
 */
export interface Publication {
  dir: string;
  block: string;
  shots: string;
  /**
   * Where a complete run of the same method with Redis at a network distance (--redis-rtt `rttMs`) is published,
   * apart from the run at none; absent: such a run is not published.
   */
  distance?: Publication & { rttMs: number };
}
