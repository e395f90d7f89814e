// --workload live's record in results.json (a window's, and a launch's run's, pooled): the checker's verdicts on
// the prober's reads, and the writer's cost; and its settings. Its envelope is model/workload-record.ts's.
import type { Settings } from '../../model/results';
import { dataOf, type WorkloadRecord } from '../../model/workload-record';

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

/** A run's or window's live record; undefined: none. */
export const liveOf = (r: { workload?: WorkloadRecord }) => dataOf<LiveRecord>(r, 'live');

/**
 * Its settings in results.json (settings.live): the writer's XADDs per second, the staleness an exact cache may show
 * beyond its own bound (a TTL cache: its TTL plus this), and the fault drill (--restart-redis).
 */
export interface LiveSettings {
  write_rate: number;
  max_staleness_ms: number;
  restart_redis?: boolean;
}

/** A run's live settings (undefined: a run of another workload). */
export const liveSettings = (s: Pick<Settings, 'live'>) => s.live as LiveSettings | undefined;
