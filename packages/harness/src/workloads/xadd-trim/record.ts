// --workload xadd-trim's record in results.json (a window's, and a launch's run's, summed): the writes the responses
// acknowledged against the entries the stream counted, the harness's own writes found, and the cap. Its envelope is
// model/workload-record.ts's.
import { dataOf, type WorkloadRecord } from '../../model/workload-record';

export interface TrimRecord {
  /**
   * 201s (oha's and the prober's); other statuses; requests with no answer, oha's and the prober's (each may or may
   * not have written).
   */
  acked: number;
  errors: number;
  unanswered: number;
  /** The stream's entries-added counter over the window (XINFO STREAM): every XADD that wrote, trimmed or not. */
  added: number;
  lost: number;
  invented: number;
  /**
   * The prober's acknowledged writes read back (one whose read-back failed is not among them), those not found in the
   * stream right after their acknowledgement (lost), and those the cap trimmed before they were read back (newer than
   * the stream's last entry before, older than its first after: xadd-trim/measure.ts trimmedSince; absent in older
   * results).
   */
  probes: number;
  probes_missing: number;
  probes_trimmed?: number;
  /** The stream's length after the window (the largest, pooled), and the most the cap allows. */
  length: number;
  cap: number;
  /** Every check that failed, in words; null when every acknowledged write is accounted for. */
  problem: string | null;
  /** Every command the server counted over the window, by name (calls). */
  redis_commands?: Record<string, number>;
}

export const trimOf = (r: { workload?: WorkloadRecord }) => dataOf<TrimRecord>(r, 'xadd-trim');
