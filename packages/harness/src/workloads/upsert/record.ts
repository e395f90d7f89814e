// --workload upsert's record in results.json (a window's, and a launch's run's, summed): the branches the responses
// said, and the accounting of the keys read back; and its settings. Its envelope is model/workload-record.ts's.
import type { OwnSettings } from '../../model/results';
import { dataOf, type WorkloadRecord } from '../../model/workload-record';

/** What a response said it did: a write's branch, a PING's answer, or an error. */
export const BRANCHES = ['created', 'updated', 'ignored', 'conflict', 'pong', 'error'] as const;
export type Branch = (typeof BRANCHES)[number];

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
  branches: Record<Branch, number>;
  /** Responses that said created or updated; the sum of the keys' applied counters; the keys that exist. */
  acked_applied: number;
  applied: number;
  keys_written: number;
  /** Requests with no answer to count (errors, timeouts; oha's and the prober's): each may or may not have written. */
  unanswered: number;
  /**
   * Acknowledged writes gone, at least: the counters' shortfall or the stale keys, whichever is more (a stale write
   * may be one the counters are short of). Pooled: summed, still a least count.
   */
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

/** A run's or window's upsert record; undefined: none. */
export const upsertOf = (r: { workload?: WorkloadRecord }) => dataOf<UpsertRecord>(r, 'upsert');

/** Its settings in results.json (settings.upsert): the key space K each window writes to (--keys). */
export interface UpsertSettings {
  keys: number;
}

/** K, from the run's settings.upsert (undefined: a run of another workload). */
export const keysOf = (own: OwnSettings | undefined) => (own as UpsertSettings | undefined)?.keys;
