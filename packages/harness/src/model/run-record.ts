// results.json's per-contender records: each contender's result, its points and runs (one launch's
// measured windows), and what oha reported for a window. Part of the schema in results.ts.
import type { Interval, Summary } from '../stats/stats';
import type { Breakdown } from './ceilings';
import type { WorkloadRecord } from './workload-record';

export type Status = 'ok' | 'invalid' | 'failed' | 'incomplete';

export interface RunRecord extends Omit<OhaRun, 'errorMessages'> {
  round: number;
  /** A workload with a record of its own (workloads/): the run's, pooled by its module; each window keeps its own. */
  workload?: WorkloadRecord;
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
  /** Every command Redis counted over the window by lower-case name, but the harness's own (INFO, AUTH, SELECT). */
  commands_by_name?: Record<string, number>;
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
  workload?: WorkloadRecord;
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

/** The contenders a table lists (each self-check twin left out), fastest first by median req/s. */
export const fastestFirst = (cs: ContenderResult[]): ContenderResult[] =>
  cs.filter((c) => !c.self_check_of).sort((a, b) => (b.rps?.median ?? 0) - (a.rps?.median ?? 0));
