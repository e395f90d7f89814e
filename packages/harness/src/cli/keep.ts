// Which runs are kept (results/runs/): one rule for a finished run (cli/bench.ts) and `npm run report -- --keep`.
import { notKept } from '../model/kept';
import { notKeptQuestion } from '../publish/rules';
import type { Results } from '../model/results';
import { settingsFrom } from '../run/prepare';
import { placeOf } from '../workloads';
import { defaultOptions } from './args';

/**
 * Why a run is not kept, or null: a complete run of its workload's suite is kept unless it asks another question
 * (publish/rules.ts QUESTION_KEYS, against the defaults of its workload with Redis near).
 */
export function whyNotKept(results: Results): string | null {
  const place = placeOf(results.settings);
  const defaults = place && !('rttMs' in place) ? settingsFrom(defaultOptions(results.settings.workload, 0)) : null;
  return notKept(results) ?? notKeptQuestion(results, defaults);
}
