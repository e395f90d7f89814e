// The publishing policy: which complete run may replace its workload's published one (results/latest,
// the README, screenshots/). Only a run of the default method does, or one given --publish.
import type { Results, Settings } from '../model/results';

/**
 * Settings that make up the method: a run published as "the" result has every one at its default, and its workload's
 * own settings (under the workload's name) too.
 */
export const METHOD_KEYS = [
  'suite',
  'profile',
  'workload',
  'connections',
  'rates',
  'duration_s',
  'windows',
  'layout',
  'warmup_s',
  'runs',
  'target_ci_pct',
  'max_runs',
  'budget_s',
  'max_steal_pct',
  'placement',
  'servers',
  'redis_rtt_ms',
  'redis_tls',
] as const satisfies readonly (keyof Settings)[];

/**
 * Why this run may not replace its workload's published one, or null. `place`: where its workload publishes a run
 * at its distance from Redis (null: nowhere); `defaults`: the settings of the command with no flags but the
 * workload and that distance, from the options' own defaults.
 */
export function notPublished(r: Results, place: object | null, defaults: Settings | null): string | null {
  const s = r.settings;
  if (!r.complete) return 'the run is not complete';
  if (!place || !defaults)
    return s.redis_rtt_ms
      ? `--workload ${s.workload} runs at a network distance are not published`
      : `--workload ${s.workload} runs are not published`;
  if (s.apps) return '--app measures your own app, never published';
  if (s.against) return '--against measures a change, never published';
  if (s.publish) return null;
  if (s.only) return '--only or --where runs a part of the suite';
  if (s.self_check) return '--self-check changes the schedule';
  if (s.handicap) return '--handicap slows a contender on purpose';
  if (r.data.rdb !== 'dump.rdb') return `data from ${r.data.rdb ?? r.data.redis_url}, not dump.rdb`;
  // A key older results lack was at its default then.
  const changed = [...METHOD_KEYS, s.workload].filter(
    (k) => JSON.stringify(s[k] ?? defaults[k]) !== JSON.stringify(defaults[k]),
  );
  return changed.length ? `not the default method (${changed.join(', ')} changed)` : null;
}

/**
 * The settings a kept run must have at their defaults: those that ask another question (another suite, load, server,
 * distance or write mix). The others (the budget, rounds, windows, layout, placement) change how well a run answers,
 * not what it answers, so its answers are kept and pooled whatever they are: keeping is a rule, not a choice by hand.
 */
export const QUESTION_KEYS = [
  'suite',
  'profile',
  'workload',
  'connections',
  'rates',
  'servers',
  'redis_rtt_ms',
  'redis_tls',
] as const satisfies readonly (keyof Settings)[];

/** Why a complete run of the suite is not kept, beyond model/kept.ts notKept, or null: it is kept. */
export function notKeptQuestion(r: Results, defaults: Settings | null): string | null {
  if (!defaults) return `--workload ${r.settings.workload} runs are not kept`;
  if (r.data.rdb !== 'dump.rdb') return `data from ${r.data.rdb ?? r.data.redis_url}, not dump.rdb`;
  const changed = [...QUESTION_KEYS, r.settings.workload].filter(
    (k) => JSON.stringify(r.settings[k] ?? defaults[k]) !== JSON.stringify(defaults[k]),
  );
  return changed.length ? `it asks another question (${changed.join(', ')} changed)` : null;
}
