// results.json: the one file everything downstream (tables, charts, README, compare) reads. Every
// record type it holds is written out here; the phases that fill them in import them from here,
// and this file imports nothing of theirs. Reading and writing the file: results-file.ts.
import type { Workload } from '@bench/stream';
import type { Comparison, Question } from './questions';
import type { Interval, Summary } from '../stats/stats';
import type { ServerRecord } from './servers';
import type { Breakdown, ClientCeiling, RedisCeiling, Scaling } from './ceilings';

export * from './ceilings';

/** An interval with its exact coverage, and a median with its interval over n runs: stats.ts's own. */
export type { Interval, Summary };

export type Status = 'ok' | 'invalid' | 'failed' | 'incomplete';

export interface RunRecord extends Omit<OhaRun, 'errorMessages'> {
  round: number;
  /** --workload live: what the prober's reads were, judged (per window; pooled runs keep each window's). */
  live?: LiveRecord;
  /** --workload upsert: the window's accounting (pooled: summed; each window keeps its own). */
  upsert?: UpsertWindow;
  /** --workload upsert: every command the server counted over the run, by name (calls). */
  redis_commands?: Record<string, number>;
  /** The app process this run measured: every run is a fresh launch. */
  pid: number;
  /** Seconds from launch to the first answer (recorded, never measured against anyone). */
  launch_s: number;
  /** Byte length every response must have (the verified body), and the byte-for-byte check after the run. */
  expected_bytes: number;
  after_check: 'ok' | string;
  error_messages: Record<string, number>;
  app_cpu_s: number;
  cpu_us_per_req: number;
  /**
   * CPU seconds of the app's busiest thread (its event loop) over the run: how much of the wall time it was busy
   * (absent in older results).
   */
  main_thread_cpu_s?: number;
  /**
   * Seconds the same thread was runnable but waiting for a CPU (the kernel's schedstat run_delay): time the loop would
   * have been busy had it had a CPU (absent in older results, and where the kernel does not keep it).
   */
  main_thread_wait_s?: number;
  rss_mb: number;
  redis_calls: number;
  redis_calls_per_req: number;
  redis_us_per_call: number;
  redis_cpu_s: number | null;
  /** --redis-rtt: CPU seconds the delay proxy between the app and Redis used over this run. */
  proxy_cpu_s?: number;
  loadgen_cpu_s: number;
  loadgen_saturated: boolean;
  harness_cpu_pct: number;
  load_average_1m: number;
  /** Share of the machine's CPU time the hypervisor gave to others during the run. */
  cpu_steal_pct: number;
  /** Raw oha JSON of this run (its first window), relative to the results directory. */
  raw: string;
  /** Wall clock (ms since the epoch) when the measured window(s) began and ended. */
  started_at: number;
  ended_at: number;
  /**
   * Wall seconds of the whole trial: launch, checks, warmup, windows and stop (in a block: its share of the block's).
   */
  trial_s?: number;
  /** In a block: CPU seconds the other live apps used while this run's windows were measured (should be ~0). */
  idle_cpu_s?: number;
  /** A window of a block: its place in the block's order (pooled into each WindowRecord). */
  seq?: number;
  /** A window of the default run's handicap check's two apps: which launch of its round (from 0). */
  launch?: number;
  /** The measured windows of this launch, back to back after its warmup; the run's figures pool them. */
  windows?: WindowRecord[];
  /**
   * --against, --handicap and the default run's handicap check (the pair designs): windows in which
   * this app and its twin were under load at the same moments (duet), each with its own oha. Kept out of the run's
   * figures, which come from windows where the app ran alone; the n-th of each side pair up.
   */
  duet?: DuetWindow[];
  /**
   * The default run's handicap check: this app's windows alone after each cycle's own (run/block.ts CHECK_ALONE), each
   * with its launch. Kept out of the run's figures and its family's pairs; the check pairs them with its twin's.
   */
  check_windows?: WindowRecord[];
  /**
   * A round of a change's pair measured in duet windows only (no window alone): its figures were
   * measured beside the twin under load, so they count for the pair and the gates, never for the
   * contender's own req/s, latency or CPU.
   */
  duet_only?: true;
  /** Set when the app or Redis failed during this run, or CPU steal spoilt it: its figures are not used. */
  fault?: string;
}

/** One duet window of a launch: this app's side of it (the partner's is the same index of its own run). */
export interface DuetWindow {
  partner: string;
  started_at: number;
  ended_at: number;
  rps: number;
  ok: number;
  cpu_us_per_req: number;
  /** Redis's calls over the window, both apps' together: with the partner's ok, one read per request is checked. */
  redis_calls: number;
  raw: string;
  /**
   * Which launch of its round measured it, from 0 (absent: the first). The default run's handicap check is launched
   * anew for each cycle of a round (run/block.ts), and its duet test takes each launch as a unit.
   */
  launch?: number;
}

