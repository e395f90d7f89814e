// results.json: the one file everything downstream (tables, charts, README, compare) reads. Every
// record type it holds is written out in model/, one file per record: the run and its settings
// here; each contender's result and runs (run-record.ts), the live and write checks
// (workload-record.ts), a run of pairs, the handicap check and the design (changes.ts), an answer
// (answer.ts), the ceilings (ceilings.ts). The phases that fill them in import them from here, and
// model/ imports nothing of theirs. Four types it holds are stats/'s, imported as types: an interval, a summary and a
// ratio's estimate (stats/stats.ts), and a procedure's name (stats/procedures.ts), which imports nothing of the
// project's. Reading and writing the file: results-file.ts.
import type { Workload } from '@bench/stream';
import type { Comparison, Question } from './questions';
import type { ServerRecord } from './servers';
import type { Interval, Summary } from '../stats/stats';
import type { ClientCeiling, RedisCeiling, Scaling } from './ceilings';
import type { ContenderResult } from './run-record';
import type { Changes, DesignRecord, HandicapCheck, PairMode } from './changes';
import type { Answer } from './answer';
import type { SuiteName } from './contenders';

export * from './ceilings';
export * from './run-record';
export * from './workload-record';
export * from './changes';
export * from './answer';

/** An interval with its exact coverage, and a median with its interval over n runs: stats.ts's own. */
export type { Interval, Summary };

/**
 * A measured window's length in seconds, wherever a phase needs one. The seed profile counts requests, not seconds
 * (duration_s null): its windows, and the ceilings measured beside them, are taken as 3 s.
 */
export const windowSeconds = (s: Pick<Settings, 'duration_s'>): number => s.duration_s ?? 3;

/** A workload's own settings: its flags' values, under the workload's name in Settings; its module alone reads them. */
export type OwnSettings = Record<string, unknown>;

/** How a run was made: its method and flags, and the workload's own settings under the workload's name. */
export type Settings = MethodSettings & { [W in Workload]?: OwnSettings };

/** One --app as a run records it. */
export interface OwnAppSetting {
  name: string;
  command: string;
  path: string;
  body: 'first' | 'file' | 'any';
  cwd?: string;
  body_file?: string;
  /** Its folder's files when the run started, hashed (run/inputs.ts sourceHash; absent outside git): a resume's. */
  source_sha256?: string;
  /** Each of those files' own hash, by name (at most 500 files): a refused resume names what changed. */
  source_files?: Record<string, string>;
  /** The body it was held to (its first response, or --body's file), hashed: a resume is held to it too. */
  body_sha256?: string;
}

export interface MethodSettings {
  /**
   * --app: a user's own apps (one, or its two versions) measured beside the contenders: name, command, route, body;
   * the folder it ran in and --body's file (absent in runs before they were recorded), so that a resume is checked.
   */
  apps?: OwnAppSetting[];
  /** default, matrix or seed: what the run started from, before --only/--where. Absent in older results: default. */
  suite?: SuiteName;
  profile: 'default' | 'seed';
  workload: Workload;
  connections: number[];
  rates: string[];
  /** Length of one measured window. */
  duration_s: number | null;
  /** Measured windows per launch (--layout runtime; absent in older results: 1), or walks per round (--layout walk). */
  windows?: number;
  /** How a round's windows were laid out in time (absent in older results: runtime blocks). */
  layout?: 'walk' | 'runtime';
  requests: number | null;
  warmup_s: number;
  /** A fixed count, or 'auto': 3 rounds, then rounds for the contenders of open comparisons (max_runs, budget_s). */
  runs: number | 'auto';
  /**
   * "Equal" needs the whole ratio interval within ± this %; with runs auto, comparisons race until decided or within
   * it.
   */
  target_ci_pct: number;
  max_runs: number;
  budget_s: number;
  /** Level asked of the median intervals; a result records the real level of each. */
  ci_level: number;
  /** Seed of the shuffled order of every round (--seed repeats it). */
  seed: number;
  with_seed: boolean;
  /**
   * --ceilings (or --matrix): redis-benchmark and the client ceilings were measured (absent in older results: they
   * were).
   */
  ceilings?: boolean;
  self_check: string[] | null;
  publish: boolean;
  headline: 'median' | 'third';
  /** Runs with more CPU steal than this (%) are measured again, later in their round (at most twice). */
  max_steal_pct: number;
  start_timeout_s: number;
  placement: { name: string; app: string | null; redis: string | null; loadgen: string | null };
  keep_alive: true;
  compression: false | 'oha default';
  only: string[] | null;
  strict: boolean;
  /** --redis-rtt: the round-trip time of the delay proxy between the apps and Redis, in ms (absent or 0: no proxy). */
  redis_rtt_ms?: number;
  /** --redis-tls: every app read the private Redis over TLS (rediss://, a CA made for the run); absent: over TCP. */
  redis_tls?: boolean;
  /** --server / --servers: the private servers the apps read, the first one by default (absent: redis). */
  servers?: string[];
  /**
   * --handicap: this contender burns a calibrated handicap_pct% (absent: 10%) more time per request, under its own
   * name, beside its plain twin <name>@base.
   */
  handicap?: string | null;
  handicap_pct?: number;
  /**
   * --against (or --handicap's plain twin, kind self): where each contender's twin <name>@base came
   * from (a git ref's commit, or a folder of apps), and the bound within which a change is "equal".
   */
  against?: {
    spec: string;
    kind: 'ref' | 'dir' | 'self' | 'app';
    commit: string | null;
    apps_dir: string;
    equal_pct: number;
    pair: 'auto' | PairMode;
  };
}

