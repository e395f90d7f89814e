// The run's last phase: the verdicts into results.json (answers/verdicts.ts), saved; a run that
// stopped early keeps what it measured and says why.
import { judgeRun } from '../answers/verdicts';
import { RedisError } from '../topology/redis';
import type { Results } from '../model/results';

/** 0 when every contender is ok, 1 when one failed or is invalid; a stopped run throws its reason once saved. */
export function finish(results: Results, save: () => void, ok: boolean): number {
  judgeRun(results, ok);
  save();
  if (!ok) throw new RedisError(results.exit_reason ?? 'measuring stopped');
  return results.contenders.every((r) => r.status === 'ok') ? 0 : 1;
}