/**
 * One measured window of a launch: the unit the paired comparisons pair (same round; adjacent
 * `seq` under --layout walk, the same window index otherwise).
 */
export interface WindowRecord {
  index: number;
  /** Its place in its block's order of windows (--layout walk; absent in older results). */
  seq?: number;
  /** A window of the default run's handicap check's two apps: which launch of its round measured it, from 0. */
  launch?: number;
  live?: LiveRecord;
  upsert?: UpsertWindow;
  started_at: number;
  ended_at: number;
  rps: number;
  ok: number;
  /** The workload command's calls Redis counted over the window (absent in older results). */
  redis_calls?: number;
  cpu_us_per_req: number;
  cpu_steal_pct: number;
  /** Its event loop's CPU seconds and its wait for a CPU while runnable (RunRecord's; absent in older results). */
  main_thread_cpu_s?: number;
  main_thread_wait_s?: number;
  raw: string;
  idle_cpu_s?: number;
}

export interface PointResult {
  connections: number;
  /** Offered load in req/s for open-loop points; null for closed loop. */
  rate: number | null;
  rate_spec: string | null;
  status: Status;
  reason?: string;
  rps?: Summary;
  /** Half-width of the req/s interval as a share of the median (0.05 = ±5%). */
  half_width?: number;
  /**
   * Median req/s ÷ the lowest ceiling that applies (dynamic contenders): Redis alone, or the HTTP ceiling of its
   * stack.
   */
  efficiency?: { value: number; ceiling: string; ceiling_rps: number; redis_share?: number };
  /**
   * Where the CPU of a request goes (dynamic contenders with their ceilings measured): see breakdownOf in verdicts.ts.
   */
  breakdown?: Breakdown;
  /** Median and interval divided by the run's reference (results.reference). */
  relative?: { median: number } & Interval;
  latency_ms?: Latency;
  cpu_us_per_req?: number;
  rss_mb?: number;
  redis_calls_per_req?: number;
  redis_us_per_call?: number;
  loadgen_saturated?: boolean;
  errors?: { non_2xx: number; aborted: number; other: number };
  runs: RunRecord[];
  /** Runs thrown away: Redis failed under them, or CPU steal spoilt them (kept for inspection). */
  discarded_runs?: RunRecord[];
  /** Rounds whose every attempt had CPU steal above max_steal_pct: left out of the statistics. */
  left_out?: number;
}

export interface ContenderResult extends Partial<Omit<PointResult, 'runs' | 'status' | 'discarded_runs'>> {
  name: string;
  app: string;
  runtime: string;
  framework: string;
  client: string;
  variant: string | null;
  /** Every setting's value, and the ones not at their default (name suffixes). Absent in older results. */
  settings?: Record<string, string>;
  tuned?: string[];
  static: boolean;
  page: boolean;
  path: string;
  /** 'http': the HTTP ceiling of its runtime and framework (the body precomputed at start); never ranked. */
  ceiling?: 'http' | null;

  /** Drawn in a latency chart of its own (a manifest's chartGroup); absent: with the servers. */
  chart_group?: string | null;
  /** --servers: the twin that reads this server; absent: the run's first server. */
  server?: string;
  status: Status;
  reason?: string;
  /**
   * Where its body differs from the golden one only by causes the stream's field names force (measure/contract.ts):
   * the causes in one line. Measured all the same, against its own body; absent: the golden body byte for byte.
   */
  contract?: string;
  /** Last lines of the app's output when it failed. */
  output?: string[];
  /** --self-check: this entry measures the named contender alone (right after its own run, as --only does). */
  self_check_of?: string;
  /** --against, --handicap: this entry is the named contender's twin from the other side (<name>@base). */
  base_of?: string;
  /** --with-seed: the seed's method on this contender in the same invocation (third of three 200-request runs). */
  seed_method?: { rps: number[]; headline: number };
  points: PointResult[];
  /** The headline point's runs (same objects as points[0].runs). */
  runs: RunRecord[];
}

/**
 * --workload live, per window: the checker's verdict on the prober's reads, and the writer's cost.
 * writer_cpu_s: the writer process's CPU during the window; follower_reads: XREAD and XREVRANGE calls
 * of every tail follower running then (the block's idle apps too). Both absent in runs made before
 * they were recorded.
 */