export interface Results {
  schema: 2;
  complete: boolean;
  started_at: string;
  finished_at: string | null;
  exit_reason: string | null;
  settings: Settings;
  /** When and at which commit an interrupted run was continued with --resume. */
  resumed?: { at: string; git_commit: string }[];
  environment: Environment & { load_warning: string | null };
  data: {
    rdb: string | null;
    redis_url: string | null;
    key: string;
    entries: number;
    memory_bytes: number;
    body_bytes: number;
    /**
     * Each server the apps read (the first is the one redis_url and the ceilings name first): version and allocator.
     */
    servers?: ServerRecord[];
    /**
     * --redis-rtt: the asked RTT, the delay the proxy added to reach it, and the RTT redis-cli --latency measured
     * through it before the rounds.
     */
    redis_rtt?: {
      asked_ms: number;
      proxy_delay_ms: number;
      measured: { avg_ms: number; typical_ms: number; min_ms: number; max_ms: number; samples: number };
      /** No calibration try came within the tolerance: the closest was kept (absent: reached). */
      missed?: true;
    };
    /**
     * --restart-redis: each restart (between two windows of a block), how long Redis was down, and how long each app
     * took to serve a fresh snapshot again (null: not within the limit).
     */
    redis_restarts?: {
      round: number;
      block: number;
      at: number;
      down_ms: number;
      recovered_ms: Record<string, number | null>;
    }[];
  };
  contenders: ContenderResult[];
  /** Combinations a manifest names that are not measured, with the reason. */
  unsupported?: { name: string; reason: string }[];
  /** What relative indices are divided by: the geometric mean of the dynamic contenders' medians. */
  reference?: { kind: 'geomean-dynamic'; members: string[]; value: number };
  /**
   * Measured in the same invocation: Redis alone on the workload's command (redis-benchmark, before the rounds and
   * after), each runtime × client with no HTTP (after).
   */
  ceilings?: { redis: RedisCeiling[]; client?: ClientCeiling[] };
  /** --entries: this run is one size of a scaling run; the analysis over every size (also in ../scaling.json). */
  scaling?: Scaling;
  /** --target: one app started by hand (elsewhere), measured alone; what this host cannot measure of it. */
  target?: {
    name: string;
    url: string;
    not_measured: string;
    /** --body: where the app's own body came from ('first response', or the file's path); absent: the contract's. */
    body?: string;
  };
  /** The "what to pick" family, fixed from the suite before measuring (questions.ts). */
  family?: { questions: Question[]; comparisons: Comparison[] };
  /** One answer per comparison of the family (decide.ts), as of the last look. */
  answers?: Answer[];
  /**
   * The family's prior on a comparison's per-round variance as of the last look (decide.ts, the
   * moderated t): s² ~ s0²·χ²(d0)/d0, fitted from `comparisons` comparisons with `df` degrees of
   * freedom in all. d0 null: infinite (every comparison takes its prior scale). s0 is the scale at
   * the family's mean within-launch noise; `slope`, how a comparison's log scale follows the log
   * of its within-launch window variance (the trend covariate).
   */
  prior?: { d0: number | null; s0: number; comparisons: number; df: number; slope?: number };
  /**
   * When the layout is a covariate of the prior (answers/decide.ts familyPrior): the prior at the
   * side-by-side layout, with those comparisons and their df; `prior` is then at the other layout,
   * with the others. d0 is the family's, one for both.
   */
  prior_side_by_side?: { d0: number | null; s0: number; comparisons: number; df: number; slope?: number };
  /** Contenders in comparisons still undecided after the last look: the racing rounds go to them. */
  open?: string[];
  /**
   * Every look at the family: after which round, at which alpha, who raced on after it; interim ones while racing, then
   * the last (at what they left of alpha).
   */
  looks?: { round: number; alpha: number; open: string[]; last?: boolean }[];
  /** --against, --handicap: each contender against its twin from the other side, decided (Changes). */
  changes?: Changes;
  /** The handicap check: the CPU burnt per request, calibrated before round 1, and whether the run saw it. */
  handicap?: HandicapCheck[];
  /** Where the variance lives in this run (Kalibera & Jones), and the design it would choose. */
  design?: DesignRecord;
  /** Seconds of setup before the first measurement (an --against checkout and install, the builds): not budgeted. */
  setup_s?: number;
  /**
   * When the setup ended and the budget's clock started (ISO); runs before it counted from started_at. A resumed run's:
   * moved back by what it measured before the interruption, so its budget and alpha spending go on from there.
   */
  measured_from?: string;
  /** How the rounds went: how many, why they stopped, and seconds from the budget's start to the end of the last. */
  schedule?: {
    rounds: number;
    stop_reason: string;
    measuring_s: number;
    /** Wall seconds spent on ceilings: HTTP ceiling runs, redis-benchmark and the client probes. */
    ceilings_s?: number;
    /** Seconds from the budget's start to the end of the schedule, as the ETA predicted it once round 1 was done. */
    eta_after_round_1_s?: number;
    /** Seconds from the budget's start to the end of the schedule, as it happened. */
    ended_s?: number;
  };
}

