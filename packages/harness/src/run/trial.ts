// A single trial: one launch (launch.ts) whose windows are measured back to back: start, verify,
// warm up at the measured load (not counted), measure, check again, stop. Only that app, Redis
// and oha run while it is measured. Retries after CPU steal, --self-check twins, the handicap's
// calibration and the seed's method are single trials; a round's first pass measures in blocks.
import { workloadOfRun } from '../workloads';
import { pointLabel, type Load } from '../measure/measure';
import type { ContenderResult, PointResult, RunRecord, Settings } from '../model/results';
import { launch, type Launcher, measureWindow, safe, type TrialOutcome } from './launch';
import { pooled } from './windows';

interface Measurement {
  load: Load;
  round: number;
  rawName: string;
}

/** What a trial reads of the settings: the load of each window, how many, and the warmup. */
export type TrialSettings = Pick<Settings, 'duration_s' | 'requests' | 'windows' | 'warmup_s'> &
  Partial<Pick<Settings, 'workload'>>;

/**
 * One launch of the point in this round (attempt > 0: measured again after CPU steal): warmup,
 * then settings.windows measured windows back to back, pooled into one run that keeps each window.
 */
export async function measureTrial(
  launcher: Launcher,
  s: TrialSettings,
  r: ContenderResult,
  point: PointResult,
  round: number,
  attempt: number,
): Promise<TrialOutcome> {
  const load: Load = {
    connections: point.connections,
    rate: point.rate,
    duration_s: s.duration_s,
    requests: s.requests,
    seedDefaults: false,
  };
  const base = `${safe(r.name)}/${pointLabel(load)}-run${round}${attempt ? `-retry${attempt}` : ''}`;
  const windows = Array.from({ length: s.windows ?? 1 }, (_, i) => ({
    load,
    round,
    rawName: i ? `${base}-w${i + 1}.json` : `${base}.json`,
  }));
  const warmupLoad = { ...load, duration_s: s.warmup_s, requests: null };
  const warmup = s.warmup_s > 0 ? { load: warmupLoad, rawName: `${base}-warmup.json` } : null;
  const outcome = await trial(launcher, r, windows, warmup);
  return {
    ...outcome,
    runs: outcome.runs.length ? [pooled(outcome.runs, workloadOfRun(s))] : [],
  } as TrialOutcome;
}

/** The seed's method: one fresh process, oha defaults, three runs of 200 requests at 50 connections, no warmup. */
export function seedTrial(launcher: Launcher, r: ContenderResult): Promise<TrialOutcome> {
  const load: Load = { connections: 50, rate: null, duration_s: null, requests: 200, seedDefaults: true };
  return trial(
    launcher,
    r,
    [1, 2, 3].map((round) => ({ load, round, rawName: `${safe(r.name)}/seed-method-run${round}.json` })),
    null,
  );
}

async function trial(
  launcher: Launcher,
  r: ContenderResult,
  measurements: Measurement[],
  warmup: { load: Load; rawName: string } | null,
): Promise<TrialOutcome> {
  const key = `${r.name}#${measurements[0]!.rawName}`;
  const runs: RunRecord[] = [];
  try {
    const { app, out } = await launch(launcher, r, key, warmup);
    if (out) return { ...out, runs };
    for (const m of measurements) {
      const { run, bad } = await measureWindow(launcher, app!, m.load, m.rawName, m.round);
      if (run) runs.push(run);
      if (bad) return { ...bad, runs };
    }
    return { kind: 'runs', runs };
  } finally {
    // Stops nothing when the app did not start.
    await launcher.stop(key);
  }
}
