// Every workload by the name --workload takes (WORKLOADS in @bench/stream): the harness asks the
// workload object, never the name. A new workload is a module here and a line below.
import type { Workload as WorkloadName } from '@bench/stream';
import type { Publication } from '../measure/workload';
import { LIVE } from './live';
import { readWorkload } from './read';
import type { Workload } from './types';
import { UPSERT } from './upsert';
import { XADD_TRIM } from './xadd-trim';

export type {
  Around,
  CheckContext,
  Fault,
  GateRules,
  GivenFlags,
  OwnFlag,
  OwnOptions,
  OwnSettings,
  OwnSweep,
  Publication,
  Target,
} from '../measure/workload';
export type { Chart, NamedSetting, Place, Section, Workload } from './types';
export { sumCounts } from './types';

export const WORKLOAD_MODULES: Record<WorkloadName, Workload> = {
  xrange: readWorkload('xrange'),
  xread: readWorkload('xread'),
  'xrange-count': readWorkload('xrange-count'),
  'xrevrange-count': readWorkload('xrevrange-count'),
  live: LIVE,
  upsert: UPSERT,
  'xadd-trim': XADD_TRIM,
};

/** The workload --workload names. */
export const workloadOf = (name: WorkloadName): Workload => WORKLOAD_MODULES[name];

/** The workload a --workload value names, or null (none given, or a name the flag's own check refuses). */
export const workloadNamed = (w: unknown): Workload | null =>
  typeof w === 'string' && Object.hasOwn(WORKLOAD_MODULES, w) ? WORKLOAD_MODULES[w as WorkloadName] : null;

/** A run's workload (a hand-made or older results.json may not name one: the default's). */
export const workloadOfRun = (s: { workload?: WorkloadName }): Workload => workloadOf(s.workload ?? 'xrange');

/**
 * Where a run of these settings is published: its workload's place, or the place apart for its runs with Redis at a
 * network distance; null when it has none.
 */
export function placeOf(s: { workload: WorkloadName; redis_rtt_ms?: number }): Publication | null {
  const place = workloadOf(s.workload).published;
  return (s.redis_rtt_ms ?? 0) > 0 ? (place?.distance ?? null) : place;
}
