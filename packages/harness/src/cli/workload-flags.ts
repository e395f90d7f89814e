// --workload and the flags a workload owns (--write-rate and --max-staleness: live; --keys: upsert;
// --restart-redis: live), each accepted only with the workload whose module lists it; and the selected
// contenders a workload can measure.
import { SETTINGS, WORKLOADS, type SettingDef, type Workload } from '@bench/stream';
import { KEY_SPACES } from '../workloads/upsert/measure';
import { workloadOf, type WorkloadFlag } from '../workloads';
import { oneOf, parseDuration } from './flags';
import type { selection } from './select';
import { UsageError } from './usage-error';

const notIn = (def: SettingDef, value: string, workload: string) =>
  value !== def.default && !!def.workloads && !def.workloads.includes(workload);

/** --workload, and the selected contenders it can measure. */
export function workloadFlag(w: string | undefined, picked: ReturnType<typeof selection>) {
  const workload = oneOf('workload', w ?? 'xrange', WORKLOADS);
  const notForWorkload = checkSettingsFor(workload, picked);
  const selected = picked.selected.filter((n) => !notForWorkload.some((u) => u.name === n));
  return { workload, notForWorkload, selected };
}

/** The setting of this contender that is measured under other workloads only (a cache: live), if any. */
function otherWorkloadSetting(workload: Workload, c: { settings: Record<string, string> }): string | undefined {
  return Object.entries(c.settings).find(([k, val]) => notIn(SETTINGS[k as keyof typeof SETTINGS], val, workload))?.[0];
}

/**
 * Contenders a workload cannot measure: named with --only or --where, refused; taken from a suite, left out and
 * listed (`--workload xread` leaves out the default suite's decode twins: they read XRANGE's reply only).
 */
function checkSettingsFor(
  workload: Workload,
  picked: { only: string[] | null; measured: { name: string; settings: Record<string, string> }[] },
): { name: string; reason: string }[] {
  const left: { name: string; reason: string }[] = [];
  for (const c of picked.measured) {
    const k = otherWorkloadSetting(workload, c);
    if (!k) continue;
    const ws = (SETTINGS[k as keyof typeof SETTINGS] as SettingDef).workloads!;
    const why = `measured with --workload ${ws.join(' or ')} only (its ${k} setting)`;
    if (picked.only) throw new UsageError(`${c.name} is ${why}`);
    left.push({ name: c.name, reason: `not under --workload ${workload}: ${why}` });
  }
  return left;
}

/** --write-rate and --max-staleness: only with --workload live, where a writer changes the stream. */
export function liveFlags(
  workload: Workload,
  rate: string | undefined,
  staleness: string | undefined,
): { writeRate: number; writeRates: number[]; maxStalenessMs: number } {
  const given = rate !== undefined ? '--write-rate' : staleness !== undefined ? '--max-staleness' : null;
  if (given && !workloadOf(workload).flags.includes(given.slice(2) as WorkloadFlag))
    throw new UsageError(`${given} needs --workload live: only the live workload writes to the stream`);
  const one = (r: string) => {
    const n = Number(r.trim());
    if (!/^\d+(\.\d+)?$/.test(r.trim()) || n > 10_000)
      throw new UsageError(`--write-rate "${r}" must be XADDs per second from 0 to 10000, or a list like 10,100,1000`);
    return n;
  };
  const writeRates = [...new Set((rate ?? '10').split(',').map(one))].sort((a, b) => a - b);
  return {
    writeRate: writeRates[0]!,
    writeRates,
    maxStalenessMs: parseDuration('max-staleness', staleness ?? '50ms') * 1000,
  };
}

/** --keys: only with --workload upsert; powers of ten, so that oha's URL regex of digits draws the keys uniformly. */
export function keysFlag(
  workload: Workload,
  value: string | undefined,
): { upsertKeys: number | null; upsertKeysList: number[] } {
  const takes = workloadOf(workload).flags.includes('keys');
  if (value !== undefined && !takes)
    throw new UsageError('--keys needs --workload upsert: only the upsert workload writes keys');
  if (!takes) return { upsertKeys: null, upsertKeysList: [] };
  const list = [...new Set((value ?? '100').split(',').map((k) => Number(k.trim())))].sort((a, b) => a - b);
  const bad = list.find((k) => !(KEY_SPACES as readonly number[]).includes(k));
  if (bad !== undefined)
    throw new UsageError(
      `--keys "${value}": each value must be one of ${KEY_SPACES.join(', ')} ` +
        '(a power of ten, so the URL regex draws keys uniformly)',
    );
  return { upsertKeys: list[0]!, upsertKeysList: list };
}

/** --restart-redis: a live run's fault drill, between two windows of one launch, on a Redis the harness owns. */
export function restartFlag(
  on: boolean,
  workload: Workload,
  windows: string | undefined,
  rtt: string | undefined,
): boolean {
  if (!on) return false;
  if (!workloadOf(workload).flags.includes('restart-redis'))
    throw new UsageError(
      '--restart-redis needs --workload live: it checks that caches come back exact after Redis restarts',
    );
  if (windows !== undefined && Number(windows) < 2)
    throw new UsageError(
      "--restart-redis needs --windows 2 or more: Redis restarts between a launch's first window and its second",
    );
  if (rtt !== undefined)
    throw new UsageError('--restart-redis with --redis-rtt: restart the server without a delay proxy in front of it');
  return true;
}
