// results.json's workload records: what a window (and a launch's run, pooled) of a workload with a record of its own
// checked, as { kind, data }. The live reader's verdicts on every read, and the write accounting. Part of the schema
// in results.ts.

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

/**
 * --workload upsert, per window: the branches the responses said, and the accounting of the keys read back after it
 * (workloads/upsert/accounting.ts).
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

/** --workload upsert: a window's accounting (pooled: summed), and every command the server counted, by name (calls). */
export interface UpsertRecord extends UpsertWindow {
  /** Absent in a window recorded before its run's commands were kept with each window. */
  redis_commands?: Record<string, number>;
}

/**
 * A workload's own record of a window or a launch's run: its kind (the workload's name) and its data. A workload with
 * a record of its own adds its line here; the read workloads have none.
 */
export type WorkloadRecord = { kind: 'live'; data: LiveRecord } | { kind: 'upsert'; data: UpsertRecord };
export type RecordKind = WorkloadRecord['kind'];
export type DataOf<K extends RecordKind> = Extract<WorkloadRecord, { kind: K }>['data'];

/** A run's or window's record of the workload `kind`; undefined when it holds none, or another's. */
export const dataOf = <K extends RecordKind>(r: { workload?: WorkloadRecord }, kind: K): DataOf<K> | undefined =>
  r.workload?.kind === kind ? (r.workload.data as DataOf<K> | undefined) : undefined;

/**
 * A run or window recorded before the { kind, data } record held its workload's fields beside the rest (live; upsert
 * and redis_commands): moved into the record, in place.
 */
export function upgradeRecord(r: Record<string, unknown> & { workload?: unknown }): void {
  const { live, upsert, redis_commands } = r;
  if (live) r.workload = { kind: 'live', data: live };
  else if (upsert) r.workload = { kind: 'upsert', data: redis_commands ? { ...upsert, redis_commands } : upsert };
  delete r.live;
  delete r.upsert;
  delete r.redis_commands;
}
