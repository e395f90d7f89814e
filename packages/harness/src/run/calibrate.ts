// The handicap check, set up: a handicapped contender burns a fixed CPU time per request
// (packages/stream/src/handicap.ts), calibrated before round 1 in one launch of its plain twin so
// that the twin's wall time per request grows by HANDICAP_PCT (answers/handicap.ts judges it).
import type { Contender } from '../model/contenders';
import type { ContenderResult, PointResult, Results } from '../model/results';
import { fail, type RunState } from './state';
import { info, log } from '../system/progress';
import type { Launcher } from './launch';
import { measureTrial, type TrialSettings } from './trial';
import { burnUs, loopBurnUs, type TwinCost } from '../answers/handicap';
import { baseName, HANDICAP_PCT, isBase } from '../model/questions';

/** A contender to handicap; `loop`: sized by the share of the time its event loop is taken (loopBurnUs), not burnUs. */
type Target = { contender: string; calibratedOn: string; comparedWith: string | null; pct: number; loop?: true };

/**
 * The contenders to handicap: twins with the setting on (calibrated on their plain twin, by 10%), and --handicap's (on
 * itself, by its size, beside its twin <name>@base).
 */
function targets(results: Results, byName: Map<string, Contender>): Target[] {
  const { settings } = results;
  const plainTwin = (r: ContenderResult) =>
    [...byName.values()].find(
      (c) =>
        !c.tuned.length &&
        !c.ceiling &&
        c.runtime === r.runtime &&
        c.framework === r.framework &&
        c.variant === r.variant &&
        c.client === r.client,
    );
  // With --against, a handicapped contender's other side burns what this side's calibration gave (handicapEnv), and
  // the run answers the changes only: the check is not judged.
  const changesOnly = !!settings.against && settings.against.kind !== 'self';
  const out: Target[] = results.contenders
    .filter((r) => r.settings?.handicap === 'on' && !r.self_check_of && !isBase(r.name))
    .flatMap((r) => {
      const twin = plainTwin(r);
      return twin
        ? [
            {
              contender: r.name,
              calibratedOn: twin.name,
              comparedWith: !changesOnly && results.contenders.some((x) => x.name === twin.name) ? twin.name : null,
              pct: HANDICAP_PCT,
            },
          ]
        : [];
    });
  if (settings.handicap) {
    const twin = baseName(settings.handicap);
    out.push({
      contender: settings.handicap,
      calibratedOn: settings.handicap,
      comparedWith: results.contenders.some((x) => x.name === twin) ? twin : null,
      pct: settings.handicap_pct ?? HANDICAP_PCT,
      loop: true,
    });
  }
  return out;
}

/** One launch of the calibrating contender (round 0, not a run of anyone): its costs per request. */
async function calibrationLaunch(
  launcher: Launcher,
  settings: TrialSettings & { connections: number[] },
  name: string,
): Promise<TwinCost | null> {
  const point: PointResult = {
    connections: settings.connections[0]!,
    rate: null,
    rate_spec: null,
    status: 'incomplete',
    runs: [],
  };
  const outcome = await measureTrial(launcher, settings, { name } as ContenderResult, point, 0, 0);
  const run = outcome.runs[0];
  if (
    outcome.kind !== 'runs' ||
    !run?.ok ||
    run.main_thread_cpu_s === undefined ||
    !Number.isFinite(run.cpu_us_per_req)
  )
    return null;
  return {
    wallUs: (run.seconds * 1e6) / run.ok,
    mainUs: (run.main_thread_cpu_s * 1e6) / run.ok,
    ...(run.main_thread_wait_s !== undefined ? { waitUs: (run.main_thread_wait_s * 1e6) / run.ok } : {}),
    cpuUs: run.cpu_us_per_req,
  };
}

/** Before round 1: calibrate each handicap (resumed runs keep theirs); a failed calibration fails its contender. */
export async function calibrateHandicap(state: RunState): Promise<void> {
  const { results } = state;
  for (const t of targets(results, state.rig.byName)) {
    if (results.handicap?.some((h) => h.contender === t.contender)) continue;
    const twin = await calibrationLaunch(state.launcher, results.settings, t.calibratedOn);
    if (twin === null) {
      log(`handicap: the calibration launch of ${t.calibratedOn} failed; ${t.contender} is not measured`);
      const r = results.contenders.find((x) => x.name === t.contender);
      if (r) fail(r, 'failed', `handicap calibration on ${t.calibratedOn} failed`);
      continue;
    }
    const us = t.loop ? loopBurnUs(twin, t.pct) : burnUs(twin, t.pct);
    (results.handicap ??= []).push({
      contender: t.contender,
      calibrated_on: t.calibratedOn,
      compared_with: t.comparedWith,
      pct: t.pct,
      cpu_us_per_req: twin.cpuUs,
      wall_us_per_req: twin.wallUs,
      main_thread_us_per_req: twin.mainUs,
      ...(twin.waitUs !== undefined ? { main_thread_wait_us_per_req: twin.waitUs } : {}),
      us,
      injected_ratio: 1 / (1 + t.pct / 100),
    });
    info(
      `handicap: ${t.contender} burns ${us} µs per request (${t.calibratedOn}: ` +
        `${twin.wallUs.toFixed(0)} µs wall per request, its event loop busy ${twin.mainUs.toFixed(0)} µs of it` +
        `${twin.waitUs !== undefined ? ` and waiting for a CPU ${twin.waitUs.toFixed(0)} µs` : ''})`,
    );
    state.save();
  }
}

/**
 * The environment that turns a contender's handicap on, once calibrated. The other side's twin of a contender with the
 * setting on (--against) burns the same as this side: one calibration, so the pair differs only by the change.
 */
export function handicapEnv(results: Results, name: string): Record<string, string> {
  const twinOn = isBase(name) && results.contenders.find((x) => x.name === name)?.settings?.handicap === 'on';
  const h =
    results.handicap?.find((x) => x.contender === name) ??
    (twinOn ? results.handicap?.find((x) => baseName(x.contender) === name) : undefined);
  return h ? { HANDICAP: 'on', HANDICAP_US: String(h.us) } : {};
}
