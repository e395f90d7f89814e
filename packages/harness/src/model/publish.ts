// The publishing policy: which complete run may replace its workload's published one (results/latest,
// the README, screenshots/). Only a run of the default method does, or one given --publish.
import type { Results, Settings } from './results';

/** Settings that make up the method: a run published as "the" result has every one at its default. */
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
  'upsert',
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
  if (s.publish) return null;
  if (s.only) return '--only or --where runs a part of the suite';
  if (s.self_check) return '--self-check changes the schedule';
  if (s.handicap) return '--handicap slows a contender on purpose';
  if (s.against) return '--against measures a change, not the suite';
  if (r.data.rdb !== 'dump.rdb') return `data from ${r.data.rdb ?? r.data.redis_url}, not dump.rdb`;
  // A key older results lack was at its default then.
  const changed = METHOD_KEYS.filter((k) => JSON.stringify(s[k] ?? defaults[k]) !== JSON.stringify(defaults[k]));
  return changed.length ? `not the default method (${changed.join(', ')} changed)` : null;
}