/** The client ceiling that matches a contender: its runtime, client and decode. */
export const clientCeilingOf = (
  r: Pick<Results, 'ceilings'>,
  c: { runtime: string; client: string; settings?: { decode?: string } },
) =>
  r.ceilings?.client?.find(
    (x) =>
      x.runtime === c.runtime && x.client === c.client && (x.decode ?? 'default') === (c.settings?.decode ?? 'default'),
  );

/** What a result was measured on (measure/environment.ts captures it). */
export interface Environment {
  cpu_model: string;
  /**
   * "GenuineIntel family 6 model 167 stepping 1, L3 491520K": what a hypervisor's model name can hide, on Linux
   * (measure/environment.ts cpuId; absent elsewhere and in results before it).
   */
  cpu_id?: string;
  logical_cpus: number;
  /** Node's os.arch() ("x64", "arm64"): part of the machine's key (absent in results before it). */
  arch?: string;
  memory_gb: number;
  kernel: string;
  /**
   * The boot the run was measured in (Linux's /proc/sys/kernel/random/boot_id; absent elsewhere and in results before
   * it): runs of one boot are one draw of the run effect when pooled (answers/across-runs.ts).
   */
  boot_id?: string;
  /**
   * Where the children ran: each in its own process group of the harness's session (one scheduler autogroup), or
   * each in a new session (without perl, and in results before it); and whether the kernel groups by session.
   */
  children?: { session: 'harness' | 'own'; sched_autogroup: boolean | null };
  load_average_1m_before: number;
  node: string;
  /** The Node that ran npm; apps run on `node` above. */
  system_node: string;
  bun: string;
  /** Every runtime a manifest may name, by its executable on PATH (scripts/setup.sh pins each). */
  runtimes: Record<string, string>;
  redis_server: string;
  oha: string;
  git_commit: string;
  git_dirty: boolean;
  /** Exact installed version of every package each app depends on. */
  packages: Record<string, Record<string, string>>;
  /**
   * Per contender, the hash of what it was built and run from with its runtime's version (run/against.ts
   * contenderInputs): kept runs are pooled where these equal today's (absent in older results).
   */
  inputs?: Record<string, string>;
  /** The same, hashing only what each contender runs of packages/stream (run/inputs.ts streamFilesOf). */
  inputs_used?: Record<string, string>;
  /** How inputs_used was hashed (run/inputs.ts USED_SCHEME; absent: 1, bun.lock whole). */
  inputs_used_scheme?: number;
}