export type LiveRecord = LiveWindow & {
  writes: number;
  write_redis_us: number;
  writer_cpu_s?: number;
  follower_reads?: number;
};

export interface Settings {
  /** default, matrix or seed: what the run started from, before --only/--where. Absent in older results: default. */
  suite?: 'default' | 'matrix' | 'seed' | 'live' | 'upsert';
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
  /**
   * --workload live: the writer's XADDs per second, and the staleness an exact cache may show (a TTL cache: its TTL
   * plus this).
   */
  live?: { write_rate: number; max_staleness_ms: number; restart_redis?: boolean };
  /** --workload upsert: the key space K each window writes to (--keys). */
  upsert?: { keys: number };
  /** --redis-rtt: the round-trip time of the delay proxy between the apps and Redis, in ms (absent or 0: no proxy). */
  redis_rtt_ms?: number;
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
    kind: 'ref' | 'dir' | 'self';
    commit: string | null;
    apps_dir: string;
    equal_pct: number;
    pair: 'auto' | PairMode;
  };
}

/**
 * The changes family (--against, --handicap): each contender against its twin from the other
 * side, measured side by side in every cycle of its block, decided as a family of its own: the
 * signed-rank test over rounds (stats/signed-rank.ts), Holm over the pairs at every look, α spent
 * over the looks by the run's time, and the --equal bound. `a` is this checkout's side (head), `b`
 * the other (base). `prior` is what the moderated t would have lent (recorded, not used).
 */
export interface Changes {
  comparisons: Comparison[];
  answers?: Answer[];
  prior?: { d0: number | null; s0: number; comparisons: number; df: number; slope?: number };
  /**
   * Each look at the changes: its level, the share of the run's budget (or round cap) used by then, who stayed open.
   */
  looks?: { round: number; alpha: number; share?: number; open: string[]; last?: boolean }[];
  /** The procedure the pairs are tested with (answers/racing.ts changesProcedure); older results: signed-rank. */
  procedure?: 'moderated-t' | 'signed-rank';
  /**
   * The pair design: both measured in the first rounds, then the one with the narrower interval per minute
   * (answers/pair-design.ts).
   */
  design?: PairDesign;
  /** --against a ref or folder: which selected contenders had the same inputs on both sides (against.ts inputsOf). */
  inputs?: ChangeInputs;
}

/**
 * The contenders whose inputs (app folder, packages/stream, root package.json and bun.lock, build script) are the
 * same on both sides, and whether they were measured anyway: when none differs (an A/A), or with --pair-unchanged.
 */
export interface ChangeInputs {
  unchanged: string[];
  measured_unchanged: boolean;
}

/**
 * The two ways a pair is measured: alternating (each app alone, the two windows adjacent) or duet (both under load at
 * once).
 */
export type PairMode = 'alternate' | 'duet';

/** What one design showed over the changes: the sd of a round's mean ln ratio, and what a round of it costs. */
export interface PairDesignFigures {
  /** sd of one window pair's ln ratio, and of a round's mean ln ratio, pooled over the pairs (rounds − 1 df each). */
  sd_pair: number;
  sd_round: number;
  df: number;
  pairs: number;
  /** Seconds of measuring one window pair costs (alternating: two windows; duet: one). */
  cost_pair_s: number;
  /**
   * The variance of a mean per second spent on it, sd_round² × seconds a round of this design takes: lower is better.
   */
  var_per_s: number;
  /** The same sds for CPU µs per request instead of req/s: which of the two is the quieter detector. */
  sd_pair_cpu?: number;
  sd_round_cpu?: number;
}

