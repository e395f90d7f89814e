// results.json's workload records: what a window (and a launch's run, pooled) of a workload with a record of its own
// checked, as { kind, data }. Each such workload declares its data in its module (workloads/<name>/record.ts); the
// read workloads keep none. Part of the schema in results.ts.
import type { Workload } from '@bench/stream';

/** A workload's own record of a window or a launch's run: its kind (the workload's name) and its data. */
export interface WorkloadRecord {
  kind: Workload;
  data: unknown;
}

/** A run's or window's record of the workload `kind`, as its module declares it; undefined: none, or another's. */
export const dataOf = <T>(r: { workload?: WorkloadRecord }, kind: Workload): T | undefined =>
  r.workload?.kind === kind ? (r.workload.data as T | undefined) : undefined;

/**
 * A run or window recorded before the { kind, data } record held its workload's record beside the rest, under the
 * workload's name, and the commands the server counted apart (redis_commands): both moved into the record, in place.
 */
export function upgradeRecord(r: Record<string, unknown> & { workload?: unknown }, workload: Workload): void {
  const { [workload]: old, redis_commands } = r;
  if (old && typeof old === 'object')
    r.workload = { kind: workload, data: redis_commands ? { ...old, redis_commands } : old };
  delete r[workload];
  delete r.redis_commands;
}
