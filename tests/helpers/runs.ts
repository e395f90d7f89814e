// Stored runs as the keeping rule reads them, from the fixture: a complete run of today's default method with its
// family of comparisons, and the same run as it would be had it ended after its first round.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultOptions } from '../../packages/harness/src/cli/args';
import { familyOf } from '../../packages/harness/src/model/questions';
import type { Results } from '../../packages/harness/src/model/results';
import { settingsFrom } from '../../packages/harness/src/run/prepare';
import { ROOT } from '../../packages/harness/src/system/paths';

const fixture = (): Results => JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/results/results.json'), 'utf8'));

/** The fixture as a complete run of today's default method. */
export function defaultRun(): Results {
  const r = fixture();
  const defaults = settingsFrom(defaultOptions('xrange', 0));
  r.settings = { ...r.settings, ...defaults, seed: r.settings.seed, placement: defaults.placement };
  return r;
}

/** `r` with the family a run records (the fixture predates it), ended after its first round. */
export function firstRoundOnly(r: Results): Results {
  const one: Results = { ...r, family: familyOf(r.contenders) };
  one.contenders = r.contenders.map((c) => ({
    ...c,
    runs: c.runs.filter((x) => x.round === 1),
    points: c.points.map((p) => ({ ...p, runs: p.runs.filter((x) => x.round === 1) })),
  }));
  if (r.schedule) one.schedule = { ...r.schedule, rounds: 1 };
  return one;
}

/** A run's design figures, each of its own size, as the method line reads them (a first window 4% faster). */
export const DESIGN = {
  t2_window: 0.0004,
  t2_launch: 0.0009,
  warnings: [],
  cost_window_s: 0.33,
  cost_launch_s: 1.55,
  optimal_windows: 20,
  windows: 2,
  comparisons: 2,
  first_window_bias: 0.04,
};