export interface PairDesign {
  /** --pair: auto (measure both, then choose), or one forced. */
  asked: 'auto' | PairMode;
  /** The design the decisions use; null before there are rounds of both. */
  chosen: PairMode | null;
  /** After which round it was chosen, and why. */
  round: number | null;
  why: string;
  alternate?: PairDesignFigures;
  duet?: PairDesignFigures;
  /**
   * The bias check, over the rounds measured both ways: the mean of (duet − alternating) per-round
   * ln ratio with its 95% t interval. When the interval excludes 0 the designs disagree, and
   * alternating (each app alone, as the absolute figures are) is used.
   */
  bias?: { mean: number; lo: number; hi: number; rounds: number; agree: boolean };
  /**
   * The scale check, over the same rounds: how a round's duet ln ratio follows its alone one as launches come out
   * faster or slower (each pair's rounds centred on their means). `slope` is the reduced major axis, sd(duet) ÷
   * sd(alone) signed by `corr`: about 1 when a duet shows a difference at its size alone; below 1 when two apps sharing
   * the CPUs under load shrink it (the slower one gets more of the CPUs).
   */
  scale?: { slope: number; corr: number; rounds: number };
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
  /** When the setup ended and the budget's clock started (ISO); runs before it counted from started_at. */
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

export interface HandicapCheck {
  /**
   * The handicapped contender, and the one whose CPU per request calibrated it (its plain twin, or itself with
   * --handicap).
   */
  contender: string;
  calibrated_on: string;
  compared_with: string | null;
  pct: number;
  /**
   * The calibrating launch, per request: the tree's CPU, and (since the burn is sized on them) wall time and the
   * busiest thread's CPU.
   */
  cpu_us_per_req: number;
  wall_us_per_req?: number;
  main_thread_us_per_req?: number;
  /** µs per request the same thread was runnable but waiting for a CPU (absent in older results). */
  main_thread_wait_us_per_req?: number;
  /**
   * µs of CPU burnt per request (answers/handicap.ts burnUs): the event loop's share of a CPU while runnable, times
   * its wall time grown by pct and by MAX_BUSY, less the time it was busy and waited for a CPU; older runs: the same
   * without the wait, or pct of cpu_us_per_req.
   */
  us: number;
  /** req/s ratio a saturated single-threaded app should show: 1 / (1 + pct/100). */
  injected_ratio: number;
  /**
   * The default run's check, measured both ways in every cycle: both designs' figures and the bias check
   * (answers/pair-design.ts checkDesign); `chosen` duet: its duets are tested beside its windows alone, on which it is
   * judged. A --handicap pair uses the changes' design.
   */
  design?: PairDesign;
  /** Its comparison with its twin, as an answer is tested (rounds and df: results since the moderated t). */
  measured?: {
    ratio: number;
    lo: number;
    hi: number;
    level: number;
    p: number;
    pairs: number;
    rounds?: number;
    /** The launches the test took as its units, where a round held more than one (the default run's duet check). */
    launches?: number;
    df?: number;
    /** The default run's check: the standard error of its ln ratio (the answers' moderated t), for pooling it. */
    se?: number;
    /** The default run's check: the windows it was tested on (alone; `other`: its duets). */
    on?: PairMode;
    /**
     * The default run's check on its windows alone: its test. moderated-t: the answers' own procedure, each round's
     * mean ln ratio with the run's family prior (absent in older results: the same). Older results: signed-rank over
     * its launches, or covariate-t (each launch's ln ratio taken at an equal share of the time the two event loops
     * waited for a CPU, answers/handicap.ts deniedOf).
     */
    procedure?: 'moderated-t' | 'signed-rank' | 'covariate-t';
    /** Older results, covariate-t: its slope and correlation on the covariate, and signed-rank without it. */
    covariate?: { slope: number; corr: number; unadjusted: { ratio: number; lo: number; hi: number; p: number } };
    /**
     * The check judged other ways, said beside it and never its verdict: the answers' procedure on all its windows
     * alone (its extra pairs alone each cycle too), signed-rank over its launches, and least squares on the CPU wait
     * share (covariate-t) where every window recorded it. The wait is moved by the burn itself, so the adjusted figure
     * leans toward the injected one (docs/methodology.md).
     */
    diagnostics?: {
      procedure: 'moderated-t' | 'signed-rank' | 'covariate-t';
      ratio: number;
      lo: number;
      hi: number;
      p: number;
      detected: boolean;
      pairs: number;
      slope?: number;
      corr?: number;
    }[];
  };
  /** The default run's check, where its duets could be judged: their test, said beside `measured` (not its verdict). */
  other?: HandicapCheck['measured'];
  detected?: boolean;
  /**
   * The default run's check, where its duets are tested: the same windows' CPU µs per request (twin ÷ plain twin),
   * tested the same way. The burn is CPU work; beside a noisy neighbour the req/s of two apps sharing the CPUs moved
   * far less than their CPU per request did (docs/runs/against.md).
   */
  cpu?: { ratio: number; lo: number; hi: number; p: number; seen: boolean };
}

export interface DesignRecord {
  /**
   * Variance of the paired difference ln A − ln B: between windows of one round (level 1) and between rounds
   * (level 2), pooled over the family's comparisons.
   */
  t2_window: number;
  t2_launch: number;
  warnings: string[];
  /** Seconds one window costs, and one launch without its windows (start, checks, warmup). */
  cost_window_s: number;
  cost_launch_s: number;
  /** Kalibera & Jones's optimal windows per launch for these components and costs, and what the run used. */
  optimal_windows: number;
  windows: number;
  comparisons: number;
  /** Mean ln(first window) − ln(the others') over launches: a warmup too short shows as a negative bias. */
  first_window_bias: number;
  /**
   * Variance of two launches' residual difference, launches of one round under near_s apart against further apart
   * (design.ts).
   */
  by_gap?: { near_s: number; near: number; far: number; pairs_near: number; pairs_far: number };
  /**
   * --layout walk: variance of a compared pair's window ln ratio (each window less its launch's
   * mean) by how many places apart in the round's order its two windows were: 1 (adjacent, what
   * the answers pair), 2–15, and 16 or more (design.ts).
   */
  by_distance?: { adjacent: number; near: number; far: number; pairs: [number, number, number] };
}

export const PERCENTILES = ['p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'p99_9'] as const;

export type Percentile = (typeof PERCENTILES)[number];

export type Latency = Record<Percentile, number>;

export interface OhaRun {
  /** Successful (2xx) responses per measured second; oha's own requestsPerSec counts aborted ones too. */
  rps: number;
  ok: number;
  seconds: number;
  errors: { non_2xx: number; aborted: number; other: number };
  errorMessages: Record<string, number>;
  latency_ms: Latency;
  /** Body bytes oha received over every response (its summary.totalData). */
  total_bytes: number;
  /** Every response, whatever its status. */
  responses: number;
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

export type Verdict = 'faster' | 'equal' | 'undecided';

export interface Answer extends Comparison {
  verdict: Verdict;
  /** a ÷ b req/s: exp of the mean per-round log ratio, and its t interval (at `level`). */
  ratio: number;
  lo: number;
  hi: number;
  level: number;
  p: number;
  pairs: number;
  rounds: number;
  /** The look that decided it, or the last look for an open one. */
  look: number;
  /** The procedure that decided it (results before the moderated t: the paired t with a design effect). */
  procedure?: string;
  /**
   * Degrees of freedom of its t: its own (rounds − 1) plus what the family's prior lent (capped at the family's
   * total).
   */
  df?: number;
  /** The posterior sd of one round's ln ratio: how much a round of this comparison varies. */
  sd?: number;
  /** Older results: the design effect the paired t on windows allowed for. */
  design_effect?: number;
  /** Set when there were too few pairs for any interval at the asked level. */
  short?: string;
  /** Set when a contender of it failed or is invalid: it can never be answered. */
  out?: string;
}

/**
 * Why a body is not a snapshot that ever existed. `shape`: JSON, but not the canonical shape
 * or not its exact bytes (spacing, key order); the others are as named in the issue.
 */
export type Failure = 'status' | 'not-json' | 'shape' | 'unknown-id' | 'torn' | 'reordered' | 'fields';

export interface LiveSummary {
  count: number;
  valid: number;
  invalid: Partial<Record<Failure, number>>;
  first_invalid: { sent_ms: number; kind: Failure; reason: string } | null;
  /** Over valid reads only; null when there are none. */
  staleness_ms: { p50: number; p99: number; max: number } | null;
  bound_ms: number;
  over_bound: number;
  first_over_bound: { sent_ms: number; staleness_ms: number } | null;
}

/** What a live window records: the checker's summary, and the bytes check's range. */
export interface LiveWindow extends Omit<LiveSummary, 'first_invalid' | 'first_over_bound'> {
  first_invalid: LiveSummary['first_invalid'];
  first_over_bound: LiveSummary['first_over_bound'];
  /** Canonical body sizes of every snapshot that existed during the window. */
  bytes_min: number;
  bytes_max: number;
  writer_alive: boolean;
}

/** What a result was measured on (measure/environment.ts captures it). */
export interface Environment {
  cpu_model: string;
  logical_cpus: number;
  memory_gb: number;
  kernel: string;
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
}

/**
 * --workload upsert, per window: the branches the responses said, and the accounting of the keys read back after it
 * (measure/accounting.ts).
 */
export interface UpsertWindow {
  /** K: the size of the window's key space, and the prefix of its ids. */
  keys: number;
  prefix: string;
  /**
   * Responses by what they said (oha's and the prober's): 201 created, 200 updated (pong for the PING floor), 202
   * ignored, 409 conflict, other errors.
   */
  branches: { created: number; updated: number; ignored: number; conflict: number; pong: number; error: number };
  /** Responses that said created or updated; the sum of the keys' applied counters; the keys that exist. */
  acked_applied: number;
  applied: number;
  keys_written: number;
  /** Requests with no answer to count (errors, timeouts): each may or may not have written. */
  unanswered: number;
  lost: number;
  invented: number;
  /** Keys holding a version older than one the prober saw acknowledged. */
  stale: number;
  /** Every check that failed, naming the key and the counts; null when the window accounts for every write. */
  problem: string | null;
}
