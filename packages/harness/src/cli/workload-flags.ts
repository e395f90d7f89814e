// --workload and the flags a workload owns, each accepted only with the workload whose module declares it; and the
// selected contenders a workload can measure.
import { isRead, SETTINGS, WORKLOADS, type SettingDef, type Workload } from '@bench/stream';
import { type GivenFlags, type OwnOptions, WORKLOAD_MODULES, workloadOf } from '../workloads';
import { oneOf } from './flags';
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

/** The setting of this contender that the workload's route does not apply (a write route's pool), with why. */
function ignoredSetting(workload: Workload, c: { settings: Record<string, string> }): string | undefined {
  const ignores = workloadOf(workload).ignores ?? {};
  const k = Object.keys(ignores).find((s) => {
    const def = SETTINGS[s as keyof typeof SETTINGS] as SettingDef | undefined;
    return def && c.settings[s] !== undefined && c.settings[s] !== def.default;
  });
  return k && `its ${k} setting: ${ignores[k]}`;
}

/**
 * Contenders a workload cannot measure: named with --only or --where, refused; taken from a suite, left out and
 * listed (`--workload xread` leaves out the default suite's decode twins: they read XRANGE's reply only).
 */
function checkSettingsFor(
  workload: Workload,
  picked: {
    only: string[] | null;
    measured: { name: string; settings: Record<string, string>; static?: boolean; page?: boolean }[];
  },
): { name: string; reason: string }[] {
  const left: { name: string; reason: string }[] = [];
  for (const c of picked.measured) {
    // A page or a static route answers GET only: a write workload's POST would meet a 404 after the whole setup.
    if (!isRead(workload) && (c.static || c.page)) {
      const why = 'a page or a static route, answering GET only: it has no write route';
      if (picked.only)
        throw new UsageError(`${c.name} is ${why}; pick one from npm run bench -- --list --workload ${workload}`);
      left.push({ name: c.name, reason: `not under --workload ${workload}: ${why}` });
      continue;
    }
    const k = otherWorkloadSetting(workload, c);
    const ignored = k ? undefined : ignoredSetting(workload, c);
    if (!k && !ignored) continue;
    const ws = k && (SETTINGS[k as keyof typeof SETTINGS] as SettingDef).workloads!;
    const why = ws
      ? `measured with --workload ${ws.join(' or ')} only (its ${k} setting)`
      : `not measured (${ignored})`;
    if (picked.only) throw new UsageError(`${c.name} is ${why}${ws ? '' : ` under --workload ${workload}`}`);
    left.push({ name: c.name, reason: `not under --workload ${workload}: ${why}` });
  }
  return left;
}

/**
 * The flags a workload owns, each refused with any other workload (its module says why), and the settings and sweep
 * its module makes of them.
 */
export function ownFlags(workload: Workload, given: GivenFlags): OwnOptions {
  const mine = workloadOf(workload);
  for (const other of Object.values(WORKLOAD_MODULES))
    for (const [flag, f] of Object.entries(other.flags))
      if (given[flag] !== undefined && !(flag in mine.flags))
        throw new UsageError(`--${flag} needs --workload ${other.name}: ${f.why}`);
  return mine.options(given);
}

/** The flags of any workload whose list of values sweeps (one run per value), as "--flag". */
export const SWEEP_FLAGS = Object.values(WORKLOAD_MODULES).flatMap((w) =>
  Object.entries(w.flags).flatMap(([flag, f]) => (f.sweeps ? [flag] : [])),
);
