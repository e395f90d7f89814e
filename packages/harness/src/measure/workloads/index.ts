// Every workload by the name --workload takes (WORKLOADS in @bench/stream): the harness asks the
// workload object, never the name. A new workload is a module here and a line below.
import type { Workload as WorkloadName } from '@bench/stream';
import { LIVE } from './live';
import { readWorkload } from './read';
import type { Workload } from './types';
import { UPSERT } from './upsert';

export type {
  Around,
  CheckContext,
  Fault,
  GateRules,
  Publication,
  Target,
  Workload,
  WorkloadFlag,
  WorkloadOptions,
} from './types';

export const WORKLOAD_MODULES: Record<WorkloadName, Workload> = {
  xrange: readWorkload('xrange'),
  xread: readWorkload('xread'),
  'xrange-count': readWorkload('xrange-count'),
  live: LIVE,
  upsert: UPSERT,
};

/** The workload --workload names. */
export const workloadOf = (name: WorkloadName): Workload => WORKLOAD_MODULES[name];
