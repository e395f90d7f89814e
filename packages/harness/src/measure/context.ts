// What every window of a run is measured with: the workload, the servers, the placement and where
// the raw files go. Apart from measure.ts so that the workload modules can name it.
import type { Workload } from '@bench/stream';
import type { Live } from '../live/session';
import type { Placement } from '../system/placement';
import type { RedisTarget } from '../topology/redis';

export interface RunContext {
  workload: Workload;
  /** --workload upsert: the contender's write strategy (WRITE), and the key space K of each window. */
  write?: string;
  upsertKeys?: number;
  /** --workload live: the writer whose log the prober's reads are judged against. */
  live?: Live;
  placement: Placement;
  redis: RedisTarget;
  /** --redis-rtt: the delay proxy between the apps and Redis, whose CPU each run records. */
  proxy?: { pid: number };
  runDir: string;
}
