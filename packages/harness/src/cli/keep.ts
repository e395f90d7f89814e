// Which runs are kept (results/runs/): one rule for a finished run (cli/bench.ts) and `npm run report -- --keep`.
import { runEstimates } from '../answers/across-runs';
import { notKept, tooFewRounds } from '../model/kept';
import { notKeptQuestion } from '../publish/rules';
import type { Results } from '../model/results';
import { settingsFrom } from '../run/prepare';
import { placeOf } from '../workloads';
import { defaultOptions } from './args';

/**
 * Why a run is not kept, or null: a complete run of its workload's suite is kept unless it asks another question
 * (publish/rules.ts QUESTION_KEYS, against the defaults of its workload with Redis near), or ended too soon to
 * estimate (tooShort).
 */
export function whyNotKept(results: Results): string | null {
  const place = placeOf(results.settings);
  const defaults = place && !('rttMs' in place) ? settingsFrom(defaultOptions(results.settings.workload, 0)) : null;
  return notKept(results) ?? notKeptQuestion(results, defaults) ?? tooShort(results);
}

/**
 * Why a run's record would hold no estimate to pool, or null: none of its family's comparisons has one (one round has
 * no standard error). A run that recorded no family (older results) is read as far as it goes, by the pool.
 */
export function tooShort(results: Results): string | null {
  if (!results.family?.comparisons.length || runEstimates(results).size) return null;
  return tooFewRounds(results.schedule?.rounds);
}
